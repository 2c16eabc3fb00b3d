"""Cross-validation of a selector that keeps every fold's support (selection stability).

The features are re-selected inside every training fold, so the scores are not biased by
the selection (thesis 6.2 on the non-independence error).
"""

from dataclasses import dataclass

import numpy as np
from joblib import delayed
from sklearn.base import clone
from sklearn.pipeline import Pipeline

from .._validation import check_labels
from ..exceptions import DataValidationError
from ..utils.parallel import Parallel
from .scores import hand_till_auc, mean_recall
from .splits import _as_indexable, check_groups, fit_with_groups, make_folds

__all__ = ["SelectionCVResult", "cross_validate_selection"]


@dataclass
class SelectionCVResult:
    """Per-fold outcome of :func:`cross_validate_selection`.

    ``supports[f]`` is the boolean support of fold f; ``accuracy``/``balanced_accuracy``
    are per test fold (NaN where a test fold lacks a class). When the test folds
    partition the samples (k-fold, LOO, leave-one-group-out), ``oof_score`` holds every
    sample's out-of-fold score and ``auc`` their pooled AUC (per-fold AUCs do not exist
    for one-sample folds); otherwise both are None.

    Parameters
    ----------
    folds : list of (ndarray, ndarray)
        ``(train, test)`` indices of every fold.
    supports : ndarray of bool, shape (n_folds, n_features)
        The support selected on each training fold.
    accuracy : ndarray of shape (n_folds,)
        Accuracy on each test fold.
    balanced_accuracy : ndarray of shape (n_folds,)
        Balanced accuracy on each test fold (NaN where it holds one class).
    oof_score : ndarray of shape (n_samples,) or (n_samples, n_classes), or None
        Out-of-fold decision values (or positive-class probabilities).
    auc : float or None
        AUC of the pooled out-of-fold scores (Hand & Till's for more than two classes).

    Examples
    --------
    See :func:`cross_validate_selection`:

    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.model_selection import cross_validate_selection
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> result = cross_validate_selection(SupportFeatureMachine(), X, y, cv=5, random_state=0)
    >>> result.supports.shape, result.n_selected.tolist()
    ((5, 106), [2, 2, 2, 2, 2])
    >>> result.selection_frequency[:6].tolist()   # relevant features: 0-5
    [0.0, 0.2, 0.8, 0.0, 0.2, 0.8]
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


def _score_columns(estimator, X):
    if hasattr(estimator, "decision_function"):
        return estimator.decision_function(X)
    if hasattr(estimator, "predict_proba"):
        proba = estimator.predict_proba(X)
        return proba[:, 1] if proba.shape[1] == 2 else proba
    return None


def _selector(estimator, fitted=False):
    """The step that selects: the estimator itself, a Pipeline's last step, or the
    estimator of a search that refits (its ``best_estimator_`` once fitted); None if there
    is none."""
    while not hasattr(estimator, "get_support"):
        if isinstance(estimator, Pipeline):
            estimator = estimator.steps[-1][1]
        elif hasattr(estimator, "refit") and hasattr(estimator, "estimator") and estimator.refit:  # a search
            estimator = estimator.best_estimator_ if fitted else estimator.estimator
        else:
            return None
    return estimator


def _check_selector(estimator):
    if _selector(estimator) is None or not hasattr(estimator, "predict"):
        raise DataValidationError(
            f"{type(estimator).__name__} is no selector-classifier (it, the last step of a Pipeline or the estimator "
            "of a search with refit=True needs get_support() and predict()); pass one such as "
            "SupportFeatureMachine(), or a Pipeline ending in one.")


def _fold_support(fitted, n_features):
    support = np.asarray(_selector(fitted, fitted=True).get_support(), dtype=bool)
    if support.size != n_features:
        raise DataValidationError(
            f"the selector chose among {support.size} features, not the data's {n_features}: a step before it "
            "changes the features. Only steps that keep every feature (scalers) may come before the selector.")
    return support


def _selection_fold(estimator, X, y, groups, train, test):
    fitted = fit_with_groups(clone(estimator), X[train], y[train], None if groups is None else groups[train])
    return _fold_support(fitted, X.shape[1]), fitted.predict(X[test]), _score_columns(fitted, X[test])


def _fold_accuracies(y_test, predicted):
    """(accuracy, balanced accuracy) of a test fold; the latter NaN when it holds one class."""
    accuracy = float(np.mean(predicted == y_test))
    if np.unique(y_test).size < 2:
        return accuracy, float("nan")
    return accuracy, mean_recall(y_test, predicted)


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

    Parameters
    ----------
    estimator : selector-classifier
        An unfitted estimator with ``fit``, ``predict`` and ``get_support`` (every
        sfmlearn selector, a ``Pipeline`` ending in one, a search over one); cloned
        for every fold.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        Class labels.
    groups : array-like of shape (n_samples,), optional
        Group ids (participants, batches): every group stays in one fold, and an
        estimator whose ``fit`` takes ``groups`` (the cross-validated ones) gets them
        too, so that its inner folds keep them together as well.
    cv : None, int, "loo", "logo" or splitter
        The folds (:func:`make_cv`): None is leave one group out with ``groups``, else
        stratified 5-fold.
    random_state : int, RandomState or None
        Seeds the shuffled k-fold split.
    n_jobs : int or None
        Folds in parallel (joblib).
    progress : callable, optional
        Called with no argument once per finished fold.

    Returns
    -------
    SelectionCVResult
        Folds, per-fold supports, accuracies, and the out-of-fold scores and AUC.

    Examples
    --------
    The hard SFM on Weston's data (six relevant among 106 features), five folds:

    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.model_selection import cross_validate_selection
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> result = cross_validate_selection(SupportFeatureMachine(), X, y, cv=5, random_state=0)
    >>> len(result.folds), result.accuracy.tolist(), round(float(result.auc), 3)
    (5, [1.0, 1.0, 0.9, 0.5, 1.0], 0.976)
    """
    _check_selector(estimator)
    X, y = _as_indexable(X), check_labels(y)
    groups = check_groups(groups, len(y))
    folds = make_folds(cv, X, y, groups, random_state=random_state)
    jobs = Parallel(n_jobs=n_jobs, return_as="generator", what="folds of the cross-validation")(
        delayed(_selection_fold)(estimator, X, y, groups, train, test) for train, test in folds)
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
