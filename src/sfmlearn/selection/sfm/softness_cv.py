"""Softness C chosen by cross-validation: SupportFeatureMachineCV, WestonZeroNormSVMCV.

As ``LogisticRegressionCV`` and glmnet's ``cv.glmnet``: the grid of C is the
data-adaptive one of :func:`~sfmlearn.selection.sfm.path.default_Cs` (computed on the data
passed to ``fit``), every training fold fits the whole path
(:func:`~sfmlearn.selection.sfm.path.sfm_path`, features re-selected in every fold, so
the scores are not biased by the selection: thesis 6.2), every C is scored on the
held-out fold (``scoring``, balanced accuracy by default), and C is chosen by

* ``select="best"``: the highest mean score (ties: fewer mean features, then smaller C);
* ``select="1se"``: the one-standard-error rule of ``cv.glmnet``'s lambda.1se, towards
  fewer features: among the C whose mean score is at least the best mean minus its
  standard error (SE = SD over folds / sqrt(folds)), the one with the fewest mean
  features (ties: higher score, then smaller C). It never selects more features than
  "best" on average over the folds, since "best" itself is a candidate.

The slack term sums C over the training errors, so the same C is softer on fewer samples:
both ends of the path scale like 1/n (the duals behind them are sums over samples). Each
fold is therefore fitted at C n / n_train, which puts its single-feature and hard ends
where the full data's are (glmnet's lambda multiplies a *mean* loss for the same reason);
``Cs_`` and ``C_`` are on the scale of the full data. The final model is refitted at the
chosen C on all the data; its fitted attributes
(``support_``, ``coef_``, ``history_`` ...) are the estimator's own.
``selection_frequency_`` is the fraction of folds whose fit at the chosen C selected each
feature: the stability a user needs to trust a gene. Folds run through joblib
(``n_jobs``; ``joblib.parallel_config(backend="dask")`` spreads them over a cluster).
"""

import inspect
from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.metrics import check_scoring
from sklearn.utils._param_validation import Interval, StrOptions

from ..._validation import ACCEPTED_SPARSE, check_binary_problem, check_class_weight, check_fit_params
from ...model_selection import check_groups, make_folds
from ...optim.reweighting import ITERATED_L1_TOL
from ...utils.parameters import set_parameters
from .._checked import LinearTwoClassSelector
from .path import DEFAULT_N_CS, MAX_N_CS, check_n_Cs, default_Cs, sfm_path
from .machine import SupportFeatureMachine
from .zero_norm import WestonZeroNormSVM

__all__ = ["SupportFeatureMachineCV", "WestonZeroNormSVMCV", "choose_C"]

_CV_PARAMETERS = {"Cs", "cv", "select", "scoring", "n_jobs", "random_state"}


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


def _fold_path(estimator, X, y, train, test, Cs, scoring):
    """Scores on the test fold and supports of the path fitted on the training fold.

    The fold is fitted at C n / n_train (module docstring: C is per-sample cost)."""
    path = sfm_path(X[train], y[train], Cs * (y.size / train.size), estimator=estimator)
    scorer = check_scoring(estimator, scoring=scoring)
    scores = np.array([scorer(fitted, X[test], y[test]) for fitted in path.estimators])
    return scores, path.supports


class _SoftnessCV(LinearTwoClassSelector):
    """The shared implementation (module docstring); subclasses name ``_estimator_class``
    and list its parameters in their ``__init__``."""

    _estimator_class = None
    _sparse_input = True

    def _base_estimator(self):
        params = {k: v for k, v in self.get_params(deep=False).items() if k not in _CV_PARAMETERS}
        return self._estimator_class(**params)

    def fit(self, X, y, groups=None, **fit_params):
        """Choose C by cross-validation and refit on all data at it.

        ``groups`` (one id per sample: participants, runs, batches) keep every group in
        one fold (leave one group out when ``cv`` is None).
        """
        check_fit_params(self, fit_params)
        self._validate_params()  # the base's parameters too (_cv_constraints)
        base = self._base_estimator()
        X, y_signed, classes = check_binary_problem(self, X, y, accept_sparse=ACCEPTED_SPARSE)
        # The folds fit and score on -1/+1 labels (positive = classes[1], as in every fit):
        # splitters and scorers then see a plain binary target whatever the labels' dtype.
        labels = classes[(y_signed > 0).astype(int)]
        signed_base = base
        if isinstance(base.class_weight, dict):
            negative, positive = check_class_weight(base.class_weight, classes)
            signed_base = clone(base).set_params(class_weight={-1: negative, 1: positive})
        groups = check_groups(groups, labels.size)
        Cs = self.Cs
        if Cs is None or isinstance(Cs, Integral):
            Cs = default_Cs(X, y_signed, estimator=signed_base, n_Cs=DEFAULT_N_CS if Cs is None else Cs)
        Cs = np.sort(np.asarray(Cs, dtype=np.float64).ravel())
        check_n_Cs(Cs.size)
        # A fold that loses a class names it by the user's label.
        folds = make_folds(self.cv, X, y_signed, groups, random_state=self.random_state,
                           what=f"{type(self).__name__}'s", labels=labels)
        outcomes = Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_path)(signed_base, X, y_signed, train, test, Cs, self.scoring)
            for train, test in folds)
        scores = np.array([o[0] for o in outcomes])  # (folds, Cs)
        supports = np.array([o[1] for o in outcomes])  # (folds, Cs, features)
        n_features = supports.sum(axis=2)
        mean, sd = scores.mean(axis=0), scores.std(axis=0)
        sem = sd / np.sqrt(len(folds))
        chosen = choose_C(mean, sem, n_features.mean(axis=0), self.select)

        fitted = clone(base).set_params(C=float(Cs[chosen])).fit(X, labels)
        for key, value in vars(fitted).items():
            if key.endswith("_") and not key.startswith("_"):
                setattr(self, key, value)
        self.estimator_ = fitted
        self.Cs_ = Cs
        self.C_ = float(Cs[chosen])
        self.best_index_ = chosen
        self.fold_supports_ = supports[:, chosen, :]
        self.selection_frequency_ = self.fold_supports_.mean(axis=0)
        self.n_splits_ = len(folds)
        results = {"C": Cs, "mean_test_score": mean, "std_test_score": sd, "sem_test_score": sem,
                   "mean_n_features": n_features.mean(axis=0),
                   "std_n_features": n_features.std(axis=0),
                   "rank_test_score": (-mean).argsort(kind="stable").argsort() + 1}
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
    "cv": [None, Interval(Integral, 2, None, closed="left"), StrOptions({"loo", "logo"}), "cv_object"],
    "select": [StrOptions({"best", "1se"})],
    "scoring": [str, callable, None],
    "n_jobs": [Integral, None],
    "random_state": ["random_state"],
}

