"""What ``select``, ``path`` and ``repeat`` share: the selectors, the folds, cross-validation.

:func:`make_selector` builds the selector of a method name and a softness (a number, None
for the hard method, or ``"auto"`` for C chosen by cross-validation over the path);
:func:`count_folds` says how many folds ``k``-fold cross-validation of the data will use
(before any fit); :func:`cross_validate` is the library's
:func:`~sfmlearn.model_selection.cross_validate_selection` (features re-selected in every
fold) summarised as the results hold it; :func:`softness_summary` describes a
cross-validated choice of C, and with the data also the distinct selections of the
full-data path behind its table (:func:`distinct_selections`).

Progress is reported through an optional callable ``progress(stage, done, total)``
(``total`` None for a step without a count), called when a stage starts and as it
advances.
"""

import time

import numpy as np
from sklearn.base import clone

from ..exceptions import DataValidationError, NotSeparableError
from ..model_selection import (cross_validate_selection, densest_within_budget, describe_folds, fit_with_groups, make_cv,
                               make_folds)
from ..selection import (StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM,
                         WestonZeroNormSVMCV, sfm_path)
from .data import annotate
from .names import UNWEIGHTED

__all__ = ["CV_METHODS", "METHODS", "UnseparatedFit", "check_choice_folds", "chosen_fit_text", "count_folds",
           "cross_validate",
           "distinct_selections", "make_selector", "silent", "softness_summary", "timed_fit"]

METHODS = {"sfm": SupportFeatureMachine, "weston": WestonZeroNormSVM}
#: The same methods with C chosen by cross-validation (``C="auto"``).
CV_METHODS = {"sfm": SupportFeatureMachineCV, "weston": WestonZeroNormSVMCV}


class UnseparatedFit(NotSeparableError):
    """The analysis' main fit found the classes not linearly separable (a hard method).

    Raised from the library's :class:`~sfmlearn.exceptions.NotSeparableError` of that fit
    (its cause), so a caller can tell it from one raised later, say under permuted labels,
    and answer with its own advice (the command line names ``--C``).
    """


def timed_fit(estimator, data, progress, stage):
    """Fit ``estimator`` to ``data`` (TrainingData, with its groups where ``fit`` takes them:
    :func:`~sfmlearn.model_selection.fit_with_groups`) as progress ``stage``; returns the
    seconds taken.

    A NotSeparableError of the fit is raised as :class:`UnseparatedFit`.
    """
    progress(stage, 0, None)
    started = time.perf_counter()
    try:
        fit_with_groups(estimator, data.X, data.y, data.groups)
    except NotSeparableError as exc:
        raise UnseparatedFit(str(exc)) from exc
    return time.perf_counter() - started


def silent(stage, done, total):
    """The ``progress`` callback that shows nothing."""


def make_selector(method="sfm", C=None, class_weight=None, *, select=None, random_state=None, stability=None,
                  n_jobs=None, **params):
    """The selector of ``method`` with softness ``C`` (plus ``params``).

    ``class_weight``: "balanced", :data:`UNWEIGHTED` ("none": every sample's slack costs
    C) or None for the selector's default. ``C="auto"``: the cross-validated selector
    (``select`` "best" or "1se", seeded by ``random_state``; its default balances the
    classes for the SFM); otherwise ``select`` is ignored. ``stability`` (a threshold
    pi): :class:`~sfmlearn.StabilitySelection` over the soft path of ``method`` (C is
    not used: the path runs over its grid; by default with balanced classes, the
    stability selection's default), seeded by ``random_state``, its half-sample fits
    run in ``n_jobs`` processes (ignored by the other selectors).
    """
    weights = None if class_weight == UNWEIGHTED else class_weight
    if stability is not None:
        base = METHODS[method](class_weight="balanced" if class_weight is None else weights, **params)
        return StabilitySelection(base, threshold=stability, random_state=random_state, n_jobs=n_jobs)
    if C == "auto":
        if class_weight is not None:
            params["class_weight"] = weights
        return CV_METHODS[method](select=select or "best", random_state=random_state, **params)
    return METHODS[method](C=C, class_weight=weights, **params)


