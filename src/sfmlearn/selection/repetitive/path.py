"""The path of the repetitive SFM (NC 4.4, thesis 3.2 Fig. 3.3): fit, discard, refit.

    F_0 = all features
    repeat t = 0, 1, ...:  fit the SFM on F_t;  stop if a stop rule holds;
                           R_t = support(w_t);  F_{t+1} = F_t minus R_t

Stop rules, checked in this order (``RepetitionPath.stop_reason``):

``"max_repetitions"``
    ``max_repetitions`` subsets were found.
``"features_exhausted"``
    No selectable feature is left (constant features can never be selected).
``"not_separable"``
    The hard SFM has no solution on F_t: the classes are no longer linearly separable
    within the remaining features -- NC 4.4's rule. Data that F_t separates only weakly
    (points on every zero-margin hyperplane) count as not separable.
``"no_features_selected"``
    A soft fit returned w = 0 (possible with ``equality="mean_margin"``).
``"chance"``
    Soft SFMs only: repetition t's selection no longer beats chance. A soft SFM always
    has a solution, so "separable" cannot be the rule; and its training accuracy cannot
    be the test either, because it is measured on the samples the features were chosen
    for: on pure noise with d >> n the best single feature already classifies ~65 % of
    88 training samples correctly, which a binomial test would call significant at
    p < 0.01, so that rule would never stop. Instead the base estimator is
    cross-validated on F_t (``chance_cv`` stratified folds, group-aware with groups;
    features chosen inside each training fold, each fold's data scaled once and refitted
    warm like the main path) and the pooled out-of-fold balanced accuracy is tested
    against guessing (:func:`~sfmlearn.model_selection.balanced_accuracy_p_value`).
    The path stops at the first repetition with p > ``chance_alpha``; that repetition's
    subset is not kept (its p-value is ``stop_p_value``).
``"solver_failed"``
    A later repetition's linear programs could not be solved (:class:`SolverError`:
    HiGHS ended without an optimum, or reported a reweighted LP infeasible that the
    previous solution satisfies): ``sfmlearn repeat --dataset dexter`` meets it after
    5,116 repetitions, on DEXTER's residual words. The subsets found so far are kept and a
    UserWarning names the repetition and the solver's message; a failure in the first
    repetition is raised, since there is nothing to keep.

A run under a time limit (:func:`sfmlearn.utils.time_limit.time_limit`) checks it before
every repetition and raises :class:`~sfmlearn.utils.time_limit.TimeLimitError` once it
has passed: a soft run's length is known only as it runs.

Everything is computed on the data scaled once (:class:`SubsetRefitter`): feature
scaling uses all features, so a soft SFM's C means the same in every repetition, and
the column-generation working set is carried over from one repetition to the next.
"""

import sys
import time
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone

from ...exceptions import DataValidationError, NotSeparableError, SolverError
from ...model_selection import balanced_accuracy_p_value, check_folds_keep_classes, make_cv, split_indices
from ...preprocessing import constant_features
from ...utils.time_limit import check_time_limit
from .._base import IteratedL1Classifier, SubsetRefitter

__all__ = ["RepetitionPath", "run_repetitions", "STOP_REASONS"]

STOP_REASONS = ("max_repetitions", "features_exhausted", "not_separable",
                "no_features_selected", "chance", "solver_failed")


