"""Consistency of the most relevant voxels across folds (thesis Figs. 6.4-6.5, NC Fig. 5).

"Shown are those voxels that were consistently selected within the 12 cross-validation
runs as the most relevant voxels, i.e. they were among the first 1 % of the selected
features" (thesis Fig. 6.5); NC Fig. 5 draws the voxels in the top q % "in at least half
of all participants" (folds). :func:`consistency_map` gives, per voxel, the fraction of
folds whose top q % contains it; :func:`consensus` thresholds it.
"""

import numpy as np

from ..exceptions import DataValidationError
from ._docs import mvpa_doc
from .overlap import top_by_rank

__all__ = ["consensus", "consistency_map"]


@mvpa_doc
def consistency_map(rankings, q):
    """Fraction of folds (rows of ``rankings``, 1 = best) that put each voxel in their top q %.

    Parameters
    ----------
    %(rankings_q)s

    Returns
    -------
    ndarray of shape (n_voxels,)
        Fraction of folds.

    Examples
    --------
    %(toy_repetitive)s
    >>> from sfmlearn.mvpa import consistency_map
    >>> consistency_map(result.rankings, 10)[:5]
    array([1. , 1. , 1. , 0.5, 0. ])
    """
    rankings = np.atleast_2d(np.asarray(rankings))
    if rankings.ndim != 2 or rankings.shape[0] == 0:
        raise DataValidationError("rankings must be an array (n_folds, n_voxels).")
    return np.mean([top_by_rank(r, q) for r in rankings], axis=0)


@mvpa_doc
def consensus(rankings, q, min_fraction=0.5):
    """Voxels in the top q % of at least ``min_fraction`` of the folds (NC Fig. 5: half).

    Parameters
    ----------
    %(rankings_q)s
    min_fraction : float, default=0.5
        Share of folds a voxel needs.

    Returns
    -------
    ndarray of bool of shape (n_voxels,)
        The consensus voxels.

    Examples
    --------
    >>> import numpy as np
    %(toy_repetitive)s
    >>> from sfmlearn.mvpa import consensus
    >>> np.flatnonzero(consensus(result.rankings, 10))
    array([ 0,  1,  2,  3, 27])
    """
    if not 0 < min_fraction <= 1:
        raise DataValidationError(f"min_fraction must be in (0, 1]; got {min_fraction!r}.")
    return consistency_map(rankings, q) >= min_fraction - 1e-12
