"""The repetitive Support Feature Machine (NC 4.4, thesis 3.2 and 6.3)."""

import numbers
import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.utils import ClassifierTags
from sklearn.utils._param_validation import HasMethods, Interval, InvalidParameterError, StrOptions

from ..._validation import check_binary_problem, check_fit_params
from ...exceptions import DataValidationError, NotSeparableError
from ...model_selection import check_groups, make_folds, mean_recall
from ...preprocessing import SFMScaler, quiet_constant_features
from ...utils.parameters import forget_fit, set_parameters
from .._checked import CheckedTransformMixin, SupportMaskMixin
from .._constraints import N_JOBS, POSITIVE_INT, UNIT_INTERVAL
from ..sfm.machine import SupportFeatureMachine
from .informative import check_cs, estimate_informative_fraction
from .path import run_repetitions

__all__ = ["RepetitiveSFM", "SUBSETS_CLASSIFIER"]

#: The classifier that scores the first k subsets for ``n_subsets="auto"``: a soft
#: linear SVM (C = 1) on the SFMScaler-scaled selected features. Its seed is fixed: the
#: dual solver (more selected features than samples) draws a coordinate order, from
#: NumPy's global generator, seeded anew in every process, if ``random_state`` is None.
SUBSETS_CLASSIFIER = make_pipeline(SFMScaler(), LinearSVC(C=1.0, random_state=0))


def _check_found(path, base):
    """Raise for a run that found nothing: a hard ``base`` on non-separable classes."""
    if path.n_repetitions == 0 and path.stop_reason == "not_separable":
        raise NotSeparableError(
            f"The hard {type(base).__name__} has no solution on all features (the classes "
            "are not linearly separable), so the repetitive SFM finds nothing. Use a soft "
            f"base estimator, e.g. RepetitiveSFM({type(base).__name__}(C=1.0)).")


def _finished_run(model, path, classes, feature_names):
    """``from_repetitions``' checks: parameters that need no data, a run that found
    something, two classes, one name per feature; returns (classes, names or None)."""
    if model.n_subsets == "auto" or model.informative_every is not None:
        what = 'n_subsets="auto"' if model.n_subsets == "auto" else f"informative_every={model.informative_every}"
        raise InvalidParameterError(f"from_repetitions: {what} needs the data; call fit")
    _check_found(path, model.estimator or SupportFeatureMachine())
    classes = np.asarray(classes)
    if classes.ndim != 1 or classes.size != 2:
        raise DataValidationError(f"from_repetitions: classes must be the run's two class labels, got {classes.tolist()!r}")
    if feature_names is None:
        return classes, None
    names = np.asarray(feature_names, dtype=object)
    if names.shape != (path.n_features,):
        raise DataValidationError(f"from_repetitions: {names.size} feature names for a run on {path.n_features} features")
    return classes, names


