"""Hostile command lines for the automatic softness: ``select --C auto
[--select 1se]`` and ``sfmlearn path``. The same contract as test_cli_hostile.py: a bad
input ends with exit code 2, one stderr line naming the problem, nothing on stdout and
every file as it was; a legitimate run exits 0 and its result is checked."""

import json
import os

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


def _table(path):
    """24 samples, classes a/b, feature p separates them (noisy), groups g = 1..4."""
    rng = np.random.default_rng(0)
    y = np.array(["a", "b"] * 12)
    X = rng.standard_normal((24, 6))
    X[:, 0] += np.where(y == "a", 1.5, -1.5)
    frame = pd.DataFrame(X, columns=list("pqrstu"))
    frame["y"] = y
    frame["g"] = np.repeat(np.arange(1, 5), 6)
    frame.to_csv(path, index=False)


def _snapshot(folder):
    return {str(p.relative_to(folder)): (os.readlink(p) if p.is_symlink() else p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


DATA = ["{d}/data.csv", "--target", "y", "--quiet"]
ERRORS = [
    ("select C auto typo", ["select", *DATA, "--cv", "0", "--C", "autom"], "--C expected a number; got 'autom'"),
    ("select 1se without auto", ["select", *DATA, "--cv", "0", "--C", "1", "--select", "1se"],
     "--select chooses among the C of --C auto"),
    ("select bad rule", ["select", *DATA, "--C", "auto", "--select", "2se"], "invalid choice: '2se'"),
    ("repeat refuses auto", ["repeat", *DATA, "--C", "auto"], "--C expected a number; got 'auto'"),
    ("path cv 0", ["path", *DATA, "--cv", "0"], "--cv must be at least 2; got 0"),
    ("path one grid point", ["path", *DATA, "--Cs", "1"], "--Cs must be at least 2"),
    ("path png suffix", ["path", *DATA, "--png", "{d}/out.jpg"], "the file name must end in .png"),
    ("path png over input", ["path", *DATA, "--png", "{d}/data.csv"], "--png"),
    ("path png folder missing", ["path", *DATA, "--png", "{d}/nope/out.png"], "does not exist"),
    ("path png is a directory", ["path", *DATA, "--png", "{d}"], "is a directory"),
    ("path report suffix", ["path", *DATA, "--report", "{d}/r.txt"], ".html"),
    ("path unknown method", ["path", *DATA, "--method", "lasso"], "invalid choice: 'lasso'"),
    ("path no data", ["path", "--quiet"], "give a data file"),
]


@pytest.mark.parametrize("argv, fragment", [case[1:] for case in ERRORS], ids=[case[0] for case in ERRORS])
def test_bad_softness_command_lines(argv, fragment, tmp_path, capsys):
    _table(tmp_path / "data.csv")
    before = _snapshot(tmp_path)
    code = main([a.replace("{d}", str(tmp_path)) for a in argv])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert captured.out == ""
    assert captured.err.startswith("sfmlearn: error: ") and captured.err.count("\n") == 1, captured.err
    assert fragment in captured.err, captured.err
    assert _snapshot(tmp_path) == before


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_select_C_auto_json_carries_the_choice(tmp_path, capsys):
    _table(tmp_path / "data.csv")
    code = main(["select", *[a.replace("{d}", str(tmp_path)) for a in DATA], "--cv", "0", "--C", "auto",
                 "--select", "1se", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    auto = result["C_auto"]
    assert auto["select"] == "1se" and result["C"] == auto["C"]
    assert [row["C"] for row in auto["table"] if row["chosen"]] == [auto["C"]]
    assert auto["selection_frequency"][0]["name"] == "p"  # the planted feature is the most stable
    assert result["method"] == "SupportFeatureMachineCV"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_path_writes_png_and_report_and_groups_make_folds(tmp_path, capsys):
    _table(tmp_path / "data.csv")
    code = main(["path", *[a.replace("{d}", str(tmp_path)) for a in DATA], "--Cs", "4", "--groups", "g",
                 "--png", f"{tmp_path}/out.png", "--report", f"{tmp_path}/out.html", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["C_auto"]["folds"] == 4  # leave one group out
    assert len(result["C_auto"]["table"]) <= 4
    assert (tmp_path / "out.png").read_bytes().startswith(b"\x89PNG")
    assert "Softness path" in (tmp_path / "out.html").read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_selection_frequencies_carry_the_feature_annotations(capsys):
    """Wherever a feature is named, its annotation is shown beside it -- the shipped
    leukemia genes' descriptions in the printed table of the C choice (the --json side:
    tests/cli/test_omics_data.py)."""
    assert main(["path", "--dataset", "leukemia", "--cv", "3", "--Cs", "4"]) == 0  # the C choice of select --C auto
    printed = capsys.readouterr().out
    zyxin = next(line for line in printed.splitlines() if line.strip().startswith("X95735_at"))
    assert zyxin.rstrip().endswith("Zyxin")
