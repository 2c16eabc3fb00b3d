"""``path``: cross-validated score and feature count along the soft-SFM path; the choice of C.

Every training fold fits the soft SFM (or Weston's zero-norm SVM) along a data-adaptive
grid of C, from the C at which exactly one feature is selected (thesis 3.2: as C -> 0 the
SFM keeps the feature maximising |mu+_j - mu-_j|) to the hard solution; each C is scored
on the held-out fold, C is chosen (best mean score, or the one-standard-error rule
towards fewer features) and the model is refitted on all data
(:class:`~sfmlearn.selection.SupportFeatureMachineCV` with ``align="C"``: the choice
this command draws is one of C along the path; ``sfmlearn select --C auto`` makes the
estimator's default choice, over the number of features and beyond the path).
"""

import time
from dataclasses import dataclass

import numpy as np

from ..selection import SupportFeatureMachineCV, WestonZeroNormSVMCV
from ..utils.time_limit import time_limit
from .data import SelectorResult
from .duration import check_duration, estimate_duration
from .result import not_in_json
from .selectors import count_folds, make_selector, silent, softness_summary

__all__ = ["PathResult", "run_path"]


@dataclass
class PathResult(SelectorResult):
    """What :func:`run_path` found; :meth:`to_dict` is ``sfmlearn path --json``.

    ``C_auto`` holds the rule, the chosen C, the CV table (one row per C: mean score,
    its standard error, mean features, chosen) and the selection frequencies at the chosen
    C; ``selected`` the names of the features selected on all data. ``model`` is the
    fitted cross-validated selector (not in the JSON).

    Parameters
    ----------
    data, n_samples, n_features, classes, class_counts : str, int, int, list, dict
        The data (:class:`~sfmlearn.analysis.data.SelectorResult`).
    method, C, class_weight : str, float, str or None
        The cross-validated selector's class name, the chosen C and the class weights.
    n_selected, selected : int, list of str
        The features selected on all data at the chosen C.
    C_auto : dict
        The rule, the chosen C, the CV table, the selection frequencies and ``selections``: the
        table's rows grouped by the feature set the full-data path selects at them (as in
        :func:`~sfmlearn.analysis.run_select`).
    seconds : float
        The analysis' time.
    model : SupportFeatureMachineCV or WestonZeroNormSVMCV, optional
        The fitted selector.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    Three values of C in 3-fold cross-validation on the leukemia data; exactly one selection is
    chosen, and the model keeps it:

    >>> from sfmlearn.analysis import load_dataset, run_path
    >>> result = run_path(load_dataset("leukemia"), Cs=3, cv=3)
    >>> [s["chosen"] for s in result.C_auto["selections"]].count(True), result.C == result.model.C_
    (1, True)
    """

    n_selected: int
    selected: list[str]
    C_auto: dict
    seconds: float
    model: SupportFeatureMachineCV | WestonZeroNormSVMCV | None = not_in_json()


def run_path(data, *, method="sfm", class_weight=None, Cs=20, select="best", cv=5, random_state=0, n_jobs=1,
             max_seconds=None, progress=silent):
    """Cross-validate the softness path of ``data`` and choose C.

    Parameters
    ----------
    data : TrainingData
        Two-class training data; with ``groups`` every group stays within one fold
        (leave one group out).
    method : {"sfm", "weston"}
    class_weight : {"balanced", "none"} or None
        Balanced: C+ n+ = C- n-; "none": one C for every sample; None: the selector's
        default (balanced for the SFM, unweighted for Weston's).
    Cs : int
        Points of the data-adaptive grid of C.
    select : {"best", "1se"}
        Best mean CV score or the one-standard-error rule.
    cv : int
        Stratified folds (at least 2; ignored with groups).
    random_state : int
        Seed of the split.
    n_jobs : int
        Parallel folds (joblib).
    max_seconds : float or None
        Refuse, before any fit, a run estimated to take longer
        (:func:`~sfmlearn.analysis.duration.check_duration`: one path per fold and one on
        all data, timed on subsamples). End a run that passes it
        (:class:`~sfmlearn.utils.time_limit.TimeLimitError`). None: no limit, nothing timed.
    progress : callable
        ``progress(stage, done, total)``, called as the path starts.

    Returns
    -------
    PathResult

    Raises
    ------
    DurationLimitError
        The estimated duration exceeds ``max_seconds``.
    TimeLimitError
        The run passed ``max_seconds`` (its message says how far it got).

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset, run_path
    >>> result = run_path(load_dataset("leukemia"), Cs=3, cv=3, select="1se")
    >>> result.C_auto["select"], len(result.C_auto["table"]), result.C_auto["folds"]
    ('1se', 3, 3)
    """
    X, y, groups = data.X, data.y, data.groups
    folds = count_folds(None if groups is not None else cv, y, groups, random_state)  # as the model splits
    model = make_selector(method, "auto", class_weight, select=select, random_state=random_state, Cs=Cs,
                          cv=None if groups is not None else cv, n_jobs=n_jobs, align="C")  # along the path
    started = time.perf_counter()
    if max_seconds is not None:
        estimate = estimate_duration(model, X, y, 1, groups=groups, max_seconds=max_seconds, progress=progress,
                                     random_state=random_state)
        check_duration(estimate, max_seconds, ["fewer values of C (Cs)"] + ["fewer folds (cv)"] * (groups is None))
    progress(f"softness path in {folds} folds", 0, None)
    with time_limit(max_seconds):
        model.fit(X, y, groups=groups)
    return PathResult(
        **PathResult.describe_selector(data, model, model.C_, model.class_weight),  # C_: float or None
        n_selected=int(model.support_.sum()),
        selected=[str(data.feature_names[j]) for j in np.flatnonzero(model.support_)],
        C_auto=softness_summary(model, data.feature_names, data.annotations, X=X, y=y, grouped=groups is not None),
        seconds=time.perf_counter() - started, model=model)
