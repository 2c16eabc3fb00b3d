"""The fMRI result folder without the command line: save_fmri_results, then load_fmri_results."""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.imaging.simulate import mni152_mask, simulate_fmri
from sfmlearn.imaging.volumes import downsample_mask
from sfmlearn.mvpa import FMRIData, analyse, selected_voxels
from sfmlearn.report import load_fmri_results, result_dir_report, save_fmri_results
from sfmlearn.selection import SupportFeatureMachine


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    simulation = simulate_fmri("buttonpress", mask=downsample_mask(mni152_mask(), 2), n_participants=4,
                               n_runs=2, effect_size=4.0, random_state=0)
    data = FMRIData.from_simulation(simulation, name="simulated buttonpress")
    analysis = analyse(data.X, data.labels, data.groups, estimator=SupportFeatureMachine(C=1.0),
                       max_repetitions=3, informative_every=None, random_subset_repeats=2)
    out = tmp_path_factory.mktemp("fmri_results")
    summary = save_fmri_results(out, data, analysis, seconds=1.5)
    return out, data, analysis, summary


def test_summary_describes_the_analysis(saved):
    out, data, analysis, summary = saved
    s = summary["summary"]
    assert summary["title"] == "fMRI decoding: simulated buttonpress (written to data/), left vs right"
    assert (s["maps"], s["voxels"], s["groups"], s["level"]) == (16, data.mask.n_voxels, 4, 0)
    assert s["sfm_accuracy"] == analysis.decoding.summary()["accuracy"] and s["softness_C"] == 1.0
    assert s["true_informative_fraction"] == pytest.approx(data.truth.mean()) and s["seconds"] == 1.5
    assert summary["simulation"] == json.loads(json.dumps(data.simulation.params))
    assert len(summary["overlap_tmap"]) == len(analysis.overlap)
    assert json.loads((out / "summary.json").read_text()) == summary


def test_round_trip_gives_back_tables_and_maps(saved):
    out, data, analysis, summary = saved
    loaded = load_fmri_results(out)
    assert loaded.summary == summary
    assert set(loaded.tables) == {"selected_voxels", "decoding_folds", "overlap_tmap", "rsfm_repetitions",
                                  "overlap_truth", "random_subsets"}
    expected = selected_voxels(data.mask, analysis.sfm)
    pd.testing.assert_frame_equal(loaded.tables["selected_voxels"], expected, check_dtype=False)
    pd.testing.assert_frame_equal(loaded.tables["overlap_tmap"], analysis.overlap.reset_index(drop=True),
                                  check_dtype=False)
    weights = data.mask.transform(loaded.maps["sfm_weights"])[0]
    np.testing.assert_allclose(weights, analysis.sfm.coef_.ravel().astype(np.float32))
    truth = data.mask.transform(loaded.maps["truth"])[0]
    np.testing.assert_array_equal(truth.astype(bool), data.truth)
    assert {"consistency_q2.5", "rsfm_ranking", "t_map"} <= set(loaded.maps)
    assert all(path.is_file() for path in loaded.figures.values())
    assert (out / "data" / "samples.csv").is_file()


def test_the_folder_is_a_report_source(saved):
    out, *_ = saved
    html = result_dir_report(out).to_html()
    assert "fMRI decoding" in html and html.count("data:image/png;base64,") >= 5


def test_a_voxel_with_the_same_difference_in_every_participant_is_written_and_drawn(tmp_path):
    """Its paired t is infinite (zero variance): the t-map figure crashed on it after the
    whole analysis ('Axis limits cannot be NaN or Inf'); the map keeps +inf and the
    figures draw it at their colour limit."""
    import nibabel as nib

    simulation = simulate_fmri("buttonpress", mask=downsample_mask(mni152_mask(), 2), n_participants=4,
                               n_runs=2, effect_size=4.0, random_state=0)
    data = FMRIData.from_simulation(simulation, name="simulated buttonpress")
    X = data.X.copy()
    X[:, 0] = (data.labels == np.unique(data.labels)[1]).astype(float)  # a difference of 1 everywhere
    data = FMRIData(data.name, data.mask, X, data.labels, data.groups)
    analysis = analyse(data.X, data.labels, data.groups, estimator=SupportFeatureMachine(C=1.0),
                       informative_every=None, random_subset_repeats=None)
    assert np.isposinf(analysis.tmap.t[0])
    summary = save_fmri_results(tmp_path, data, analysis)
    t = nib.load(tmp_path / "maps" / "t_map.nii.gz").get_fdata()
    assert np.isposinf(t).sum() == 1 and np.isfinite(t).sum() == t.size - 1
    assert (tmp_path / "figures" / "t_map.png").exists() and json.dumps(summary)
