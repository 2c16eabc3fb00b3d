"""``sfmlearn reproduce --out``: every file under --out and listed, the folder filled as a whole,
settings checked before any work, and only the options a result used recorded."""

import json
import sys
import types
from typing import Annotated

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sfmlearn.cli import main
from sfmlearn.experiments import Result, registry
from sfmlearn.experiments.settings import Between, OneOf


def _summary(folder):
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def _tree(folder):
    """Every file below ``folder`` with its bytes (links as their targets' names)."""
    return {str(p.relative_to(folder)): p.read_bytes() if not p.is_symlink() else str(p.readlink())
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


@pytest.fixture
def fake(monkeypatch):
    """Fake experiments: one that writes files of its own, one with checked settings, one
    whose failure a test switches on, and one that is interrupted; ``calls`` records them."""
    module = types.ModuleType("sfmlearn.experiments._fake_outputs")
    module.calls, module.fail, module.interrupt = [], False, False

    def with_files(quick=False, out=None):
        module.calls.append("with_files")
        figure = Figure()
        figure.subplots().plot([0, 1], [1, 0])
        out.add_figure("curve", figure, "a curve of its own")
        out.add_map("weights", nib.Nifti1Image(np.ones((2, 2, 2), dtype=np.float32), np.eye(4)), "a map")
        return pd.DataFrame({"setting": ["a"], "ours": [1.0], "published": [1.0]})

    def checked(quick=False, fraction: Annotated[float, Between(0, 1, open=True)] = 0.5,
                names: tuple[Annotated[str, OneOf(("liver", "bcw"))], ...] = ("liver",)):
        module.calls.append(("checked", fraction, names))
        return pd.DataFrame({"setting": list(names), "ours": [fraction] * len(names)})

    def flaky(quick=False):
        module.calls.append("flaky")
        if module.fail:
            raise RuntimeError("solver exploded")
        if module.interrupt:
            raise KeyboardInterrupt
        return pd.DataFrame({"setting": ["a"], "ours": [1.0], "published": [2.0], "ours_std": [0.1], "runs": [3]})

    module.with_files, module.checked, module.flaky = with_files, checked, flaky
    monkeypatch.setitem(sys.modules, "sfmlearn.experiments._fake_outputs", module)
    monkeypatch.setattr(registry, "RESULTS", (
        Result("fake-files", "writes files", "Paper Fig. 1", "_fake_outputs", function="with_files"),
        Result("fake-checked", "checked settings", "Paper Table 2", "_fake_outputs", function="checked"),
        Result("fake-flaky", "fails on demand", "Paper Table 3", "_fake_outputs", function="flaky")))
    return module


def test_files_of_its_own_go_into_the_result_folder_and_are_listed(fake, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "fake-files", "--out", str(out)]) == 0
    section = _summary(out)["sections"][0]
    assert [entry["path"] for entry in section["figures"]] == ["fake-files.png", "fake-files/figures/curve.png"]
    assert section["maps"] == [{"path": "fake-files/maps/weights.nii.gz", "caption": "a map"}]
    listed = {entry["path"] for kind in ("tables", "figures", "maps") for entry in section[kind]}
    assert set(_tree(out)) == listed | {"summary.json"}
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "a curve of its own" in html and "fake-files/maps/weights.nii.gz" in html


