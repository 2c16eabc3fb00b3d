"""``compare``: how many features do I need? Sparse methods' held-out accuracy at every budget.

The analysis behind ``sfmlearn compare``: :func:`sfmlearn.diagnostics.compare_budgets` on
a dataset -- the SFM path, the repetitive SFM (hard and soft), the SFM's stability ranking, l1- and
elastic-net logistic regression,
each fitted along its path in every outer training fold, the fit used at each feature
budget chosen on the training data only (the densest fit within the budget, or an inner
cross-validation with ``inner_cv``), and the automatic choice of
:class:`~sfmlearn.SupportFeatureMachineCV` as one point.
"""

import time
from dataclasses import dataclass

import numpy as np

from ..diagnostics import compare_budgets
from ..diagnostics.budget_paths import SFMPath, default_path_methods
from ..diagnostics.budgets import path_fits_per_set, plan_comparison
from ..selection import SupportFeatureMachineCV
from ..utils.time_limit import time_limit
from .data import DataResult, class_counts
from .duration import check_duration, estimate_duration, work_unit
from .selectors import silent

__all__ = ["CompareResult", "run_compare"]


@dataclass
class CompareResult(DataResult):
    """What :func:`run_compare` found; :meth:`to_dict` is ``sfmlearn compare --json``.

    Parameters
    ----------
    data, n_samples, n_features, classes : str, int, int, list
        The data (:class:`~sfmlearn.analysis.data.DataResult`).
    class_counts : dict
        Samples per class.
    grouped : bool
        Whether the outer folds keep groups together.
    scheme : str
        The outer folds in words: "leave-one-group-out", "5-fold" or "5-fold group".
    comparison : dict
        :meth:`sfmlearn.diagnostics.BudgetComparison.to_dict`: the methods x budgets
        table, per-fold values and the automatic choice.
    seconds : float
        The analysis' time.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    >>> from sfmlearn.analysis import CompareResult
    >>> saved = {"data": "toy.csv", "n_samples": 40, "n_features": 30, "classes": ["a", "b"],
    ...          "class_counts": {"a": 20, "b": 20}, "grouped": False, "comparison": {}, "seconds": 1.0,
    ...          "scheme": "5-fold"}
    >>> CompareResult.from_dict(saved).to_dict() == saved
    True
    """

    class_counts: dict[str, int]
    grouped: bool
    comparison: dict
    seconds: float
    scheme: str = ""

    @property
    def budget_comparison(self):
        """The comparison as a :class:`~sfmlearn.diagnostics.BudgetComparison`."""
        from ..diagnostics import BudgetComparison

        return BudgetComparison.from_dict(self.comparison)


def run_compare(data, *, budgets=None, cv=None, inner_cv=None, methods=None, automatic=None, random_state=0,
                n_jobs=1, max_seconds=None, progress=silent):
    """The accuracy-versus-budget frontier of ``data`` (nested cross-validation).

    Parameters
    ----------
    data : TrainingData
        Two-class training data; with ``groups`` the outer folds leave one group out.
    budgets : sequence of int or None
        Feature budgets (None: 1, 2, 3, 5, 10, 20, 50 up to the number of features).
    cv : int or None
        Outer folds: None for stratified 5-fold, or leave one group out with ``groups``;
        an int k for stratified k-fold, with ``groups`` k folds of whole groups
        (:func:`~sfmlearn.model_selection.make_cv`).
    inner_cv : int or None
        Inner folds of the choice of the fit per budget (None: the densest fit within it).
    methods : dict of name -> path method, optional
        Default: :func:`sfmlearn.diagnostics.budget_paths.default_path_methods`.
    automatic : estimator, None or False
        The automatic choice (None: ``SupportFeatureMachineCV(class_weight="balanced")``;
        False: none).
    random_state : int
        Seed of the folds.
    n_jobs : int
        Parallel outer folds (joblib).
    max_seconds : float or None
        Refuse, before any fit, a run estimated to take longer
        (:func:`~sfmlearn.analysis.duration.check_duration`, with every method's path
        fits and the automatic choice's counted as SFM paths, timed on subsamples).
        End a run that passes it
        (:class:`~sfmlearn.utils.time_limit.TimeLimitError`). None: no limit, nothing timed.
    progress : callable
        ``progress(stage, done, total)``.

    Returns
    -------
    CompareResult

    Raises
    ------
    DurationLimitError
        The estimated duration exceeds ``max_seconds``.
    TimeLimitError
        The run passed ``max_seconds`` (its message says how far it got).

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset, run_compare
    >>> from sfmlearn.diagnostics.budget_paths import LogisticPath
    >>> result = run_compare(load_dataset("leukemia"), budgets=(1, 2), cv=3, inner_cv=None,
    ...                      methods={"l1-logistic": LogisticPath(n_Cs=5)}, automatic=False)
    >>> result.comparison["budgets"], result.comparison["n_folds"]
    ([1, 2], 3)
    """
    started = time.perf_counter()
    grouped = data.groups is not None
    if max_seconds is not None:  # what the data cannot serve is refused before anything is timed
        plan_comparison(data.X, data.y, budgets=budgets, methods=methods, automatic=automatic, cv=cv,
                        inner_cv=inner_cv, groups=data.groups, random_state=random_state)
    fits = _path_fits(data, cv, inner_cv, methods, automatic) if max_seconds is not None else None
    if fits:
        estimate = estimate_duration(SFMPath(), data.X, data.y, fits, max_seconds=max_seconds, progress=progress,
                                     random_state=random_state)
        folds = ["fewer folds (cv)"] + ["inner_cv=None"] * bool(inner_cv)
        check_duration(estimate, max_seconds, [" or ".join(folds)] * bool(folds) + ["fewer methods"])
    with time_limit(max_seconds):
        comparison = compare_budgets(data.X, data.y, budgets=budgets, methods=methods, automatic=automatic, cv=cv,
                                     inner_cv=inner_cv, groups=data.groups, random_state=random_state,
                                     n_jobs=n_jobs, progress=progress)
    return CompareResult(data=data.source, n_samples=int(data.X.shape[0]), n_features=int(data.X.shape[1]),
                         classes=[str(c) for c in np.unique(data.y)], class_counts=class_counts(data.y),
                         grouped=grouped, comparison=comparison.to_dict(), seconds=time.perf_counter() - started,
                         scheme="leave-one-group-out" if grouped and cv is None
                         else f"{comparison.n_folds}-fold" + " group" * grouped)


def _path_fits(data, cv, inner_cv, methods, automatic):
    """Paths the comparison fits: every method's in every outer fold and its inner folds,
    and the automatic choice's (:func:`~.duration.work_unit`) in every outer fold; None
    when the data do not allow its folds (:func:`~sfmlearn.compare_budgets` says why)."""
    methods = default_path_methods() if methods is None else methods
    outer = cv if cv is not None else np.unique(data.groups).size if data.groups is not None else 5
    per_fold = (1 + (inner_cv or 0)) * path_fits_per_set(methods)
    if automatic is not False:
        try:
            per_fold += work_unit(SupportFeatureMachineCV() if automatic is None else automatic, data.y, data.groups)[2]
        except ValueError:
            return None
    return outer * per_fold