@dataclass
class RepetitionPath:
    """The subsets of one repetitive-SFM run and everything needed to rank them.

    ``subsets[t]`` holds the feature indices selected in repetition t, ordered by
    decreasing |w| of the SFM weights on the scaled features; ``coefs`` (sparse, one row
    per repetition) and ``intercepts`` are each repetition's classifier in input space.

    Parameters
    ----------
    n_features : int
        Number of features of the data.
    subsets : list of ndarray of int
        Feature indices selected in each repetition, by decreasing |w|.
    coefs : scipy.sparse.csr_array of shape (n_repetitions, n_features)
        Each repetition's weights in input space.
    intercepts : ndarray of shape (n_repetitions,)
        Each repetition's bias.
    n_training_errors : ndarray of int, shape (n_repetitions,)
        Training samples each repetition's SFM solution leaves on the wrong side (0 for
        the hard SFM).
    chance_p_values : ndarray of shape (n_repetitions,)
        p-value of the cross-validated chance test of a soft base estimator (NaN when it
        did not run).
    seconds : ndarray of shape (n_repetitions,)
        Fit time of each repetition.
    stop_reason : str
        Why the run stopped, one of :data:`STOP_REASONS` ("max_repetitions",
        "features_exhausted", "not_separable", "no_features_selected", "chance",
        "solver_failed").
    stop_p_value : float, default=nan
        The chance test's p-value that stopped the run (``stop_reason="chance"``).

    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_basic
    >>> from sfmlearn.selection.repetitive import run_repetitions
    >>> X, y = make_basic(40, 200, 20, class_distance=1.0, random_state=0)
    >>> path = run_repetitions(SupportFeatureMachine(), X, y, max_repetitions=3)
    >>> path.sizes.tolist(), path.discarded.tolist(), path.stop_reason
    ([3, 2, 3], [0, 3, 5, 8], 'max_repetitions')
    >>> [int(r) for r in path.ranking()[path.subsets[1]]]   # the smallest subset ranks first
    [1, 2]
    """

    n_features: int
    subsets: list
    coefs: sp.csr_array
    intercepts: np.ndarray
    n_training_errors: np.ndarray
    chance_p_values: np.ndarray
    seconds: np.ndarray
    stop_reason: str
    stop_p_value: float = float("nan")

    @property
    def n_repetitions(self):
        return len(self.subsets)

    @property
    def sizes(self):
        return np.array([s.size for s in self.subsets], dtype=int)

    @property
    def size_order(self):
        """Repetition indices sorted by subset size; equal sizes keep the order found."""
        return np.argsort(self.sizes, kind="stable")

    def unions(self, order="size"):
        """The unions U_t of the first t subsets, t = 1 .. n_repetitions, each as
        increasing column indices. The subsets are disjoint, so each union is larger than
        the one before.

        ``order="size"``: the subsets sorted by size (:attr:`size_order`, NC 4.4: the
        hard SFM's size is its objective, and a local optimum can leave a later subset
        smaller). ``order="found"``: in the order of the repetitions, for a soft base run
        without the chance test, whose late repetitions select few features because the
        remaining ones no longer pay for their cost, not because they are strong.
        """
        if order not in ("size", "found"):
            raise ValueError(f'order must be "size" or "found"; got {order!r}.')
        ranked = self.size_order if order == "size" else range(self.n_repetitions)
        subsets = [self.subsets[t] for t in ranked]
        return [np.sort(np.concatenate(subsets[:t])) for t in range(1, len(subsets) + 1)]

    @property
    def discarded(self):
        """Features discarded before repetition t, t = 0..n_repetitions (in order found)."""
        return np.r_[0, np.cumsum(self.sizes)].astype(int)

    def removed_before(self, t):
        """Boolean mask of the features discarded before repetition t."""
        mask = np.zeros(self.n_features, dtype=bool)
        if t > 0:
            mask[np.concatenate(self.subsets[:t])] = True
        return mask

    def ranking(self):
        """Rank of every feature (1 = best): subsets sorted by size (stable), each by
        decreasing |w|; features never selected share the last rank n_selected + 1."""
        order = np.concatenate([self.subsets[t] for t in self.size_order]) if self.subsets \
            else np.zeros(0, dtype=int)
        ranking = np.full(self.n_features, order.size + 1, dtype=int)
        ranking[order] = np.arange(1, order.size + 1)
        return ranking


class _Fit:
    """What the path keeps of one fitted repetition, in the full feature space."""

    def __init__(self, support, weights, coef, intercept, predict, n_errors):
        self.support, self.weights, self.coef = support, weights, coef
        self.intercept, self.predict, self.n_errors = intercept, predict, n_errors


class _WarmRefitter:
    """SFM-family estimators: :class:`SubsetRefitter` (scaled once, warm starts)."""

    def __init__(self, estimator, X, y, warm_start):
        self._refitter = SubsetRefitter(estimator, X, y, warm_start=warm_start)
        self._X = X
        self.selectable = None

    def fit(self, exclude):
        fitted = self._refitter.fit(exclude=exclude, probability=False)  # only the subsets are used
        if self.selectable is None:
            scaler = getattr(fitted, "scaler_", None)
            constant = scaler.constant_features_ if scaler is not None else constant_features(self._X)
            self.selectable = ~constant
        support = np.flatnonzero(fitted.support_)
        return _Fit(support, np.abs(fitted.scaled_coef_[support]), fitted.coef_[0, support],
                    float(fitted.intercept_[0]), fitted.predict,
                    getattr(fitted, "n_training_errors_", 0))


