"""Loaders of the NIPS 2003 feature-selection challenge data that ship with sfmlearn.

Guyon, Gunn, Ben-Hur, Dror, "Result analysis of the NIPS 2003 feature selection
challenge", NIPS 17 (2005); used by the P-SVM chapter (PSVM 5, Table 4). Only the
splits with public labels could be packaged: ARCENE and MADELON train + validation,
DEXTER train, DOROTHEA validation. Labels stay -1/+1 as in the challenge files.
"""

import numpy as np
import scipy.sparse as sp

from ._arguments import FLAG, checked
from ._base import frame_bunch, load_arrays, make_bunch, read_descr

__all__ = ["load_nips2003", "NIPS2003_NAMES"]

# name -> (packaged file, splits present)
_SPECS = {
    "arcene": ("nips2003_arcene", ("train", "valid")),
    "madelon": ("nips2003_madelon", ("train", "valid")),
    "dexter": ("nips2003_dexter", ("train",)),
    "dorothea": ("nips2003_dorothea_valid", ("valid",)),
}

NIPS2003_NAMES = tuple(_SPECS)


def _split_matrices(arrays, name, splits):
    """{split: (X, y)} with X float64 (dense) or CSR float64 (sparse sets)."""
    if name in ("arcene", "madelon"):
        return {s: (arrays[f"X_{s}"].astype(np.float64), arrays[f"y_{s}"].astype(np.int64))
                for s in splits}
    (split,) = splits
    values = arrays["data"] if "data" in arrays else np.ones(arrays["indices"].size)
    X = sp.csr_matrix((values.astype(np.float64), arrays["indices"], arrays["indptr"]),
                      shape=tuple(arrays["shape"]))
    return {split: (X, arrays[f"y_{split}"].astype(np.int64))}


@checked(as_frame=FLAG, return_X_y=FLAG)
def load_nips2003(name, *, as_frame=False, return_X_y=False):
    """A NIPS 2003 feature-selection challenge dataset.

    ``"arcene"`` (mass spectra, cancer vs normal; train and valid 100 x 10000 each,
    44 / 56 positive / negative), ``"madelon"`` (synthetic XOR-like problem with 20
    relevant of 500 features; train 2000, valid 600), ``"dexter"`` (Reuters text, train
    only: 300 x 20000 sparse, 150 / 150), ``"dorothea"`` (drug binding, validation only:
    350 x 100000 sparse binary, 34 / 316; the training data could not be obtained).
    The challenge's test splits have no public labels and are not included; the
    validation splits serve as independent test data.

    Parameters
    ----------
    name : {"arcene", "madelon", "dexter", "dorothea"}
    as_frame : bool, default=False
        Return the feature matrices as DataFrames (sparse columns for DEXTER and
        DOROTHEA) and labels as Series.
    return_X_y : bool, default=False
        Return the matrices and labels in split order instead of a Bunch:
        ``(X_train, y_train, X_valid, y_valid)`` for ARCENE and MADELON,
        ``(X_train, y_train)`` for DEXTER, ``(X_valid, y_valid)`` for DOROTHEA.

    Returns
    -------
    Bunch with ``X_train``/``y_train`` and/or ``X_valid``/``y_valid`` (labels int
    -1/+1; X float64, scipy.sparse CSR for DEXTER and DOROTHEA), ``feature_names``
    (``f1`` ... in the files' 1-based numbering), ``target_names`` (``[-1, 1]``) and
    ``DESCR``.

    Examples
    --------
    >>> from sfmlearn.datasets import load_nips2003
    >>> madelon = load_nips2003("madelon")
    >>> madelon.X_train.shape, madelon.X_valid.shape
    ((2000, 500), (600, 500))
    """
    if name not in _SPECS:
        raise ValueError(f"unknown NIPS 2003 dataset '{name}'; choose one of "
                         f"{', '.join(NIPS2003_NAMES)}")
    stem, splits = _SPECS[name]
    matrices = _split_matrices(load_arrays(f"{stem}.npz"), name, splits)
    n_features = next(iter(matrices.values()))[0].shape[1]
    names = np.array([f"f{j}" for j in range(1, n_features + 1)], dtype=object)
    if as_frame:
        matrices = {s: _as_frame(X, y, names) for s, (X, y) in matrices.items()}
    if return_X_y:
        return tuple(part for s in splits for part in matrices[s])
    fields = {f"{part}_{s}": value for s in splits
              for part, value in zip(("X", "y"), matrices[s])}
    return make_bunch(**fields, feature_names=names, target_names=np.array([-1, 1]),
                      DESCR=read_descr(stem))


def _as_frame(X, y, names):
    if sp.issparse(X):
        import pandas as pd

        return pd.DataFrame.sparse.from_spmatrix(X, columns=names), pd.Series(y, name="target")
    data, target, _ = frame_bunch(X, y, names)
    return data, target
