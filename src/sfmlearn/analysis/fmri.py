"""``fmri``: leave-one-participant-out SFM decoding of brain maps (NC 2013 section 4, thesis 6).

:func:`run_fmri` runs :func:`sfmlearn.mvpa.analyse` -- the SFM in every leave-one-group-
out fold against a linear SVM on all voxels, the group paired t-map on per-participant
class means, optionally the repetitive SFM in every fold (voxel ranking, overlap of the
top-q % sets with the t-map, NC Table 3, consistency maps, the informative fraction),
label permutations within participants and SVMs on random voxel subsets (NC Fig. 3) --
and :func:`describe_fmri` derives everything a result folder shows from it: the tables,
the maps and the summary. Writing the folder (maps as NIfTI, figures) is
:func:`sfmlearn.report.write_fmri_results`.
"""

import time
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..exceptions import NotSeparableError
from ..mvpa import analyse, consensus, overlap_with_truth, random_subset_svm, selected_voxels, subset_sizes, \
    top_by_score
from ..selection import RepetitiveSFM, SupportFeatureMachine
from ..utils.time_limit import time_limit
from .duration import (DurationEstimate, chance_decides, check_duration, estimate_duration, repetition_fits,
                       repetitions_advice)
from .result import AnalysisResult, not_in_json
from .selectors import UnseparatedFit, silent

__all__ = ["FIGURE_Q", "FMRIMaps", "FMRIResult", "TIMED_REPEATS", "describe_fmri", "run_fmri"]

#: The top-q % threshold drawn as the NC Fig. 5 overlap montage (NC: 2.5 % ~ p = 0.001).
FIGURE_Q = 2.5
#: Random-subset repeats from which ``max_seconds`` times one (at most a tenth of that work).
TIMED_REPEATS = 10

DESCRIPTION = ("Leave-one-group-out decoding with the Support Feature Machine (feature selection inside "
               "every fold) against a linear SVM on all voxels, with the group paired t-map (NC 2013 "
               "section 4, thesis chapter 6).")


@dataclass
class FMRIMaps:
    """What a result folder draws and tabulates, per voxel of the mask or per row.

    ``t`` is the paired t-map (NaN as 0); ``tables`` maps a table's name to ``(frame,
    caption)`` in the order written; with the repetitive SFM, ``rsfm_ranking`` is its rank
    on all maps (0 = never selected) and ``rsfm_top`` / ``t_top`` the top-``FIGURE_Q`` %
    sets of the rSFM consensus and of |t|.
    """

    t: np.ndarray
    tables: dict = field(default_factory=dict)
    rsfm_ranking: np.ndarray = None
    rsfm_top: np.ndarray = None
    t_top: np.ndarray = None


@dataclass
class FMRIResult(AnalysisResult):
    """What :func:`run_fmri` found; :meth:`to_dict` is the result folder's summary.json.

    ``maps``, ``figures`` and ``tables`` list the files of the folder (``{"path",
    "caption"}``), empty until it is written. ``data`` (:class:`~sfmlearn.mvpa.FMRIData`),
    ``analysis`` (:class:`~sfmlearn.mvpa.FMRIAnalysis`) and ``products``
    (:class:`FMRIMaps`) are kept for writing the folder (not in the JSON).

    Parameters
    ----------
    title, description : str
        What was decoded, and how (NC 2013 section 4).
    summary : dict
        Maps, voxels, groups, classes, level, voxel size, the SFM's and the SVM's
        accuracies, voxels selected, softness, run time (and the informative fractions).
    decoding : dict
        The SFM's and the SVM's decoding summaries.
    maps, figures, tables : list of dict
        The folder's files (``{"path", "caption"}``).
    repetitive, overlap_tmap, simulation, permutations, random_subsets : optional
        The repetitive SFM's summary and its overlap with the t-map (NC Table 3); the
        simulation's parameters; the permutation test; the random-subset SVMs by size.
    data : FMRIData, optional
        The maps analysed.
    analysis : FMRIAnalysis, optional
        What :func:`sfmlearn.mvpa.analyse` returned.
    products : FMRIMaps, optional
        The tables and maps derived for the folder.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    >>> from sfmlearn.analysis import FMRIResult
    >>> saved = {"title": "fMRI decoding", "description": "...", "summary": {"voxels": 457},
    ...          "decoding": {}, "maps": [], "figures": [], "tables": []}
    >>> result = FMRIResult.from_dict(saved)
    >>> result.summary["voxels"], result.to_dict() == saved
    (457, True)
    """

    OPTIONAL = frozenset({"repetitive", "overlap_tmap", "simulation", "permutations", "random_subsets"})

    title: str
    description: str
    summary: dict
    decoding: dict
    maps: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    repetitive: dict = None
    overlap_tmap: list = None
    simulation: dict = None
    permutations: dict = None
    random_subsets: list = None
    data: object = not_in_json()
    analysis: object = not_in_json()
    products: FMRIMaps = not_in_json()


