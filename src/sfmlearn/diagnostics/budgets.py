"""How many features do I need? Held-out accuracy of sparse methods at every feature budget.

For a budget k (a largest number of features) and a path method (:mod:`.budget_paths`:
a model fitted along a grid of sparsity), :func:`compare_budgets` estimates the balanced
accuracy that the method reaches with at most k features, by nested cross-validation:

1. outer folds (:func:`sfmlearn.model_selection.make_folds`, stratified 5-fold by
   default, leave one group out with groups);
2. in each outer training set the method's path is fitted; the fit used on the outer
   test fold is chosen from the training data only. With ``inner_cv`` folds, every inner
   training fold fits the same path, every path point is scored on the inner held-out
   fold, the inner folds are aligned by sparsity
   (:func:`~sfmlearn.model_selection.scores_within_budget`: s_f(k') is the score of the
   densest fit with <= k' features) and the budget is chosen among k' = 1, ..., k,

       k*(k) = argmax_{k' <= k} mean_f s_f(k')        (ties: the smaller k'),

   (:func:`~sfmlearn.model_selection.choose_budget`); the outer-training path then gives
   its densest fit within k*(k) (:func:`~sfmlearn.model_selection.densest_within_budget`;
   if that path has no fit so sparse, its densest fit within k).
   With ``inner_cv=None`` the densest outer-training fit within k is used directly, which
   costs one path per outer fold instead of ``inner_cv + 1`` and is just as honest (the
   rule never looks at a held-out score). When no k' <= k is reached by every inner
   fold, the densest fit within k is used too;
3. the chosen fit is scored on the outer test fold (balanced accuracy) and the features
   it uses are counted -- never more than k.

Per method and budget the result holds the mean balanced accuracy over outer folds, its
standard error SD / sqrt(folds) (SD with ddof=1), the mean number of features used and
the per-fold values. Where an outer test part holds one class (leave one group out with
groups of one class, leave one out), its balanced accuracy is the recall of that class
alone and the mean over folds would weight each class by its number of folds (a
predictor of the majority class would score above 50 %): the result is then ``pooled``,
the balanced accuracy of all folds' held-out predictions together, (r_1 + r_2) / 2 with
r_c the pooled recall of class c, and its binomial SE sqrt(sum_c r_c (1 - r_c) / n_c) / 2; a budget that some outer fold's path never reaches (a repetitive
SFM whose first subset has 3 features cannot serve k = 2) is NaN. The automatic choice
(default :class:`~sfmlearn.SupportFeatureMachineCV` with ``class_weight="balanced"``) is
fitted in every outer training set too and reported as one point.

Which inner rule is better is an empirical question. On the colon data (62 x 2000,
5 x 2-fold outer CV; the user guide, docs/guide/budgets.md, has both tables) the densest
fit within k was more accurate than the inner CV in 19 of 23 method-budget cells and
tied in 2, at a third of the time: with 31 training samples an inner 5-fold CV scores
each path point on 6 or 7 samples, too few to tell 2 features from 3, and it backs off
to fewer features than the budget allows. The inner CV can pay where extra features
hurt (a path whose denser fits overfit); ``inner_cv=None``, the better choice for
small samples, is the default.
"""

import numbers
import time
import warnings

import numpy as np
from joblib import delayed
from sklearn.base import BaseEstimator, clone

from .._validation import check_binary_problem
from ..exceptions import DataValidationError
from ..model_selection import (check_groups, choose_budget, densest_within_budget, fit_with_groups, make_folds,
                               scores_within_budget)
from ..preprocessing import constant_features, quiet_constant_features, warn_constant_features
from ..selection import SupportFeatureMachineCV, WestonZeroNormSVMCV
from ..utils.parallel import Parallel
from .budget_paths import default_path_methods, fit_path_with_groups
from .budget_result import BudgetComparison

__all__ = ["DEFAULT_BUDGETS", "MAX_PATH_FITS", "BudgetComparison", "compare_budgets", "plan_comparison"]

#: Budgets of ``budgets=None`` (those above the number of features are left out).
DEFAULT_BUDGETS = (1, 2, 3, 5, 10, 20, 50)
#: At most this many path fits (outer folds x (inner folds + 1) x methods, a method counting
#: its ``path_fits`` where it has them): more would run
#: for hours on data like colon (a soft-SFM path takes about a second there).
MAX_PATH_FITS = 1000


