r"""Softness C chosen by cross-validation: SupportFeatureMachineCV, WestonZeroNormSVMCV.

As ``LogisticRegressionCV`` and glmnet's ``cv.glmnet``: the grid of C is the
data-adaptive one of :func:`~sfmlearn.selection.sfm.path.default_Cs` (computed on the data
passed to ``fit``), every training fold fits the whole path
(:func:`~sfmlearn.selection.sfm.path.sfm_path`, features re-selected in every fold, so
the scores are not biased by the selection: thesis 6.2) and every fit is scored on the
held-out fold (``scoring``, balanced accuracy by default). With 40-90 training samples
one 5-fold split is noisy, so the split is repeated ``n_repeats`` times with new shuffles
(3 by default; a fixed scheme such as leave one group out runs once).

What is compared across folds (``align``):

* ``"n_features"`` (default): the folds are aligned by the number of selected features.
  The grid is computed once, but every fold's path crosses it differently -- grid
  index i is one feature in one fold and four in another -- so averaging by C mixes
  sparsities. For each budget k every fold contributes the score of its densest fit with
  at most k features (:func:`~sfmlearn.model_selection.scores_within_budget`); the budget
  is chosen on these aligned scores and the final model is the full data's densest
  candidate within it (``budget_``, ``budget_results_``). The path ends at the hard
  SFM's few features; :class:`SupportFeatureMachineCV`'s candidates go on with the
  unions of the first t subsets of the repetitive SFM, each with logistic regression
  on it (``max_repetitions``, :mod:`.unions`), so that the choice can take more
  features where the information is spread over many (DEXTER, colon);
* ``"C"``: the mean score of each grid point, as ``LogisticRegressionCV``.

and how (``select``):

* ``"best"``: the highest mean score (ties: fewer features, then smaller C);
* ``"1se"``: the one-standard-error rule (as ``cv.glmnet``'s lambda.1se), towards
  fewer features: among the candidates whose mean score is at least the best mean minus
  its standard error,
  :math:`\bar s \ge \bar s_\text{best} - \mathrm{SD}_\text{best} / \sqrt{n_\text{folds}}`
  (SD over folds with divisor :math:`n_\text{folds}`, as ``std_test_score``; glmnet's is
  :math:`n_\text{folds} - 1`), the one with the fewest features (ties: higher score, then smaller
  C). It never selects more features than "best", since "best" itself is a candidate.

The best inner score is a *selection score*: the maximum over the grid of noisy means,
optimistic by construction (on pure noise, n = 40, d = 2000, 10 seeds: 59.8 % with the
default choice while the nested estimate is 53.2 %, ``benchmarks/bench_choice.py --part
noise``); an
estimate of the accuracy needs an outer cross-validation around the whole choice
(``sklearn.model_selection.cross_val_score(SupportFeatureMachineCV(), X, y)``, or
``sfmlearn select --C auto``, which prints both and names them).

The slack term sums C over the training errors, so the same C is softer on fewer samples:
both ends of the path scale like 1/n (the duals behind them are sums over samples). Each
fold is therefore fitted at C n / n_train, which puts its single-feature and hard ends
where the full data's are (glmnet's lambda multiplies a *mean* loss for the same reason);
``Cs_`` and ``C_`` are on the scale of the full data. The final model is the full-data fit
at the chosen C (or the chosen budget); its fitted attributes
(``support_``, ``coef_``, ``history_`` ...) are the estimator's own.
``selection_frequency_`` is the fraction of inner fits whose chosen fit selected each
feature: the stability a user needs to trust a gene. Folds run through joblib
(``n_jobs``; ``joblib.parallel_config(backend="dask")`` spreads them over a cluster).

The defaults of :class:`SupportFeatureMachineCV` (aligned by features, 3 repeats, a
12-point grid, ``class_weight="balanced"``) are the ones that measured best in
``benchmarks/bench_choice.py`` and ``benchmarks/bench_peers.py`` (user guide, choosing C);
``refit="logistic"`` (a soft hyperplane on the selected features) was better on colon and
worse on Haxby's face/house. ``Cs=20, align="C", n_repeats=1, class_weight=None`` is the
rule of sfmlearn 0.1.
"""

