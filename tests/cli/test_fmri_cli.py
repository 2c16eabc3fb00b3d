"""End-to-end tests of ``sfmlearn fmri`` on a tiny simulation (16 mm grid, 457 voxels)."""

import json
from pathlib import Path

import nibabel as nib
import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


@pytest.fixture(scope="module")
def simulated_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fmri_sim")
    code = main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "4",
                 "--runs", "2", "--repetitive", "--max-repetitions", "4", "--informative-every", "3",
                 "--random-subsets", "2", "--permutations", "2", "--quiet", "--out", str(out),
                 "--report", str(out / "report.html")])
    assert code == 0
    return out


def test_summary_lists_existing_outputs(simulated_run):
    summary = json.loads((simulated_run / "summary.json").read_text())
    s = summary["summary"]
    assert s["maps"] == 16 and s["voxels"] == 457 and s["groups"] == 4
    assert 0 <= s["sfm_accuracy"] <= 1 and 0 <= s["svm_accuracy"] <= 1
    assert 0 < s["true_informative_fraction"] < 0.2
    names = {entry["path"] for key in ("maps", "figures", "tables") for entry in summary[key]}
    for path in names:
        assert (simulated_run / path).is_file(), path
    assert {"maps/sfm_weights.nii.gz", "maps/t_map.nii.gz", "maps/rsfm_ranking.nii.gz",
            "figures/overlap_tmap.png", "tables/overlap_tmap.csv", "tables/overlap_truth.csv",
            "tables/random_subsets.csv"} <= names
    assert len(summary["overlap_tmap"]) == 6


def test_report_embeds_every_listed_figure(simulated_run):
    summary = json.loads((simulated_run / "summary.json").read_text())
    html = (simulated_run / "report.html").read_text()
    assert summary["title"] in html
    pngs = [entry for entry in summary["figures"] if entry["path"].endswith(".png")]
    assert pngs and html.count("data:image/png;base64,") >= len(pngs)
    assert "src=\"figures/" not in html and "http://" not in html  # self-contained


def test_maps_match_the_selected_voxel_table(simulated_run):
    weights = nib.load(simulated_run / "maps" / "sfm_weights.nii.gz")
    mask = nib.load(simulated_run / "data" / "mask.nii.gz")
    np.testing.assert_allclose(weights.affine, mask.affine)
    table = pd.read_csv(simulated_run / "tables" / "selected_voxels.csv")
    data = weights.get_fdata()
    assert np.count_nonzero(data) == len(table) > 0
    np.testing.assert_allclose(data[table["i"], table["j"], table["k"]], table["weight"], rtol=1e-5)
    # world coordinates from the affine
    xyz = nib.affines.apply_affine(mask.affine, table[["i", "j", "k"]].to_numpy())
    np.testing.assert_allclose(xyz, table[["x_mm", "y_mm", "z_mm"]].to_numpy())


def test_files_in_give_the_same_decoding_as_the_simulation(simulated_run, tmp_path):
    data = simulated_run / "data"
    samples = pd.read_csv(data / "samples.csv")
    # a byte-order mark, labels of two words and a blank last line: one label per line as written
    (tmp_path / "labels.txt").write_text("\ufeff" + "\n".join(samples["label"] + " hand") + "\n\n")
    out = tmp_path / "files"
    code = main(["fmri", "--images", *[str(data / p) for p in samples["image"]],
                 "--mask", str(data / "mask.nii.gz"), "--labels", str(tmp_path / "labels.txt"),
                 "--groups", *map(str, samples["participant"]), "--quiet", "--out", str(out)])
    assert code == 0
    first = json.loads((simulated_run / "summary.json").read_text())["summary"]
    second = json.loads((out / "summary.json").read_text())["summary"]
    # float32 NIfTI round trip: the same decisions
    assert second["sfm_accuracy"] == pytest.approx(first["sfm_accuracy"])
    assert second["svm_accuracy"] == pytest.approx(first["svm_accuracy"])
    assert "informative_fraction" not in second
    assert sorted(json.loads((out / "summary.json").read_text())["summary"]["classes"]) == sorted(
        {f"{label} hand" for label in samples["label"]})


def test_table_input_and_level(simulated_run, tmp_path):
    data = simulated_run / "data"
    code = main(["fmri", "--table", str(data / "samples.csv"), "--mask", str(data / "mask.nii.gz"),
                 "--level", "1", "--quiet", "--out", str(tmp_path)])
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())["summary"]
    assert summary["voxels"] < 457 and summary["voxel_size_mm"] == 32.0


def test_bad_input_is_one_line_error(simulated_run, tmp_path, capsys):
    data = simulated_run / "data"
    code = main(["fmri", "--images", str(data / "betas" / "sub-01_run-01_left.nii.gz"),
                 "--mask", str(data / "mask.nii.gz"), "--labels", "a", "b", "--groups", "1",
                 "--out", str(tmp_path)])
    assert code == 2
    assert "2 values for 1 maps" in capsys.readouterr().err
    assert main(["fmri", "--out", str(tmp_path)]) == 2


def test_emotion_simulation_decodes_its_first_pair(tmp_path):
    code = main(["fmri", "--simulate", "emotion", "--grid-level", "2", "--participants", "3",
                 "--runs", "2", "--quiet", "--out", str(tmp_path)])
    assert code == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["summary"]["classes"] == ["anger", "joy"]
    assert summary["summary"]["maps"] == 3 * 2 * 2
    assert any(t["path"] == "tables/overlap_truth.csv" for t in summary["tables"])


