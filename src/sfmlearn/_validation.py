"""Input checks shared by every estimator and the command line.

Validation happens once, at the edge: estimators call :func:`check_binary_problem`
(supervised) or :func:`check_unlabelled` in ``fit`` and :func:`check_features` in
``predict``/``transform``; everything below the edge (problem builders, engines) trusts
its inputs. Parameters are checked by scikit-learn's declarative
``_parameter_constraints`` (``self._validate_params()``), so a bad parameter fails the
same way in every estimator; the checks those cannot express, because they relate a
parameter to the data, live here too (:func:`check_class_weight`). Messages name the problem and the fix, because the people
reading them are scientists, not the authors of this code.

Data that are refused, and why:

* complex values: every method here works on real features; silently keeping the real
  part would throw away half of each value;
* dates and durations (datetime64/timedelta64 columns): their numeric codes (days or
  nanoseconds since 1970) are not measurements; convert them to a meaningful number;
* text, NaN/inf (also pandas' NA), missing labels (None/NaN), mixed label types.

Functions take the data first and the estimator after it (``f(X, y, estimator=None)``);
:func:`data_first` keeps the estimator-first order of earlier releases working for one
release.
"""

import functools
import numbers
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_array, validate_data

from .exceptions import DataTypeError, DataValidationError
from .utils.deprecation import REMOVED_IN

__all__ = [
    "ACCEPTED_SPARSE",
    "check_binary_problem",
    "check_class_weight",
    "check_count",
    "check_data",
    "check_features",
    "check_fit_params",
    "check_labels",
    "check_unlabelled",
    "data_first",
    "check_xy",
    "is_float_matrix",
    "encode_binary_labels",
]

#: The scipy.sparse formats estimators that take sparse X accept (others are converted).
ACCEPTED_SPARSE = ("csr", "csc")


# -- X -------------------------------------------------------------------------------
def _column_kinds(X):
    """(dtype kinds, column labels) of the user's X before any conversion."""
    if isinstance(X, pd.DataFrame):
        return [dt.kind if isinstance(dt, np.dtype) else getattr(dt, "kind", "O")
                for dt in X.dtypes], list(X.columns)
    dtype = getattr(X, "dtype", None)
    if dtype is None:
        try:
            dtype = np.asarray(X).dtype
        except (ValueError, TypeError):
            return [], []
    return [dtype.kind], None


def _reject_unusable_dtypes(X, name="X"):
    """Complex, date and duration values: refuse them before any conversion hides them."""
    kinds, columns = _column_kinds(X)
    for kind, what, fix in (
        ("c", "complex values", "Complex data not supported: pass real features: e.g. np.abs(X) (magnitude), X.real, or "
                                "the real and imaginary parts as separate columns."),
        ("M", "dates (datetime64)", "Convert dates to a meaningful number first, e.g. days "
                                    "since the start of the study, or drop those columns."),
        ("m", "durations (timedelta64)", "Convert durations to numbers in a unit of your "
                                         "choice, e.g. td / np.timedelta64(1, 'h')."),
    ):
        where = [i for i, k in enumerate(kinds) if k == kind]
        if where:
            cols = "" if columns is None else \
                f" in column(s) {[columns[i] for i in where][:5]}" + (" ..." if len(where) > 5 else "")
            raise DataValidationError(f"{name} contains {what}{cols}. {fix}")
    if kinds == ["O"] and not sp.issparse(X):
        values = np.asarray(X, dtype=object).ravel()
        if any(isinstance(v, (complex, np.complexfloating)) for v in values):
            raise DataValidationError(
                f"{name} contains complex values. Complex data not supported: pass real "
                "features: e.g. np.abs(X), X.real, or the real and imaginary parts as separate "
                "columns.")


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
            f"{name} contains {n_nan} NaN (missing) and {n_inf} infinite values. Impute or "
            "drop them first (e.g. sklearn.impute.SimpleImputer in a Pipeline)."
        )


def _shape_of(X):
    shape = getattr(X, "shape", None)
    if shape is None:
        try:
            shape = np.shape(X)
        except (ValueError, TypeError):
            return None
    return tuple(shape)