def run_fmri(data, *, C=None, repetitive=False, informative_every=10, max_repetitions=None, n_permutations=0,
             random_subsets=0, random_state=0, n_jobs=1, max_seconds=None, progress=silent, started=None):
    """Decode the two classes of ``data`` leaving one group out (:func:`sfmlearn.mvpa.analyse`).

    Parameters
    ----------
    data : FMRIData
        Maps of two classes with their groups (:func:`load_fmri_data`, :func:`simulate_fmri_data`).
    C : float, optional
        Softness of the SFM; None for the hard SFM.
    repetitive : bool
        Also run the repetitive SFM in every fold.
    informative_every : int, optional
        Its SVM on the remaining voxels every k-th repetition, for the informative
        fraction (None or 0: skip).
    max_repetitions : int, optional
        Cap on the repetitions per fold.
    n_permutations : int
        Label permutations within participants.
    random_subsets : int
        SVMs on that many random voxel subsets per size (NC Fig. 3).
    random_state : int
        Seed.
    n_jobs : int
        Parallel folds (joblib).
    max_seconds : float or None
        Refuse, before any fit, a run estimated to take longer
        (:func:`~sfmlearn.analysis.duration.check_duration`), counting the SFM's fits:
        one per fold and one on all maps, again per fold for the permutations' real
        decoding and for every permutation, and with ``repetitive`` the repetitive
        SFM's on all maps and in every fold (``max_repetitions``, else the voxels over
        the size of one subset, or for a soft SFM, whose chance test decides when to
        stop, one); from 10 ``random_subsets`` on, one repeat of the random-subset SVMs
        is timed too. The SVMs on all voxels and the informative fraction's are not
        counted. The run goes on under the limit: its repetitive SFM, permutations and
        random-subset SVMs stop with :class:`~sfmlearn.utils.time_limit.TimeLimitError`
        once it has passed. None: no limit, nothing timed.
    progress : callable
        ``progress(stage, done, total)``, called as every stage starts and advances.
    started : float, optional
        ``time.perf_counter()`` when the run began (e.g. before reading the data), for
        the summary's run time; default: when this call began.

    Returns
    -------
    FMRIResult

    Raises
    ------
    UnseparatedFit
        The hard SFM on a training fold whose classes are not linearly separable.
    DurationLimitError
        The run's estimate exceeds ``max_seconds``.
    TimeLimitError
        The run passed ``max_seconds`` (its message says how far it got).

    Examples
    --------
    >>> from sfmlearn.analysis import run_fmri
    >>> from sfmlearn.analysis.fmri_data import simulate_fmri_data
    >>> data = simulate_fmri_data("buttonpress", participants=4, runs=2, grid_level=2)
    >>> result = run_fmri(data, C=1.0)
    >>> result.summary["voxels"], result.summary["groups"], list(result.products.tables)
    (457, 4, ['selected_voxels', 'decoding_folds', 'overlap_truth'])
    """
    started = time.perf_counter() if started is None else started
    if max_seconds is not None:
        counted = repetitive and not chance_decides(RepetitiveSFM(max_repetitions=max_repetitions), C is not None)
        check_duration(_estimate(data, C, repetitive, max_repetitions, n_permutations, random_subsets, max_seconds,
                                 progress, random_state),
                       max_seconds, ["fewer permutations"] * bool(n_permutations)
                       + [repetitions_advice(max_repetitions)] * counted
                       + ["fewer random_subsets"] * (random_subsets >= TIMED_REPEATS)
                       + ["fewer voxels (a coarser level)"])
    try:
        with time_limit(max_seconds):
            analysis = analyse(data.X, data.labels, data.groups, estimator=SupportFeatureMachine(C=C),
                               repetitive=repetitive, informative_every=informative_every or None,
                               max_repetitions=max_repetitions, n_permutations=n_permutations,
                               random_subset_repeats=random_subsets, random_state=random_state, n_jobs=n_jobs,
                               progress=progress)
    except NotSeparableError as exc:
        raise UnseparatedFit(str(exc)) from exc
    return describe_fmri(data, analysis, seconds=time.perf_counter() - started)


def _estimate(data, C, repetitive, max_repetitions, n_permutations, random_subsets, max_seconds, progress,
              random_state):
    """The duration of :func:`run_fmri`'s SFM fits and random-subset SVMs (its ``max_seconds``)."""
    n_groups = np.unique(data.groups).size
    decodings = 1 + (1 + n_permutations if n_permutations else 0)  # each fits every fold
    rsfm = RepetitiveSFM(max_repetitions=max_repetitions)

    def fits(selected):
        runs = (n_groups + 1) * repetition_fits(rsfm, data.X.shape[1], selected, C is not None) if repetitive else 0
        return decodings * n_groups + 1 + runs

    sfm = estimate_duration(SupportFeatureMachine(C=C), data.X, data.labels, fits, max_seconds=max_seconds,
                            progress=progress, random_state=random_state)
    svm = _random_subsets_estimate(data, random_subsets, random_state) if random_subsets >= TIMED_REPEATS else None
    return replace(sfm, others=(svm,)) if sfm is not None and svm is not None else sfm or svm


