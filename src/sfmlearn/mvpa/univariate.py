"""Mass-univariate baseline: the group paired t-map (NC 4.2, thesis 6.3).

"Univariate activation maps of each participant were averaged for each class and fed
into a group-level voxel-wise paired t-test" (NC 4.2). With m_p(v) the mean of
participant p's class-1 maps minus the mean of its class-0 maps at voxel v, over P
participants:

    t(v) = mean_p m_p(v) / (sd_p m_p(v) / sqrt(P)),   sd with P - 1 degrees of freedom,

and the two-sided p-value of Student's t with P - 1 degrees of freedom. For one
participant with several runs use the runs as ``groups``.
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..exceptions import DataValidationError
from ._checks import check_both_classes_per_group, check_grouped_problem
from ._docs import mvpa_doc

__all__ = ["TMap", "paired_t_map"]


@mvpa_doc
@dataclass
class TMap:
    """Voxel-wise paired t-test: ``t``, two-sided ``p``, ``df`` = P - 1, the mean per-
    participant difference ``difference`` (class ``classes[1]`` minus ``classes[0]``).

    Parameters
    ----------
    t : ndarray of shape (n_voxels,)
        The t statistic.
    p : ndarray of shape (n_voxels,)
        Two-sided p-values.
    df : int
        Degrees of freedom, P - 1.
    difference : ndarray of shape (n_voxels,)
        Mean per-participant difference.
    classes : ndarray of shape (2,)
        The classes, in the order of the difference.

    Examples
    --------
    %(toy_tmap)s
    >>> tmap.df, tmap.t[:4].round(2)
    (5, array([ 5.44,  5.69,  6.99, -3.63]))
    """

    t: np.ndarray
    p: np.ndarray
    df: int
    difference: np.ndarray
    classes: np.ndarray


@mvpa_doc
def paired_t_map(X, y, groups):
    """Group-level paired t-test on per-participant class means (NC 4.2).

    Every participant (``groups``) must have maps of both classes. Voxels whose
    differences are identical across participants (zero variance) get t = +-inf (or
    NaN when the mean difference is 0 too) and p = 0 (NaN).

    Parameters
    ----------
    %(maps)s
    groups : array-like of shape (n_maps,)
        Participant of every map.

    Returns
    -------
    TMap
        t, p, df, difference and classes.

    Examples
    --------
    %(toy_tmap)s
    >>> tmap.classes.tolist(), int((tmap.p < 0.01).sum())
    (['left', 'right'], 3)
    """
    X, labels, classes, groups = check_grouped_problem(X, y, groups)
    participants = np.unique(groups)
    if participants.size < 2:
        raise DataValidationError("a paired t-test needs at least two participants.")
    check_both_classes_per_group(labels, classes, groups)
    differences = np.empty((participants.size, X.shape[1]))
    for i, p in enumerate(participants):
        own = groups == p
        differences[i] = X[own & (labels == classes[1])].mean(axis=0) - X[own & (labels == classes[0])].mean(axis=0)
    n = participants.size
    mean = differences.mean(axis=0)
    sd = differences.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / np.sqrt(n))
    p = 2.0 * stats.t.sf(np.abs(t), df=n - 1)
    return TMap(t=t, p=p, df=n - 1, difference=mean, classes=classes)