def _translate(exc, X):
    """A DataValidationError with our message for scikit-learn's common validation errors."""
    text = str(exc)
    shape = _shape_of(X)
    if "Complex data not supported" in text:
        return DataValidationError(
            "X contains complex values. Complex data not supported: pass real features: e.g. "
            "np.abs(X), X.real, or the real and imaginary parts as separate columns.")
    if "Expected 2D array, got 1D array" in text or "Expected 2D array, got scalar" in text:
        return DataValidationError(
            f"X must be 2-D (samples x features); got shape {shape}. Reshape your data: "
            "X.reshape(-1, 1) for a single feature, X.reshape(1, -1) for a single sample.")
    if "dim 3" in text or "while dim <= 2" in text:
        return DataValidationError(
            f"X must be 2-D (samples x features); got shape {shape}. Flatten each sample first, "
            "e.g. X.reshape(len(X), -1) (images: sfmlearn.imaging turns volumes into rows).")
    if "0 sample(s)" in text:
        return DataValidationError(f"X has no samples (shape {shape}). Pass at least one row.")
    if "0 feature(s)" in text:
        return DataValidationError(f"X has no features: {text} Pass at least one column.")
    if "argument must be a string or a real number" in text:
        return DataTypeError(
            f"X contains objects that are not numbers ({text}). Convert or drop those columns "
            "before fitting, e.g. pandas' df.select_dtypes('number').")
    if "could not convert" in text or "Unable to convert" in text or "dtype='numeric'" in text \
            or "could not be promoted" in text:
        return DataValidationError(
            "X contains non-numeric values. Convert or drop text columns before fitting, e.g. "
            "pandas' df.select_dtypes('number').")
    if "inconsistent numbers of samples" in text:
        return DataValidationError(
            f"X and y have different lengths ({text.split('[')[-1].rstrip(']')}). Pass one "
            "label per row of X.")
    if "Feature names are only supported if all input features have string names" in text:
        return DataValidationError(
            "X's column names mix strings and other types; name every column with a string, "
            "e.g. df.columns = df.columns.astype(str).")
    if "Expected unique column names" in text:  # narwhals, through scikit-learn, for a DataFrame
        lines = [line.strip("- ").strip() for line in text.splitlines()[1:] if line.strip()]
        repeated = ", ".join(lines[:3]) + (f" and {len(lines) - 3} more" if len(lines) > 3 else "")
        return DataValidationError(
            f"X has repeated column names ({repeated}); every feature needs its own name: drop or rename the "
            "copies, e.g. df.loc[:, ~df.columns.duplicated()].")
    if "feature names should match" in text.lower() or "is expecting" in text:
        return DataValidationError(f"{text} Pass the same columns as in fit.")
    return None


def _guarded(validate, X):
    """Run a scikit-learn validation of X with our checks before and our messages after."""
    _reject_unusable_dtypes(X)
    try:
        return validate()
    except (ValueError, TypeError) as exc:
        translated = _translate(exc, X)
        if translated is None:
            raise
        raise translated from exc


_NUMERIC = dict(dtype=[np.float64, np.float32], ensure_all_finite=False, ensure_min_samples=1,
                ensure_min_features=1)


def _as_numeric_array(estimator, X, *, reset, accept_sparse, y=None):
    """sklearn's validate_data with our messages for the common user mistakes."""
    def validate():
        if y is None:
            return validate_data(estimator, X, reset=reset, accept_sparse=accept_sparse, **_NUMERIC)
        return validate_data(estimator, X, y, reset=reset, accept_sparse=accept_sparse, **_NUMERIC)

    out = _guarded(validate, X)
    if y is None:
        return _canonical(out)
    return _canonical(out[0]), out[1]


def _canonical(X):
    """Checked finite numbers; sparse X without duplicate or explicitly stored zero entries
    (copied only if needed), the form every solver below the edge expects."""
    _check_finite_numeric(X)
    if sp.issparse(X) and (not X.has_canonical_format or (X.data == 0).any()):
        X = X.copy()
        X.sum_duplicates()
        X.eliminate_zeros()
    return X


def is_float_matrix(X):
    """Whether ``X`` is a 2-D float64 array with rows: what the package passes its own
    functions in their inner loops, whose validation then only reads the values."""
    return isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2 and X.shape[0] > 0