def test_more_than_two_labels_need_classes(simulated_run, tmp_path, capsys):
    data = simulated_run / "data"
    samples = pd.read_csv(data / "samples.csv")
    labels = [f"{lab}{run % 2}" for lab, run in zip(samples["label"], samples["run"])]
    code = main(["fmri", "--images", *[str(data / p) for p in samples["image"]],
                 "--mask", str(data / "mask.nii.gz"), "--labels", *labels,
                 "--groups", *map(str, samples["participant"]), "--out", str(tmp_path)])
    assert code == 2 and "--classes" in capsys.readouterr().err


def test_an_input_among_the_results_the_run_rewrites_is_refused(simulated_run, tmp_path, capsys):
    import shutil
    out = tmp_path / "run"
    shutil.copytree(simulated_run, out)
    data, weights = out / "data", out / "maps" / "sfm_weights.nii.gz"
    rows = pd.read_csv(data / "samples.csv")
    images = [str(data / p) for p in rows["image"]]
    common = ["--mask", str(data / "mask.nii.gz"), "--labels", *rows["label"], "--groups",
              *map(str, rows["participant"]), "--quiet", "--out", str(out), "--overwrite"]
    # an earlier run's map, which this run replaces, given as an input
    code = main(["fmri", "--images", *images[:-1], str(weights), *common])
    err = capsys.readouterr().err
    assert code == 2 and "which this run writes" in err and err.count("\n") == 1
    # data/ is written by --simulate runs only: inputs there may stay inside --out
    assert main(["fmri", "--images", *images, *common]) == 0


@pytest.mark.parametrize("argv, message", [
    (["--simulate", "buttonpress", "--mask", "m.nii.gz"], "--mask is not used with --simulate"),
    (["--table", "t.csv", "--labels", "a", "b"], "--labels is not used with --table"),
    (["--table", "t.csv", "--grid-level", "2"], "--grid-level is not used with real data"),
    (["--participants", "3"], "give --images (with --labels and --groups), --table, or --simulate"),
    (["--simulate", "buttonpress", "--classes", "left", "left"], "--classes must name two different labels"),
    (["--simulate", "buttonpress", "--max-repetitions", "5"], "--max-repetitions applies with --repetitive"),
    (["--simulate", "buttonpress", "--informative-every", "3"], "--informative-every applies with --repetitive"),
    (["--table", "t.csv", "--label-column", "run", "--group-column", "run"],
     "--label-column and --group-column name the same column 'run'"),
])
def test_an_option_the_data_source_ignores_is_refused(argv, message, tmp_path, capsys):
    assert main(["fmri", *argv, "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_informative_fraction_is_printed_with_its_reason(capsys):
    from sfmlearn.cli.fmri import _print_human
    summary = {"title": "t", "maps": [], "figures": [], "tables": [],
               "summary": {"maps": 4, "voxels": 10, "groups": 2, "sfm_accuracy": 0.5, "sfm_mean_selected": 1.0,
                           "svm_accuracy": 0.5, "informative_fraction": None},
               "repetitive": {"informative_fraction": {"estimate": None, "reason": "no fold found a subset"}}}
    _print_human(summary, "out", None)
    assert "estimated informative fraction: none (no fold found a subset)" in capsys.readouterr().out


SMALL = ["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--runs", "1", "--quiet"]


def test_a_run_that_fails_while_writing_leaves_an_existing_folder_as_it_was(tmp_path, monkeypatch, capsys):
    """The result folder is filled as a whole: a failure after the first map (a figure
    that could not be drawn) left maps and figures but no summary.json in a folder that
    already existed, and a rerun was then refused."""
    from sfmlearn.report import fmri_results

    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    real = fmri_results._write_outputs

    def half(folder, result):
        folder.add_map("sfm_weights", result.data.mask.inverse_transform(result.analysis.sfm.coef_.ravel()), "w")
        raise ValueError("Axis limits cannot be NaN or Inf")

    monkeypatch.setattr(fmri_results, "_write_outputs", half)
    with pytest.raises(ValueError):
        main([*SMALL, "--participants", "2", "--out", str(out)])
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".sfmlearn-tmp-")]
    monkeypatch.setattr(fmri_results, "_write_outputs", real)
    assert main([*SMALL, "--participants", "2", "--out", str(out)]) == 0  # nothing to overwrite


def test_overwrite_replaces_the_earlier_result_and_keeps_the_users_files(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*SMALL, "--participants", "4", "--repetitive", "--max-repetitions", "2", "--out", str(out)]) == 0
    assert (out / "maps" / "rsfm_ranking.nii.gz").exists() and len(list((out / "data" / "betas").iterdir())) == 8
    (out / "notes.txt").write_text("mine")
    assert main([*SMALL, "--participants", "2", "--out", str(out), "--overwrite"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    listed = {Path(entry["path"]).name for kind in ("maps", "figures", "tables") for entry in summary[kind]}
    assert {p.name for p in (out / "maps").iterdir()} <= listed  # no map of the earlier run left
    assert len(list((out / "data" / "betas").iterdir())) == 4 and (out / "notes.txt").read_text() == "mine"
