"""Nothing a user owns is lost: outputs are checked before the work, never an input or a
symbolic link, written atomically, and a failed run leaves no half-made folder behind."""

import json

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from sfmlearn.analysis import fmri as fmri_analysis
from sfmlearn.cli import main
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.outputs.atomic import TEMPORARY_PREFIX
from sfmlearn.selection import SupportFeatureMachine


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["case", "control"], 6)
    X = rng.standard_normal((12, 4))
    X[:, 0] += np.where(y == "case", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=["g0", "g1", "g2", "g3"])
    frame["label"] = y
    path = tmp_path / "base.csv"
    frame.to_csv(path, index=False)
    return path


def _select(table, *extra):
    return ["select", str(table), "--target", "label", "--cv", "0", "--quiet", *extra]


def _one_error_line(capsys):
    err = capsys.readouterr().err
    assert err.startswith("sfmlearn: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.fixture
def no_fit(monkeypatch):
    """Fail the test if a selector is fitted: output problems must be found before the work."""
    def fit(self, X, y):
        raise AssertionError("the selector was fitted before the output was checked")
    monkeypatch.setattr(SupportFeatureMachine, "fit", fit)


def test_report_over_the_input_data_is_refused(table, capsys, no_fit):
    before = table.read_bytes()
    assert main(_select(table, "--report", str(table))) == 2
    assert "is the input" in _one_error_line(capsys)
    assert table.read_bytes() == before


def test_report_command_does_not_overwrite_its_summary_or_a_figure(tmp_path, capsys):
    Image.fromarray(np.zeros((4, 4), np.uint8)).save(tmp_path / "map.png")
    summary = json.dumps({"title": "t", "figures": ["map.png"]})
    (tmp_path / "summary.json").write_text(summary)
    png = (tmp_path / "map.png").read_bytes()
    for target in ("summary.json", "map.png"):
        assert main(["report", str(tmp_path), "-o", str(tmp_path / target)]) == 2
        assert "is the input" in _one_error_line(capsys)
    assert (tmp_path / "summary.json").read_text() == summary and (tmp_path / "map.png").read_bytes() == png


def test_correct_illumination_does_not_replace_its_input(tmp_path, capsys):
    picture = tmp_path / "same.png"
    Image.fromarray((np.arange(1600) % 251).astype(np.uint8).reshape(40, 40)).save(picture)
    before = picture.read_bytes()
    assert main(["correct-illumination", str(picture), str(picture), "--levels", "2"]) == 2
    assert "is the input" in _one_error_line(capsys)
    assert picture.read_bytes() == before


def test_report_through_a_symbolic_link_is_refused_and_both_survive(table, tmp_path, capsys, no_fit):
    target = tmp_path / "other.html"
    target.write_text("someone's page")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    assert main(_select(table, "--report", str(link))) == 2
    assert "symbolic link" in _one_error_line(capsys)
    assert link.is_symlink() and target.read_text() == "someone's page"


def test_report_name_must_be_html(table, tmp_path, capsys, no_fit):
    assert main(_select(table, "--report", str(tmp_path / "results.csv"))) == 2
    assert "must end in .html" in _one_error_line(capsys)
    assert not (tmp_path / "results.csv").exists()


def test_read_only_report_folder_is_found_before_the_fit(table, tmp_path, capsys, read_only, no_fit):
    folder = tmp_path / "locked"
    folder.mkdir()
    read_only(folder)
    assert main(_select(table, "--report", str(folder / "r.html"))) == 2
    assert "cannot write into" in _one_error_line(capsys)


def test_full_disk_keeps_the_previous_report(table, tmp_path, capsys, disk_full):
    report = tmp_path / "out" / "r.html"
    report.parent.mkdir()
    assert main(_select(table, "--report", str(report))) == 0
    previous = report.read_bytes()
    capsys.readouterr()
    disk_full(report.parent, after=1000)
    assert main(_select(table, "--report", str(report), "--overwrite", "--C", "1")) == 2
    err = _one_error_line(capsys)
    assert "No space left on device" in err and str(report) in err and "disk is full" in err
    assert report.read_bytes() == previous
    assert not [p.name for p in report.parent.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]


@pytest.mark.parametrize("command", [
    ["fmri", "--simulate", "buttonpress"],
    ["reproduce", "thesis-sep-bounds"],
    ["separability", "--quick"],
])
def test_an_output_folder_that_is_a_file_is_refused(tmp_path, capsys, command):
    existing = tmp_path / "results.csv"
    existing.write_text("a,b\n")
    flag = "--figures" if command[0] == "separability" else "--out"
    assert main(command + [flag, str(existing)]) == 2
    assert "is a file, not a folder" in _one_error_line(capsys)
    assert existing.read_text() == "a,b\n"


def test_fmri_on_bad_input_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "results" / "run1"
    assert main(["fmri", "--table", str(tmp_path / "missing.csv"), "--mask", str(tmp_path / "m.nii"),
                 "--out", str(out)]) == 2
    _one_error_line(capsys)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert main(["fmri", "--table", str(empty), "--mask", str(tmp_path / "m.nii"), "--out", str(out)]) == 2
    _one_error_line(capsys)
    assert not (tmp_path / "results").exists()


def test_fmri_report_may_go_into_the_new_out_folder(tmp_path, capsys):
    out = tmp_path / "new"
    assert main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "2",
                 "--runs", "1", "--quiet", "--out", str(out), "--report", str(out / "report.html")]) == 0
    assert (out / "report.html").stat().st_size > 1000 and (out / "summary.json").is_file()
    capsys.readouterr()
    assert main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--out", str(tmp_path / "other"),
                 "--report", str(tmp_path / "other" / "report.csv")]) == 2
    assert "must end in .html" in _one_error_line(capsys)
    assert not (tmp_path / "other").exists()


