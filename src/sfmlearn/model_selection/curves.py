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

    Parameters
    ----------
    discarded : ndarray of int
        Increasing numbers of discarded features at the evaluations.
    values : ndarray
        The curve's value at each evaluation.
    grid : ndarray of int
        Where to evaluate it.

    Returns
    -------
    ndarray of shape (len(grid),)
        The step function on the grid.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.model_selection import resample_curve
    >>> resample_curve(np.array([0, 2, 4]), np.array([0.1, 0.2, 0.5]), np.arange(6))
    array([0.1, 0.1, 0.2, 0.2, 0.5, 0.5])
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

    Parameters
    ----------
    curves : sequence of (ndarray, ndarray)
        (discarded counts, values) of every curve.
    grid : ndarray of int
        The grid of discarded counts.
    aggregate : {"mean", "median"}, default="mean"
        How the resampled curves are combined.

    Returns
    -------
    combined : ndarray of shape (len(grid),)
        The combined curve.
    resampled : ndarray of shape (n_curves, len(grid))
        Every curve on the grid (:func:`resample_curve`).

    Examples
    --------
    >>> import numpy as np
    >>> curves = [(np.array([0, 2, 4]), np.array([0.1, 0.2, 0.5])),
    ...           (np.array([0, 3]), np.array([0.1, 0.4]))]
    >>> from sfmlearn.model_selection import average_curves
    >>> combined, resampled = average_curves(curves, np.arange(5))
    >>> combined
    array([0.1 , 0.1 , 0.15, 0.3 , 0.45])
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