_CV_DOC = """
    Parameters
    ----------
    Cs : int, array-like or None, default=None
        The grid of C: None or an int for the data-adaptive grid
        (:func:`~sfmlearn.selection.sfm.path.default_Cs`, 20 points by default), or the values.
    cv : None, int, "loo", "logo" or splitter, default=None
        Folds (:func:`~sfmlearn.model_selection.make_cv`): stratified 5-fold, or leave one
        group out when ``groups`` are passed to ``fit``.
    select : {"best", "1se"}, default="best"
        The rule that picks C (module docstring).
    scoring : str or callable, default="balanced_accuracy"
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
    C_ : float
        The chosen softness.
    Cs_ : ndarray
        The grid (increasing).
    cv_results_ : dict of arrays, one entry per C
        ``C``, ``mean_test_score``, ``std_test_score``, ``sem_test_score``,
        ``mean_n_features``, ``std_n_features``, ``rank_test_score`` and per fold
        ``split<k>_test_score``, ``split<k>_n_features``.
    best_index_ : int
    selection_frequency_ : ndarray of shape (n_features,)
        Fraction of folds whose fit at ``C_`` selected each feature.
    fold_supports_ : ndarray of bool, shape (n_splits, n_features)
    n_splits_ : int
    estimator_ : the refitted estimator
    and every fitted attribute of the refitted estimator (``support_``, ``coef_``,
    ``intercept_``, ``scaled_coef_``, ``classes_``, ``n_iter_``, ``history_`` ...).
"""


def _cv_doc(estimator_class, own):
    """The docstring of the CV version of ``estimator_class``: its summary line, the CV
    parameters and the base's parameters passed on (all but C and ``own``)."""
    name = estimator_class.__name__
    return (f"Soft :class:`~sfmlearn.{name}` with C chosen by cross-validation "
            "(:mod:`sfmlearn.selection.sfm.softness_cv`).\n"
            + _CV_DOC.replace("ESTIMATOR_PARAMETERS", ", ".join(_passed_on(estimator_class, own)))
            .replace("ESTIMATOR", name))


#: The SFM's parameters of a single fit that its CV version does not take.
_SFM_ONLY = {"method", "time_limit"}


class SupportFeatureMachineCV(_SoftnessCV):
    __doc__ = _cv_doc(SupportFeatureMachine, _SFM_ONLY) + """
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
    _parameter_constraints = _cv_constraints(SupportFeatureMachine, _SFM_ONLY)

    def __init__(self, *, Cs=None, cv=None, select="best", scoring="balanced_accuracy",
                 class_weight=None, equality="class_means", reweight_slack=True, refit="svm",
                 scale=True, solver="auto", formulation="standard", max_iter=50,
                 tol=ITERATED_L1_TOL, n_jobs=None, random_state=None):
        set_parameters(self, locals())


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
    >>> model.selection_frequency_[:6].tolist()   # fraction of folds selecting each at C_
    [0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
"""

    _estimator_class = WestonZeroNormSVM
    _parameter_constraints = _cv_constraints(WestonZeroNormSVM, set())

    def __init__(self, *, Cs=None, cv=None, select="best", scoring="balanced_accuracy",
                 class_weight=None, reweight_slack=True, refit=None, scale=True, solver="auto",
                 formulation="standard", max_iter=50, tol=ITERATED_L1_TOL, n_jobs=None,
                 random_state=None):
        set_parameters(self, locals())