def count_folds(k, y, groups, random_state):
    """The folds ``k``-fold cross-validation uses (k shrinks to the smallest class or the
    number of groups); DataValidationError when the data allow fewer than 2."""
    y = np.asarray(y)
    return make_cv(k, y=y, groups=groups, random_state=random_state).get_n_splits(np.zeros((y.size, 1)), y, groups)


def check_choice_folds(X, y, groups, k, random_state):
    """Refuse, before any fit, data on which the cross-validated choice of C cannot split
    its inner folds (a class of one sample, one group): on all samples, and with ``k``
    outer folds (0: none) on every outer training part, which would fail only after the
    fit on all samples. Fewer outer folds never help: k-fold shrinks to the smallest class
    (or the groups), so a part that keeps one sample of a class has it at k = 2 already."""
    try:
        count_folds(None, y, groups, random_state)
    except DataValidationError as exc:
        raise DataValidationError(f"The cross-validated choice of C (C='auto') cannot split the data into its "
                                  f"inner folds: {exc} Use a fixed C.") from None
    if not k:
        return
    folds = make_folds(k, X, y, groups, random_state=random_state)
    for f, (train, _) in enumerate(folds):
        try:
            count_folds(None, y[train], None if groups is None else groups[train], random_state)
        except DataValidationError as exc:
            raise DataValidationError(
                f"In training part {f + 1} of the {len(folds)}-fold cross-validation, the cross-validated choice "
                f"of C cannot split its inner folds: {exc} Skip the estimate (cv=0) or use a fixed C.") from None


def cross_validate(estimator, X, y, groups, k, random_state, progress=silent, feature_names=None):
    """k-fold accuracy with the features re-selected in every fold, as a result's ``cv``;
    with ``feature_names`` also ``selected_per_fold``, the names of the features every
    fold's refit selected (in column order)."""
    folds = count_folds(k, y, groups, random_state)
    stage, done = f"{folds}-fold cross-validation", [0]
    progress(stage, 0, folds)

    def advance(n=1):
        done[0] += n
        progress(stage, done[0], folds)

    cv = cross_validate_selection(estimator, X, y, groups=groups, cv=k, random_state=random_state,
                                  progress=advance)
    summary = {"folds": len(cv.folds), "grouped": groups is not None, "accuracy_mean": float(cv.accuracy.mean()),
               "accuracy_std": float(cv.accuracy.std()), "accuracy": cv.accuracy, "n_selected": cv.n_selected}
    if feature_names is not None:
        summary["selected_per_fold"] = [[str(feature_names[j]) for j in np.flatnonzero(support)]
                                        for support in cv.supports]
    return summary