import inspect
import warnings
from numbers import Integral

import numpy as np
from joblib import delayed
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.utils._param_validation import Interval, StrOptions

from ..._validation import ACCEPTED_SPARSE, check_binary_problem, check_class_weight, check_fit_params
from ...exceptions import DataValidationError
from ...model_selection import (check_groups, choose_budget, densest_within_budget, is_shuffled_kfold,
                                make_repeated_folds, scores_within_budget)
from ...optim.reweighting import ITERATED_L1_TOL
from ...preprocessing import quiet_constant_features
from ...utils.parallel import Parallel
from ...utils.parameters import forget_fit, set_parameters
from .._base import class_sample_weights
from .._checked import LinearTwoClassSelector
from .._constraints import N_JOBS
from .._probability import fit_platt
from .fold_candidates import (SIGNED_CLASSES, check_fold_scoring, check_inner_scoring, distance_scale,
                              feature_factor, fold_candidates)
from .machine import SupportFeatureMachine
from .path import MAX_N_CS, check_Cs, default_Cs, sfm_path
from .unions import union_fits, union_repetitions, union_selector
from .zero_norm import WestonZeroNormSVM

__all__ = ["SupportFeatureMachineCV", "WestonZeroNormSVMCV", "choose_C"]

_CV_PARAMETERS = {"Cs", "cv", "n_repeats", "align", "select", "scoring", "n_jobs", "random_state",
                  "max_repetitions"}

#: Most inner fits (values of C x folds, repeats included) one choice may run: with 20
#: values of C, 1000 leave-one-out folds; a larger request is refused before any fit.
MAX_FOLD_FITS = 20_000
#: Points of the default grid of the CV estimators: aligned by the number of features the
#: choice needs no finer grid (colon, 5 x 2 outer CV: 79.8 % with 12 points, 81.0 % with
#: 20, SE 2.2; half the time), which pays for the repeated split.
CV_N_CS = 12
#: Most repeats of the inner k-fold split.
MAX_N_REPEATS = 50
#: Repetitions of the repetitive SFM whose unions extend SupportFeatureMachineCV's
#: candidates by default (:mod:`.unions`; user guide, choosing C).
CV_MAX_REPETITIONS = 20
#: Most repetitions one choice may ask for (each is one hard SFM fit per fold).
MAX_CV_REPETITIONS = 100


def check_work(owner, n_Cs, n_folds, n_repetitions=0):
    """Refuse, before any fit, a grid (and repetitive-SFM fits) x folds that would run for
    hours (:data:`MAX_FOLD_FITS`)."""
    per_fold = n_Cs + n_repetitions
    if per_fold * n_folds > MAX_FOLD_FITS:
        what = f"{n_Cs} values of C" + (f" + {n_repetitions} repetitions" if n_repetitions else "")
        raise DataValidationError(
            f"{owner}: {what} x {n_folds} folds = {per_fold * n_folds} fits exceeds the limit "
            f"of {MAX_FOLD_FITS}; pass fewer Cs, {'fewer max_repetitions, ' if n_repetitions else ''}"
            "fewer folds (cv) or fewer n_repeats.")


def choose_C(mean_score, sem_score, mean_features, select):
    """Index of the chosen C (module docstring) from per-C fold summaries."""
    mean_score = np.asarray(mean_score, dtype=np.float64)
    order = np.arange(mean_score.size)
    if select == "best":
        best = np.flatnonzero(mean_score >= np.nanmax(mean_score) - 1e-12)
        return int(min(best, key=lambda i: (mean_features[i], i)))
    top = int(np.nanargmax(mean_score))
    within = order[mean_score >= mean_score[top] - sem_score[top] - 1e-12]
    return int(min(within, key=lambda i: (mean_features[i], -mean_score[i], i)))