def _check_budgets(budgets, n_features):
    if budgets is None:
        return [k for k in DEFAULT_BUDGETS if k <= n_features] or [n_features]
    budgets = list(np.atleast_1d(budgets)) if not isinstance(budgets, (list, tuple)) else list(budgets)
    if not budgets:
        raise DataValidationError("budgets is empty; give positive whole numbers of features, e.g. (1, 2, 5)")
    for k in budgets:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or k < 1:
            raise DataValidationError(f"budgets must be positive whole numbers of features; got {k!r}")
        if k > n_features:
            raise DataValidationError(f"budget {k} exceeds the {n_features} feature{'s' * (n_features != 1)}; "
                                      f"give budgets of at most {n_features}")
    return sorted({int(k) for k in budgets})


def _check_class_sizes(labels, n_folds, what, parameter):
    """Every class has at least ``n_folds`` samples; the error names ``parameter`` (the folds' option)."""
    classes, counts = np.unique(labels, return_counts=True)
    smallest = int(counts.min())
    if smallest < n_folds:
        small = classes.tolist()[int(np.argmin(counts))]
        raise DataValidationError(
            f"class {small!r} has {smallest} sample{'s' * (smallest != 1)}{what}, fewer than the {n_folds} "
            f"folds; use {parameter}={smallest} or fewer folds")


def _outer_folds(cv, X, labels, groups, random_state):
    if (cv is None and groups is None) or isinstance(cv, numbers.Integral):
        _check_class_sizes(labels, 5 if cv is None else int(cv), "", "cv")
    return make_folds(cv, X, labels, groups, random_state=random_state, what="outer cross-validation")


#: sfmlearn's cross-validated choices, whose inner folds come from :func:`~sfmlearn.model_selection.make_cv`.
_CV_CHOICES = (SupportFeatureMachineCV, WestonZeroNormSVMCV)


def _check_automatic(automatic, folds, labels, groups):
    """The inner folds of sfmlearn's cross-validated choice need two samples of every
    class in every outer training set (stratified k-fold, shrunk to the smallest class),
    or with groups two groups (they leave groups out)."""
    if not isinstance(automatic, _CV_CHOICES):
        return
    if groups is not None:
        _check_inner_groups(2, folds, labels, groups, f"the automatic choice ({type(automatic).__name__}) leaves "
                                                      "groups out in its inner folds", "use data with more groups, "
                                                      "or automatic=False to leave the automatic choice out")
        return
    for f, (train, _) in enumerate(folds):
        classes, counts = np.unique(labels[train], return_counts=True)
        if counts.min() < 2:
            raise DataValidationError(
                f"class {classes.tolist()[int(np.argmin(counts))]!r} has {counts.min()} sample in outer training "
                f"fold {f + 1}, and the automatic choice ({type(automatic).__name__}) needs at least 2 per "
                "class for its inner folds; use fewer outer folds")


def _check_inner(inner_cv, folds, labels, groups):
    if inner_cv is None:
        return 0
    if isinstance(inner_cv, bool) or not isinstance(inner_cv, numbers.Integral) or inner_cv < 2:
        raise DataValidationError(f"inner_cv must be None or a whole number of folds >= 2; got {inner_cv!r}")
    for f, (train, _) in enumerate(folds):
        _check_class_sizes(labels[train], inner_cv, f" in outer training fold {f + 1}", "inner_cv")
    if groups is not None:
        _check_inner_groups(inner_cv, folds, labels, groups, f"inner_cv={inner_cv} keeps groups whole",
                            "use fewer inner folds")
    return int(inner_cv)


def path_fits_per_set(methods):
    """Path fits one training set costs the comparison: each method's ``path_fits``
    (:mod:`~sfmlearn.diagnostics.budget_paths`; 1 where absent), summed."""
    return sum(getattr(method, "path_fits", 1) for method in methods.values())


