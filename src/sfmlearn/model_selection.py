"""Validation for small samples (thesis 2.4, 6.3) on top of scikit-learn's splitters.

scikit-learn already has the splitters the papers use -- ``LeaveOneGroupOut`` (leave one
participant out), ``StratifiedKFold``, ``LeaveOneOut`` -- and ``permutation_test_score``
(label permutations within groups, ``n_jobs``). This module adds only what it lacks:

* :func:`make_cv`: the papers' default scheme from ``cv``/``groups``, with k-fold schemes
  shrunk to what the class sizes (or groups) allow (one place, so every command and
  estimator splits the same way); :func:`make_folds` splits with it and checks that no
  training fold lost a class (:func:`check_folds_keep_classes`); :func:`check_groups`
  validates group ids;
* :func:`hand_till_auc`: the AUC of Hand & Till (2001) from arbitrary scores (decision
  values need not be probabilities), multi-class as the mean pairwise AUC;
* :class:`BootstrapSplit` and :func:`bootstrap_632_score`: the .632 bootstrap of thesis 2.4;
* :func:`balanced_accuracy_p_value`: exact one-sided test of a balanced accuracy against
  guessing;
* :func:`cross_validate_selection`: per-fold supports, scores and selection frequencies
  (stability) of any selector, folds in parallel through joblib;
* :func:`resample_curve` / :func:`average_curves`: rSFM curves of different lengths on a
  common axis of discarded features, piecewise constant, averaged by mean or median
  (thesis 6.3, NC 4.4).

It imports no estimator: the selectors use it (the rSFM's chance test), so it sits
below :mod:`sfmlearn.selection`.
"""

import numbers
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import binom, rankdata
from sklearn.base import clone
from sklearn.metrics import balanced_accuracy_score, check_scoring
from sklearn.model_selection import (
    LeaveOneGroupOut,
    LeaveOneOut,
    StratifiedGroupKFold,
    StratifiedKFold,
)
from sklearn.utils import check_random_state

from ._validation import check_labels
from .exceptions import DataValidationError

__all__ = [
    "BootstrapSplit",
    "SelectionCVResult",
    "average_curves",
    "balanced_accuracy_p_value",
    "bootstrap_632_score",
    "check_folds_keep_classes",
    "check_groups",
    "cross_validate_selection",
    "hand_till_auc",
    "make_cv",
    "make_folds",
    "resample_curve",
    "split_indices",
]

#: Folds of the stratified scheme used when ``cv`` is None and there are no groups.
DEFAULT_FOLDS = 5


# -- splitting ----------------------------------------------------------------------
def check_groups(groups, n_samples):
    """Group ids (participants, runs, molecules): one per sample, as a 1-D array.

    None stays None. Missing ids, complex numbers and a length other than
    ``n_samples`` raise a DataValidationError naming the problem.
    """
    if groups is None:
        return None
    groups = check_labels(groups, name="groups")
    if groups.shape != (n_samples,):
        raise DataValidationError(
            f"groups must hold one id per sample ({n_samples}); got shape {groups.shape}.")
    return groups


def _fold_limit(y, groups):
    """Most folds the data allow: the smallest class count, or the number of groups.

    Fewer than two raises: no k-fold scheme can then keep every class in every
    training fold.
    """
    if groups is not None:
        n_groups = np.unique(groups).size
        if n_groups < 2:
            raise DataValidationError(
                f"there is {n_groups} group; grouped cross-validation needs at least 2 groups "
                "(all samples are in one group).")
        return n_groups
    counts = np.unique(y, return_counts=True)[1]
    smallest = int(counts.min())
    if smallest < 2:
        raise DataValidationError(
            f"the smallest class has {smallest} sample; stratified cross-validation needs at "
            "least 2 per class, so that every training fold holds every class.")
    return smallest


