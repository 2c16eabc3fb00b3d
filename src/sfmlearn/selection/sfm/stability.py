r"""Stability selection over the softness path: the features the SFM selects on most halves of the data.

Meinshausen & Bühlmann (2010, "Stability selection", JRSS B 72: 417-473; MB) with
complementary pairs (Shah & Samworth 2013, JRSS B 75: 55-80). The training set is cut
into two halves ``n_pairs`` times, at random: of equal size and stratified by class, or,
with ``groups``, of about equal size with every group whole in one half; on each of the
2B halves the soft-SFM path
(:func:`~.path.sfm_path`) is fitted on the grid Lambda = ``Cs_``, the data-adaptive grid of
the whole training set with every C scaled by n / n_half, as in the cross-validated SFM,
so that a half's path spans the same sparsities. The *stability path* is

.. math::

    \Pi_j(C) = \frac{1}{2B} \#\{\text{halves whose fit at } C \text{ selects } j\},

the selection frequency :math:`\Pi_j = \max_{C \in \Lambda} \Pi_j(C)`, and the stable set
:math:`\hat S = \{j : \Pi_j \ge \pi\}` (``threshold``, at most ``max_features`` of them,
the most frequent first). With :math:`q` the mean number of features a half's path selects
at any C (the size of the union over the grid), MB's Theorem 1 bounds the expected number
of selected noise features,

.. math::

    E[V] \le \frac{q^2}{(2\pi - 1)\, p}, \qquad \pi \in (1/2, 1],

when the noise features are selected exchangeably and the SFM selects no worse than
random guessing (``false_selection_bound_``; p counts the columns that are not constant,
the ones a fit can select). Shah & Samworth show that complementary pairs keep MB's
bound and give one for the features of low selection probability without the
exchangeability assumption. The bound is only as good as its assumptions, and it is
small whenever q is small: the SFM path selects a handful of features on half of 40-90
samples. Features that carry the same information share their frequency: of two
duplicate columns each half's sparse fit takes one or the other, so neither may reach
the threshold (neighbouring voxels, co-expressed genes); where each half takes one of
them, their frequencies add up to the group's.

The classifier on the stable set is L2 logistic regression on its standardised columns,
the SFM's ``refit="logistic"`` (:func:`~.unions.logistic_on_features`), weighted by the
base estimator's ``class_weight``. The selection does not look at a score: no inner
cross-validation, so no selection score to mistake for an accuracy. On the shipped data
the stable set is small (user guide, choosing C, "Stable features").
"""

import warnings
from numbers import Integral, Real

import numpy as np
from joblib import delayed
from sklearn.base import clone
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from ..._validation import check_class_weight
from ...exceptions import DataValidationError
from ...model_selection import check_groups
from ...preprocessing import constant_features, quiet_constant_features, warn_constant_features
from ...utils.parallel import Parallel
from ...utils.parameters import set_parameters
from .._base import class_sample_weights
from .._checked import LinearTwoClassSelector
from .._constraints import N_JOBS
from .fold_candidates import SIGNED_CLASSES
from .machine import SupportFeatureMachine
from .path import MAX_N_CS, check_Cs, default_Cs, sfm_path
from .softness_cv import CV_N_CS
from .unions import logistic_on_features
from .zero_norm import WestonZeroNormSVM

__all__ = ["MAX_PAIRS", "StabilitySelection", "false_selection_bound", "path_estimator"]

#: Most complementary pairs of halves one fit may ask for (two path fits each).
MAX_PAIRS = 500


def path_estimator(estimator):
    """The estimator whose path a stability selection fits: a clone of ``estimator``, or
    for None the default, ``SupportFeatureMachine(class_weight="balanced")``.

    Examples
    --------
    >>> path_estimator(None).class_weight
    'balanced'
    """
    return SupportFeatureMachine(class_weight="balanced") if estimator is None else clone(estimator)