def _check_inner_groups(n_folds, folds, labels, groups, why, fix):
    """Every outer training set holds at least ``n_folds`` groups (else its inner folds
    would be fewer than asked, or none), and every class in at least two of them (else
    an inner fold that leaves its group out trains without that class: with one
    diagnosis per patient, a class of few patients); ``why`` and ``fix`` word the error."""
    for f, (train, _) in enumerate(folds):
        present = np.unique(groups[train]).size
        if present < n_folds:
            raise DataValidationError(
                f"outer training fold {f + 1} holds {present} group{'s' if present != 1 else ''}, and {why}: "
                f"it needs at least {n_folds}; {fix}")
        for label in np.unique(labels[train]).tolist():
            holding = np.unique(groups[train][labels[train] == label]).size
            if holding < 2:
                raise DataValidationError(
                    f"class {label!r} is in {holding} group of outer training fold {f + 1}, and {why}: an inner "
                    f"fold without that group would train without the class; every class needs at least 2 "
                    f"groups in every training part; {fix}")


def _class_hits(y_true, predicted, classes):
    """Per class of ``classes``: the samples of that class predicted as it."""
    y_true, predicted = np.asarray(y_true), np.asarray(predicted)
    return [int(np.count_nonzero((y_true == c) & (predicted == c))) for c in classes]


def _mean_recall(hits, counts):
    """Balanced accuracy from the hits of each class (last axis) and the class counts: the
    mean recall of the classes present (:func:`~sfmlearn.model_selection.mean_recall`)."""
    counts = np.asarray(counts, dtype=float)
    present = counts > 0
    return (np.asarray(hits, dtype=float)[..., present] / counts[present]).mean(axis=-1)


def _path_scores(method, X, y, groups, train, test):
    """(held-out balanced accuracy of every path point, features of every path point,
    per point the held-out hits of each class, :func:`_class_hits`)."""
    predictors, sizes = fit_path_with_groups(method, X[train], y[train], None if groups is None else groups[train])
    classes = np.unique(y)
    hits = np.array([_class_hits(y[test], p.predict(X[test]), classes) for p in predictors],
                    dtype=float).reshape(-1, 2)
    return _mean_recall(hits, _class_counts(y[test], classes)), np.asarray(sizes, dtype=int), hits


def _inner_budget_scores(method, X, y, groups, inner_folds, n_budgets):
    """Inner held-out scores aligned by sparsity: shape (inner folds, n_budgets), budgets 1..n."""
    rows = []
    for train, test in inner_folds:
        scores, sizes, _ = _path_scores(method, X, y, groups, train, test)
        rows.append(scores_within_budget([scores], [sizes], np.arange(1, n_budgets + 1))[0]
                    if scores.size else np.full(n_budgets, np.nan))
    return np.array(rows)


def _chosen_budget(inner, k):
    """k*(k) of the module docstring, or k when no k' <= k is reached by every inner fold."""
    if inner is None:
        return k
    try:
        return choose_budget(inner[:, :k], np.arange(1, k + 1)) + 1
    except ValueError:  # no k' <= k reached by every inner fold
        return k


def _method_fold(method, X, y, groups, train, test, budgets, inner_cv, random_state):
    """One outer fold of one path method: accuracy, class hits, features and chosen
    budget per budget, and the test part's class counts."""
    scores, sizes, hits = _path_scores(method, X, y, groups, train, test)
    inner = None
    if inner_cv:
        inner_folds = make_folds(inner_cv, X[train], y[train], None if groups is None else groups[train],
                                 random_state=random_state, what="inner cross-validation")
        inner = _inner_budget_scores(method, X[train], y[train], None if groups is None else groups[train],
                                     inner_folds, max(budgets))
    accuracy, features, chosen, fold_hits = [], [], [], []
    for k in budgets:
        k_star = _chosen_budget(inner, k)
        i = densest_within_budget(sizes, k_star) if sizes.size else -1
        if i < 0 and k_star < k:
            i = densest_within_budget(sizes, k)
        accuracy.append(float(scores[i]) if i >= 0 else np.nan)
        fold_hits.append(hits[i].tolist() if i >= 0 else [np.nan, np.nan])
        features.append(int(sizes[i]) if i >= 0 else np.nan)
        chosen.append(int(k_star))
        assert i < 0 or sizes[i] <= k, f"a fit with {sizes[i]} features was used at budget {k}"
    return {"accuracy": accuracy, "features": features, "chosen_budget": chosen, "hits": fold_hits,
            "counts": _class_counts(y[test], np.unique(y))}


