"""The result folder of the fMRI workflow (NC 4, thesis 6): written by ``sfmlearn fmri``.

:func:`save_fmri_results` writes an :class:`~sfmlearn.mvpa.FMRIAnalysis` of an
:class:`~sfmlearn.mvpa.FMRIData` into a :class:`~sfmlearn.outputs.result_folder.ResultFolder`::

    maps/     NIfTI maps in the mask's space (SFM weights, selection frequency, t,
              with the repetitive SFM its ranking and top-q% consistency; the truth
              of simulated data)
    figures/  PNG slice montages (and nilearn glass brains when nilearn is installed),
              the NC Table 3 overlap bars, the informative-fraction curve, NC Fig. 3
    tables/   CSV tables (folds, selected voxels, overlaps, ...)
    data/     simulated data as a user would have them (only for simulations)
    summary.json  title, data, accuracies, voxel counts and every map/figure/table path

Every file is written atomically. :func:`load_fmri_results` reads such a folder back:
the summary, every listed table as a DataFrame and every listed map as a NIfTI image.
``sfmlearn report`` (:func:`~sfmlearn.report.report_from_result_dir`) turns the folder
into an HTML report.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..outputs.result_folder import ResultFolder
from ..mvpa import consensus, overlap_with_truth, selected_voxels, top_by_score
from ..plotting import brain
from ..plotting.repetitive import informative_fraction_figure
from .figures import literal

__all__ = ["FIGURE_Q", "FMRIResults", "load_fmri_results", "save_fmri_results"]

#: The top-q % threshold drawn as the NC Fig. 5 overlap montage (NC: 2.5 % ~ p = 0.001).
FIGURE_Q = 2.5

DESCRIPTION = ("Leave-one-group-out decoding with the Support Feature Machine (feature selection inside "
               "every fold) against a linear SVM on all voxels, with the group paired t-map (NC 2013 "
               "section 4, thesis chapter 6).")


@dataclass
class FMRIResults:
    """A result folder of the fMRI workflow as read back by :func:`load_fmri_results`.

    ``summary`` is summary.json; ``tables`` maps each table's name (``decoding_folds``)
    to a DataFrame, ``maps`` each map's name (``sfm_weights``) to a nibabel image, and
    ``figures`` each figure's name to its path.

    Parameters
    ----------
    path : pathlib.Path
        The result folder.
    summary : dict
        Its summary.json.
    tables : dict of str to pandas.DataFrame
        The listed tables by name (file name without suffix).
    maps : dict of str to nibabel image
        The listed NIfTI maps by name.
    figures : dict of str to pathlib.Path
        The listed figures by name.

    Examples
    --------
    :func:`load_fmri_results` reads any result folder; here one with a single table:

    >>> import tempfile
    >>> import pandas as pd
    >>> from sfmlearn.outputs import ResultFolder
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = ResultFolder(folder.name)
    >>> _ = out.add_table("folds", pd.DataFrame({"fold": [1, 2], "accuracy": [0.9, 1.0]}), "per fold")
    >>> _ = out.write_summary({"title": "Demo", "summary": {"accuracy": 0.95}, "tables": out.tables})
    >>> from sfmlearn.report import load_fmri_results
    >>> results = load_fmri_results(folder.name)
    >>> results.summary["summary"], list(results.tables), results.maps
    ({'accuracy': 0.95}, ['folds'], {})
    >>> folder.cleanup()
    """

    path: Path
    summary: dict
    tables: dict = field(default_factory=dict)
    maps: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)


def load_fmri_results(path):
    """Read a folder written by :func:`save_fmri_results` (or ``sfmlearn fmri``).

    Every table, map and figure its summary.json lists is loaded (paths leaving the
    folder are refused, :class:`~sfmlearn.outputs.ResultFolder`).

    Parameters
    ----------
    path : path-like
        The result folder, or its summary.json.

    Returns
    -------
    FMRIResults
        The summary, and the tables, maps and figure paths by name.

    Examples
    --------
    See :func:`save_fmri_results` for a folder of the fMRI workflow; any result folder
    reads the same way:

    >>> import tempfile
    >>> import pandas as pd
    >>> from sfmlearn.outputs import ResultFolder
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = ResultFolder(folder.name)
    >>> _ = out.add_table("folds", pd.DataFrame({"fold": [1, 2], "accuracy": [0.9, 1.0]}), "per fold")
    >>> _ = out.write_summary({"title": "Demo", "summary": {"accuracy": 0.95}, "tables": out.tables})
    >>> from sfmlearn.report import load_fmri_results
    >>> load_fmri_results(folder.name).tables["folds"]["accuracy"].tolist()
    [0.9, 1.0]
    >>> folder.cleanup()
    """
    folder = ResultFolder.open(path)
    summary = folder.summary
    return FMRIResults(
        path=folder.path, summary=summary,
        tables={_stem(e): folder.read_table(e["path"]) for e in summary.get("tables", [])},
        maps={_stem(e): folder.read_map(e["path"]) for e in summary.get("maps", [])},
        figures={_stem(e): folder.file(e["path"], "figure") for e in summary.get("figures", [])})


def _stem(entry):
    """``maps/consistency_q2.5.nii.gz`` -> ``consistency_q2.5``."""
    name = Path(entry["path"]).name
    for suffix in (".nii.gz", ".nii", ".png", ".csv"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def save_fmri_results(path, data, analysis, *, seconds=None):
    """Write ``analysis`` (of ``data``) as a result folder; returns the summary written.

    Parameters
    ----------
    path : path
        The folder (see the module docstring); files in it are replaced one by one.
    data : FMRIData
        The maps analysed (mask, truth, simulation).
    analysis : FMRIAnalysis
        What :func:`~sfmlearn.mvpa.analyse` returned for ``data``.
    seconds : float, optional
        Run time, recorded in the summary.

    Returns
    -------
    dict
        The JSON-ready summary (also written as summary.json).

    Examples
    --------
    A small simulated experiment (4 participants, 457 voxels), analysed, saved and read
    back:

    >>> import tempfile
    >>> from sfmlearn.imaging.simulate import mni152_mask, simulate_fmri
    >>> from sfmlearn.imaging.volumes import downsample_mask
    >>> from sfmlearn.mvpa import FMRIData, analyse
    >>> from sfmlearn.report import load_fmri_results, save_fmri_results
    >>> from sfmlearn.selection import SupportFeatureMachine
    >>> simulation = simulate_fmri("buttonpress", mask=downsample_mask(mni152_mask(), 2),
    ...                            n_participants=4, n_runs=2, effect_size=4.0, random_state=0)
    >>> data = FMRIData.from_simulation(simulation, name="simulated buttonpress")
    >>> analysis = analyse(data.X, data.labels, data.groups, estimator=SupportFeatureMachine(C=1.0),
    ...                    max_repetitions=3, informative_every=None, random_subset_repeats=2)
    >>> folder = tempfile.TemporaryDirectory()
    >>> summary = save_fmri_results(folder.name, data, analysis)
    >>> summary["summary"]["voxels"], summary["summary"]["groups"]
    (457, 4)
    >>> "sfm_weights" in load_fmri_results(folder.name).maps
    True
    >>> folder.cleanup()
    """
    folder = ResultFolder(path)
    if data.simulation is not None:
        data.simulation.save(folder.path / "data")
    _write_outputs(folder, data, analysis)
    return folder.write_summary(_summary(folder, data, analysis, seconds))


class _Maps:
    """Adds maps (values per voxel of ``mask``) and their figures to a result folder."""

    def __init__(self, folder, mask):
        self.folder, self.mask = folder, mask

    def map(self, name, values, caption, dtype=np.float32):
        return self.folder.add_map(name, self.mask.inverse_transform(values, dtype=dtype), caption)

    def glass(self, name, map_path, caption):
        relative = f"figures/{name}_glass.png"
        if brain.glass_brain(str(self.folder.path / map_path), self.folder.target(relative), title=caption):
            self.folder.add_written("figures", relative, caption + " (glass brain, nilearn)")


def _write_outputs(folder, data, analysis):
    mask = data.mask
    w = _Maps(folder, mask)
    classes = [str(c) for c in analysis.classes]
    drawn = [literal(c) for c in classes]  # class labels as matplotlib text ('$' escaped)
    sfm = analysis.sfm
    t = np.nan_to_num(analysis.tmap.t)
    weights = w.map("sfm_weights", sfm.coef_.ravel(), f"SFM weights on all maps (+ favours {classes[1]})")
    folder.add_figure("sfm_weights", brain.slice_montage(
        mask, sfm.coef_.ravel(), title=f"SFM on all maps: {int(sfm.support_.sum())} voxels",
        label=f"weight (+ {drawn[1]})", symmetric=True, threshold=0.0), "SFM weights (all maps)")
    w.glass("sfm_weights", weights, "SFM weights")
    frequency = analysis.decoding.selection_frequency
    w.map("sfm_selection_frequency", frequency, "fraction of folds whose SFM selected the voxel")
    folder.add_figure("sfm_selection_frequency", brain.slice_montage(
        mask, frequency, title="SFM selection frequency across folds", label="fraction of folds",
        threshold=0.0), "how often each voxel was selected across leave-one-out folds")
    t_path = w.map("t_map", t, f"paired t ({classes[1]} - {classes[0]})")
    folder.add_figure("t_map", brain.slice_montage(mask, t, symmetric=True, title="group paired t-map",
                                                   label="t"),
                      "group paired t-test on per-participant class means (NC 4.2)")
    w.glass("t_map", t_path, "paired t-map")
    folder.add_table("selected_voxels", selected_voxels(mask, sfm),
                     "voxels of the SFM on all maps, by |weight|, with MNI coordinates")
    folds = pd.concat([analysis.decoding.folds.assign(estimator="SFM"),
                       analysis.svm.folds.assign(estimator="linear SVM (all voxels)")])
    folder.add_table("decoding_folds", folds, "leave-one-group-out accuracy per held-out group")
    if analysis.repetitive is not None:
        _write_repetitive(folder, w, mask, analysis, t)
    if data.truth is not None:
        w.map("truth", data.truth.astype(np.uint8), "simulated informative voxels", dtype=np.uint8)
        scores = {"t-map": np.abs(t)}
        if analysis.repetitive is not None:
            scores = {"rSFM": analysis.repetitive.rankings, **scores}
        folder.add_table("overlap_truth", overlap_with_truth(scores, data.truth),
                         "precision/recall of top-q% sets against the simulated truth")
    if analysis.random_subsets is not None:
        folder.add_table("random_subsets", analysis.random_subsets, "SVM error on random voxel subsets")
        folder.add_figure("random_subsets", brain.random_subsets_boxplot(
            analysis.random_subsets, sfm_error=1 - analysis.decoding.accuracy),
            "NC Fig. 3: SVMs on random voxel subsets")
    if analysis.permutations is not None:
        folder.add_table("permutations", analysis.permutations.permutations,
                         "decoding on labels permuted within participants")


def _write_repetitive(folder, w, mask, analysis, t):
    rep = analysis.repetitive
    ranking = analysis.rsfm.ranking_.copy()
    ranking[ranking > sum(s.size for s in analysis.rsfm.subsets_)] = 0
    w.map("rsfm_ranking", ranking, "rSFM rank on all maps (1 = best, 0 = never selected)", dtype=np.int32)
    for q in analysis.consistency:
        w.map(f"consistency_q{q:g}", analysis.consistency[q],
              f"fraction of folds with the voxel in their rSFM top {q:g} %")
    folder.add_figure(f"consistency_q{FIGURE_Q:g}", brain.slice_montage(
        mask, analysis.consistency[FIGURE_Q], threshold=0.0, label="fraction of folds",
        title=f"rSFM top {FIGURE_Q:g} % consistency across folds"),
        f"how often each voxel is in the folds' rSFM top {FIGURE_Q:g} % (thesis Fig. 6.5)")
    rsfm_top = consensus(rep.rankings, FIGURE_Q)
    t_top = top_by_score(np.abs(t), FIGURE_Q)
    folder.add_figure(f"overlap_q{FIGURE_Q:g}", brain.overlap_montage(
        mask, rsfm_top, t_top, title=f"top {FIGURE_Q:g} %: rSFM (half of the folds) vs |t|"),
        "NC Fig. 5: rSFM consensus (red), t-map (green), both (yellow)")
    folder.add_table("overlap_tmap", analysis.overlap, "NC Table 3: overlap of rSFM and |t| top-q% sets")
    folder.add_figure("overlap_tmap", brain.overlap_bars(analysis.overlap),
                      "overlap of the rSFM and t-map top sets vs chance (NC Table 3)")
    subsets = pd.DataFrame(
        [{"group": g, "repetition": r + 1, "size": int(size), "sfm_test_error": float(err)}
         for g, path, errors in zip(rep.groups, rep.paths, rep.sfm_errors)
         for r, (size, err) in enumerate(zip(path.sizes, errors))])
    folder.add_table("rsfm_repetitions", subsets, "every fold's rSFM subsets and their test errors")
    if rep.informative is not None:
        folder.add_figure("informative_fraction", informative_fraction_figure(rep.informative),
                          "estimated fraction of informative voxels (NC Fig. 4)")


def _summary(folder, data, analysis, seconds):
    decoding = analysis.decoding.summary()
    simulated = " (written to data/)" if data.simulation is not None else ""
    summary = {
        "title": f"fMRI decoding: {data.name}{simulated}, {' vs '.join(map(str, analysis.classes))}",
        "description": DESCRIPTION,
        "summary": {
            "maps": analysis.n_maps, "voxels": analysis.n_voxels, "groups": analysis.n_groups,
            "classes": [str(c) for c in analysis.classes], "level": data.level,
            "voxel_size_mm": float(data.mask.voxel_size[0]),
            "sfm_accuracy": decoding["accuracy"], "sfm_balanced_accuracy": decoding["balanced_accuracy"],
            "sfm_mean_selected": decoding["mean_selected"],
            "svm_accuracy": analysis.svm.accuracy,
            "sfm_all_maps_selected": int(analysis.sfm.support_.sum()),
            "softness_C": analysis.sfm.get_params().get("C"), "seconds": seconds,
        },
        "decoding": {"sfm": decoding, "svm": analysis.svm.summary()},
        "maps": folder.maps, "figures": folder.figures, "tables": folder.tables,
    }
    if analysis.repetitive is not None:
        rep = analysis.repetitive.summary()
        summary["repetitive"] = {k: v for k, v in rep.items() if k != "folds"}
        summary["repetitive"]["repetitions_per_fold"] = [f["n_repetitions"] for f in rep["folds"]]
        summary["repetitive"]["ranked_per_fold"] = [f["n_ranked"] for f in rep["folds"]]
        summary["overlap_tmap"] = analysis.overlap.to_dict(orient="records")
        if "informative_fraction" in rep:
            summary["summary"]["informative_fraction"] = rep["informative_fraction"]["estimate"]
    if data.truth is not None:
        summary["summary"]["true_informative_fraction"] = float(np.mean(data.truth))
        if data.simulation is not None:
            summary["simulation"] = data.simulation.params
    if analysis.permutations is not None:
        summary["permutations"] = analysis.permutations.summary()
    if analysis.random_subsets is not None:
        summary["random_subsets"] = (analysis.random_subsets.groupby("size")["error"]
                                     .agg(["mean", "median"]).reset_index().to_dict(orient="records"))
    return summary