def _warn_one_class_folds(estimator, folds, y_signed):
    """Say when test folds hold one class (leave one out; groups of one class, such as
    patients of one diagnosis): their balanced accuracy is the recall of that class, and
    the mean over the folds weights each class by its number of folds, not equally."""
    one_class = sum(np.unique(y_signed[test]).size < 2 for _, test in folds)
    if one_class and estimator.scoring == "balanced_accuracy":
        warnings.warn(
            f"{one_class} of the {len(folds)} inner test folds of {type(estimator).__name__} hold one class (leave "
            "one out, or groups of one class): the balanced accuracy of such a fold is the recall of its class, so "
            "the choice weights each class by its number of folds. Folds of whole groups that hold both classes "
            "(cv=5 with groups) weight them equally.", UserWarning, stacklevel=4)


def _budget_results(scores, n_features):
    """``budget_results_``: the fold scores aligned by the number of selected features
    (:func:`~sfmlearn.model_selection.scores_within_budget`), per budget 1, 2, ...;
    ``scores`` and ``n_features`` hold one array per fold (their candidate lists may
    differ in length)."""
    top = max(int(np.max(sizes)) for sizes in n_features)
    budgets = np.arange(1, max(top, 1) + 1)  # every fit empty: budget 1
    aligned = np.array([scores_within_budget(fold_scores[None, :], sizes[None, :], budgets)[0]
                        for fold_scores, sizes in zip(scores, n_features)])
    within = (~np.isnan(aligned)).sum(axis=0)  # folds that reach each budget
    filled = np.nan_to_num(aligned)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(within > 0, filled.sum(axis=0) / within, np.nan)
        sd = np.sqrt(np.where(within > 0, (np.where(np.isnan(aligned), 0.0, (aligned - mean) ** 2)).sum(axis=0)
                              / within, np.nan))
    results = {"n_features": budgets, "mean_test_score": mean, "std_test_score": sd,
               "sem_test_score": sd / np.sqrt(within.clip(min=1)), "n_folds_within": within}
    for f, row in enumerate(aligned):
        results[f"split{f}_test_score"] = row
    return results


