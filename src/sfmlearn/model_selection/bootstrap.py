"""The .632 bootstrap of thesis 2.4: a bootstrap splitter and the .632 accuracy estimate."""

import numbers
from dataclasses import dataclass

import numpy as np
from joblib import delayed
from sklearn.base import clone
from sklearn.metrics import check_scoring
from sklearn.utils import check_random_state

from ..exceptions import DataValidationError
from ..utils.parallel import Parallel
from ._docs import model_selection_doc
from .splits import _as_indexable, _n_samples, check_groups, fit_with_groups

__all__ = ["Bootstrap632Result", "BootstrapSplit", "bootstrap_632_score"]


class BootstrapSplit:
    """Bootstrap resampling as a scikit-learn splitter (thesis 2.4).

    Each split draws n training indices with replacement (duplicates kept) and tests on
    the samples never drawn ("out of bag", about e^-1 = 36.8 % of them). With
    ``stratify=True`` (default) the draw is made within each class, so every training
    set keeps the class sizes -- on 20-sample data an unstratified draw can lose a class.
    With ``groups``, whole groups are drawn with replacement (a cluster bootstrap: the
    out-of-bag samples belong to groups never drawn), without stratification.
    Draws with an empty out-of-bag set are skipped, so exactly ``n_splits`` splits come.

    Parameters
    ----------
    n_splits : int, default=100
        Number of bootstrap draws.
    stratify : bool, default=True
        Draw within each class (ignored with ``groups``).
    random_state : int, RandomState or None
        Seeds the draws.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.model_selection import BootstrapSplit
    >>> X, y = np.zeros((10, 1)), np.array([0] * 6 + [1] * 4)
    >>> [(train.size, test.size) for train, test in BootstrapSplit(3, random_state=0).split(X, y)]
    [(10, 4), (10, 4), (10, 4)]
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
        n = _n_samples(X)
        groups = check_groups(groups, n)
        rng = check_random_state(self.random_state)
        if groups is not None:
            # Draw groups; a drawn group contributes all its samples.
            group_ids, group_index = np.unique(groups, return_inverse=True)
            if group_ids.size < 2:
                raise DataValidationError(
                    f"all samples are in one group ({group_ids.tolist()[0]!r}): a bootstrap of whole groups draws "
                    "it every time and leaves nothing out of bag. Pass at least 2 groups, or no groups.")
            members = [np.flatnonzero(group_index == g) for g in range(group_ids.size)]
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


# -- the .632 estimate ---------------------------------------------------------------
@dataclass
@model_selection_doc
class Bootstrap632Result:
    """Per-split accuracies of :func:`bootstrap_632_score`; ``score`` is their mean.

    Parameters
    ----------
    score : float
        The .632 estimate: the mean of ``scores``.
    scores : ndarray of shape (n_bootstraps,)
        0.632 test + 0.368 training score of every draw.
    test_scores, train_scores : ndarray of shape (n_bootstraps,)
        Out-of-bag and training scores of every draw.

    Examples
    --------
    %(leukemia_bootstrap)s
    >>> round(result.score, 3), result.scores.shape
    (0.909, (5,))
    """

    score: float
    scores: np.ndarray
    test_scores: np.ndarray
    train_scores: np.ndarray


def _bootstrap_fold(estimator, X, y, groups, train, test, scoring):
    fitted = fit_with_groups(clone(estimator), X[train], y[train], None if groups is None else groups[train])
    scorer = check_scoring(fitted, scoring=scoring)
    return scorer(fitted, X[test], y[test]), scorer(fitted, X[train], y[train])


@model_selection_doc
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

    Parameters
    ----------
    estimator : estimator
        Cloned and fitted on every draw.
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        Their labels.
    groups : array-like of shape (n_samples,), optional
        Draw whole groups (a cluster bootstrap).
    n_bootstraps : int, default=100
        Number of draws.
    scoring : str or callable, optional
        A scikit-learn scoring (default: the estimator's ``score``).
    stratify : bool, default=True
        Draw within each class.
    random_state : int, RandomState or None
        Seeds the draws.
    n_jobs : int or None
        Parallel draws (joblib).

    Returns
    -------
    Bootstrap632Result
        The estimate and the per-draw scores.

    Examples
    --------
    %(leukemia_bootstrap)s
    >>> round(result.score, 3)
    0.909
    """
    X, y = _as_indexable(X), np.asarray(y)
    if y.shape != (X.shape[0],):
        raise DataValidationError(f"y must hold one label per sample of X ({X.shape[0]}); got shape {y.shape}.")
    groups = check_groups(groups, X.shape[0])
    splitter = BootstrapSplit(n_bootstraps, stratify=stratify, random_state=random_state)
    pairs = list(splitter.split(X, y, groups))
    results = Parallel(n_jobs=n_jobs, what="bootstrap samples")(
        delayed(_bootstrap_fold)(estimator, X, y, groups, train, test, scoring) for train, test in pairs)
    test_scores, train_scores = (np.array(v, dtype=float) for v in zip(*results))
    scores = 0.632 * test_scores + 0.368 * train_scores
    return Bootstrap632Result(float(scores.mean()), scores, test_scores, train_scores)