def _random_subsets_estimate(data, repeats, random_state):
    """One repeat of the random-subset SVMs (every size but all voxels, which is fitted
    once whatever the repeats; every fold), timed on all maps; None without such sizes."""
    sizes = subset_sizes(data.X.shape[1])[:-1]
    if not len(sizes):
        return None
    started = time.perf_counter()
    random_subset_svm(data.X, data.labels, data.groups, sizes=sizes, n_repeats=1, random_state=random_state)
    n_maps = data.labels.size
    return DurationEstimate("one repeat of the random-subset SVMs", (n_maps,), (time.perf_counter() - started,), 1.0,
                            n_maps, repeats)


def _products(data, analysis):
    # NaN (no difference in any participant) reads as 0; +-inf (the same difference in every
    # participant, paired_t_map) is kept: the map stores it and the figure draws it at its limit.
    sfm, t = analysis.sfm, np.where(np.isnan(analysis.tmap.t), 0.0, analysis.tmap.t)
    products = FMRIMaps(t=t)
    tables = products.tables
    tables["selected_voxels"] = (selected_voxels(data.mask, sfm),
                                 "voxels of the SFM on all maps, by |weight|, with MNI coordinates")
    folds = pd.concat([analysis.decoding.folds.assign(estimator="SFM"),
                       analysis.svm.folds.assign(estimator="linear SVM (all voxels)")])
    tables["decoding_folds"] = (folds, "leave-one-group-out accuracy per held-out group")
    rep = analysis.repetitive
    if rep is not None:
        ranking = analysis.rsfm.ranking_.copy()
        ranking[ranking > sum(s.size for s in analysis.rsfm.subsets_)] = 0
        products.rsfm_ranking = ranking
        products.rsfm_top = consensus(rep.rankings, FIGURE_Q)
        products.t_top = top_by_score(np.abs(t), FIGURE_Q)
        tables["overlap_tmap"] = (analysis.overlap, "NC Table 3: overlap of rSFM and |t| top-q% sets")
        subsets = pd.DataFrame(
            [{"group": g, "repetition": r + 1, "size": int(size), "sfm_test_error": float(err)}
             for g, path, errors in zip(rep.groups, rep.paths, rep.sfm_errors)
             for r, (size, err) in enumerate(zip(path.sizes, errors))])
        tables["rsfm_repetitions"] = (subsets, "every fold's rSFM subsets and their test errors")
    if data.truth is not None:
        scores = {"t-map": np.abs(t)}
        if rep is not None:
            scores = {"rSFM": rep.rankings, **scores}
        tables["overlap_truth"] = (overlap_with_truth(scores, data.truth),
                                   "precision/recall of top-q% sets against the simulated truth")
    if analysis.random_subsets is not None:
        tables["random_subsets"] = (analysis.random_subsets, "SVM error on random voxel subsets")
    if analysis.permutations is not None:
        tables["permutations"] = (analysis.permutations.permutations,
                                  "decoding on labels permuted within participants")
    return products


def describe_fmri(data, analysis, *, seconds=None):
    """The :class:`FMRIResult` of ``analysis`` (what :func:`~sfmlearn.mvpa.analyse` returned for ``data``)."""
    decoding = analysis.decoding.summary()
    simulated = " (written to data/)" if data.simulation is not None else ""
    result = FMRIResult(
        title=f"fMRI decoding: {data.name}{simulated}, {' vs '.join(map(str, analysis.classes))}",
        description=DESCRIPTION,
        summary={
            "maps": analysis.n_maps, "voxels": analysis.n_voxels, "groups": analysis.n_groups,
            "classes": [str(c) for c in analysis.classes], "level": data.level,
            "voxel_size_mm": float(data.mask.voxel_size[0]),
            "sfm_accuracy": decoding["accuracy"], "sfm_balanced_accuracy": decoding["balanced_accuracy"],
            "sfm_mean_selected": decoding["mean_selected"],
            "svm_accuracy": analysis.svm.accuracy,
            "sfm_all_maps_selected": int(analysis.sfm.support_.sum()),
            "softness_C": analysis.sfm.get_params().get("C"), "seconds": seconds,
        },
        decoding={"sfm": decoding, "svm": analysis.svm.summary()},
        data=data, analysis=analysis, products=_products(data, analysis))
    if analysis.repetitive is not None:
        rep = analysis.repetitive.summary()
        result.repetitive = {k: v for k, v in rep.items() if k != "folds"}
        result.repetitive["repetitions_per_fold"] = [f["n_repetitions"] for f in rep["folds"]]
        result.repetitive["ranked_per_fold"] = [f["n_ranked"] for f in rep["folds"]]
        result.overlap_tmap = analysis.overlap.to_dict(orient="records")
        if "informative_fraction" in rep:
            result.summary["informative_fraction"] = rep["informative_fraction"]["estimate"]
    if data.truth is not None:
        result.summary["true_informative_fraction"] = float(np.mean(data.truth))
        if data.simulation is not None:
            result.simulation = data.simulation.params
    if analysis.permutations is not None:
        result.permutations = analysis.permutations.summary()
    if analysis.random_subsets is not None:
        result.random_subsets = (analysis.random_subsets.groupby("size")["error"]
                                 .agg(["mean", "median"]).reset_index().to_dict(orient="records"))
    return result
