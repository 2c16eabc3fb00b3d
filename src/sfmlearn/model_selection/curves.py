"""rSFM error curves of different lengths on one axis of discarded features (thesis 6.3, NC 4.4)."""

import numpy as np

from ..exceptions import DataValidationError

__all__ = ["average_curves", "resample_curve"]


def resample_curve(discarded, values, grid):
    """A curve given at increasing numbers of discarded features, on ``grid``.

    Piecewise constant (thesis 6.3, NC 4.4): each grid point x gets the value of the
    last evaluation at which at most x features had been discarded, and keeps the last
    value beyond the curve's end. (The thesis phrases it as "fewer than x removed" for
    x = 1..d: the same step function, shifted by one.) Grid points before the first
    evaluation get NaN.
    """
    discarded = np.asarray(discarded, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    if discarded.ndim != 1 or discarded.shape != values.shape or discarded.size == 0:
        raise DataValidationError("discarded and values must be 1-D arrays of the same, non-zero length.")
    if np.any(np.diff(discarded) < 0):
        raise DataValidationError("discarded must be non-decreasing (evaluations in the order made).")
    index = np.searchsorted(discarded, np.asarray(grid, dtype=np.float64), side="right") - 1
    return np.where(index >= 0, values[np.maximum(index, 0)], np.nan)


def average_curves(curves, grid, *, aggregate="mean"):
    """Resample ``curves`` (pairs of discarded counts and values) onto ``grid`` and combine.

    ``aggregate`` is "mean" (NC 4.4, the button-press data) or "median" (thesis 6.4,
    less affected by outlying folds). NaN (before a curve's first evaluation) is ignored.
    Returns ``(combined, resampled)`` with ``resampled`` of shape (n_curves, len(grid)).
    """
    if aggregate not in ("mean", "median"):
        raise DataValidationError(f"aggregate must be 'mean' or 'median'; got {aggregate!r}.")
    if len(curves) == 0:
        raise DataValidationError("average_curves needs at least one curve.")
    resampled = np.array([resample_curve(d, v, grid) for d, v in curves])
    combine = np.nanmean if aggregate == "mean" else np.nanmedian
    with np.errstate(all="ignore"):
        all_nan = np.isnan(resampled).all(axis=0)
        combined = np.full(resampled.shape[1], np.nan)
        combined[~all_nan] = combine(resampled[:, ~all_nan], axis=0)
    return combined, resampled
