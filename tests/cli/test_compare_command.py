"""``sfmlearn compare``: the table, JSON, the report with its figure, one-line errors (exit 2)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.datasets import make_weston

SRC = str(Path(__file__).resolve().parents[2] / "src")
FAST = ["--budgets", "1,2", "--cv", "3", "--inner-cv", "0", "--quiet"]


@pytest.fixture(scope="module")
def table_path(tmp_path_factory):
    X, y = make_weston(n_samples=36, n_noise=14, random_state=0)  # 20 features
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    frame.insert(0, "state", np.where(y > 0, "tumour", "normal"))
    path = tmp_path_factory.mktemp("compare") / "data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def fast_methods():
    """Shorter paths and a one-split automatic choice on a small grid, so the command runs
    in seconds (the command's own defaults are the library's)."""
    from functools import partial

    from sfmlearn.diagnostics import budget_paths
    from sfmlearn.selection import SupportFeatureMachineCV

    original = budget_paths.default_path_methods
    budget_paths_fast = {"SFM path": budget_paths.SFMPath(n_Cs=5),
                         "l1-logistic": budget_paths.LogisticPath(n_Cs=6)}
    mp = pytest.MonkeyPatch()
    mp.setattr("sfmlearn.diagnostics.budgets.default_path_methods", lambda: dict(budget_paths_fast))
    mp.setattr("sfmlearn.diagnostics.budgets.SupportFeatureMachineCV",
               partial(SupportFeatureMachineCV, Cs=5, n_repeats=1))
    yield original
    mp.undo()


def test_json_and_report_with_the_figure(table_path, fast_methods, tmp_path, capsys):
    report = tmp_path / "frontier.html"
    assert main(["compare", str(table_path), "--target", "state", *FAST, "--json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    comparison = result["comparison"]
    assert result["classes"] == ["normal", "tumour"] and comparison["budgets"] == [1, 2]
    assert comparison["methods"] == ["SFM path", "l1-logistic"] and comparison["n_folds"] == 3
    assert all(f <= 2 for f in comparison["features"]["SFM path"])
    html = report.read_text()
    assert "data:image/png;base64," in html and "Accuracy per feature budget" in html


def test_text_output_is_the_table(table_path, fast_methods, capsys):
    assert main(["compare", str(table_path), "--target", "state", *FAST]) == 0
    out = capsys.readouterr().out
    assert "k <= 1" in out and "k <= 2" in out and "SFM path" in out and "automatic choice" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--budgets", "1,50"], "budget 50 exceeds the 20 features; give --budgets of at most 20"),
    (["--cv", "20"], "class 'normal' has 18 samples, fewer than the 20 folds; use --cv 18 or fewer folds"),
    (["--budgets", "0,2"], "--budgets must be positive whole numbers"),
    (["--budgets", "1,,2"], "expected whole numbers separated by commas"),
    (["--budgets", "a"], "expected whole numbers separated by commas"),
    (["--cv", "0"], "--cv must be at least 2; got 0"),
    (["--cv", "1"], "--cv must be at least 2; got 1"),
    (["--inner-cv", "16"], "fewer than the 16 folds; use --inner-cv 14 or fewer folds"),
])
def test_bad_input_exits_2_with_one_line(table_path, argv, message, capsys):
    code = main(["compare", str(table_path), "--target", "state", "--quiet", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_help_loads_no_heavy_library():
    code = ("import runpy, sys\nsys.argv = ['sfmlearn', 'compare', '--help']\n"
            "try:\n    runpy.run_module('sfmlearn', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('numpy', 'scipy', 'sklearn', 'pandas', 'matplotlib') if m in sys.modules),"
            " file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert "nested cross-validation" in done.stdout and done.stderr.strip().endswith("[]")


def test_a_class_too_small_for_the_folds_names_no_flag_compare_refuses(tmp_path, capsys):
    """``select`` can skip its CV with --cv 0; ``compare`` is a cross-validation and cannot."""
    frame = pd.DataFrame({"g0": np.arange(8.0), "g1": np.arange(8.0) % 3, "state": ["a"] * 7 + ["b"]})
    path = tmp_path / "one_b.csv"
    frame.to_csv(path, index=False)
    code = main(["compare", str(path), "--target", "state", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "the smallest class has 1 sample" in err and "--cv 0" not in err


def test_refusals_of_the_library_name_the_commands_flags(tmp_path, capsys):
    """Two groups: the automatic choice's inner folds cannot leave a group out. The library
    offers automatic=False, which the command has no flag for."""
    X, y = make_weston(n_samples=24, n_noise=6, random_state=0)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    frame["state"] = np.where(y > 0, "tumour", "normal")
    frame["site"] = np.arange(y.size) % 2
    path = tmp_path / "two_sites.csv"
    frame.to_csv(path, index=False)
    code = main(["compare", str(path), "--target", "state", "--groups", "site", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "it needs at least 2; use data with more groups" in err and "automatic=False" not in err


def test_the_flag_replaces_the_parameter_in_the_fit_limit():
    from sfmlearn.cli._common import in_flags
    from sfmlearn.cli.compare import LIBRARY_WORDS

    assert in_flags("at most 1000 are allowed (use fewer folds, or inner_cv=None)", LIBRARY_WORDS) == \
        "at most 1000 are allowed (use fewer folds, or --inner-cv 0)"


def test_cv_with_groups_gives_folds_of_whole_groups_and_without_cv_they_leave_one_group_out(
        fast_methods, tmp_path, capsys):
    X, y = make_weston(n_samples=48, n_noise=6, random_state=0)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    frame["state"] = np.where(y > 0, "tumour", "normal")
    frame["run"] = np.arange(y.size) % 6  # both classes in every run
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    schemes = {}
    for extra in ([], ["--cv", "3"]):
        assert main(["compare", str(path), "--target", "state", "--groups", "run", "--budgets", "1", "--quiet",
                     "--json", *extra]) == 0
        result = json.loads(capsys.readouterr().out)
        schemes[tuple(extra)] = (result["scheme"], result["comparison"]["n_folds"], result["comparison"]["pooled"])
    assert schemes == {(): ("leave-one-group-out", 6, False), ("--cv", "3"): ("3-fold group", 3, False)}


def test_a_budget_the_data_cannot_serve_is_refused_before_the_run_is_timed(table_path, monkeypatch, capsys):
    monkeypatch.setattr("sfmlearn.analysis.compare.estimate_duration",
                        lambda *a, **k: pytest.fail("timed before the budget was checked"))
    code = main(["compare", str(table_path), "--target", "state", "--budgets", "1000", "--max-hours", "0.0001"])
    err = capsys.readouterr().err
    assert code == 2 and "budget 1000 exceeds the 20 features" in err