class _SoftnessCV(LinearTwoClassSelector):
    """The shared implementation (module docstring); subclasses name ``_estimator_class``
    and list its parameters in their ``__init__``."""

    _estimator_class = None
    _sparse_input = True

    def _base_estimator(self):
        params = {k: v for k, v in self.get_params(deep=False).items() if k not in _CV_PARAMETERS}
        return self._estimator_class(**params)

    def _probability_decision(self, X):
        """The signed distance to the hyperplane in the SFM's scaled space (:func:`~.fold_candidates.distance_scale`)."""
        return self.decision_function(X) / self.decision_scale_

    def _max_repetitions(self):
        """Repetitions of the repetitive SFM whose unions extend the candidates (:mod:`.unions`)."""
        return 0

    def _full_data_choice(self, base, class_weight, X, labels, y_signed, Cs, max_repetitions):
        """The full data's candidates (``candidate_supports_``) and the densest within
        ``budget_``: its index, the fitted estimator, for a union its
        :class:`~.unions.UnionFit` (else None), and the factors of the full data's SFM
        scaling (:func:`~.fold_candidates.feature_factor`). A union sets ``C_`` None and
        ``n_subsets_``; its estimator is the :class:`~sfmlearn.RepetitiveSFM` of the
        repetitions behind the unions, keeping the chosen union's subsets."""
        path = sfm_path(X, labels, Cs, estimator=base)
        unions = []
        if max_repetitions:
            weights = class_sample_weights(y_signed, SIGNED_CLASSES, class_weight)
            repetitions = union_repetitions(X, y_signed, max_repetitions)
            unions = union_fits(X, y_signed, weights, repetitions, path.n_features.max())
        self.candidate_supports_ = np.vstack([path.supports] + [union.support[None, :] for union in unions])
        sizes = self.candidate_supports_.sum(axis=1)
        chosen = densest_within_budget(sizes, self.budget_)
        chosen = chosen if chosen >= 0 else int(np.argmin(sizes))
        factor = feature_factor(path.estimators[0])
        if chosen < Cs.size:
            self.C_ = float(Cs[chosen])
            return chosen, path.estimators[chosen], None, factor
        union = unions[chosen - Cs.size]
        self.C_, self.n_subsets_ = None, union.n_subsets
        fitted = union_selector(repetitions, max_repetitions, union.n_subsets, path.estimators[0].classes_,
                                getattr(self, "feature_names_in_", None))
        return chosen, fitted, union, factor

    def fit(self, X, y, groups=None, **fit_params):
        """Choose the softness by cross-validation and refit on all data at it.

        ``groups`` (one id per sample: participants, runs, batches) keep every group in
        one fold (leave one group out when ``cv`` is None).
        """
        forget_fit(self)  # which attributes a fit sets depends on align and on the chosen fit
        try:
            return self._fit(X, y, groups, fit_params)
        except Exception:
            forget_fit(self)  # unfitted, not half of a fit
            raise

    def _fit(self, X, y, groups, fit_params):
        """:meth:`fit`'s work."""
        check_fit_params(self, fit_params)
        self._validate_params()  # the base's parameters too (_cv_constraints)
        base = self._base_estimator()
        X, y_signed, classes = check_binary_problem(self, X, y, accept_sparse=ACCEPTED_SPARSE)
        check_inner_scoring(self, self.scoring)
        # The folds fit and score on -1/+1 labels (positive = classes[1], as in every fit):
        # splitters and scorers then see a plain binary target whatever the labels' dtype.
        labels = classes[(y_signed > 0).astype(int)]
        signed_base = base
        if isinstance(base.class_weight, dict):
            negative, positive = check_class_weight(base.class_weight, classes)
            signed_base = clone(base).set_params(class_weight={-1: negative, 1: positive})
        groups = check_groups(groups, labels.size)
        # A fold that loses a class names it by the user's label.
        folds = make_repeated_folds(self.cv, X, y_signed, groups, n_repeats=self.n_repeats,
                                    random_state=self.random_state,
                                    what=f"{type(self).__name__}'s", labels=labels)
        check_fold_scoring(self, self.scoring, X, y_signed, folds, classes)
        _warn_one_class_folds(self, folds, y_signed)
        Cs = self.Cs
        fold_factor = y_signed.size / min(train.size for train, _ in folds)  # the folds fit C n / n_train
        if Cs is not None and not isinstance(Cs, Integral):
            Cs = check_Cs(Cs, scaled_by=fold_factor)
        max_repetitions = self._max_repetitions() if self.align == "n_features" else 0
        n_Cs = CV_N_CS if Cs is None else Cs if isinstance(Cs, Integral) else Cs.size
        check_work(type(self).__name__, n_Cs, len(folds), max_repetitions)
        if Cs is None or isinstance(Cs, Integral):
            with quiet_constant_features():  # the full data's fit names the constant features
                Cs = check_Cs(default_Cs(X, y_signed, estimator=signed_base, n_Cs=n_Cs), scaled_by=fold_factor)
        outcomes = Parallel(n_jobs=self.n_jobs, what="inner folds of the choice of C")(
            delayed(fold_candidates)(signed_base, X, y_signed, train, test, Cs, self.scoring, max_repetitions, classes)
            for train, test in folds)
        scores = np.array([o[0][:Cs.size] for o in outcomes])  # (folds, Cs): the path's fits
        n_features = np.array([o[1][:Cs.size].sum(axis=1) for o in outcomes])
        mean, sd = scores.mean(axis=0), scores.std(axis=0)
        sem = sd / np.sqrt(len(folds))
        self.n_subsets_ = 0
        if self.align == "C":  # one grid index for every fold (choose_C)
            chosen = choose_C(mean, sem, n_features.mean(axis=0), self.select)
            fold_choice = np.full(len(folds), chosen)
            fitted = clone(base).set_params(C=float(Cs[chosen])).fit(X, labels)
            self.C_ = float(Cs[chosen])
            factor = feature_factor(fitted)
        else:  # the budget k from the aligned scores, and every fold's densest candidate within it
            fold_sizes = [o[1].sum(axis=1) for o in outcomes]
            self.budget_results_ = _budget_results([o[0] for o in outcomes], fold_sizes)
            budgets = self.budget_results_["n_features"]
            aligned = np.array([self.budget_results_[f"split{f}_test_score"] for f in range(len(folds))])
            self.budget_ = int(budgets[choose_budget(aligned, budgets, self.select)])
            fold_choice = np.array([densest_within_budget(sizes, self.budget_) for sizes in fold_sizes])
            chosen, fitted, union, factor = self._full_data_choice(base, signed_base.class_weight, X, labels,
                                                                      y_signed, Cs, max_repetitions)
        for key, value in vars(fitted).items():
            if key.endswith("_") and not key.startswith("_"):
                setattr(self, key, value)
        if self.n_subsets_:  # the hyperplane of the chosen union (the repetitive SFM selects, not classifies)
            self.coef_, self.intercept_ = union.coef[None, :], np.array([union.intercept])
            self.scaled_coef_ = union.standardised_coef
        # Probabilities from the held-out decision values of every fold's chosen fit
        # (Platt's sigmoid as SVC(probability=True)), not the refit's own training set.
        held_out = np.concatenate([o[2][i] for o, i in zip(outcomes, fold_choice)])
        held_out_y = np.concatenate([y_signed[test] for _, test in folds])
        self.probability_slope_, self.probability_intercept_ = fit_platt(held_out, held_out_y, fit_intercept=False)
        self.decision_scale_ = distance_scale(self.coef_, factor)
        self.estimator_ = fitted
        self.Cs_ = Cs
        self.best_index_ = chosen
        self.fold_supports_ = np.array([o[1][i] for o, i in zip(outcomes, fold_choice)])
        self.selection_frequency_ = self.fold_supports_.mean(axis=0)
        self.n_splits_ = len(folds)
        self.n_repeats_ = self.n_repeats if is_shuffled_kfold(self.cv, groups) else 1
        results = {"C": Cs, "mean_test_score": mean, "std_test_score": sd, "sem_test_score": sem,
                   "mean_n_features": n_features.mean(axis=0),
                   "std_n_features": n_features.std(axis=0),
                   "rank_test_score": rankdata(-mean, method="min").astype(int)}  # ties share a rank
        for f in range(len(folds)):
            results[f"split{f}_test_score"] = scores[f]
            results[f"split{f}_n_features"] = n_features[f]
        self.cv_results_ = results
        return self