def check_data(X, *, accept_sparse=False):
    """Validate X for a function (no estimator remembers anything): float64/float32.

    A 2-D float64 array with rows and columns, what the package passes its own functions
    in their inner loops, only has its values checked (one pass, no copy)."""
    if is_float_matrix(X) and X.shape[1]:
        _check_finite_numeric(X)
        return X
    return _canonical(_guarded(lambda: check_array(X, accept_sparse=accept_sparse, **_NUMERIC), X))


def check_unlabelled(estimator, X, *, accept_sparse=ACCEPTED_SPARSE):
    """Validate the training data of an unsupervised step (e.g. a scaler) at ``fit``."""
    return _as_numeric_array(estimator, X, reset=True, accept_sparse=accept_sparse)


def check_features(estimator, X, *, accept_sparse=ACCEPTED_SPARSE):
    """Validate data passed to predict/transform against what ``fit`` saw."""
    return _as_numeric_array(estimator, X, reset=False, accept_sparse=accept_sparse)


# -- y -------------------------------------------------------------------------------
def _missing(values):
    """Mask of missing labels: None, NaN, pandas' NA/NaT."""
    return np.asarray(pd.isna(pd.Series(values, dtype=object)), dtype=bool)


def check_labels(y, *, name="y"):
    """One label per sample, none missing, of one comparable type, not complex.

    Returns y as a 1-D NumPy array. Used for class labels and for ``groups``.
    """
    if y is None:
        raise DataValidationError(
            f"{name} is None: this estimator requires y to be passed, but the target y is None. "
            "Pass one label per sample.")
    if isinstance(y, pd.DataFrame):
        y = y.to_numpy()
    y = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y)
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            f"A column-vector {name} was passed when a 1d array was expected. Please change "
            f"the shape of {name} to (n_samples,), for example using ravel().",
            DataConversionWarning, stacklevel=3)
        y = y.ravel()
    if y.ndim != 1:
        raise DataValidationError(
            f"{name} must be one label per sample (1-D); got shape {y.shape}. For several "
            "targets fit one estimator per target."
        )
    if y.dtype.kind == "c" or (y.dtype.kind == "O" and any(
            isinstance(v, (complex, np.complexfloating)) for v in y)):
        raise DataValidationError(
            f"{name} contains complex numbers. Complex data not supported: pass class labels.")
    if y.dtype.kind in "OfMm":
        missing = _missing(y)
        if missing.any():
            where = np.flatnonzero(missing)
            raise DataValidationError(
                f"{name} has {where.size} missing labels (None/NaN) at positions "
                f"{where[:5].tolist()}{' and more' if where.size > 5 else ''}. Drop those samples "
                "(X[mask], y[mask]) or fill in their labels.")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise DataValidationError(f"{name} contains infinite labels. Drop those samples.")
    if y.dtype.kind == "O":
        kinds = sorted({type(v).__name__ for v in y})
        try:
            np.unique(y)
        except TypeError:
            raise DataValidationError(
                f"{name} mixes label types ({', '.join(kinds)}), which cannot be ordered. Use "
                f"one type, e.g. {name}.astype(str).") from None
    return y


def check_xy(estimator, X, y, *, accept_sparse=ACCEPTED_SPARSE):
    """Validate training data X with targets y of the same length (y from check_labels)."""
    X, y = _as_numeric_array(estimator, X, reset=True, accept_sparse=accept_sparse, y=y)
    return X, np.asarray(y)


def check_binary_problem(estimator, X, y, *, accept_sparse=ACCEPTED_SPARSE, min_samples=2):
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
    X, y = check_xy(estimator, X, check_labels(y), accept_sparse=accept_sparse)
    if X.shape[0] < min_samples:
        raise DataValidationError(
            f"Found {X.shape[0]} sample(s); at least {min_samples} are needed (one per class)."
        )
    target_type = type_of_target(y, input_name="y")
    if target_type == "continuous":
        raise DataValidationError(
            "y looks continuous (real-valued), but this is a classifier for two classes. "
            "Pass class labels, e.g. y > threshold."
        )
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise DataValidationError(
            f"y contains only one class ({classes.tolist()[0]!r}). Two classes are needed to "
            "select features that separate them."
        )
    if classes.size > 2:
        raise DataValidationError(
            f"Only binary classification is supported. y contains {classes.size} classes; "
            "this estimator separates two. Use sfmlearn's one-vs-rest / one-vs-one wrappers "
            "(sfmlearn.selection.multiclass) for more classes."
        )
    y_signed = np.where(y_index == 1, 1.0, -1.0)
    return X, y_signed, classes