def make_cv(cv=None, *, y=None, groups=None, random_state=None):
    """The cross-validation scheme for ``cv`` (None, int, "loo", "logo" or a splitter).

    None: leave one group out when ``groups`` are given (participants, NC 4.4), else
    stratified 5-fold. An int k: stratified k-fold, group-aware (``StratifiedGroupKFold``)
    when ``groups`` are given. Shuffled folds use ``random_state``. Splitter objects
    (anything with ``split``) and iterables of (train, test) pass through unchanged.

    With the labels ``y``, k-fold schemes (None without groups, or an int) shrink to what
    the data allow: k becomes at most the smallest class count (without groups) or the
    number of groups, so that a class can appear in every training and test fold; a
    limit below 2 raises a DataValidationError that says so (e.g. "the smallest class
    has 1 sample"). The number of folds used is ``make_cv(...).get_n_splits()``.
    """
    if cv is None:
        if groups is not None:
            return LeaveOneGroupOut()
        cv = DEFAULT_FOLDS
    elif isinstance(cv, str):
        if cv == "loo":
            return LeaveOneOut()
        if cv == "logo":
            if groups is None:
                raise DataValidationError("cv='logo' (leave one group out) needs groups.")
            return LeaveOneGroupOut()
        raise DataValidationError(f"cv must be None, an int, 'loo', 'logo' or a splitter; got {cv!r}.")
    elif not (isinstance(cv, numbers.Integral) and not isinstance(cv, bool)):
        if hasattr(cv, "split") or hasattr(cv, "__iter__"):
            return cv
        raise DataValidationError(f"cv must be None, an int, 'loo', 'logo' or a splitter; got {cv!r}.")
    if cv < 2:
        raise DataValidationError(f"cv={cv}: k-fold cross-validation needs k >= 2.")
    k = int(cv) if y is None else min(int(cv), _fold_limit(np.asarray(y), groups))
    kind = StratifiedGroupKFold if groups is not None else StratifiedKFold
    return kind(k, shuffle=True, random_state=random_state)


def split_indices(cv, X, y, groups=None):
    """List of (train, test) index arrays of ``cv`` (a splitter or an iterable of pairs)."""
    pairs = cv.split(X, y, groups) if hasattr(cv, "split") else cv
    return [(np.asarray(train), np.asarray(test)) for train, test in pairs]


def check_folds_keep_classes(folds, labels, *, what="cross-validation"):
    """Every training part of ``folds`` must hold every class (else the fit cannot run).

    Raises a DataValidationError naming the fold, the class it lost, the class counts
    and the fixes, instead of the "only one class" error of the fit inside the fold.
    """
    classes, counts = np.unique(labels, return_counts=True)
    for f, (train, _) in enumerate(folds):
        present = np.unique(labels[train])
        if present.size < classes.size:
            lost = [c for c in classes.tolist() if c not in present.tolist()]
            raise DataValidationError(
                f"The training part of {what} fold {f + 1} of {len(folds)} has no sample of "
                f"class {lost[0]!r} (class counts in the data: "
                f"{dict(zip(classes.tolist(), counts.tolist()))}), so nothing can be fitted "
                "on it. Use k-fold cross-validation (it keeps every class in every training "
                "fold), or groups that each hold samples of every class.")


def make_folds(cv, X, y, groups=None, *, random_state=None, what="cross-validation"):
    """(train, test) index pairs of :func:`make_cv`, checked to keep every class in training.

    ``cv``, ``groups`` and ``random_state`` as in :func:`make_cv` (k-fold schemes shrink
    to the class sizes or groups); ``what`` names the scheme in errors.
    """
    y = np.asarray(y)
    try:
        splitter = make_cv(cv, y=y, groups=groups, random_state=random_state)
    except DataValidationError as exc:
        raise DataValidationError(f"{what}: {exc}") from None
    folds = split_indices(splitter, X, y, groups)
    check_folds_keep_classes(folds, y, what=what)
    return folds