def false_selection_bound(mean_union_size, threshold, n_features):
    r"""MB's bound on the expected number of selected noise features (Theorem 1).

    :math:`E[V] \le q^2 / ((2\pi - 1) p)`, with q the mean size of a half's selection
    (the union over the grid), :math:`\pi` the threshold and p the number of features;
    infinite for :math:`\pi \le 1/2`, where the theorem gives no bound.

    Parameters
    ----------
    mean_union_size : float
        q.
    threshold : float
        pi.
    n_features : int
        p.

    Returns
    -------
    float

    Examples
    --------
    >>> from sfmlearn.selection.sfm.stability import false_selection_bound
    >>> false_selection_bound(2.0, 0.75, 2000)   # 4 / (0.5 * 2000)
    0.004
    """
    if threshold <= 0.5:
        return float("inf")
    return float(mean_union_size) ** 2 / ((2.0 * threshold - 1.0) * n_features)


#: Random splits of the groups tried for one pair before the groups are refused.
GROUP_SPLIT_TRIES = 100


def _halves(y_signed, groups, n_pairs, random_state):
    """``n_pairs`` complementary pairs of halves (index arrays, one pair after the other):
    stratified by class, or with ``groups`` each group whole in one half (:func:`_group_split`)."""
    rng = check_random_state(random_state)
    halves = []
    for _ in range(n_pairs):
        if groups is None:
            seed = rng.randint(np.iinfo(np.int32).max)
            split = StratifiedKFold(2, shuffle=True, random_state=seed).split(y_signed, y_signed)
            halves.extend(test for _, test in split)
        else:
            split = _group_split(y_signed, groups, rng)
            if split is None:
                raise DataValidationError(
                    f"StabilitySelection: {GROUP_SPLIT_TRIES} random splits of the groups into halves "
                    "never put both classes into both halves; pass more groups, or no groups.")
            halves.extend(split)
    return halves


def _group_split(y_signed, groups, rng):
    """Two halves of about equal size that keep every group whole: the groups in random
    order, each to the half with fewer samples so far (ties at random), drawn again until
    both halves hold both classes. (scikit-learn's ``StratifiedGroupKFold`` shuffles only
    groups of the same class mix, so with groups of different mixes every seed gave the
    same split.)"""
    ids, of_sample = np.unique(groups, return_inverse=True)
    sizes = np.bincount(of_sample)
    for _ in range(GROUP_SPLIT_TRIES):
        second = np.zeros(ids.size, dtype=bool)
        load = [0, 0]
        for g in rng.permutation(ids.size):
            side = int(rng.randint(2)) if load[0] == load[1] else int(load[1] < load[0])
            second[g] = side == 1
            load[side] += sizes[g]
        in_second = second[of_sample]
        if all(np.unique(y_signed[half]).size == 2 for half in (~in_second, in_second)):
            return np.flatnonzero(~in_second), np.flatnonzero(in_second)
    return None


def _check_classes(y_signed, classes, groups):
    """Refuse, naming the class, before any fit: a class of fewer than 2 samples (both
    halves need one), or groups that cannot spread a class over both halves."""
    for sign, label in zip(SIGNED_CLASSES, classes.tolist()):
        members = y_signed == sign
        if np.count_nonzero(members) < 2:
            raise DataValidationError(
                f"StabilitySelection: class {label!r} has fewer than 2 samples; both halves of "
                "the data need one of each class.")
        if groups is not None and np.unique(groups[members]).size < 2:
            raise DataValidationError(
                f"StabilitySelection: every sample of class {label!r} is in one group, so no split "
                "that keeps groups whole puts the class into both halves; pass groups that spread "
                "each class over at least 2 groups, or no groups.")


def _warn_few_splits(halves, n_groups):
    """Warn when the group splits repeat: the frequencies then rest on a few halves."""
    distinct = len({min(tuple(first), tuple(second)) for first, second in zip(halves[::2], halves[1::2])})
    if 2 * distinct < len(halves) // 2:
        warnings.warn(
            f"StabilitySelection: the {len(halves) // 2} random splits of the {n_groups} groups into "
            f"halves hold only {distinct} distinct ones; the selection frequencies rest on these "
            "few (more groups give more).", UserWarning, stacklevel=3)


def _warn_nothing_stable(threshold, frequency, top, feature_names, predicted):
    """Say that the stable set is empty and what the classifier then predicts."""
    if frequency[top] == 0:
        what = "no half selected any feature"
    else:
        name = f"column {top}" if feature_names is None else repr(str(feature_names[top]))
        what = (f"no feature reached a selection frequency of {threshold} (the most frequent, "
                f"{name}, {frequency[top]:.2f})")
    warnings.warn(
        f"StabilitySelection: {what}; the classifier has no feature and predicts {predicted!r} for "
        "every sample (the class of larger weight; the first class when they weigh the same). Lower "
        "threshold, or pass threshold=0 and max_features=k for the k most frequently selected "
        "features.", UserWarning, stacklevel=3)