def _class_counts(y_part, classes):
    """Samples of each class of ``classes`` in ``y_part``."""
    return [int(np.count_nonzero(np.asarray(y_part) == c)) for c in classes]


def n_features_used(model, n_features):
    """Features a fitted model uses: its support, else its non-zero weights, else all."""
    if hasattr(model, "get_support"):
        return int(np.asarray(model.get_support()).sum())
    coef = getattr(model, "coef_", None)
    return n_features if coef is None else int(np.count_nonzero(np.ravel(coef)))


def _outer_fold(methods, automatic, X, y, groups, train, test, budgets, inner_cv, random_state):
    with quiet_constant_features():  # compare_budgets names the data's constant features once
        out = {name: _method_fold(method, X, y, groups, train, test, budgets, inner_cv, random_state)
               for name, method in methods.items()}
        if automatic is not None:
            fitted = fit_with_groups(clone(automatic), X[train], y[train], None if groups is None else groups[train])
            classes = np.unique(y)
            hits, counts = _class_hits(y[test], fitted.predict(X[test]), classes), _class_counts(y[test], classes)
            out[None] = {"accuracy": float(_mean_recall(hits, counts)), "hits": hits, "counts": counts,
                         "features": n_features_used(fitted, X.shape[1])}
    return out


def compare_budgets(X, y, *, budgets=None, methods=None, automatic=None, cv=None, inner_cv=None, groups=None,
                    random_state=0, n_jobs=None, progress=None):
    """Held-out balanced accuracy of sparse methods at every feature budget (nested CV).

    The accuracy-versus-budget frontier of the module docstring: for each method and
    each budget k, the balanced accuracy of the method's fit with at most k features,
    the fit chosen from the training data only.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes
    budgets : sequence of int or None, default=None
        Largest numbers of features. None: :data:`DEFAULT_BUDGETS` (1, 2, 3, 5, 10, 20,
        50) without those above the number of features; a budget given explicitly that
        exceeds it is an error.
    methods : dict of name -> path method, optional
        Objects with ``fit_path(X_train, y_train) -> (predictors, n_features)``
        (:mod:`sfmlearn.diagnostics.budget_paths`). Default
        (:func:`~sfmlearn.diagnostics.budget_paths.default_path_methods`): the SFM path
        with the hard-margin SVM and with logistic regression on the selected features,
        the repetitive SFM (hard, and soft with logistic regression), the SFM stability
        ranking, l1- and elastic-net logistic regression.
    automatic : estimator or None, optional
        The automatic choice, one point of the figure (default
        ``SupportFeatureMachineCV(class_weight="balanced", random_state=random_state)``);
        ``False`` leaves it out.
    cv : None, int, "loo", "logo" or splitter, default=None
        Outer folds (:func:`sfmlearn.model_selection.make_folds`): stratified 5-fold, or
        leave one group out with ``groups``.
    inner_cv : int or None, default=None
        None: the densest outer-training fit within the budget (the default: it measured
        better on small samples, module docstring); an int: stratified folds of the inner
        choice of the budget in every outer training set.
    groups : array-like of shape (n_samples,), optional
        Group ids; the outer and inner folds keep every group together.
    random_state : int, default=0
        Seeds the shuffled folds (and those of the default automatic choice).
    n_jobs : int or None
        Outer folds in parallel (joblib).
    progress : callable, optional
        ``progress(stage, done, total)`` before the first and after each outer fold.

    Returns
    -------
    BudgetComparison

    Raises
    ------
    DataValidationError
        Before any fit: budgets that are not positive whole numbers or exceed the number
        of features, a class smaller than the outer or inner folds, an outer training
        set with fewer groups than the inner folds need, more than :data:`MAX_PATH_FITS`
        path fits.

    Examples
    --------
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.diagnostics import compare_budgets
    >>> from sfmlearn.diagnostics.budget_paths import SFMPath
    >>> X, y = make_weston(n_samples=40, n_noise=30, random_state=0)
    >>> result = compare_budgets(X, y, budgets=(1, 2), methods={"SFM path": SFMPath(n_Cs=5)},
    ...                          automatic=False, cv=3, inner_cv=None)
    >>> result.budgets, bool(max(result.features["SFM path"]) <= 2)
    ([1, 2], True)
    """
    started = time.perf_counter()
    X, labels, groups, budgets, methods, automatic, folds, inner = plan_comparison(
        X, y, budgets=budgets, methods=methods, automatic=automatic, cv=cv, inner_cv=inner_cv, groups=groups,
        random_state=random_state)
    warn_constant_features(constant_features(X))
    if progress is not None:
        progress("outer folds", 0, len(folds))
    jobs = Parallel(n_jobs=n_jobs, return_as="generator", what="outer folds of the comparison")(
        delayed(_outer_fold)(methods, automatic, X, labels, groups, train, test, budgets, inner, random_state)
        for train, test in folds)
    per_fold = []
    for done, fold in enumerate(jobs, start=1):
        per_fold.append(fold)
        if progress is not None:
            progress("outer folds", done, len(folds))
    comparison = BudgetComparison.from_folds(
        per_fold, methods=list(methods), budgets=budgets, automatic_name=None if automatic is None
        else type(automatic).__name__, n_folds=len(folds), inner_cv=inner_cv, seconds=time.perf_counter() - started)
    _warn_empty_rows(comparison)
    return comparison


