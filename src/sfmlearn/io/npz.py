"""NumPy ``.npz`` archives: arrays ``X`` (samples x features), ``y`` (or the array ``target``
names) and an optional ``feature_names``, as ``numpy.savez(path, X=X, y=y)`` writes them.

Arrays are loaded without pickle (never allowed for users' files). A file that is not a
ZIP archive -- the only thing ``numpy.savez`` writes -- is refused before NumPy reads it,
so NumPy's suggestion to load it "unsafely" never reaches the user.
"""

import zipfile

import numpy as np
import pandas as pd

from .labelled import COLUMN_COPIES, DataFileError, refuse_duplicates

__all__ = ["read_npz"]

_SAVEZ = "save X and y with numpy.savez(path, X=X, y=y)"


def _open(path):
    """The archive at ``path``; a single .npy array or a file that is no ZIP archive is refused."""
    with open(path, "rb") as handle:
        head = handle.read(6)
    if head.startswith(b"\x93NUMPY"):
        raise DataFileError(f"{path.name} holds a single array, not an .npz archive; {_SAVEZ}")
    if not head.startswith(b"PK\x03\x04"):
        raise DataFileError(f"{path.name} is not a readable .npz archive: numpy.savez writes a ZIP archive and "
                            f"this file is none; {_SAVEZ}")
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise DataFileError(f"{path.name} is not a readable .npz archive ({' '.join(str(exc).split())}).") from exc


def _array(archive, path, key):
    try:
        return archive[key]
    except ValueError as exc:  # object arrays need pickle, which is never allowed for user files
        raise DataFileError(f"{path.name}: array '{key}' holds Python objects; save it as a numeric array "
                            "(labels may be numbers or strings)") from exc


def _check_shapes(path, X, y, y_key):
    if X.ndim != 2:
        raise DataFileError(f"{path.name}: X must be 2-D (samples x features); got shape {X.shape}.")
    if X.dtype.kind not in "biuf":
        raise DataFileError(f"{path.name}: X must be numeric; got dtype {X.dtype}.")
    if y.ndim != 1:
        raise DataFileError(f"{path.name}: '{y_key}' must be 1-D (one label per sample); got shape {y.shape}.")
    if X.shape[0] == 0:
        raise DataFileError(f"{path.name} has 0 samples; X needs one row per sample.")
    if y.shape[0] != X.shape[0]:
        raise DataFileError(f"{path.name}: X has {X.shape[0]} rows but '{y_key}' has {y.shape[0]} labels.")


def _feature_names(path, names, n_features):
    """The feature names as text (``x0``, ``x1`` ... without the array); one per column of X."""
    if names is None:
        return np.array([f"x{j}" for j in range(n_features)])
    if names.ndim != 1:
        raise DataFileError(f"{path.name}: feature_names must be 1-D (one name per column of X); got shape "
                            f"{names.shape}: save it as a flat array (names.ravel())")
    if names.size != n_features:
        raise DataFileError(f"{path.name}: feature_names has {names.size} entries for {n_features} columns of X.")
    names = names.astype(str)
    refuse_duplicates(path.name, list(names), what="feature", reason=COLUMN_COPIES)
    return names


def read_npz(path, target):
    """``(X, y, feature_names)`` of an .npz archive with arrays X, y (or ``target``), feature_names."""
    with _open(path) as archive:
        y_key = target or "y"
        if "X" not in archive.files:
            raise DataFileError(f"{path.name} has no array 'X' (samples x features); it holds {archive.files}")
        if y_key not in archive.files:
            hint = f"--target {y_key}: " if target else ""
            fix = "" if target else " (name the label array with --target)"
            raise DataFileError(f"{hint}{path.name} has no label array '{y_key}'; it holds {archive.files}{fix}")
        X = _array(archive, path, "X")
        y = _array(archive, path, y_key)
        names = _array(archive, path, "feature_names") if "feature_names" in archive.files else None
    _check_shapes(path, X, y, y_key)
    return X.astype(np.float64), pd.Series(y, name=y_key), _feature_names(path, names, X.shape[1])
