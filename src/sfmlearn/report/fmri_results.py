"""The result folder of the fMRI workflow (NC 4, thesis 6): written by ``sfmlearn fmri``.

:func:`write_fmri_results` renders an :class:`~sfmlearn.analysis.FMRIResult` into a
:class:`~sfmlearn.outputs.result_folder.ResultFolder` (the format and its reader,
:func:`~sfmlearn.outputs.result_folder.load_result_folder`, live there)::

    maps/     NIfTI maps in the mask's space (SFM weights, selection frequency, t,
              with the repetitive SFM its ranking and top-q% consistency; the truth
              of simulated data)
    figures/  PNG slice montages (and nilearn glass brains when nilearn is installed),
              the NC Table 3 overlap bars, the informative-fraction curve, NC Fig. 3
    tables/   CSV tables (folds, selected voxels, overlaps, ...)
    data/     simulated data as a user would have them (only for simulations)
    summary.json  title, data, accuracies, voxel counts and every map/figure/table path

Every file is written atomically. :func:`save_fmri_results` does the same from the
:class:`~sfmlearn.mvpa.FMRIData` and :class:`~sfmlearn.mvpa.FMRIAnalysis` of a run.
``sfmlearn report`` (:func:`~sfmlearn.report.report_from_result_dir`) turns the folder
into an HTML report.
"""

import numpy as np

from ..analysis.fmri import FIGURE_Q, describe_fmri
from ..outputs.result_folder import ResultFolder
from ..plotting import brain
from ..plotting.repetitive import informative_fraction_figure
from .figures import literal

__all__ = ["save_fmri_results", "write_fmri_results"]


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
    return write_fmri_results(path, describe_fmri(data, analysis, seconds=seconds))


def write_fmri_results(path, result):
    """Write the result folder of an fMRI analysis (the layout of the module docstring).

    Parameters
    ----------
    path : path
        The folder; files in it are replaced one by one.
    result : FMRIResult
        What :func:`sfmlearn.analysis.run_fmri` returned (with its data and analysis);
        its ``maps``, ``figures`` and ``tables`` are filled in.

    Returns
    -------
    dict
        summary.json as written, in JSON types.

    Examples
    --------
    >>> import tempfile
    >>> from sfmlearn.analysis import run_fmri
    >>> from sfmlearn.analysis.fmri_data import simulate_fmri_data
    >>> from sfmlearn.report import write_fmri_results
    >>> result = run_fmri(simulate_fmri_data("buttonpress", participants=4, runs=2, grid_level=2), C=1.0)
    >>> folder = tempfile.TemporaryDirectory()
    >>> summary = write_fmri_results(folder.name, result)
    >>> summary["tables"][0]["path"], summary["maps"] == result.maps
    ('tables/selected_voxels.csv', True)
    >>> folder.cleanup()
    """
    folder = ResultFolder(path)
    data = result.data
    if data.simulation is not None:
        data.simulation.save(folder.path / "data")
    _write_outputs(folder, result)
    result.maps, result.figures, result.tables = folder.maps, folder.figures, folder.tables
    return folder.write_summary(result.to_dict())


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


def _write_outputs(folder, result):
    data, analysis, products = result.data, result.analysis, result.products
    mask, t = data.mask, products.t
    w = _Maps(folder, mask)
    classes = [str(c) for c in analysis.classes]
    drawn = [literal(c) for c in classes]  # class labels as matplotlib text ('$' escaped)
    sfm = analysis.sfm
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
    for name, (frame, caption) in products.tables.items():
        folder.add_table(name, frame, caption)
    if analysis.repetitive is not None:
        _write_repetitive(folder, w, result)
    if data.truth is not None:
        w.map("truth", data.truth.astype(np.uint8), "simulated informative voxels", dtype=np.uint8)
    if analysis.random_subsets is not None:
        folder.add_figure("random_subsets", brain.random_subsets_boxplot(
            analysis.random_subsets, sfm_error=1 - analysis.decoding.accuracy),
            "NC Fig. 3: SVMs on random voxel subsets")


def _write_repetitive(folder, w, result):
    analysis, products, mask = result.analysis, result.products, result.data.mask
    w.map("rsfm_ranking", products.rsfm_ranking, "rSFM rank on all maps (1 = best, 0 = never selected)",
          dtype=np.int32)
    for q in analysis.consistency:
        w.map(f"consistency_q{q:g}", analysis.consistency[q],
              f"fraction of folds with the voxel in their rSFM top {q:g} %")
    folder.add_figure(f"consistency_q{FIGURE_Q:g}", brain.slice_montage(
        mask, analysis.consistency[FIGURE_Q], threshold=0.0, label="fraction of folds",
        title=f"rSFM top {FIGURE_Q:g} % consistency across folds"),
        f"how often each voxel is in the folds' rSFM top {FIGURE_Q:g} % (thesis Fig. 6.5)")
    folder.add_figure(f"overlap_q{FIGURE_Q:g}", brain.overlap_montage(
        mask, products.rsfm_top, products.t_top, title=f"top {FIGURE_Q:g} %: rSFM (half of the folds) vs |t|"),
        "NC Fig. 5: rSFM consensus (red), t-map (green), both (yellow)")
    folder.add_figure("overlap_tmap", brain.overlap_bars(analysis.overlap),
                      "overlap of the rSFM and t-map top sets vs chance (NC Table 3)")
    if analysis.repetitive.informative is not None:
        folder.add_figure("informative_fraction", informative_fraction_figure(analysis.repetitive.informative),
                          "estimated fraction of informative voxels (NC Fig. 4)")