def test_fmri_that_fails_after_creating_its_folder_removes_it(tmp_path, capsys, monkeypatch):
    def fail(*args, **kwargs):
        raise NotSeparableError("no hyperplane")
    monkeypatch.setattr(fmri_analysis, "analyse", fail)
    out = tmp_path / "new" / "run"
    assert main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "2",
                 "--runs", "1", "--quiet", "--out", str(out)]) == 1
    assert "--C 1" in _one_error_line(capsys)
    assert not (tmp_path / "new").exists()


def test_fmri_failure_keeps_a_folder_it_did_not_create(tmp_path, capsys, monkeypatch):
    def fail(*args, **kwargs):
        raise NotSeparableError("no hyperplane")
    monkeypatch.setattr(fmri_analysis, "analyse", fail)
    (tmp_path / "mine.txt").write_text("keep me")
    assert main(["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "2",
                 "--runs", "1", "--quiet", "--out", str(tmp_path)]) == 1
    capsys.readouterr()
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_dollar_signs_in_feature_names_are_drawn_literally(tmp_path, capsys):
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 6)
    frame = pd.DataFrame({r"cost$\x$": rng.standard_normal(12) + 3 * y, "$a$": rng.standard_normal(12)})
    frame["label"] = y
    path = tmp_path / "money.csv"
    frame.to_csv(path, index=False)
    report = tmp_path / "r.html"
    assert main(["select", str(path), "--target", "label", "--cv", "0", "--quiet", "--report", str(report)]) == 0
    assert r"cost$\x$" in report.read_text()


# ----------------------------------------------------------------------------- sfmlearn report

def _result_dir(tmp_path, summary):
    folder = tmp_path / "result"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


@pytest.mark.parametrize("listed", ["{outside}", "../outside.csv", "link.csv", "sub/../../outside.csv"])
def test_report_embeds_only_files_inside_the_result_directory(tmp_path, capsys, listed):
    outside = tmp_path / "outside.csv"
    outside.write_text("secret,1\n")
    folder = _result_dir(tmp_path, {"tables": [listed.format(outside=outside)]})
    (folder / "link.csv").symlink_to(outside)
    (folder / "sub").mkdir()
    assert main(["report", str(folder)]) == 2
    assert "lies outside" in _one_error_line(capsys)
    assert not (folder / "report.html").exists()


def test_report_without_a_list_skips_links_leaving_the_folder(tmp_path, capsys):
    outside = tmp_path / "outside.csv"
    outside.write_text("secret\n1\n")
    folder = _result_dir(tmp_path, {"n": 1})
    (folder / "link.csv").symlink_to(outside)
    pd.DataFrame({"kept": [2]}).to_csv(folder / "mine.csv", index=False)
    assert main(["report", str(folder)]) == 0
    html = (folder / "report.html").read_text()
    assert "kept" in html and "secret" not in html and "link.csv" in html


@pytest.mark.parametrize("summary, message", [
    ({"sections": 3}, "'sections' must be a list"),
    ({"figures": [{"caption": 1}]}, "needs a path"),
    ({"figures": [{"path": "a.png", "caption": ["x"]}]}, "caption of 'figures' entry 1 must be text"),
    ({"tables": 5}, "'tables' must be a list"),
    ({"summary": [1, 2]}, "'summary' must be an object"),
    ({"sections": [{"title": "s", "facts": "x"}]}, "must be an object"),
    ({"sections": [{"title": {"a": 1}}]}, "section title must be text"),
    ({"tables": [{"path": "t.csv", "max_rows": "all"}]}, "max_rows"),
    ({"figures": [{"path": 7}]}, "must be a file name"),
    ({"selected": 3, "train_accuracy": "x"}, "looks like the output of 'sfmlearn select --json'"),
    ({"ranking": [], "subsets": 1}, "looks like the output of 'sfmlearn repeat --json'"),
])
def test_report_on_mistyped_summary_is_one_line(tmp_path, capsys, summary, message):
    """Each of these ended in a Python traceback (TypeError, AttributeError, KeyError)."""
    folder = _result_dir(tmp_path, summary)
    Image.fromarray(np.zeros((4, 4), np.uint8)).save(folder / "a.png")
    pd.DataFrame({"k": [1]}).to_csv(folder / "t.csv", index=False)
    assert main(["report", str(folder)]) == 2
    assert message in _one_error_line(capsys)


def test_numbers_where_text_is_expected_are_shown_as_text(tmp_path, capsys):
    folder = _result_dir(tmp_path, {"title": 2024, "figures": [{"path": "a.png", "caption": 1}]})
    Image.fromarray(np.zeros((4, 4), np.uint8)).save(folder / "a.png")
    assert main(["report", str(folder)]) == 0
    html = (folder / "report.html").read_text()
    assert "<h1>2024</h1>" in html and "<figcaption>1</figcaption>" in html


@pytest.mark.parametrize("argv, message", [
    (["fmri", "--simulate", "buttonpress", "--out", ""], "--out is empty; name the folder to write"),
    (["select", "--dataset", "colon", "--report", " "], "--report is empty; name the file to write"),
])
def test_an_empty_output_name_is_refused_not_read_as_the_current_folder(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"sfmlearn: error: {message}\n"
