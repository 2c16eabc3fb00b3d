"""``repeat``: the repetitive SFM, its ranking of the features and the informative fraction.

The repetitive SFM (NC 2013, 4.4; thesis 3.2, 6.3): F_0 = all features; fit the SFM on
F_t, R_t = its support, F_{t+1} = F_t \\ R_t, until a stop rule holds; subsets sorted by
size rank the features. The informative fraction: in cross-validation a soft SVM is
trained on the remaining features after every k-th repetition; the sigmoid
f(x) = a0 + a1 / (1 + exp(-(x - a2) / a3)) fitted to its test error against the
fraction x of discarded features has a tangent at x = a2 that meets chance (0.5) at the
estimate (:func:`~sfmlearn.selection.repetitive.estimate_informative_fraction`).
"""

import time
from dataclasses import dataclass

import numpy as np

from ..diagnostics import chance_report
from ..exceptions import DataValidationError
from ..selection import RepetitiveSFM
from ..selection.repetitive import InformativeFraction, estimate_informative_fraction
from ..utils.time_limit import time_limit
from .data import DataResult, annotate, class_counts
from .duration import chance_decides, check_duration, estimate_duration, repetition_fits, repetitions_advice
from .result import not_in_json
from .selectors import count_folds, cross_validate, make_selector, silent, timed_fit

__all__ = ["STOPS", "RepeatResult", "run_repeat"]

#: Why the repetitive SFM stopped, said for people (keys: ``RepetitiveSFM.stop_reason_``).
STOPS = {
    "not_separable": "the classes are no longer linearly separable within the remaining features",
    "chance": "the last repetition no longer beat chance (cross-validated test)",
    "no_features_selected": "the base selector selected no feature",
    "features_exhausted": "no feature was left",
    "max_repetitions": "--max-repetitions reached",
    "solver_failed": "the solver could not solve the next repetition's linear programs (see the warning)",
}


@dataclass
class RepeatResult(DataResult):
    """What :func:`run_repeat` found; :meth:`to_dict` is ``sfmlearn repeat --json``.

    ``subsets`` are the feature names of every repetition in the order found,
    ``ranking`` the ranked features (rank, index, name, repetition, weight,
    annotations); ``estimate`` describes the informative-fraction estimate, ``cv`` and
    ``chance`` the base selector's cross-validation and chance bound (computed for a
    report). ``informative`` is the :class:`~sfmlearn.selection.repetitive.InformativeFraction`
    behind ``estimate`` (its figure; not in the JSON).

    Parameters
    ----------
    data, n_samples, n_features, classes : str, int, int, list
        The data (:class:`~sfmlearn.analysis.data.DataResult`).
    method, C, class_weight : str, float or None, str or None
        The base selector's class name, softness and class weights.
    n_repetitions, stop_reason, stopped_because : int, str, str
        How many subsets were found, why the repetitions stopped (a key of
        :data:`STOPS`) and that reason for people.
    n_ranked, fit_seconds : int, float
        Features ranked; the fit's time.
    subsets, subset_sizes_by_size, ranking : list, list of int, list of dict
        The subsets in the order found, their sizes from the smallest, the ranked features.
    class_counts : dict
        Samples per class.
    estimate, cv, chance : dict, optional
        The informative-fraction estimate; the base selector's cross-validation and chance
        bound.
    seconds : float
        The whole analysis' time.
    informative : InformativeFraction, optional
        The estimate itself (for its figure).
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    >>> from sfmlearn.analysis import RepeatResult, load_dataset, run_repeat
    >>> result = run_repeat(load_dataset("leukemia"), max_repetitions=2, estimate=False)
    >>> RepeatResult.from_dict(result.to_dict()).subset_sizes_by_size
    [2, 3]
    """

    OPTIONAL = frozenset({"estimate", "cv", "chance"})

    method: str
    C: float | None
    class_weight: str | None
    n_repetitions: int
    stop_reason: str
    stopped_because: str
    n_ranked: int
    fit_seconds: float
    subsets: list[list[str]]
    subset_sizes_by_size: list[int]
    ranking: list[dict]
    class_counts: dict[str, int]
    estimate: dict | None = None
    cv: dict | None = None
    chance: dict | None = None
    seconds: float | None = None
    informative: InformativeFraction | None = not_in_json()