def _passed_on(estimator_class, own):
    """The base's parameters the CV version passes on: all but C and ``own``, in order."""
    names = inspect.signature(estimator_class).parameters
    return [name for name in names if name not in {"C", *own}]


def _cv_constraints(estimator_class, own):
    """The CV version's constraints: the base's for the parameters passed on, plus the
    CV parameters."""
    constraints = estimator_class._parameter_constraints
    return {**{k: constraints[k] for k in _passed_on(estimator_class, own)}, **_CV_CONSTRAINTS}


_CV_CONSTRAINTS = {
    "Cs": [Interval(Integral, 1, MAX_N_CS, closed="both"), "array-like", None],
    "cv": [StrOptions({"loo", "logo"}), "cv_object"],  # cv_object: None, an int >= 2, a splitter or folds
    "n_repeats": [Interval(Integral, 1, MAX_N_REPEATS, closed="both")],
    "align": [StrOptions({"n_features", "C"})],
    "select": [StrOptions({"best", "1se"})],
    "scoring": [str, callable, None],
    "n_jobs": N_JOBS,
    "random_state": ["random_state"],
}

_CV_DOC = """
    Parameters
    ----------
    Cs : int, array-like or None, default=None
        The grid of C: None or an int for the data-adaptive grid
        (:func:`~sfmlearn.selection.sfm.path.default_Cs`, 12 points by default), or the values.
    cv : None, int, "loo", "logo" or splitter, default=None
        Folds (:func:`~sfmlearn.model_selection.make_cv`): stratified 5-fold, or leave one
        group out when ``groups`` are passed to ``fit``. A number of folds k shrinks to what
        the data allow, the smallest class's samples (or the groups), so that every
        training fold holds every class; ``n_splits_`` says how many ran.
    n_repeats : int, default=3
        Repeats of a shuffled k-fold split (:func:`~sfmlearn.model_selection.make_repeated_folds`);
        a fixed scheme (leave one out, leave one group out, a splitter object or a list of
        folds) runs once, and ``n_repeats_`` is then 1.
    align : {"n_features", "C"}, default="n_features"
        Compare the folds' fits at equal numbers of selected features, or at equal C
        (module docstring).
    select : {"best", "1se"}, default="best"
        The rule that picks the budget or C (module docstring).
    MAX_REPETITIONS    scoring : str or callable, default="balanced_accuracy"
        A scikit-learn scorer name or callable(estimator, X, y).
    n_jobs : int or None
        Folds in parallel through joblib.
    random_state : int, RandomState or None
        Seeds the shuffled k-fold split.
    ESTIMATOR_PARAMETERS
        As for :class:`~sfmlearn.ESTIMATOR`: passed to the fits of every fold and to the
        final refit.

    Attributes
    ----------
    C_ : float or None
        The chosen softness; None when the chosen fit is a union of repetitive-SFM
        subsets (``n_subsets_`` > 0).
    Cs_ : ndarray
        The grid (increasing).
    cv_results_ : dict of arrays, one entry per C
        ``C``, ``mean_test_score``, ``std_test_score``, ``sem_test_score``,
        ``mean_n_features``, ``std_n_features``, ``rank_test_score`` and per fold
        ``split<k>_test_score``, ``split<k>_n_features``.
    best_index_ : int
        Index of the chosen fit: in ``Cs_`` when aligned by C; among the rows of
        ``candidate_supports_`` when aligned by features (below ``len(Cs_)`` a grid
        point, ``C_ = Cs_[best_index_]``).
    budget_ : int
        With ``align="n_features"``: the chosen budget (most selected features).
    budget_results_ : dict of arrays, one entry per budget 1, 2, ...
        With ``align="n_features"``: ``n_features`` (the budgets), ``mean_test_score``,
        ``std_test_score``, ``sem_test_score`` over the folds' densest fits within each
        budget, ``n_folds_within`` (folds whose path reaches the budget) and per fold
        ``split<k>_test_score`` (NaN where a fold's smallest fit exceeds the budget).
    candidate_supports_ : ndarray of bool, shape (n_candidates, n_features)
        With ``align="n_features"``: the supports of the full data's candidates, the
        path's fit at every C, then the unions of repetitive-SFM subsets beyond its
        densest fit (``SupportFeatureMachineCV``'s ``max_repetitions``).
    n_subsets_ : int
        Repetitive-SFM subsets whose union was chosen (0: a fit of the path). The
        union's classifier is L2 logistic regression on it (``coef_``, ``intercept_``;
        ``scaled_coef_`` its weights on the standardised features), and
        ``estimator_`` the :class:`~sfmlearn.RepetitiveSFM` that selects it.
    selection_frequency_ : ndarray of shape (n_features,)
        Fraction of the inner fits whose chosen fit selected each feature.
    fold_supports_ : ndarray of bool, shape (n_splits, n_features)
        The chosen fit's support in every inner fold.
    n_splits_ : int
        Inner fits (folds x repeats).
    n_repeats_ : int
        Repeats run: ``n_repeats`` for a shuffled k-fold split, else 1.
    probability_slope_, probability_intercept_ : float
        Platt's sigmoid of ``predict_proba``, fitted to the held-out signed distances to
        the hyperplane (decision value / ``decision_scale_`` of each fit, in the SFM's
        scaled space) of every inner fold's chosen fit (intercept 0, so that
        ``predict_proba`` agrees with ``predict``).
    decision_scale_ : float
        ||w / f|| of the final hyperplane (w its weights, f the SFM's feature scaling):
        ``decision_function(X) / decision_scale_`` is what the sigmoid maps.
    estimator_ : the refitted estimator
    and every fitted attribute of the refitted estimator: for a fit of the path those of
    the SFM (``support_``, ``coef_``, ``intercept_``, ``scaled_coef_``, ``classes_``,
    ``n_iter_``, ``history_`` ...); for a union those of the
    :class:`~sfmlearn.RepetitiveSFM` (``subsets_``, ``ranking_``, ``stop_reason_``, and
    ``n_training_errors_`` per repetition, of the hard SFMs behind the subsets), with
    ``coef_``, ``intercept_`` and ``scaled_coef_`` the union's logistic hyperplane and no
    ``n_iter_`` or ``history_``.
"""