class BootstrapSplit:
    """Bootstrap resampling as a scikit-learn splitter (thesis 2.4).

    Each split draws n training indices with replacement (duplicates kept) and tests on
    the samples never drawn ("out of bag", about e^-1 = 36.8 % of them). With
    ``stratify=True`` (default) the draw is made within each class, so every training
    set keeps the class sizes -- on 20-sample data an unstratified draw can lose a class.
    With ``groups``, whole groups are drawn with replacement (a cluster bootstrap: the
    out-of-bag samples belong to groups never drawn), without stratification.
    Draws with an empty out-of-bag set are skipped, so exactly ``n_splits`` splits come.
    """

    def __init__(self, n_splits=100, *, stratify=True, random_state=None):
        self.n_splits = n_splits
        self.stratify = stratify
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def split(self, X, y=None, groups=None):
        if not (isinstance(self.n_splits, numbers.Integral) and self.n_splits >= 1):
            raise DataValidationError(f"n_splits must be a positive integer; got {self.n_splits!r}.")
        n = len(X)
        rng = check_random_state(self.random_state)
        if groups is not None:
            # Draw groups; a drawn group contributes all its samples.
            _, group_index = np.unique(np.asarray(groups), return_inverse=True)
            members = [np.flatnonzero(group_index == g) for g in range(group_index.max() + 1)]
            strata = [np.arange(len(members))]
        else:
            members = None
            labels = np.unique(np.asarray(y), return_inverse=True)[1] if (
                self.stratify and y is not None) else np.zeros(n, dtype=int)
            strata = [np.flatnonzero(labels == c) for c in range(labels.max() + 1)]
        made = attempts = 0
        while made < self.n_splits:
            attempts += 1
            if attempts > 100 * self.n_splits:
                raise DataValidationError(
                    f"{n} samples are too few for bootstrap splits: the out-of-bag set "
                    "kept coming out empty. Use cross-validation instead.")
            drawn = np.concatenate([rng.choice(s, size=s.size, replace=True) for s in strata])
            train = drawn if members is None else np.concatenate([members[g] for g in drawn])
            test = np.setdiff1d(np.arange(n), train)
            if test.size:
                made += 1
                yield train, test