def softness_summary(model, feature_names, annotations=None, *, X=None, y=None, grouped=False):
    """A result's ``C_auto`` of a fitted SupportFeatureMachineCV / WestonZeroNormSVMCV:
    the rule, the chosen C, the CV table (one row per C; aligned by features also one row
    per budget) and the selection frequencies (features selected in at least one fold at
    the chosen C, most stable first, with their annotations when the data have any).
    With the data the model was fitted to (``X``, ``y``) also ``selections``: the table's
    rows grouped by what the full-data path selects at them (:func:`distinct_selections`).
    ``grouped``: the model was fitted with groups (its folds left one group out); ``scheme``
    says which folds the choice used, in words."""
    results = model.cv_results_
    table = [{"C": float(C), "mean_score": float(m), "se_score": float(se), "mean_features": float(k),
              "chosen": bool(i == model.best_index_)}
             for i, (C, m, se, k) in enumerate(zip(results["C"], results["mean_test_score"],
                                                   results["sem_test_score"], results["mean_n_features"]))]
    frequency = model.selection_frequency_
    order = [j for j in np.argsort(-frequency, kind="stable") if frequency[j] > 0]
    aligned = {}
    if model.align == "n_features":
        budgets = model.budget_results_
        complete = budgets["n_folds_within"] == model.n_splits_
        aligned = {"budget": int(model.budget_), "budget_table": [
            {"max_features": int(k), "mean_score": float(m), "se_score": float(se), "chosen": bool(k == model.budget_)}
            for k, m, se, ok in zip(budgets["n_features"], budgets["mean_test_score"], budgets["sem_test_score"],
                                    complete) if ok]}
    summary = {
        "select": model.select, "align": model.align, "C": model.C_,  # a float, None for a union
        "n_subsets": int(getattr(model, "n_subsets_", 0)), "chosen_fit": chosen_fit_text(model),
        "folds": int(model.n_splits_ // model.n_repeats_), "repeats": int(model.n_repeats_), "grouped": bool(grouped),
        "scheme": describe_folds(model.n_splits_ // model.n_repeats_, model.n_repeats_, grouped),
        "scoring": str(model.scoring), "table": table, **aligned,
        "selection_frequency": annotate([{"index": int(j), "name": str(feature_names[j]),
                                          "frequency": float(frequency[j])} for j in order],
                                        annotations),
    }
    if X is not None:
        summary["selections"] = distinct_selections(model, summary, X, y, feature_names)
    return summary


def chosen_fit_text(model):
    """What a fitted CV estimator chose, in words: ``"C = 0.5"``, or the union of its
    repetitive-SFM subsets (``n_subsets_``) with logistic regression."""
    n_subsets = getattr(model, "n_subsets_", 0)
    if n_subsets:
        return (f"the union of the first {n_subsets} repetitive-SFM subset{'s' if n_subsets > 1 else ''}, "
                "logistic regression on it")
    return f"C = {model.C_:.4g}"


def distinct_selections(model, summary, X, y, feature_names):
    """The rows of a ``C_auto`` ``summary``'s table grouped by the feature set the full-data
    path selects at them: one dict per distinct set, in the order of its first row.

    Every row of the CV table stands for one full-data fit: a grid point C_i for the fit at
    C_i, a budget k for the path's densest fit with at most k features (the fit the
    estimator refits when k is chosen). Rows whose fits select the same set are one
    selection, whatever their scores; rows with equal scores but different sets stay
    apart. Each dict holds the rows' ``C`` (aligned by C) or ``max_features`` (aligned by
    features), their ``mean_score`` and ``se_score`` (and ``mean_features`` per fold,
    aligned by C), as lists in row order, and the set: ``n_selected`` and ``features``
    (names in column order); ``chosen`` marks the set of the chosen row. The full-data
    candidates are the model's ``candidate_supports_`` where its fit kept them (aligned by
    features: the path's fits and the repetitive-SFM unions beyond them), else the path is
    fitted here.
    """
    supports = getattr(model, "candidate_supports_", None)  # kept by the fit when aligned by features
    if supports is None:
        supports = sfm_path(X, y, model.Cs_, estimator=clone(model.estimator_), probability=False).supports
    n_features = supports.sum(axis=1)
    by_budget = summary["align"] == "n_features"
    rows = summary["budget_table"] if by_budget else summary["table"]
    keys = ("max_features", "mean_score", "se_score") if by_budget else ("C", "mean_score", "se_score",
                                                                          "mean_features")
    groups = {}
    for i, row in enumerate(rows):
        index = densest_within_budget(n_features, row["max_features"]) if by_budget else i
        support = supports[index if index >= 0 else int(np.argmin(n_features))]
        chosen = np.flatnonzero(support)
        group = groups.setdefault(tuple(chosen), {**{key: [] for key in keys}, "n_selected": int(chosen.size),
                                                  "features": [str(feature_names[j]) for j in chosen],
                                                  "chosen": False})
        for key in keys:
            group[key].append(row[key])
        group["chosen"] = group["chosen"] or row["chosen"]
    return list(groups.values())