class _ColumnRefitter:
    """Any other selector with ``get_support``: refitted on a column subset each time."""

    def __init__(self, estimator, X, y, warm_start):
        self._estimator, self._X, self._y = estimator, X, y
        self.selectable = ~constant_features(X)

    def fit(self, exclude):
        keep = np.flatnonzero(~exclude)
        X_keep = self._X[:, keep]
        fitted = clone(self._estimator).fit(X_keep, self._y)
        mask = np.asarray(fitted.get_support(), dtype=bool)
        support = keep[mask]
        coef = np.ravel(getattr(fitted, "coef_", np.ones(keep.size)))[mask]
        intercept = float(np.ravel(getattr(fitted, "intercept_", [0.0]))[0])
        return _Fit(support, np.abs(coef), coef, intercept,
                    lambda X: fitted.predict(X[:, keep]), 0)


def _make_refitter(estimator, X, y, warm_start):
    kind = _WarmRefitter if isinstance(estimator, IteratedL1Classifier) else _ColumnRefitter
    return kind(estimator, X, y, warm_start)


class _ChanceTestUnavailable(Exception):
    """The data are too small (per class or group) for the cross-validated chance test."""


class _ChanceTest:
    """Cross-validated balanced accuracy of the base estimator on F_t against guessing."""

    def __init__(self, estimator, X, y, groups, n_splits, warm_start, random_state):
        y = np.asarray(y)
        try:  # shuffled stratified k-fold, group-aware, k shrunk to the classes or groups
            splits = split_indices(make_cv(n_splits, y=y, groups=groups, random_state=random_state),
                                   X, y, groups)
            check_folds_keep_classes(splits, y, what="chance-test")
        except DataValidationError as exc:
            raise _ChanceTestUnavailable(str(exc).rstrip(".")) from None
        self.folds = [(_make_refitter(estimator, X[train], y[train], warm_start), test)
                      for train, test in splits]
        self.X, self.y = X, y

    def p_value(self, exclude):
        predicted = np.empty_like(self.y)
        labels = np.unique(self.y)
        for refitter, test in self.folds:
            try:
                predicted[test] = refitter.fit(exclude).predict(self.X[test])
            except NotSeparableError:  # no classifier on this fold: count its samples wrong
                predicted[test] = np.where(self.y[test] == labels[0], labels[1], labels[0])
        return balanced_accuracy_p_value(self.y, predicted)


def _summarise_warnings(caught, n_fits):
    """Re-emit the base estimator's warnings once per category instead of per repetition."""
    first = {}
    counts = {}
    for w in caught:
        first.setdefault(w.category, str(w.message))
        counts[w.category] = counts.get(w.category, 0) + 1
    for category, message in first.items():
        warnings.warn(
            f"{counts[category]} of {n_fits} fits of the repetitive SFM warned "
            f"({category.__name__}); the first: {message}", category, stacklevel=4)


