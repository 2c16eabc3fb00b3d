"""The checks of what the LP builders are given: data, labels and costs.

The estimators validate the user's data at their edge (:mod:`sfmlearn._validation`);
the builders of this package (:func:`~sfmlearn.lp.problems.sfm_lp`,
:func:`~sfmlearn.lp.problems.weston_lp`, :class:`~sfmlearn.lp.problems.HyperplaneLP`,
:mod:`.exact`, :mod:`.separability`) are public too, so they check their own arguments
before any solver sees them: a NaN, a label 0 or a negative cost would otherwise come
back as a solver status that points the wrong way ("Unbounded ... increase
time_limit") or, worse, as a wrong "optimal" answer. Each check is one vectorised
pass, and data already wrapped in a :class:`~sfmlearn.lp.operators.ScaledMatrix` (made
by the package from checked data) are not read again.
"""

import numpy as np
from sklearn.utils.validation import check_array

from .._validation import _check_finite_numeric, _guarded, is_float_matrix
from ..exceptions import DataValidationError

__all__ = ["check_costs", "check_lp_data", "check_signed_labels", "require_both_classes"]

#: How to turn two-class labels into the -1/+1 the LPs take.
CONVERT_LABELS = ("Convert two-class labels first, e.g. y = np.where(y == positive_label, "
                  "1.0, -1.0) (the estimators do this themselves).")


def check_lp_data(X):
    """Raw ``X`` (array-like or sparse, samples x columns) as a float array the LPs can
    read, or :class:`~sfmlearn.exceptions.DataValidationError` naming the problem and the
    fix: not 2-D, no samples, not numeric, NaN or infinite values. Zero columns are
    allowed (an LP on the bias alone).

    >>> import numpy as np
    >>> from sfmlearn.lp.inputs import check_lp_data
    >>> check_lp_data([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_lp_data(np.array([1.0, np.nan]))
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: X must be 2-D (samples x features); got shape (2,). ...
    """
    if not is_float_matrix(X):
        X = _guarded(lambda: check_array(X, accept_sparse=True, dtype=[np.float64, np.float32],
                                         ensure_all_finite=False, ensure_min_features=0), X)
    _check_finite_numeric(X)  # a float64 matrix (the package's own, in its loops) only has its values read
    return X


def check_signed_labels(y, n_samples):
    """``y`` as float64 labels in {-1, +1}, one per sample, or
    :class:`~sfmlearn.exceptions.DataValidationError` saying which labels are accepted
    and how to convert others (0/1 labels would otherwise give wrong answers: a row with
    y_i = 0 constrains nothing).

    >>> import numpy as np
    >>> from sfmlearn.lp.inputs import check_signed_labels
    >>> check_signed_labels([1, -1], 2)
    array([ 1., -1.])
    >>> check_signed_labels(np.array([1.0, 0.0]), 2)
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: y must hold the labels -1 and +1 only; it also holds [0.0]. ...
    """
    try:
        y = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataValidationError(
            f"y must hold the labels -1 and +1; got values that are not numbers "
            f"({np.asarray(y).dtype}). {CONVERT_LABELS}") from None
    if y.shape != (n_samples,):
        fix = " Pass y.ravel()." if y.size == n_samples else " Pass one label per row of X."
        raise DataValidationError(
            f"y must hold one label per sample, shape ({n_samples},); got shape {y.shape}.{fix}")
    wrong = np.abs(y) != 1.0
    if wrong.any():
        values = np.unique(y[wrong])
        missing = " (NaN: a missing label; drop those samples)" if np.isnan(values).any() else ""
        raise DataValidationError(
            f"y must hold the labels -1 and +1 only; it also holds {values[:5].tolist()}"
            f"{' ...' if values.size > 5 else ''}{missing}. {CONVERT_LABELS}")
    return y


def require_both_classes(y, what):
    """Refuse checked labels ``y`` of one class for ``what``, which needs both."""
    if y.size and np.all(y == y[0]):
        raise DataValidationError(
            f"{what} needs samples of both classes (labels -1 and +1); y holds only "
            f"{y[0]:+g}. Pass data with both classes.")


def check_costs(cost, size, name, per, *, infinite_means=None):
    """``cost`` as float64 of shape ``(size,)``, every value >= 0, or
    :class:`~sfmlearn.exceptions.DataValidationError` naming the argument ``name``.

    ``per`` names what each value prices ("column of X", "sample"). NaN and negative
    values are refused (a negative price makes the LP unbounded); infinite ones too,
    unless ``infinite_means`` says what they mean (a slack cost of ``np.inf`` keeps its
    row hard).
    """
    try:
        cost = np.asarray(cost, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataValidationError(f"{name} must be numbers, one per {per}.") from None
    if cost.shape != (size,):
        raise DataValidationError(
            f"{name} must hold one value per {per}, shape ({size},); got shape {cost.shape}. "
            f"Pass e.g. np.full({size}, value).")
    invalid = np.isnan(cost) | (cost < 0)
    if infinite_means is None:
        invalid |= np.isinf(cost)
    if invalid.any():
        where = np.flatnonzero(invalid)
        allowed = "finite numbers >= 0" if infinite_means is None else \
            f"numbers >= 0 (np.inf {infinite_means})"
        raise DataValidationError(
            f"{name} must be {allowed}; got {cost[where[:5]].tolist()} at positions "
            f"{where[:5].tolist()}{' ...' if where.size > 5 else ''}. Each value is a price in "
            "the objective that is minimised: pass non-negative prices (0 leaves a term free).")
    return cost
