"""``sfmlearn select``: output, formats, and one-line errors for broken input."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import build_parser, main
from sfmlearn.datasets import load_leukemia, make_weston


@pytest.fixture
def table(tmp_path):
    X, y = make_weston(40, 20, random_state=0)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    frame.insert(0, "diagnosis", np.where(y > 0, "case", "control"))
    return frame


def _run_json(capsys, argv):
    assert main(argv + ["--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_leukemia_reports_selection_cv_and_test_accuracy(capsys):
    result = _run_json(capsys, ["select", "--dataset", "leukemia", "--cv", "3"])
    assert result["n_samples"] == 38 and result["n_features"] == 7129
    assert 1 <= result["n_selected"] == len(result["selected"]) <= 39
    assert result["train_accuracy"] == 1.0
    assert result["cv"]["folds"] == 3 and len(result["cv"]["accuracy"]) == 3
    assert 0.5 < result["test_accuracy"] <= 1.0 and result["n_test"] == 34
    names = {s["name"] for s in result["selected"]}
    assert names <= set(load_leukemia().feature_names)


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".npz"])
def test_file_formats_give_the_same_selection(tmp_path, table, suffix, capsys):
    path = tmp_path / f"data{suffix}"
    if suffix == ".csv":
        table.to_csv(path, index=False)
    elif suffix == ".tsv":
        table.to_csv(path, sep="\t", index=False)
    elif suffix == ".parquet":
        pytest.importorskip("pyarrow")
        table.to_parquet(path)
    else:
        np.savez(path, X=table.drop(columns="diagnosis").to_numpy(),
                 y=table["diagnosis"].to_numpy().astype(str),
                 feature_names=np.array(table.columns[1:], dtype=str))
    argv = ["select", str(path), "--cv", "0"] + ([] if suffix == ".npz" else ["--target", "diagnosis"])
    result = _run_json(capsys, argv)
    assert result["classes"] == ["case", "control"]
    assert {s["name"] for s in result["selected"]} <= set(table.columns[1:7])


def test_human_output_lists_features_and_accuracies(capsys):
    assert main(["select", "--dataset", "leukemia", "--cv", "2", "--quiet", "--C", "1",
                 "--class-weight", "balanced"]) == 0
    out = capsys.readouterr().out
    assert "features selected" in out and "training accuracy" in out
    assert "2-fold CV accuracy" in out and "test accuracy" in out


@pytest.mark.parametrize("content, target, message", [
    ("", "y", "is empty"),
    ("a,b,y\n1,2,0\n3,4,5,6,7\n", "y", "not a rectangular table"),
    ("a,b,y\n1,x,0\n3,4,1\n", "y", "not numeric"),
    ("a,b,y\n1,,0\n3,4,1\n", "y", "missing value"),
    ("a,b,y\n1,2,0\n3,4,1\n", "label", "no column 'label'"),
    ("a,b,y\n", "y", "no data rows"),
])
def test_broken_files_end_with_one_line(tmp_path, capsys, content, target, message):
    path = tmp_path / "broken.csv"
    path.write_text(content)
    assert main(["select", str(path), "--target", target, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_missing_target(tmp_path, capsys):
    assert main(["select", str(tmp_path / "nope.csv"), "--target", "y"]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "d.csv").write_text("a,y\n1,0\n2,1\n")
    assert main(["select", str(tmp_path / "d.csv")]) == 2
    assert "--target" in capsys.readouterr().err


def test_non_separable_hard_fit_exits_1_with_advice(tmp_path, capsys):
    (tmp_path / "d.csv").write_text("a,y\n0,0\n1,1\n2,0\n3,1\n")
    assert main(["select", str(tmp_path / "d.csv"), "--target", "y", "--cv", "0", "--quiet"]) == 1
    assert "--C 1" in capsys.readouterr().err


def test_every_help_is_complete_and_python_m_works():
    parser = build_parser()
    subcommands = parser._subparsers._group_actions[0].choices
    for name, sub in subcommands.items():
        text = sub.format_help()
        assert "usage:" in text and len(text) > 200, name
    out = subprocess.run([sys.executable, "-m", "sfmlearn", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "select" in out.stdout


def test_groups_keep_each_group_in_one_fold(tmp_path, table, capsys):
    table = table.copy()
    table.insert(1, "participant", np.repeat(np.arange(10), 4))
    path = tmp_path / "grouped.csv"
    table.to_csv(path, index=False)
    result = _run_json(capsys, ["select", str(path), "--target", "diagnosis", "--groups", "participant",
                                "--cv", "5"])
    assert result["cv"]["grouped"] is True
    assert "participant" not in {s["name"] for s in result["selected"]}
    assert result["n_features"] == table.shape[1] - 2


def test_the_automatic_choice_with_groups_says_it_left_one_group_out(tmp_path, table, capsys):
    table = table.copy()
    table.insert(1, "participant", np.tile(np.arange(5), 8))
    path = tmp_path / "grouped.csv"
    table.to_csv(path, index=False)
    argv = ["select", str(path), "--target", "diagnosis", "--groups", "participant", "--C", "auto", "--cv", "0"]
    assert main(argv + ["--quiet"]) == 0
    assert "chosen by leave-one-group-out CV (5 groups)" in capsys.readouterr().out
    result = _run_json(capsys, argv)
    assert result["C_auto"]["grouped"] is True and result["C_auto"]["folds"] == 5


def test_chance_verdict(capsys):
    result = _run_json(capsys, ["select", "--dataset", "leukemia", "--cv", "0", "--chance", "5"])
    chance = result["chance"]
    assert chance["n_permutations"] == 5 and len(chance["permutation_sizes"]) == 5
    assert chance["subset_size"] == result["n_selected"]
    assert 0 < chance["p_value"] <= 1 and "p =" in result["chance_verdict"]
    assert main(["select", "--dataset", "leukemia", "--cv", "0", "--chance", "5", "--quiet"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if "chance check" in line]
    assert len(printed) == 1 and printed[0].startswith("chance check: ")  # said once


def test_groups_on_an_npz_file_is_an_error_not_ignored(tmp_path, table, capsys):
    path = tmp_path / "data.npz"
    np.savez(path, X=table.drop(columns="diagnosis").to_numpy(),
             y=table["diagnosis"].to_numpy().astype(str))
    assert main(["select", str(path), "--groups", "participant", "--quiet"]) == 2
    assert ".npz files have no group column" in capsys.readouterr().err