def plan_comparison(X, y, *, budgets=None, methods=None, automatic=None, cv=None, inner_cv=None, groups=None,
                    random_state=0):
    """Every check :func:`compare_budgets` makes before its first fit, on the same
    parameters: ``(X, labels, groups, budgets, methods, automatic, outer folds, inner
    folds)``, validated. Callers that time a comparison before running it (the command
    line's duration limit) call it first, so that a budget or fold count the data cannot
    serve is refused before anything is timed."""
    X, y_signed, classes = check_binary_problem(BaseEstimator(), X, y)
    labels = classes[(y_signed > 0).astype(int)]
    groups = check_groups(groups, labels.size)
    budgets = _check_budgets(budgets, X.shape[1])
    if not isinstance(methods, (dict, type(None))):
        raise DataValidationError(f"methods must be a dict of name -> path method; got {type(methods).__name__}")
    methods = default_path_methods() if methods is None else dict(methods)
    for name, method in methods.items():
        if not hasattr(method, "fit_path"):
            raise DataValidationError(f"method {name!r} has no fit_path(X, y); see sfmlearn.diagnostics.budget_paths")
    if automatic is None:
        automatic = SupportFeatureMachineCV(class_weight="balanced", random_state=random_state)
    automatic = None if automatic is False else automatic
    if automatic is not None and not hasattr(automatic, "fit"):
        raise DataValidationError(f"automatic must be an estimator, None (the default choice) or False (none); "
                                  f"got {automatic!r}")
    if not methods and automatic is None:
        raise DataValidationError("nothing to compare: methods is empty and automatic=False; give at least one "
                                  "method (sfmlearn.diagnostics.budget_paths) or keep the automatic choice")
    folds = _outer_folds(cv, X, labels, groups, random_state)
    inner = _check_inner(inner_cv, folds, labels, groups)
    _check_automatic(automatic, folds, labels, groups)
    per_set = path_fits_per_set(methods)
    n_fits = len(folds) * (inner + 1) * per_set
    if n_fits > MAX_PATH_FITS:
        what = f"{len(methods)} methods" if per_set == len(methods) else f"{per_set} path fits of {len(methods)} methods"
        raise DataValidationError(
            f"{len(folds)} outer folds x {inner + 1} paths each x {what} = {n_fits} path fits; "
            f"at most {MAX_PATH_FITS} are allowed (use fewer folds (cv), or inner_cv=None)")
    return X, labels, groups, budgets, methods, automatic, folds, inner


def _warn_empty_rows(comparison):
    """Say why a method's row is empty ("-" at every budget) rather than leave it bare."""
    for name in comparison.methods:
        if np.isnan(comparison.accuracy[name]).all():
            warnings.warn(
                f"{name!r} reaches none of the budgets in every outer fold, so its row is empty: on some "
                f"training part its path has no fit with at most {max(comparison.budgets)} features (its "
                "first fit is larger, or it found none, as the hard repetitive SFM where no hyperplane "
                "separates the classes).", UserWarning, stacklevel=3)