def _cv_doc(estimator_class, own, extra_parameters=""):
    """The docstring of the CV version of ``estimator_class``: its summary line, the CV
    parameters (with ``extra_parameters``, numpydoc lines of its own) and the base's
    parameters passed on (all but C and ``own``)."""
    name = estimator_class.__name__
    return (f"Soft :class:`~sfmlearn.{name}` with C chosen by cross-validation "
            "(:mod:`sfmlearn.selection.sfm.softness_cv`).\n"
            + _CV_DOC.replace("    MAX_REPETITIONS", extra_parameters)
            .replace("ESTIMATOR_PARAMETERS", ", ".join(_passed_on(estimator_class, own)))
            .replace("ESTIMATOR", name))


#: The SFM's parameters of a single fit that its CV version does not take.
_SFM_ONLY = {"method", "time_limit"}


class SupportFeatureMachineCV(_SoftnessCV):
    __doc__ = _cv_doc(SupportFeatureMachine, _SFM_ONLY, """    max_repetitions : int, default=20
        With ``align="n_features"``: the candidates of every fold go on beyond the
        path's densest fit with the unions of the first t subsets of the repetitive SFM
        (hard base SFM, at most ``max_repetitions`` repetitions), each with L2 logistic
        regression on its features (:mod:`sfmlearn.selection.sfm.unions`), so the
        choice can take more features where they pay; 0: the path only.
""") + """
    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachineCV
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> model = SupportFeatureMachineCV(select="1se", random_state=0).fit(X, y)
    >>> bool(model.C_ in model.Cs_), model.selection_frequency_.shape
    (True, (106,))
"""

    _estimator_class = SupportFeatureMachine
    _parameter_constraints = {**_cv_constraints(SupportFeatureMachine, _SFM_ONLY),
                              "max_repetitions": [Interval(Integral, 0, MAX_CV_REPETITIONS, closed="both")]}

    def __init__(self, *, Cs=None, cv=None, n_repeats=3, align="n_features", select="best",
                 max_repetitions=CV_MAX_REPETITIONS,
                 scoring="balanced_accuracy", class_weight="balanced", equality="class_means",
                 reweight_slack=True, refit="svm",
                 scale=True, solver="auto", formulation="standard", max_iter=50,
                 tol=ITERATED_L1_TOL, n_jobs=None, random_state=None):
        set_parameters(self, locals())

    def _max_repetitions(self):
        return self.max_repetitions


class WestonZeroNormSVMCV(_SoftnessCV):
    __doc__ = _cv_doc(WestonZeroNormSVM, set()) + """
    Examples
    --------
    >>> from sfmlearn import WestonZeroNormSVMCV
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> model = WestonZeroNormSVMCV(Cs=8, random_state=0).fit(X, y)
    >>> model.Cs_.size, model.get_support(indices=True).tolist()   # relevant features: 0-5
    (8, [2, 5])
    >>> model.selection_frequency_[:6].round(2).tolist()   # fraction of inner fits selecting each
    [0.0, 0.07, 1.0, 0.0, 0.0, 0.93]
"""

    _estimator_class = WestonZeroNormSVM
    _parameter_constraints = _cv_constraints(WestonZeroNormSVM, set())

    def __init__(self, *, Cs=None, cv=None, n_repeats=3, align="n_features", select="best",
                 scoring="balanced_accuracy", class_weight=None, reweight_slack=True, refit=None, scale=True, solver="auto",
                 formulation="standard", max_iter=50, tol=ITERATED_L1_TOL, n_jobs=None,
                 random_state=None):
        set_parameters(self, locals())