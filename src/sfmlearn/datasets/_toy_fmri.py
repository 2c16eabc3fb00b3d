"""A tiny grouped two-condition data set shaped like fMRI maps, for examples and tests.

Participants (groups) each contribute the same number of maps, half of each condition,
and a few voxels differ between the conditions: the setting of leave-one-participant-out
decoding (NC 4.3, thesis 6.3) at a size that fits a docstring. Arguments are checked
before any drawing, with scikit-learn's ``validate_params``.
"""

import numpy as np

from ._arguments import FINITE, InvalidParameterError, at_least, check_at_most, checked

__all__ = ["make_toy_fmri"]


def _check_labels(labels):
    """Two different labels, one per condition."""
    values = np.asarray(labels, dtype=object)
    if values.shape != (2,) or values[0] == values[1]:
        raise InvalidParameterError(f"labels must be two different labels, one per condition; got {labels!r}.")


@checked(n_groups=at_least(1), maps_per_group=at_least(2), n_voxels=at_least(1), n_informative=at_least(0),
         shift=FINITE, labels=["array-like"])
def make_toy_fmri(n_groups=6, maps_per_group=4, n_voxels=50, *, n_informative=3, shift=2.0,
                  labels=("left", "right"), random_state=None):
    """Grouped maps of two conditions in which the first voxels are informative.

    Every group (participant) has ``maps_per_group`` maps, the first half of them of
    condition ``labels[0]``, the rest of ``labels[1]``. Voxel values are N(0, 1); in
    the maps of ``labels[1]`` the first ``n_informative`` voxels are shifted by
    ``shift``: x_ij ~ N(shift [y_i = labels[1]] [j < n_informative], 1).

    Parameters
    ----------
    n_groups : int, default=6
        Number of participants (at least 1); groups are numbered 1 to ``n_groups``.
    maps_per_group : int, default=4
        Maps per participant (at least 2: one of each condition).
    n_voxels : int, default=50
        Number of voxels (features, at least 1).
    n_informative : int, default=3
        Number of informative voxels (the first ones; 0 to ``n_voxels``).
    shift : float, default=2.0
        Mean difference of the informative voxels between the conditions (finite).
    labels : tuple of 2 labels, default=("left", "right")
        The two conditions (different).
    random_state : int, numpy.random.Generator or None
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_groups * maps_per_group, n_voxels)
        The maps.
    y : ndarray of shape (n_groups * maps_per_group,)
        The condition of every map.
    groups : ndarray of shape (n_groups * maps_per_group,)
        The participant of every map.

    Examples
    --------
    >>> from sfmlearn.datasets import make_toy_fmri
    >>> X, y, groups = make_toy_fmri(random_state=0)
    >>> X.shape, y[:4].tolist(), groups[:5].tolist()
    ((24, 50), ['left', 'left', 'right', 'right'], [1, 1, 1, 1, 2])
    """
    check_at_most(n_informative, "n_informative", n_voxels, "n_voxels",
                  "the informative voxels are a subset of the voxels")
    _check_labels(labels)
    rng = np.random.default_rng(random_state)
    groups = np.repeat(np.arange(1, n_groups + 1), maps_per_group)
    first = maps_per_group // 2
    y = np.tile(np.asarray([labels[0]] * first + [labels[1]] * (maps_per_group - first)), n_groups)
    X = rng.normal(size=(groups.size, n_voxels))
    X[y == labels[1], :n_informative] += shift
    return X, y, groups