def _prior_log_odds(y_signed, weights):
    """log(W+ / W-), the weighted classes' log-odds: the intercept of logistic regression
    without features (exactly 0 where the classes weigh the same)."""
    positive, negative = weights[y_signed > 0].sum(), weights[y_signed < 0].sum()
    return 0.0 if np.isclose(positive, negative, rtol=1e-12) else float(np.log(positive / negative))


def _half_supports(base, X, y_signed, half, Cs):
    """The supports (one row per C) of the path fitted on ``half`` at C n / n_half."""
    with quiet_constant_features():
        return sfm_path(X[half], y_signed[half], Cs * (y_signed.size / half.size), estimator=base,
                        probability=False).supports


class StabilitySelection(LinearTwoClassSelector):
    r"""Stability selection of the SFM family over the softness path (Meinshausen & Bühlmann).

    Which features does the SFM select on most halves of the data, and how many of them
    could be noise? The path of ``estimator`` is fitted on both halves of ``n_pairs``
    random splits of the training set; a feature is stable when, at some C of the grid,
    at least a fraction ``threshold`` of the halves selects it. L2 logistic regression on
    the stable features is the classifier. Module docstring:
    :mod:`sfmlearn.selection.sfm.stability`.

    Parameters
    ----------
    estimator : SupportFeatureMachine, WestonZeroNormSVM or None, default=None
        The path's estimator (its C is ignored; its ``class_weight`` also weights the
        logistic regression). None: ``SupportFeatureMachine(class_weight="balanced")``.
    Cs : int, array-like or None, default=None
        The grid of C on the scale of the whole training set: None or an int for the
        data-adaptive grid (:func:`~sfmlearn.selection.sfm.path.default_Cs`, 12 points
        by default, as the cross-validated SFM), or the values.
    n_pairs : int, default=25
        Complementary pairs of halves: 2 x ``n_pairs`` path fits.
    threshold : float in [0, 1], default=0.6
        Least selection frequency of a stable feature (pi). MB's bound needs pi > 1/2.
    max_features : int or None, default=None
        Keep at most this many stable features, the most frequent first (ties: the
        lower column index). With ``threshold=0``: the ``max_features`` most frequently
        selected features (a feature no half selects is never kept).
    n_jobs : int or None, default=None
        Halves fitted in parallel through joblib.
    random_state : int, RandomState or None, default=None
        Seeds the splits into halves.

    Attributes
    ----------
    Cs_ : ndarray
        The grid (increasing), on the scale of the whole training set.
    stability_path_ : ndarray of shape (len(Cs_), n_features_in_)
        Pi_j(C): the fraction of the halves whose fit at each C selects each feature.
    selection_frequency_ : ndarray of shape (n_features_in_,)
        Pi_j = the largest of ``stability_path_[:, j]``.
    support_ : ndarray of bool
        The stable features.
    mean_union_size_ : float
        q: the mean number of features a half's path selects at any C.
    n_candidate_features_ : int
        p: the columns that are not constant on the training data (a constant column can
        never be selected, so it does not count in the bound).
    false_selection_bound_ : float
        MB's bound q^2 / ((2 pi - 1) p) on the expected number of stable noise features
        (infinite for ``threshold`` <= 1/2); module docstring for its assumptions.
    n_halves_ : int
        Path fits (2 x ``n_pairs``).
    coef_ : ndarray of shape (1, n_features_in_)
        The logistic regression's weights in the columns' own units (0 off the support).
    intercept_ : ndarray of shape (1,)
    scaled_coef_ : ndarray of shape (n_features_in_,)
        Its weights on the standardised columns.
    %(probability_attributes)s
        With no stable feature the classifier is logistic regression without features:
        ``intercept_`` is the weighted classes' log-odds, A = -1, and ``predict_proba``
        the weighted class prior.
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import StabilitySelection
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=60, n_noise=100, random_state=0)
    >>> model = StabilitySelection(n_pairs=10, random_state=0).fit(X, y)
    >>> model.get_support(indices=True).tolist()   # relevant features: 0-5
    [2, 5]
    >>> model.selection_frequency_[[2, 5]].round(2).tolist(), round(model.false_selection_bound_, 3)
    ([0.95, 0.95], 0.295)
    """

    _sparse_input = True
    _parameter_constraints = {
        "estimator": [SupportFeatureMachine, WestonZeroNormSVM, None],
        "Cs": [Interval(Integral, 1, MAX_N_CS, closed="both"), "array-like", None],
        "n_pairs": [Interval(Integral, 1, MAX_PAIRS, closed="both")],
        "threshold": [Interval(Real, 0.0, 1.0, closed="both")],
        "max_features": [Interval(Integral, 1, None, closed="left"), None],
        "n_jobs": N_JOBS,
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, Cs=None, n_pairs=25, threshold=0.6, max_features=None,
                 n_jobs=None, random_state=None):
        set_parameters(self, locals())

    def fit(self, X, y, groups=None, **fit_params):
        """Fit the path on 2 x ``n_pairs`` halves and logistic regression on the stable features.

        ``groups`` (one id per sample: participants, runs, batches) keep every group in
        one half.
        """
        training = self._training_set(X, y, fit_params)
        X, y_signed, classes = training.X, training.y, training.classes
        base = path_estimator(self.estimator)
        if isinstance(base.class_weight, dict):  # the halves fit on -1/+1 labels
            negative, positive = check_class_weight(base.class_weight, classes)
            base.set_params(class_weight={-1: negative, 1: positive})
        groups = check_groups(groups, y_signed.size)
        if groups is not None and np.unique(groups).size < 2:
            raise DataValidationError("StabilitySelection: groups hold one group; halves that keep groups "
                                      "whole need at least 2 (pass no groups to split the samples).")
        _check_classes(y_signed, classes, groups)
        halves = _halves(y_signed, groups, self.n_pairs, self.random_state)
        if groups is not None:
            _warn_few_splits(halves, np.unique(groups).size)
        constant = constant_features(X)
        warn_constant_features(constant, training.feature_names)  # once: the grid and the halves are quiet
        Cs = self.Cs
        if Cs is None or isinstance(Cs, Integral):
            with quiet_constant_features():
                Cs = default_Cs(X, y_signed, estimator=base, n_Cs=CV_N_CS if Cs is None else Cs)
        Cs = check_Cs(Cs, scaled_by=y_signed.size / min(half.size for half in halves))
        supports = Parallel(n_jobs=self.n_jobs, what="half-sample paths of the stability selection")(
            delayed(_half_supports)(base, X, y_signed, half, Cs) for half in halves)
        frequency = sum(supports) / len(supports)
        maximum = frequency.max(axis=0)
        order = np.argsort(-maximum, kind="stable")
        stable = np.sort(order[(maximum[order] >= self.threshold) & (maximum[order] > 0)][:self.max_features])
        weights = class_sample_weights(y_signed, SIGNED_CLASSES, base.class_weight)
        self.classes_ = classes
        self.Cs_ = Cs
        self.stability_path_ = frequency
        self.selection_frequency_ = maximum
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[stable] = True
        self.mean_union_size_ = float(np.mean([np.count_nonzero(s.any(axis=0)) for s in supports]))
        self.n_candidate_features_ = int(X.shape[1] - np.count_nonzero(constant))
        self.false_selection_bound_ = false_selection_bound(self.mean_union_size_, self.threshold,
                                                            self.n_candidate_features_)
        self.n_halves_ = len(supports)
        if stable.size:
            coef, intercept, standardised = logistic_on_features(X, y_signed, weights, stable)
            self.coef_, self.intercept_, self.scaled_coef_ = coef[None, :], np.array([intercept]), standardised
            self._fit_probability(self._linear_decision(X), y_signed)
        else:  # logistic regression without features: the weighted classes' log-odds
            self.coef_, self.scaled_coef_ = np.zeros((1, X.shape[1])), np.zeros(X.shape[1])
            self.intercept_ = np.array([_prior_log_odds(y_signed, weights)])
            self.probability_slope_, self.probability_intercept_ = -1.0, 0.0
            _warn_nothing_stable(self.threshold, maximum, order[0], training.feature_names,
                                 classes.tolist()[int(self.intercept_[0] > 0)])
        return self
