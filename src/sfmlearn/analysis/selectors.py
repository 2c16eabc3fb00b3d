"""What ``select``, ``path`` and ``repeat`` share: the selectors, the folds, cross-validation.

:func:`make_selector` builds the selector of a method name and a softness (a number, None
for the hard method, or ``"auto"`` for C chosen by cross-validation over the path);
:func:`count_folds` says how many folds ``k``-fold cross-validation of the data will use
(before any fit); :func:`cross_validate` is the library's
:func:`~sfmlearn.model_selection.cross_validate_selection` (features re-selected in every
fold) summarised as the results hold it; :func:`softness_summary` describes a
cross-validated choice of C.

Progress is reported through an optional callable ``progress(stage, done, total)``
(``total`` None for a step without a count), called when a stage starts and as it
advances.
"""

import time

import numpy as np

from ..exceptions import NotSeparableError
from ..model_selection import cross_validate_selection, make_cv
from ..selection import SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM, WestonZeroNormSVMCV
from .data import annotate

__all__ = ["CV_METHODS", "METHODS", "UnseparatedFit", "count_folds", "cross_validate", "make_selector", "silent",
           "softness_summary", "timed_fit"]

METHODS = {"sfm": SupportFeatureMachine, "weston": WestonZeroNormSVM}
#: The same methods with C chosen by cross-validation (``C="auto"``).
CV_METHODS = {"sfm": SupportFeatureMachineCV, "weston": WestonZeroNormSVMCV}


class UnseparatedFit(NotSeparableError):
    """The analysis' main fit found the classes not linearly separable (a hard method).

    Raised from the library's :class:`~sfmlearn.exceptions.NotSeparableError` of that fit
    (its cause), so a caller can tell it from one raised later, say under permuted labels,
    and answer with its own advice (the command line names ``--C``).
    """


def timed_fit(estimator, data, progress, stage, **fit_params):
    """Fit ``estimator`` to ``data`` (TrainingData) as progress ``stage``; returns the seconds taken.

    A NotSeparableError of the fit is raised as :class:`UnseparatedFit`.
    """
    progress(stage, 0, None)
    started = time.perf_counter()
    try:
        estimator.fit(data.X, data.y, **fit_params)
    except NotSeparableError as exc:
        raise UnseparatedFit(str(exc)) from exc
    return time.perf_counter() - started


def silent(stage, done, total):
    """The ``progress`` callback that shows nothing."""


def make_selector(method="sfm", C=None, class_weight=None, *, select=None, random_state=None, **params):
    """The selector of ``method`` with softness ``C`` (plus ``params``).

    ``C="auto"``: the cross-validated selector (``select`` "best" or "1se", seeded by
    ``random_state``) with its own defaults where ``class_weight`` is None (balanced
    classes for the SFM); otherwise ``select`` is ignored.
    """
    if C == "auto":
        if class_weight is not None:
            params["class_weight"] = class_weight
        return CV_METHODS[method](select=select or "best", random_state=random_state, **params)
    return METHODS[method](C=C, class_weight=class_weight, **params)


def count_folds(k, y, groups, random_state):
    """The folds ``k``-fold cross-validation uses (k shrinks to the smallest class or the
    number of groups); DataValidationError when the data allow fewer than 2."""
    return make_cv(k, y=y, groups=groups, random_state=random_state).get_n_splits()


def cross_validate(estimator, X, y, groups, k, random_state, progress=silent):
    """k-fold accuracy with the features re-selected in every fold, as a result's ``cv``."""
    folds = count_folds(k, y, groups, random_state)
    stage, done = f"{folds}-fold cross-validation", [0]
    progress(stage, 0, folds)

    def advance(n=1):
        done[0] += n
        progress(stage, done[0], folds)

    cv = cross_validate_selection(estimator, X, y, groups=groups, cv=k, random_state=random_state,
                                  progress=advance)
    return {"folds": len(cv.folds), "grouped": groups is not None, "accuracy_mean": float(cv.accuracy.mean()),
            "accuracy_std": float(cv.accuracy.std()), "accuracy": cv.accuracy, "n_selected": cv.n_selected}


def softness_summary(model, feature_names, annotations=None):
    """A result's ``C_auto`` of a fitted SupportFeatureMachineCV / WestonZeroNormSVMCV:
    the rule, the chosen C, the CV table (one row per C) and the selection frequencies
    (features selected in at least one fold at the chosen C, most stable first, with
    their annotations when the data have any)."""
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
    return {
        "select": model.select, "align": model.align, "C": float(model.C_),
        "folds": int(model.n_splits_ // model.n_repeats_), "repeats": int(model.n_repeats_),
        "scoring": str(model.scoring), "table": table, **aligned,
        "selection_frequency": annotate([{"index": int(j), "name": str(feature_names[j]),
                                          "frequency": float(frequency[j])} for j in order],
                                        annotations),
    }
