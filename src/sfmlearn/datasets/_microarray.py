"""Loaders of the shipped microarray datasets."""

import numpy as np

from ._arguments import FLAG, checked
from ._base import data_path, frame_bunch, load_arrays, make_bunch, read_descr, tabular_result

__all__ = ["load_colon", "load_leukemia"]


@checked(as_frame=FLAG, return_X_y=FLAG)
def load_leukemia(*, as_frame=False, return_X_y=False):
    """Golub et al. (1999) leukemia data: ALL vs AML, 7129 probes, train 38 / test 34.

    The original training set (27 ALL / 11 AML) and the independent test set
    (20 ALL / 14 AML), as published with the paper, patients in id order. Expression
    values are the raw (MAS) integers; scale them (the estimators do by default).
    Thesis 4.4 labels AML +1 and ALL -1: with sorted labels ``["ALL", "AML"]`` that is
    what sfmlearn's estimators do too (``classes_[1]`` is the positive class).

    Parameters
    ----------
    as_frame : bool, default=False
        Return ``X_train``/``X_test`` as DataFrames with the accession numbers as column
        names and ``y_train``/``y_test`` as Series.
    return_X_y : bool, default=False
        Return ``(X_train, y_train, X_test, y_test)`` instead of a Bunch.

    Returns
    -------
    Bunch with ``X_train`` (38, 7129), ``y_train`` (labels "ALL"/"AML"), ``X_test``
    (34, 7129), ``y_test``, ``feature_names`` (Affymetrix accession numbers),
    ``gene_descriptions``, ``patient_train``/``patient_test`` (ids 1-72), ``target_names``
    and ``DESCR`` (source, citation and terms).

    Examples
    --------
    >>> from sfmlearn.datasets import load_leukemia
    >>> data = load_leukemia()
    >>> data.X_train.shape, data.X_test.shape, list(data.target_names)
    ((38, 7129), (34, 7129), ['ALL', 'AML'])
    """
    with np.load(data_path("golub_leukemia.npz")) as f:
        arrays = {k: f[k] for k in f.files}
    names = arrays["accession"].astype(object)
    X_train = arrays["X_train"].astype(np.float64)
    X_test = arrays["X_test"].astype(np.float64)
    y_train = arrays["y_train"].astype(object)
    y_test = arrays["y_test"].astype(object)
    if as_frame:
        X_train, y_train, _ = frame_bunch(X_train, y_train, names, "cancer")
        X_test, y_test, _ = frame_bunch(X_test, y_test, names, "cancer")
    if return_X_y:
        return X_train, y_train, X_test, y_test
    return make_bunch(
        X_train=X_train, y_train=y_train, X_test=X_test, y_test=y_test,
        feature_names=names, gene_descriptions=arrays["description"].astype(object),
        patient_train=arrays["patient_train"], patient_test=arrays["patient_test"],
        target_names=np.array(["ALL", "AML"], dtype=object),
        DESCR=read_descr("golub_leukemia"),
    )


@checked(as_frame=FLAG, return_X_y=FLAG)
def load_colon(*, as_frame=False, return_X_y=False):
    """Alon et al. (1999) colon data: 62 tissues x 2000 genes, 22 normal / 40 tumour.

    The "I2000" matrix of Alon et al. as distributed by Bioconductor ``colonCA``:
    expression levels of the 2000 genes with the highest minimal intensity across the
    tissues. There is no independent test split; ML05 (Table 1, "microarray") uses
    it with cross-validation. The gene names were lost upstream: features are named
    ``X1``-``X2000`` after their column in the original matrix.

    Parameters
    ----------
    as_frame : bool, default=False
        Return ``data`` as a DataFrame and ``target`` as a Series, plus ``frame``
        (features and target side by side).
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    Bunch with ``data`` (62, 2000) float64, ``target`` (0 = normal, 1 = tumour),
    ``feature_names``, ``target_names`` (``["normal", "tumour"]``) and ``DESCR``
    (source, citation and terms).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.datasets import load_colon
    >>> colon = load_colon()
    >>> colon.data.shape, np.bincount(colon.target)
    ((62, 2000), array([22, 40]))
    """
    arrays = load_arrays("alon_colon.npz")
    X = arrays["X"].astype(np.float64)
    y = (arrays["y"] == "t").astype(np.int64)
    names = arrays["feature_names"].astype(object)
    return tabular_result(X, y, names, ["normal", "tumour"], "alon_colon",
                          as_frame=as_frame, return_X_y=return_X_y)