# -- scores -------------------------------------------------------------------------
def _binary_auc(positive, negative):
    """P(score of a random positive > score of a random negative), ties counting 1/2.

    The rank form of thesis 2.4 / Hand & Till (2001): with r_i the ranks (ties get their
    mean rank) of the n+ positives among all n+ + n- scores,
    AUC = (sum_i r_i - n+ (n+ + 1) / 2) / (n+ n-).
    """
    ranks = rankdata(np.r_[positive, negative])
    n_pos, n_neg = positive.size, negative.size
    return (ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def hand_till_auc(y_true, y_score, *, labels=None):
    """Area under the ROC curve; for more classes, Hand & Till's (2001) M.

    Binary: ``y_score`` is one score per sample, larger meaning ``labels[1]`` (the
    sorted second label, as in ``decision_function``); the result is the usual AUC.
    Multi-class: ``y_score`` has one column per label (any monotone scores, e.g. one-vs-
    rest decision values, need not sum to one) and

        M = 2 / (c (c - 1)) sum_{i < j} (A(i|j) + A(j|i)) / 2,

    where A(i|j) is the AUC of column i between the samples of classes i and j. With
    probabilities this equals ``roc_auc_score(multi_class="ovo")``.
    """
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    labels = np.unique(y_true) if labels is None else np.asarray(labels)
    missing = [lab for lab in labels if not np.any(y_true == lab)]
    if missing or labels.size < 2:
        raise DataValidationError(
            f"AUC needs samples of every label; labels {missing or labels.tolist()} have none "
            "(too few test samples? pool the out-of-fold scores).")
    if y_score.ndim == 1:
        if labels.size != 2:
            raise DataValidationError(
                f"one score per sample defines a binary AUC, but there are {labels.size} labels; "
                "pass one score column per label.")
        return _binary_auc(y_score[y_true == labels[1]], y_score[y_true == labels[0]])
    if y_score.shape != (y_true.size, labels.size):
        raise DataValidationError(
            f"y_score has shape {y_score.shape}; expected ({y_true.size}, {labels.size}): "
            "one column per label.")
    pair_aucs = []
    for i in range(labels.size):
        for j in range(i + 1, labels.size):
            in_i, in_j = y_true == labels[i], y_true == labels[j]
            a_ij = _binary_auc(y_score[in_i, i], y_score[in_j, i])
            a_ji = _binary_auc(y_score[in_j, j], y_score[in_i, j])
            pair_aucs.append(0.5 * (a_ij + a_ji))
    return float(np.mean(pair_aucs))


def balanced_accuracy_p_value(y_true, y_pred):
    """One-sided p-value of a two-class balanced accuracy against guessing.

    Null hypothesis: the predictions are coin flips independent of the labels, so the
    numbers of correct predictions in the two classes are independent Binomial(n_k, 1/2).
    Returns P(BA >= observed BA) exactly. Guessing with any other fixed rate q (e.g.
    always the same class) has the same mean BA of 1/2 and a smaller variance, so the
    p-value is conservative for every label-independent classifier.
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    labels = np.unique(y_true)
    if labels.size != 2:
        raise DataValidationError(f"the balanced-accuracy test needs two classes; got {labels.size}.")
    n1, n2 = (np.count_nonzero(y_true == lab) for lab in labels)
    c1 = np.count_nonzero((y_true == labels[0]) & (y_pred == labels[0]))
    c2 = np.count_nonzero((y_true == labels[1]) & (y_pred == labels[1]))
    observed = c1 / n1 + c2 / n2
    k1 = np.arange(n1 + 1)
    # Smallest c2 with k1/n1 + c2/n2 >= observed (a tolerance absorbs rounding).
    needed = np.ceil(n2 * (observed - k1 / n1) - 1e-9).clip(0, n2 + 1)
    return float(np.sum(binom.pmf(k1, n1, 0.5) * binom.sf(needed - 1, n2, 0.5)))


def _score_columns(estimator, X):
    if hasattr(estimator, "decision_function"):
        return estimator.decision_function(X)
    if hasattr(estimator, "predict_proba"):
        proba = estimator.predict_proba(X)
        return proba[:, 1] if proba.shape[1] == 2 else proba
    return None


# -- bootstrap ----------------------------------------------------------------------
@dataclass
class Bootstrap632Result:
    """Per-split accuracies of :func:`bootstrap_632_score`; ``score`` is their mean."""

    score: float
    scores: np.ndarray
    test_scores: np.ndarray
    train_scores: np.ndarray


def _bootstrap_fold(estimator, X, y, train, test, scoring):
    fitted = clone(estimator).fit(X[train], y[train])
    scorer = check_scoring(fitted, scoring=scoring)
    return scorer(fitted, X[test], y[test]), scorer(fitted, X[train], y[train])


def bootstrap_632_score(estimator, X, y, *, groups=None, n_bootstraps=100, scoring=None,
                        stratify=True, random_state=None, n_jobs=None):
    """The .632 bootstrap estimate of thesis 2.4.

    For every bootstrap training set D_t (n draws with replacement, :class:`BootstrapSplit`)

        acc_boot = 0.632 acc_test + 0.368 acc_train,

    acc_test on the samples not drawn, acc_train on D_t itself (duplicates counted), and
    the estimate is the mean over ``n_bootstraps`` draws. (Efron's original .632 uses the
    resubstitution accuracy on all data for the second term; the thesis' per-draw form
    is implemented.) ``scoring`` is any scikit-learn scoring (default: the estimator's
    ``score``, accuracy for classifiers); draws run in parallel through joblib.
    """
    X, y = _as_indexable(X), np.asarray(y)
    splitter = BootstrapSplit(n_bootstraps, stratify=stratify, random_state=random_state)
    pairs = list(splitter.split(X, y, groups))
    results = Parallel(n_jobs=n_jobs)(
        delayed(_bootstrap_fold)(estimator, X, y, train, test, scoring) for train, test in pairs)
    test_scores, train_scores = (np.array(v, dtype=float) for v in zip(*results))
    scores = 0.632 * test_scores + 0.368 * train_scores
    return Bootstrap632Result(float(scores.mean()), scores, test_scores, train_scores)


def _as_indexable(X):
    """Row-indexable data: arrays and sparse matrices unchanged, DataFrames as arrays."""
    return X.to_numpy() if hasattr(X, "to_numpy") else X


# -- cross-validation with supports ---------------------------------------------------
@dataclass
class SelectionCVResult:
    """Per-fold outcome of :func:`cross_validate_selection`.

    ``supports[f]`` is the boolean support of fold f; ``accuracy``/``balanced_accuracy``
    are per test fold (NaN where a test fold lacks a class). When the test folds
    partition the samples (k-fold, LOO, leave-one-group-out), ``oof_score`` holds every
    sample's out-of-fold score and ``auc`` their pooled AUC (per-fold AUCs do not exist
    for one-sample folds); otherwise both are None.
    """

    folds: list
    supports: np.ndarray
    accuracy: np.ndarray
    balanced_accuracy: np.ndarray
    oof_score: np.ndarray | None
    auc: float | None

    @property
    def n_selected(self):
        return self.supports.sum(axis=1)

    @property
    def selection_frequency(self):
        """Fraction of folds that selected each feature (stability of the selection)."""
        return self.supports.mean(axis=0)

    @property
    def mean_jaccard(self):
        """Mean Jaccard similarity |S_a & S_b| / |S_a | S_b| over all pairs of fold supports."""
        s = self.supports.astype(np.float64)
        inter = s @ s.T
        sizes = s.sum(axis=1)
        union = sizes[:, None] + sizes[None, :] - inter
        upper = np.triu_indices(len(s), k=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(union[upper] > 0, inter[upper] / union[upper], 1.0)
        return float(ratio.mean()) if ratio.size else float("nan")


def _selection_fold(estimator, X, y, train, test):
    fitted = clone(estimator).fit(X[train], y[train])
    return fitted.get_support(), fitted.predict(X[test]), _score_columns(fitted, X[test])


def _fold_accuracies(y_test, predicted):
    """(accuracy, balanced accuracy) of a test fold; the latter NaN when it holds one class."""
    accuracy = float(np.mean(predicted == y_test))
    if np.unique(y_test).size < 2:
        return accuracy, float("nan")
    return accuracy, float(balanced_accuracy_score(y_test, predicted))


def cross_validate_selection(estimator, X, y, *, groups=None, cv=None, random_state=None,
                             n_jobs=None, progress=None):
    """Cross-validate a selector-classifier and keep every fold's support.

    The selection is re-done inside every training fold, so the scores are not biased by
    it (thesis 6.2 on the non-independence error). ``cv`` as in :func:`make_cv` (leave
    one group out when ``groups`` are given; k-fold shrinks to the smallest class or the
    number of groups, and a fold whose training part would lose a class raises before
    any fit: :func:`make_folds`). Folds run in parallel through joblib, so
    ``joblib.parallel_config(backend="dask")`` spreads them over a cluster.
    ``progress`` (optional callable) is called once per finished fold.

    The result's ``folds`` (their number is the k used), ``accuracy`` (per test fold)
    and ``n_selected`` (support size per fold) are what a command-line summary needs.
    """
    X, y = _as_indexable(X), np.asarray(y)
    groups = check_groups(groups, len(y))
    folds = make_folds(cv, X, y, groups, random_state=random_state)
    jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_selection_fold)(estimator, X, y, train, test) for train, test in folds)
    outcomes = []
    for outcome in jobs:
        outcomes.append(outcome)
        if progress is not None:
            progress()
    supports = np.array([np.asarray(o[0], dtype=bool) for o in outcomes])
    accuracy, balanced = np.array(
        [_fold_accuracies(y[test], o[1]) for (_, test), o in zip(folds, outcomes)]).T
    tested = np.concatenate([test for _, test in folds])
    oof, auc = None, None
    if np.array_equal(np.sort(tested), np.arange(len(y))) and all(o[2] is not None for o in outcomes):
        first = np.asarray(outcomes[0][2])
        oof = np.empty((len(y),) + first.shape[1:])
        for (_, test), o in zip(folds, outcomes):
            oof[test] = o[2]
        auc = hand_till_auc(y, oof) if np.unique(y).size >= 2 else None
    return SelectionCVResult(folds, supports, accuracy, balanced, oof, auc)


# -- curves ---------------------------------------------------------------------------
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