def run_repeat(data, *, method="sfm", C=None, class_weight=None, max_repetitions=None, estimate=True, informative_every=10,
               cv=None, inner_cv=None, aggregate="mean", base_checks=False, base_cv=5, random_state=0,
               n_jobs=None, max_seconds=None, progress=silent):
    """Run the repetitive SFM on ``data`` and, optionally, estimate the informative fraction.

    Parameters
    ----------
    data : TrainingData
        Two-class training data; with groups the estimate leaves one group out.
    method : {"sfm", "weston"}
        The base selector: the SFM or Weston's zero-norm SVM.
    C : float, optional
        Its softness; None for the hard SFM, which stops when the classes are no longer
        separable.
    class_weight : {"balanced", "none"} or None
        Balanced: C+ n+ = C- n-; "none" or None: one C for every sample.
    max_repetitions : int, optional
        Stop after this many subsets.
    estimate : bool
        Estimate the fraction of informative features.
    informative_every : int
        The estimate trains its SVM after every ``informative_every``-th repetition (NC 2013: 10).
    cv, inner_cv : int, optional
        The estimate's outer cross-validation and the inner one choosing the SVM's C
        (None with groups: leave one group out).
    aggregate : {"mean", "median"}
        How the fold curves are combined.
    base_checks : bool
        Also cross-validate the base selector (``base_cv`` folds) and compute its chance
        bound, as a report shows them (skipped when no subset was found).
    base_cv : int
        Folds of that cross-validation.
    random_state : int
        Seed of shuffled folds.
    n_jobs : int, optional
        Parallel folds (joblib).
    max_seconds : float or None
        Refuse, before any fit, a run estimated to take longer
        (:func:`~sfmlearn.analysis.duration.check_duration`; without ``max_repetitions``
        the repetitions are counted as the features over the size of one subset, or,
        for a soft base, whose chance test decides when to stop, as one), and stop a
        run that passes it (:class:`~sfmlearn.utils.time_limit.TimeLimitError`). None:
        no limit, nothing timed.
    progress : callable
        ``progress(stage, done, total)``, called as every stage starts and advances
        (the estimate's stages are "rSFM" and "SVM").

    Returns
    -------
    RepeatResult

    Raises
    ------
    UnseparatedFit
        A hard base selector on classes not linearly separable in all features.
    DurationLimitError
        The estimated duration exceeds ``max_seconds``.
    TimeLimitError
        The run passed ``max_seconds`` (its message says after how many repetitions).

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset, run_repeat
    >>> result = run_repeat(load_dataset("leukemia"), max_repetitions=2, estimate=False)
    >>> result.n_repetitions, result.stopped_because, result.ranking[0]["rank"]
    (2, '--max-repetitions reached', 1)
    """
    X, y, groups = data.X, data.y, data.groups
    base = make_selector(method, C, class_weight)
    rsfm = RepetitiveSFM(base, max_repetitions=max_repetitions, random_state=random_state)
    started = time.perf_counter()
    if max_seconds is not None:
        _check_duration(rsfm, data, estimate, cv, base_checks, base_cv, random_state, max_seconds, progress)
    with time_limit(max_seconds):
        result = _describe_fit(data, rsfm, C, base.class_weight,
                               timed_fit(rsfm, data, progress, "repetitive SFM on all samples"))
        annotate(result.ranking, data.annotations)
        if estimate:
            found = estimate_informative_fraction(
                X, y, groups, estimator=base, informative_every=informative_every, cv=cv, inner_cv=inner_cv,
                aggregate=aggregate, max_repetitions=max_repetitions, random_state=random_state, n_jobs=n_jobs,
                progress=progress)
            result.estimate = _describe_estimate(found, groups is not None, informative_every, aggregate)
            result.informative = found
        if base_checks and result.subsets:
            result.cv = cross_validate(base, X, y, groups, base_cv, random_state, progress)
            result.chance = chance_report(X, y, base, groups=groups, n_permutations=0).to_dict()
    result.seconds = time.perf_counter() - started
    return result


def _check_duration(rsfm, data, estimate, cv, base_checks, base_cv, random_state, max_seconds, progress):
    """Refuse a run estimated over ``max_seconds`` before any fit. The repetitions are
    counted by :func:`~sfmlearn.analysis.duration.repetition_fits`: where a soft base's
    chance test decides when to stop, only the first of each run; the time limit the
    run goes on under stops it later."""
    X, y, groups = data.X, data.y, data.groups
    try:
        runs = 1 + (count_folds(cv, y, groups, random_state) if estimate else 0)
    except DataValidationError:  # folds the data do not allow: the estimate says why
        runs = 1
    soft = getattr(rsfm.estimator, "C", None) is not None

    def fits(selected):
        return runs * repetition_fits(rsfm, X.shape[1], selected, soft) + (base_cv + 1 if base_checks else 0)

    check_duration(estimate_duration(rsfm.estimator, X, y, fits, groups=groups, max_seconds=max_seconds,
                                     progress=progress, random_state=random_state),
                   max_seconds, [repetitions_advice(rsfm.max_repetitions)] * (not chance_decides(rsfm, soft))
                   + ["estimate=False"] * bool(estimate))


def _describe_fit(data, rsfm, C, class_weight, fit_seconds):
    names = data.feature_names
    position = {int(j): t for t, subset in enumerate(rsfm.subsets_) for j in subset}
    ranked = np.concatenate(rsfm.subsets_by_size_) if rsfm.subsets_ else np.zeros(0, dtype=int)
    coefs = rsfm.coefs_.tocsr()
    return RepeatResult(
        **RepeatResult.describe_data(data, rsfm),
        method=type(rsfm.estimator).__name__, C=C, class_weight=class_weight,
        n_repetitions=rsfm.n_repetitions_, stop_reason=rsfm.stop_reason_,
        stopped_because=STOPS[rsfm.stop_reason_],
        n_ranked=int(ranked.size), fit_seconds=fit_seconds,
        subsets=[[str(names[j]) for j in subset] for subset in rsfm.subsets_],
        subset_sizes_by_size=[int(s.size) for s in rsfm.subsets_by_size_],
        ranking=[{"rank": int(rsfm.ranking_[j]), "index": int(j), "name": str(names[j]),
                  "repetition": position[int(j)] + 1, "weight": float(coefs[position[int(j)], j])}
                 for j in ranked],
        class_counts=class_counts(data.y))


def _describe_estimate(estimate, grouped, every, aggregate):
    return {
        "available": estimate.available, "fraction": estimate.estimate,
        "n_informative": estimate.n_informative, "fit": estimate.fit_used, "reason": estimate.reason,
        "extrapolated": estimate.extrapolated, "folds": len(estimate.folds), "grouped": grouped,
        "every": every, "aggregate": aggregate,
        "fold_repetitions": [f["path"].n_repetitions for f in estimate.folds],
        "curve": {"discarded": [f["discarded"] for f in estimate.folds],
                  "error": [f["errors"] for f in estimate.folds]},
        "free_fit": estimate.free.params,
        "restricted_fit": estimate.restricted.params,
    }