def test_the_folder_of_its_own_files_is_no_setting(fake, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert main(["reproduce", "fake-files", "--set", f"out={elsewhere}", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no setting 'out'" in err and "--out" in err
    assert fake.calls == [] and not any(elsewhere.iterdir()) and not (tmp_path / "out").exists()


@pytest.mark.parametrize("setting, message", [
    ("fraction=2", "fraction=2: expected a number between 0 and 1 (both excluded)"),
    ("fraction=nan", "fraction=nan: expected a number between 0 and 1"),
    ("fraction=inf", "fraction=inf: expected a number"),
    ("names=liver,bogus", "names=liver,bogus: expected comma-separated names, each one of liver, bcw"),
])
def test_a_value_the_experiment_does_not_accept_is_refused_before_any_work(fake, tmp_path, capsys, setting,
                                                                             message):
    (tmp_path / "existing").mkdir()
    assert main(["reproduce", "fake-checked", "--set", setting, "--out", str(tmp_path / "existing")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert fake.calls == [] and not any((tmp_path / "existing").iterdir())


def test_accepted_values_reach_the_experiment(fake, tmp_path, capsys):
    assert main(["reproduce", "fake-checked", "--set", "fraction=0.25", "--set", "names=bcw,liver",
                 "--out", str(tmp_path)]) == 0
    assert fake.calls == [("checked", 0.25, ("bcw", "liver"))]


def test_a_failure_into_a_new_folder_says_why_and_leaves_a_summary(fake, tmp_path, capsys):
    fake.fail = True
    out = tmp_path / "new" / "deeper"
    assert main(["reproduce", "fake-flaky", "--out", str(out)]) == 1
    printed = capsys.readouterr()
    assert "FAILED: RuntimeError: solver exploded" in printed.out and "No such file" not in printed.err
    assert _summary(out)["sections"][0]["text"] == "Failed: RuntimeError: solver exploded"


def test_a_failed_rerun_leaves_none_of_the_earlier_files_of_that_result(fake, tmp_path, capsys):
    assert main(["reproduce", "fake-flaky", "fake-checked", "--out", str(tmp_path)]) == 0
    kept = {name: data for name, data in _tree(tmp_path).items() if name.startswith("fake-checked")}
    assert "fake-flaky.csv" in _tree(tmp_path)
    fake.fail = True
    assert main(["reproduce", "fake-flaky", "--out", str(tmp_path), "--overwrite"]) == 1
    assert set(_tree(tmp_path)) == set(kept) | {"summary.json"}  # the failed result's old files are gone
    assert {name: data for name, data in _tree(tmp_path).items() if name in kept} == kept
    summary = _summary(tmp_path)
    assert [record["status"] for record in summary["results"]][-1] == "failed"
    capsys.readouterr()
    assert main(["report", str(tmp_path)]) == 0
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "fake-flaky.csv" not in html and "solver exploded" in html


def test_a_link_among_the_outputs_is_refused_before_any_work(fake, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "fake-checked.csv").symlink_to(victim)
    before = _tree(out)
    assert main(["reproduce", "fake-flaky", "fake-checked", "--out", str(out), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "fake-checked.csv is a symbolic link" in err and err.count("\n") == 1
    assert fake.calls == [] and victim.read_text() == "keep" and _tree(out) == before


def test_a_run_that_breaks_off_leaves_the_folder_as_it_was(fake, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "fake-checked", "fake-flaky", "--out", str(out)]) == 0
    before = _tree(out)
    fake.interrupt = True
    assert main(["reproduce", "fake-checked", "fake-flaky", "--out", str(out), "--overwrite"]) == 130
    assert _tree(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left behind
    assert main(["reproduce", "fake-checked", "fake-flaky", "--out", str(tmp_path / "new")]) == 130
    assert not (tmp_path / "new").exists()


def test_options_a_result_does_not_use_are_noted_and_not_recorded(tmp_path, capsys):
    assert main(["reproduce", "thesis-fig2.6", "--quick", "--repetitions", "7", "--n-jobs", "2",
                 "--random-state", "5", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for option in ("--repetitions", "--n-jobs", "--random-state"):
        assert f"note: {option} ignored" in out
    assert _summary(tmp_path)["sections"][0]["facts"]["command"] == "sfmlearn reproduce thesis-fig2.6 --quick"


def test_list_refuses_the_options_of_a_run(capsys):
    assert main(["reproduce", "--list", "nope", "--set", "foo", "--out", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ID, --set, --out would be ignored" in err


def test_an_id_given_twice_runs_once(fake, tmp_path, capsys):
    assert main(["reproduce", "fake-checked", "fake-flaky", "fake-checked", "--out", str(tmp_path)]) == 0
    assert fake.calls == [("checked", 0.5, ("liver",)), "flaky"]
    assert [record["id"] for record in _summary(tmp_path)["results"]] == ["fake-checked", "fake-flaky"]


def test_a_set_n_folds_is_the_number_of_folds_run(tmp_path, capsys):
    assert main(["reproduce", "ml05-table3", "--quick", "--set", "datasets=liver", "--set", "methods=RLP",
                 "--set", "n_folds=4", "--out", str(tmp_path)]) == 0
    table = pd.read_csv(tmp_path / "ml05-table3.csv")
    assert set(table["n_folds"]) == {4} and set(table["runs"]) == {4}
    capsys.readouterr()
    assert main(["reproduce", "ml05-table3", "--quick", "--set", "n_folds=1", "--out", str(tmp_path)]) == 2
    assert "n_folds=1: expected a whole number of at least 2" in capsys.readouterr().err