def check_count(name, value, minimum):
    """``value`` as an int, or a DataValidationError unless it is a whole number >= ``minimum``
    (True and False, which Python counts as 1 and 0, are refused).

    >>> from sfmlearn._validation import check_count
    >>> check_count("n_permutations", 10, 0)
    10
    >>> check_count("n_permutations", True, 0)
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: n_permutations must be an integer >= 0; got True.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        shown = value.item() if isinstance(value, np.generic) else value
        raise DataValidationError(f"{name} must be an integer >= {minimum}; got {shown!r}.")
    return int(value)


def check_fit_params(estimator, params):
    """Refuse ``fit`` keyword arguments an estimator does not use (e.g. sample_weight).

    Per-sample weights are not supported by sfmlearn's selectors: the SFM's equality
    (mu_+ - mu_-) . w = 1 and the hard problems have no per-sample cost to weight, so a
    weighted fit would mean something different in every method. ``class_weight`` sets
    per-class costs where they exist; repeating samples weights them exactly.
    """
    if not params:
        return
    name = type(estimator).__name__
    hint = ""
    if "sample_weight" in params:
        hint = (" sample_weight is not supported: for per-class costs use class_weight "
                "(e.g. class_weight='balanced') where the estimator has it; to weight single "
                "samples, repeat them.")
    raise TypeError(f"{name}.fit() got unexpected argument(s) {sorted(params)}.{hint}")


def check_class_weight(class_weight, classes):
    """The weights (negative class, positive class) of a ``class_weight`` dict.

    The constraints check that ``class_weight`` is a dict; here every class of y needs
    an entry, and the weights must be positive and finite.
    """
    missing = [c for c in classes.tolist() if c not in class_weight]
    if missing:
        raise DataValidationError(
            f"class_weight has no entry for classes {missing}; give one weight per class."
        )
    weights = np.array([class_weight[classes[0]], class_weight[classes[1]]], dtype=float)
    if not (np.isfinite(weights).all() and (weights > 0).all()):
        raise DataValidationError(f"class_weight values must be positive; got {class_weight}.")
    return weights


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


def data_first(function):
    """Decorate ``function(<data...>, estimator=None, *, ...)``: an estimator passed first still works.

    Until 0.2 some functions took the estimator before the data, ``f(estimator, X, y)``.
    A call whose first argument has a ``fit`` method is that order: the wrapper passes
    the estimator on as ``estimator=`` and the rest in order, with a ``FutureWarning``
    for one release.

    Parameters
    ----------
    function : callable
        A function with a parameter ``estimator`` after its data arguments.

    Returns
    -------
    callable
        The function, accepting both orders.

    Examples
    --------
    >>> import warnings
    >>> from sfmlearn._validation import data_first
    >>> @data_first
    ... def score(X, y, estimator=None):
    ...     return type(estimator).__name__, len(X)
    >>> from sklearn.dummy import DummyClassifier
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     score(DummyClassifier(), [[0], [1]], [0, 1])
    ('DummyClassifier', 2)
    >>> print(caught[0].message)
    score(estimator, ...) is now score(<data>, estimator=...): the data come first; the old order stops working in sfmlearn 0.3
    """
    name = function.__name__

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        if args and hasattr(args[0], "fit") and "estimator" not in kwargs:
            warnings.warn(f"{name}(estimator, ...) is now {name}(<data>, estimator=...): the data come first; "
                          f"the old order stops working in sfmlearn {REMOVED_IN}", FutureWarning, stacklevel=2)
            kwargs["estimator"] = args[0]
            args = args[1:]
        return function(*args, **kwargs)
    return wrapper
