"""Decoding as a function of time slice and of spatial resolution (thesis 6.4.3-6.4.4).

* :func:`time_slice_sweep` -- thesis 6.4.3 (Figs. 6.15-6.16): one leave-one-participant-
  out decoding per time slice (e.g. -2 s ... 30 s around a 20 s trial), the number of
  selected voxels and the error tracing when the conditions become separable.
* :func:`level_sweep` -- thesis 6.4.4 (Fig. 6.20): the same decoding on the volumes
  downsampled to pyramid levels 0, 1, 2, 3 (:func:`sfmlearn.imaging.volumes.downsample`:
  level 1 subsampling, further levels pyramid reduce with linear extrapolation).
"""

import numpy as np
import pandas as pd

from .._validation import check_labels, data_first
from ..exceptions import DataValidationError
from ..imaging.volumes import VolumeMask, downsample
from .._validation import check_count
from ._checks import check_grouped_problem, leave_one_group_out, plain
from ._docs import mvpa_doc
from ._progress import counted
from .decoding import decode

__all__ = ["level_sweep", "time_slice_sweep"]


def _row(result):
    folds = result.folds
    return {"accuracy": result.accuracy, "accuracy_sd": float(folds["accuracy"].std(ddof=0)),
            "balanced_accuracy": result.balanced_accuracy,
            "mean_selected": float(folds["n_selected"].mean())}


@data_first
@mvpa_doc
def time_slice_sweep(X, y, groups, times, estimator=None, *, n_jobs=None, progress=None):
    """Leave-one-group-out decoding of the maps of every time slice separately.

    ``times`` holds each map's slice (e.g. its centre in s). The table has one row per
    slice: time, n_maps, accuracy (pooled), accuracy_sd (over folds),
    balanced_accuracy, mean_selected. Every slice is checked (two classes, two groups,
    each class in the training part of every fold) before the first is decoded.

    Parameters
    ----------
    %(maps)s
    groups : array-like of shape (n_maps,)
        Participant (or run) of every map.
    times : array-like of shape (n_maps,)
        Time slice of every map.
    estimator : classifier, default=None
        Cloned per fold and slice (None: the SFM); passed first, the order before 0.2,
        it works for one release and warns.
    n_jobs : int or None
        Parallel folds (joblib).
    progress : callable, optional
        Called after every slice.

    Returns
    -------
    pandas.DataFrame
        One row per slice (columns above).

    Examples
    --------
    >>> import numpy as np
    %(toy_maps)s
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.mvpa import time_slice_sweep
    >>> times = np.tile([2.5, 5.0], 12)
    >>> time_slice_sweep(X, y, groups, times, SupportFeatureMachine())[["time", "n_maps", "accuracy"]].round(3)
       time  n_maps  accuracy
    0   2.5      12     0.917
    1   5.0      12     0.667
    """
    X, labels, _, groups = check_grouped_problem(X, y, groups)
    times = check_labels(times, name="times")
    if times.shape != labels.shape:
        raise DataValidationError(f"times must hold one slice per map ({labels.size}); got shape {times.shape}.")
    slices = [times == t for t in np.unique(times)]
    for keep in slices:
        _check_slice(X[keep], labels[keep], groups[keep], times[keep][0])
    rows = []
    for keep in counted(slices, progress, what="time slices"):
        rows.append({"time": plain(times[keep][0]), "n_maps": int(keep.sum()),
                     **_row(decode(X[keep], labels[keep], groups[keep], estimator, n_jobs=n_jobs))})
    return pd.DataFrame(rows)


def _check_slice(X, labels, groups, time):
    """The maps of one time slice can be decoded leaving one group out; the error names the slice."""
    try:
        _, labels, _, groups = check_grouped_problem(X, labels, groups)
        leave_one_group_out(labels, groups)
    except DataValidationError as exc:
        raise DataValidationError(f"time slice {plain(time)!r}: {exc}") from exc


@data_first
@mvpa_doc
def level_sweep(volumes, mask, y, groups, estimator=None, *, levels=(0, 1, 2, 3), n_jobs=None,
                progress=None):
    """Leave-one-group-out decoding at several pyramid levels (thesis 6.4.4, Fig. 6.20).

    The table has one row per level: level, n_voxels, voxel_size (mm, along the first
    axis), accuracy, accuracy_sd, balanced_accuracy, mean_selected.

    Parameters
    ----------
    volumes : ndarray of shape (x, y, z, n_maps)
        The maps as volumes on the grid of ``mask``.
    mask : VolumeMask
        The level-0 mask.
    y : array-like of shape (n_maps,)
        Two classes.
    groups : array-like of shape (n_maps,)
        Participant (or run) of every map.
    estimator : classifier, default=None
        Cloned per fold and level (None: the SFM); passed first, the order before 0.2,
        it works for one release and warns.
    levels : sequence of int, default=(0, 1, 2, 3)
        Pyramid levels.
    n_jobs : int or None
        Parallel folds (joblib).
    progress : callable, optional
        Called after every level.

    Returns
    -------
    pandas.DataFrame
        One row per level (columns above).

    Examples
    --------
    %(toy_volumes)s
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.mvpa import level_sweep
    >>> table = level_sweep(mask.volumes(X), mask, y, groups, SupportFeatureMachine(), levels=(0, 1))
    >>> table[["level", "n_voxels", "voxel_size", "accuracy"]].round(3)
       level  n_voxels  voxel_size  accuracy
    0      0        50         3.0     0.917
    1      1        15         6.0     0.875
    """
    mask = VolumeMask.load(mask)
    levels = [check_count("every level", level, 0) for level in levels]
    pyramid = [_at_level(volumes, mask, level) for level in levels]  # every level before the first fit
    rows = []
    for level, (maps, coarse_mask) in counted(list(zip(levels, pyramid)), progress, what="pyramid levels"):
        result = decode(maps, y, groups, estimator, n_jobs=n_jobs)
        rows.append({"level": level, "n_voxels": coarse_mask.n_voxels,
                     "voxel_size": float(coarse_mask.voxel_size[0]), **_row(result)})
    return pd.DataFrame(rows)


def _at_level(volumes, mask, level):
    """(maps, mask) of the volumes ``level`` pyramid levels coarser; the error names the level."""
    try:
        coarse, coarse_mask = downsample(volumes, mask, level)
    except DataValidationError as exc:
        raise DataValidationError(f"level {level}: {exc}") from exc
    return coarse_mask.matrix(coarse), coarse_mask
