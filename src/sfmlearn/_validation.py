"""Input checks shared by every estimator and the command line.

Validation happens once, at the edge: estimators call :func:`check_binary_problem`
in ``fit`` and :func:`check_features` in ``predict``/``transform``; everything below the
edge (problem builders, engines) trusts its inputs. Messages name the problem and the
fix, because the people reading them are scientists, not the authors of this code.
"""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import validate_data

from .exceptions import DataValidationError

__all__ = [
    "check_binary_problem",
    "check_features",
    "check_positive_or_none",
    "encode_binary_labels",
]


def _check_finite_numeric(X, name="X"):
    """Raise a clear error for NaN/inf or non-numeric values before sklearn's generic one."""
    values = X.data if sp.issparse(X) else X
    if values.dtype.kind not in "biuf":
        raise DataValidationError(
            f"{name} contains non-numeric values (dtype {values.dtype}). Convert or drop "
            "text columns before fitting, e.g. pandas' df.select_dtypes('number')."
        )
    if values.dtype.kind == "f" and not np.isfinite(values).all():
        n_nan = int(np.isnan(values).sum())
        n_inf = int(np.isinf(values).sum())
        raise DataValidationError(
            f"{name} contains {n_nan} NaN and {n_inf} infinite values. Impute or drop "
            "them first (e.g. sklearn.impute.SimpleImputer in a Pipeline)."
        )


def _as_numeric_array(estimator, X, *, reset, accept_sparse, y=None):
    """sklearn's validate_data with our messages for the common user mistakes."""
    try:
        if y is None:
            return validate_data(
                estimator, X, reset=reset, accept_sparse=accept_sparse,
                dtype=[np.float64, np.float32], ensure_all_finite=False,
                ensure_min_samples=1, ensure_min_features=1,
            )
        return validate_data(
            estimator, X, y, reset=reset, accept_sparse=accept_sparse,
            dtype=[np.float64, np.float32], ensure_all_finite=False,
            ensure_min_samples=1, ensure_min_features=1,
        )
    except ValueError as exc:
        text = str(exc)
        if "could not convert" in text or "Unable to convert" in text or "dtype='numeric'" in text:
            raise DataValidationError(
                "X contains non-numeric values. Convert or drop text columns before "
                "fitting, e.g. pandas' df.select_dtypes('number')."
            ) from exc
        if "inconsistent numbers of samples" in text:
            raise DataValidationError(
                f"X and y have different lengths ({text.split('[')[-1].rstrip(']')}). "
                "Pass one label per row of X."
            ) from exc
        if "0 feature(s)" in text:
            raise DataValidationError(f"{text} Pass at least one feature column.") from exc
        raise


def check_binary_problem(estimator, X, y, *, accept_sparse=("csr", "csc"), min_samples=2):
    """Validate a two-class training set and remember feature names and count.

    Returns ``(X, y_signed, classes)`` where ``y_signed`` holds -1 for ``classes[0]`` and
    +1 for ``classes[1]`` (sorted order, as in scikit-learn), and ``X`` is float64 or
    float32 (sparse input stays sparse).
    """
    if y is None:
        raise DataValidationError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None. "
            "Pass one class label per sample."
        )
    X, y = _as_numeric_array(estimator, X, reset=True, accept_sparse=accept_sparse, y=y)
    _check_finite_numeric(X)
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise DataValidationError(
            f"y must be one label per sample (1-D); got shape {y.shape}. For several "
            "targets fit one estimator per target."
        )
    if X.shape[0] < min_samples:
        raise DataValidationError(
            f"Found {X.shape[0]} sample(s); at least {min_samples} are needed (one per class)."
        )
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise DataValidationError("y contains NaN or infinite labels. Drop those samples.")
    target_type = type_of_target(y, input_name="y")
    if target_type == "continuous":
        raise DataValidationError(
            "y looks continuous (real-valued), but this is a classifier for two classes. "
            "Pass class labels, e.g. y > threshold."
        )
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise DataValidationError(
            f"y contains only one class ({classes[0]!r}). Two classes are needed to "
            "select features that separate them."
        )
    if classes.size > 2:
        raise DataValidationError(
            f"Only binary classification is supported. y contains {classes.size} classes; "
            "this estimator separates two. Use sfmlearn's one-vs-rest / one-vs-one wrappers "
            "for more classes."
        )
    y_signed = np.where(y_index == 1, 1.0, -1.0)
    return X, y_signed, classes


def check_features(estimator, X, *, accept_sparse=("csr", "csc")):
    """Validate data passed to predict/transform against what ``fit`` saw."""
    X = _as_numeric_array(estimator, X, reset=False, accept_sparse=accept_sparse)
    _check_finite_numeric(X)
    return X


def check_positive_or_none(value, name):
    """A softness or similar parameter: None or a finite positive number."""
    if value is None:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(value) or value <= 0:
        raise DataValidationError(
            f"{name} must be a positive number or None; got {value!r}."
        )
    return float(value)


def encode_binary_labels(y, classes):
    """Map labels to -1/+1 with ``classes[1]`` as the positive class."""
    y = np.asarray(y)
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise DataValidationError(
            f"y contains labels {np.unique(y[unknown])[:5].tolist()} not seen in fit "
            f"(known: {list(classes)})."
        )
    return np.where(y == classes[1], 1.0, -1.0)