class RepetitiveSFM(SupportMaskMixin, CheckedTransformMixin, SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    r"""Repetitive SFM: fit, discard the selected features, refit -- a ranking of all features.

    NC 4.4 / thesis Fig. 3.3: train an SFM on all features, remove the features it
    selects, retrain on the rest, and so on, until the classes are no longer separable
    within the remaining features:

    .. math::

        F_0 = \{1, \dots, d\}, \qquad R_t = \operatorname{support}(\text{SFM on } F_t),
        \qquad F_{t+1} = F_t \setminus R_t.

    Real data hold many informative subsets that each separate the classes; the rSFM finds them one after another, most informative
    first. Because the SFM may stop in a local optimum, subsets are sorted by size
    (smallest first; equal sizes keep the order found), which defines the ranking
    (NC 4.4). With ``informative_every`` the fit also estimates the fraction of
    informative features (:func:`~sfmlearn.estimate_informative_fraction`).

    Stop rules (``stop_reason_``): ``"not_separable"`` (hard SFM: no solution on the rest,
    NC 4.4), ``"chance"`` (soft SFM: a selection no longer beats chance in a CV test, see
    ``chance_alpha``), ``"no_features_selected"``, ``"features_exhausted"``,
    ``"max_repetitions"``, ``"solver_failed"`` (a later LP failed; the subsets are kept).

    The data are validated and scaled once, on all features
    (:class:`~sfmlearn.selection._base.SubsetRefitter`): a soft SFM's C therefore means
    the same in every repetition, and each refit starts from the previous repetition's
    column-generation working set (``warm_start``).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        The base selector. SFM-family estimators (SupportFeatureMachine,
        WestonZeroNormSVM) are refitted on the shared scaled data with warm starts; any
        other selector with ``get_support`` is refitted on column subsets of X.
    max_repetitions : int or None, default=None
        Stop after this many subsets (None: until another rule stops the run).
    n_features_to_select : int, float or None, default=None
        ``transform`` keeps the best-ranked features: an int count, or a float in
        (0, 1] as a fraction of all features. Only ranked (selected) features are kept.
    n_subsets : int, "auto" or None, default=None
        ``transform`` keeps the features of the first ``n_subsets`` subsets in size
        order. Give at most one of the two; with neither, every selected feature is kept.
        "auto" chooses it by inner cross-validation (``subsets_cv`` folds, group-aware
        with ``groups``): every training fold runs the rSFM (at most ``max_repetitions``,
        10 if that is None), a linear SVM (:data:`SUBSETS_CLASSIFIER`) is trained on the
        first k subsets for every k and scored on the held-out fold (balanced accuracy),
        and the k with the best mean score wins (ties: fewer subsets). The thesis' best
        leukemia result (94 %) came from accumulating the first five subsets.
    subsets_cv : int, default=5
        Folds of the choice of ``n_subsets="auto"``.
    chance_alpha : float or None, default=0.05
        Soft base estimators only: stop at the first repetition whose selection does
        not beat chance at this level. The test: ``chance_cv``-fold cross-validation of
        the base estimator on the remaining features (features re-selected in every
        fold) and an exact one-sided test of the pooled out-of-fold balanced accuracy
        against guessing (:func:`~sfmlearn.model_selection.balanced_accuracy_p_value`).
        The training accuracy of the repetition's own classifier cannot serve: it is
        measured on the samples its features were picked for, and on pure noise with
        d >> n it stays far above a binomial bound. None disables the test (a soft rSFM then
        runs until the features run out, and its late subsets of one or two weak features sort
        before the earlier, larger ones by size; ``subsets_`` keeps the order found). Hard
        SFMs stop when infeasible.
    chance_cv : int, default=5
        Folds of the chance test (group-aware when ``groups`` are passed to fit).
    informative_every : int or None, default=None
        If set, ``fit`` also estimates the fraction of informative features:
        cross-validated rSFM runs, a soft SVM on the remaining features after every
        ``informative_every``-th repetition, a sigmoid fit (NC 4.4, thesis 6.3).
    svm_Cs : array-like or None, default=None
        Softness grid of that SVM (default :data:`sfmlearn.selection.repetitive.DEFAULT_CS`).
    cv : None, int, "loo", "logo" or splitter, default=None
        Outer folds of the estimate (None: leave one group out with groups, else
        stratified 5-fold).
    aggregate : {"mean", "median"}, default="mean"
        How the fold curves of the estimate are combined.
    warm_start : bool, default=True
        Start every refit from the previous repetition's column-generation working set.
    random_state : int, RandomState or None
        Seeds the shuffled folds of the chance test and of the estimate.
    n_jobs : int or None
        Parallel jobs of the estimate (folds, then SVM evaluations) through joblib.
    verbose : int, default=0
        1 prints one line per repetition (and per fold of the estimate) to stderr.

    Attributes
    ----------
    subsets_ : list of ndarray of int
        Features selected in each repetition, in the order found; within a subset by
        decreasing |w| (the SFM weight on the scaled features).
    subsets_by_size_ : list of ndarray of int
        The same subsets sorted by size (stable). Concatenated, they list the selected
        features by rank.
    ranking_ : ndarray of int, shape (n_features,)
        1 for the best feature; never-selected features share rank n_selected + 1.
    coefs_ : scipy.sparse.csr_array of shape (n_repetitions, n_features)
        Each repetition's weights in input space (its classifier is
        ``X @ coefs_[t] + intercepts_[t]``).
    intercepts_ : ndarray of shape (n_repetitions,)
    n_training_errors_ : ndarray of shape (n_repetitions,)
    chance_p_values_ : ndarray of shape (n_repetitions,)
        p-values of the chance test (NaN where it did not run).
    stop_p_value_ : float
        p-value of the repetition that stopped a run for ``"chance"`` (else NaN).
    n_repetitions_ : int
    stop_reason_ : str
    support_ : ndarray of bool
        Features kept by ``transform``.
    n_subsets_ : int
        Subsets kept by ``transform`` (the choice of ``n_subsets="auto"``; else
        ``n_subsets`` or all).
    n_subsets_scores_ : ndarray of shape (n_folds, k_max)
        Only with ``n_subsets="auto"``: held-out balanced accuracy of the first k subsets
        (column k - 1) per fold; NaN where a fold found fewer than k subsets.
    informative_ : InformativeFraction
        Only with ``informative_every``: curves, fits, per-fold paths.
    informative_fraction_ : float
        Only with ``informative_every``: the estimate (NaN if none could be made;
        ``informative_.reason`` says why).
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import RepetitiveSFM
    >>> from sfmlearn.datasets import make_basic
    >>> X, y = make_basic(40, 200, 20, class_distance=1.0, random_state=0)
    >>> rsfm = RepetitiveSFM(max_repetitions=5).fit(X, y)
    >>> rsfm.n_repetitions_, rsfm.stop_reason_
    (5, 'max_repetitions')
    >>> bool((rsfm.ranking_[rsfm.subsets_by_size_[0]] <= rsfm.subsets_by_size_[0].size).all())
    True
    """

    def __init__(self, estimator=None, *, max_repetitions=None, n_features_to_select=None,
                 n_subsets=None, chance_alpha=0.05, chance_cv=5, informative_every=None,
                 svm_Cs=None, cv=None, aggregate="mean", warm_start=True, random_state=None,
                 n_jobs=None, verbose=0, subsets_cv=5):
        set_parameters(self, locals())

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "get_support"]), None],
        "max_repetitions": [POSITIVE_INT, None],
        "n_features_to_select": [POSITIVE_INT, UNIT_INTERVAL, None],
        "n_subsets": [POSITIVE_INT, StrOptions({"auto"}), None],
        "subsets_cv": [Interval(Integral, 2, None, closed="left")],
        "chance_alpha": [Interval(numbers.Real, 0, 1, closed="neither"), None],
        "chance_cv": [Interval(Integral, 2, None, closed="left")],
        "informative_every": [POSITIVE_INT, None],
        "svm_Cs": ["array-like", None],
        "cv": [None, Interval(Integral, 2, None, closed="left"), StrOptions({"loo", "logo"}),
               "cv_object"],
        "aggregate": [StrOptions({"mean", "median"})],
        "warm_start": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    }

    def _check_params(self):
        if self.estimator is not None and not hasattr(self.estimator, "get_support"):
            raise InvalidParameterError(
                f"RepetitiveSFM needs a binary feature selector as its estimator (one with "
                f"fit and get_support), e.g. SupportFeatureMachine(C=1.0) or "
                f"WestonZeroNormSVM(); got {self.estimator!r}, which selects no features. To "
                "rank features by a classifier's weights use sklearn.feature_selection.RFE.")
        self._validate_params()
        if self.n_features_to_select is not None and self.n_subsets is not None:
            raise InvalidParameterError("Give n_features_to_select or n_subsets, not both.")
        if self.informative_every is not None:
            check_cs(self.svm_Cs)

    def fit(self, X, y, groups=None, **fit_params):
        """Run the repetitive SFM (and, with ``informative_every``, the estimate).

        ``groups`` (one id per sample, e.g. participants) make the chance test and the
        estimate's cross-validations group-aware.

        Raises
        ------
        NotSeparableError
            If a hard base SFM has no solution already on all features.
        """
        check_fit_params(self, fit_params)
        self._check_params()
        forget_fit(self)  # n_subsets_scores_ and informative_ only exist for some settings
        base = SupportFeatureMachine() if self.estimator is None else self.estimator
        X, y_signed, self.classes_ = check_binary_problem(self, X, y)
        # the labels in a plain dtype: scikit-learn's classifiers and splitters cannot type
        # labels held as objects (0/1 from a pandas object column)
        labels = np.asarray(self.classes_.tolist())[(y_signed > 0).astype(int)]
        groups = check_groups(groups, labels.size)
        path = run_repetitions(
            clone(base), X, labels, groups, max_repetitions=self.max_repetitions,
            chance_alpha=self.chance_alpha, chance_cv=self.chance_cv, warm_start=self.warm_start,
            random_state=self.random_state, verbose=self.verbose)
        _check_found(path, base)
        n_subsets = self.n_subsets
        if n_subsets == "auto":
            n_subsets, self.n_subsets_scores_ = self._choose_n_subsets(base, X, labels, groups, len(path.subsets))
        self._store_path(path, n_subsets)
        if self.informative_every is not None:
            self.informative_ = estimate_informative_fraction(
                X, labels, groups, estimator=clone(base),
                informative_every=self.informative_every, svm_Cs=self.svm_Cs, cv=self.cv, aggregate=self.aggregate,
                max_repetitions=self.max_repetitions, chance_alpha=self.chance_alpha,
                chance_cv=self.chance_cv, warm_start=self.warm_start,
                random_state=self.random_state, n_jobs=self.n_jobs, verbose=self.verbose)
            self.informative_fraction_ = self.informative_.estimate
        return self

    @classmethod
    def from_repetitions(cls, path, classes, feature_names_in=None, **params):
        """The estimator with ``params`` fitted from a finished run (``path``, the
        :class:`~sfmlearn.selection.repetitive.path.RepetitionPath` of its ``estimator``
        and ``max_repetitions``) on data with these ``classes`` and feature names: what
        ``fit`` would set, without running it again (``n_subsets`` an int or None, no
        ``informative_every``)."""
        model = cls(**params)
        model._check_params()
        model.classes_, names = _finished_run(model, path, classes, feature_names_in)
        model.n_features_in_ = path.n_features
        if names is not None:
            model.feature_names_in_ = names
        model._store_path(path, model.n_subsets)
        return model

    def _store_path(self, path, n_subsets):
        """The fitted attributes of a finished run ``path``, keeping the first ``n_subsets``
        subsets by size (None: as ``n_features_to_select`` says)."""
        self.subsets_ = path.subsets
        self.subsets_by_size_ = [path.subsets[t] for t in path.size_order]
        self.ranking_ = path.ranking()
        self.coefs_ = path.coefs
        self.intercepts_ = path.intercepts
        self.n_training_errors_ = path.n_training_errors
        self.chance_p_values_ = path.chance_p_values
        self.stop_p_value_ = path.stop_p_value
        self.n_repetitions_ = path.n_repetitions
        self.stop_reason_ = path.stop_reason
        if n_subsets is not None and n_subsets > len(self.subsets_):
            warnings.warn(
                f"n_subsets={n_subsets} asks for more subsets than the {len(self.subsets_)} the repetitive SFM "
                f"found ({self.stop_reason_}); keeping those.", UserWarning, stacklevel=3)
        self.n_subsets_ = len(self.subsets_) if n_subsets is None else min(n_subsets, len(self.subsets_))
        self.support_ = self._kept_features()
        if not self.support_.any():
            warnings.warn(
                f"RepetitiveSFM selected no feature: the first repetition already stopped "
                f"({self.stop_reason_}). On data without signal this is the right answer; "
                "otherwise use a softer base estimator or chance_alpha=None.", UserWarning,
                stacklevel=3)

    def _choose_n_subsets(self, base, X, labels, groups, found):
        """``n_subsets="auto"``: the k of the best held-out score (class docstring), at
        most the ``found`` subsets of the run on all data."""
        limit = 10 if self.max_repetitions is None else self.max_repetitions
        folds = make_folds(self.subsets_cv, X, labels, groups, random_state=self.random_state,
                           what="RepetitiveSFM(n_subsets='auto')")
        scores = np.full((len(folds), limit), np.nan)
        for f, (train, test) in enumerate(folds):
            with quiet_constant_features():  # the run on all data names them
                path = run_repetitions(
                    clone(base), X[train], labels[train], None if groups is None else groups[train],
                    max_repetitions=limit, chance_alpha=self.chance_alpha, chance_cv=self.chance_cv,
                    warm_start=self.warm_start, random_state=self.random_state)
            for k, keep in enumerate(path.unions(), start=1):
                model = clone(SUBSETS_CLASSIFIER).fit(X[train][:, keep], labels[train])
                scores[f, k - 1] = mean_recall(labels[test], model.predict(X[test][:, keep]))
        tried = ~np.isnan(scores)
        mean = np.full(limit, -np.inf)
        mean[tried.any(axis=0)] = np.nanmean(scores[:, tried.any(axis=0)], axis=0)
        found = max(1, found)
        best = int(np.argmax(mean[:found])) + 1  # the first maximum: ties to fewer subsets
        return best, scores

    def _kept_features(self):
        n_ranked = int(sum(s.size for s in self.subsets_))
        if self.n_subsets is not None:
            keep = np.concatenate(self.subsets_by_size_[: self.n_subsets_] or [np.zeros(0, int)])
            mask = np.zeros(self.n_features_in_, dtype=bool)
            mask[keep] = True
            return mask
        k = self.n_features_to_select
        if k is None:
            return self.ranking_ <= n_ranked
        count = int(k) if isinstance(k, numbers.Integral) else max(1, int(round(k * self.n_features_in_)))
        if count > n_ranked:
            warnings.warn(
                f"n_features_to_select={k} asks for {count} features, but the repetitive SFM "
                f"ranked only {n_ranked} (stop: {self.stop_reason_}); keeping those.", UserWarning)
        return self.ranking_ <= min(count, n_ranked)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = False
        tags.target_tags.required = True
        # A transformer that separates two classes: scikit-learn's checks then give it
        # binary targets (their transformer checks otherwise use 3-4 classes).
        tags.classifier_tags = ClassifierTags(multi_class=False)
        return tags