def run_repetitions(estimator, X, y, groups=None, *, max_repetitions=None, chance_alpha=0.05,
                    chance_cv=5, warm_start=True, random_state=None, verbose=0, label="rSFM"):
    """Run the repetitive SFM on validated ``X`` (array or sparse) and labels ``y``.

    The building block of :class:`RepetitiveSFM`, of the informative-fraction estimate
    and of :func:`sfmlearn.mvpa.repetitive_decoding`, which run it once per fold. It
    does not validate its input: pass data checked at the edge (e.g. by
    ``sfmlearn._validation.check_binary_problem``), or use :class:`RepetitiveSFM`.

    Parameters
    ----------
    estimator : binary selector, unfitted
        SFM-family estimators are refitted through :class:`SubsetRefitter`
        (``warm_start`` keeps the column-generation working set); other selectors
        with ``get_support`` are refitted on column subsets of X.
    X : ndarray or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), two classes
    groups : ndarray of shape (n_samples,) or None
        Make the chance test of a soft base estimator group-aware.
    max_repetitions, chance_alpha, chance_cv, random_state
        As in :class:`RepetitiveSFM`; the stop rules are in the module docstring.
    warm_start : bool, default=True
        Keep the column-generation working set between the refits of an SFM-family
        estimator.
    verbose : int
        1: one line per repetition on stderr, prefixed with ``label``.
    label : str, default="rSFM"
        Prefix of the progress lines (e.g. the fold).

    Returns
    -------
    RepetitionPath
        The subsets in the order found, their classifiers and the stop reason.

    Examples
    --------
    ``make_basic`` returns validated data with labels -1/+1:

    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_basic
    >>> from sfmlearn.selection.repetitive import run_repetitions
    >>> X, y = make_basic(40, 200, 20, class_distance=1.0, random_state=0)
    >>> path = run_repetitions(SupportFeatureMachine(), X, y, max_repetitions=3)
    >>> path.n_repetitions, path.subsets[0].tolist()   # the first subset is the plain SFM's
    (3, [1, 7, 13])
    """
    n_features = X.shape[1]
    refitter = _make_refitter(estimator, X, y, warm_start)
    soft = getattr(estimator, "C", None) is not None
    chance = None
    if soft and chance_alpha is not None:
        try:
            chance = _ChanceTest(estimator, X, y, groups, chance_cv, warm_start, random_state)
        except _ChanceTestUnavailable as reason:
            warnings.warn(f"The cross-validated chance test of the soft repetitive SFM cannot "
                          f"run ({reason}); the run continues until another stop rule holds.",
                          UserWarning, stacklevel=2)
    removed = np.zeros(n_features, dtype=bool)
    subsets, coef_rows, intercepts, errors, p_values, seconds = [], [], [], [], [], []
    stop_reason, stop_p, failure = None, float("nan"), None
    caught_all, n_fits = [], 0
    while stop_reason is None:
        t = len(subsets)
        if max_repetitions is not None and t >= max_repetitions:
            stop_reason = "max_repetitions"
            break
        if refitter.selectable is not None and not (refitter.selectable & ~removed).any():
            stop_reason = "features_exhausted"
            break
        check_time_limit(f"{t} repetition{'' if t == 1 else 's'} of the repetitive SFM"
                         + ("" if label == "rSFM" else f" ({label})"))
        started = time.perf_counter()
        n_fits += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            step = ""
            try:
                fit = refitter.fit(removed)
                step = " (in its chance test's fold fits)"
                p = np.nan
                if chance is not None and fit.support.size:
                    n_fits += len(chance.folds)  # their warnings are summarised with the repetitions'
                    p = chance.p_value(removed)
            except NotSeparableError:
                fit = None
            except SolverError as error:
                if not subsets:
                    raise
                fit, failure = None, (step, error)
        caught_all.extend(caught)
        if failure is not None:
            stop_reason = "solver_failed"
        elif fit is None:
            stop_reason = "not_separable"
        elif fit.support.size == 0:
            stop_reason = "no_features_selected"
        elif chance is not None and p > chance_alpha:
            stop_reason, stop_p = "chance", float(p)
        else:
            order = np.argsort(-fit.weights, kind="stable")
            subsets.append(fit.support[order])
            coef_rows.append((fit.support, fit.coef))
            intercepts.append(fit.intercept)
            errors.append(fit.n_errors)
            p_values.append(p)
            seconds.append(time.perf_counter() - started)
            removed[fit.support] = True
            if verbose:
                print(f"[{label}] repetition {t + 1}: {fit.support.size} features selected, "
                      f"{int((~removed).sum())} left" + ("" if np.isnan(p) else f", chance p = {p:.3g}")
                      + f" ({seconds[-1]:.2f} s)", file=sys.stderr)
    if verbose:
        print(f"[{label}] stopped after {len(subsets)} repetitions: {stop_reason}", file=sys.stderr)
    _summarise_warnings(caught_all, n_fits)
    if failure is not None:
        left = int((refitter.selectable & ~removed).sum())  # constant features never count
        step, error = failure
        warnings.warn(
            f"The repetitive SFM stopped after {len(subsets)} repetitions: the linear programs of "
            f"repetition {len(subsets) + 1}{step} could not be solved ({str(error).rstrip('.')}). The "
            f"{len(subsets)} subsets found are kept; the {left} selectable features left were "
            "not examined.", UserWarning, stacklevel=2)
    return RepetitionPath(
        n_features=n_features, subsets=subsets, coefs=_stack_rows(coef_rows, n_features),
        intercepts=np.array(intercepts, dtype=float), n_training_errors=np.array(errors, dtype=int),
        chance_p_values=np.array(p_values, dtype=float), seconds=np.array(seconds),
        stop_reason=stop_reason, stop_p_value=stop_p)


def _stack_rows(rows, n_features):
    """Sparse (n_rows, n_features) matrix from (column indices, values) per row."""
    indptr = np.r_[0, np.cumsum([cols.size for cols, _ in rows])].astype(np.int64)
    indices = np.concatenate([cols for cols, _ in rows]) if rows else np.zeros(0, dtype=np.int64)
    data = np.concatenate([vals for _, vals in rows]) if rows else np.zeros(0)
    return sp.csr_array((data, indices, indptr), shape=(len(rows), n_features))
