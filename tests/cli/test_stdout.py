"""Standard output carries results only: JSON parses, human output has no banners or progress.

These run ``python -m sfmlearn`` in a subprocess, because what matters is file descriptor 1
of a real process: C libraries (HiGHS prints a banner when a solver is created) write
there directly, past Python's ``sys.stdout`` and pytest's capture.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sfmlearn
from sfmlearn.cli import main

SRC = str(Path(sfmlearn.__file__).resolve().parents[1])


def _run(*argv, cwd=None):
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "sfmlearn", *map(str, argv)], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rng = np.random.default_rng(0)
    y = np.repeat(["case", "control"], 8)
    X = rng.standard_normal((16, 6))
    X[:, 0] += np.where(y == "case", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(6)])
    frame["label"] = y
    frame["site"] = np.tile([1, 2, 3, 4], 4)
    path = tmp_path_factory.mktemp("stdout") / "data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("argv", [
    ["select", "{table}", "--target", "label", "--cv", "2", "--chance", "2"],
    ["repeat", "{table}", "--target", "label", "--C", "1", "--every", "2", "--cv", "2",
     "--max-repetitions", "3"],
    ["fmri", "--simulate", "buttonpress", "--grid-level", "2", "--participants", "2", "--runs", "1",
     "--out", "{tmp}/fmri"],
], ids=["select", "repeat", "fmri"])
def test_json_commands_print_nothing_but_json(argv, table, tmp_path):
    done = _run(*[a.format(table=table, tmp=tmp_path) for a in argv], "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)  # fails on any banner, progress or warning line
    assert isinstance(payload, dict) and payload
    assert "Traceback" not in done.stderr


def test_human_select_output_is_the_result_lines_only(table):
    done = _run("select", table, "--target", "label", "--cv", "2")  # progress bars enabled
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("data: ") and lines[-1].startswith("time: ")
    assert not [line for line in lines if "HiGHS" in line or "warning" in line.lower()]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device whose writes fail: disk full)")
@pytest.mark.parametrize("json_output", [False, True], ids=["table", "json"])
def test_results_that_cannot_be_written_are_an_error_not_a_silent_success(table, json_output):
    """A few kilobytes of results stay in the buffer until the end: a full disk behind
    stdout (`> out.json`) must fail the command, not leave an empty file and exit 0."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "sfmlearn", "select", str(table), "--target", "label",
                               "--cv", "0"] + ["--json"] * json_output,
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith("sfmlearn: error: No space left on device") and done.stderr.count("\n") == 1


def test_an_error_inside_a_progress_bar_is_one_stderr_line(table):
    # Each 'half' holds one class, so leaving one out leaves a training fold one class: the
    # error is raised while the path's progress bar runs (rich, stderr not a terminal).
    frame = pd.read_csv(table)
    frame["half"] = np.where(frame["label"] == "case", "a", "b")
    path = table.with_name("halves.csv")
    frame.to_csv(path, index=False)
    done = _run("path", path, "--target", "label", "--groups", "half", "--Cs", "3")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("sfmlearn: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "class 'case'" in done.stderr or "class 'control'" in done.stderr  # the user's labels


_NOISY_COMMAND = """
import ctypes, os, sys
from sfmlearn.cli import datasets, main

def noisy(args):  # a command whose C code and child processes write to descriptor 1
    os.write(1, b"raw descriptor noise\\n")
    ctypes.CDLL(None).printf(b"buffered C stdio noise\\n")
    print('{"result": 1}')
    return 0

datasets.run = noisy
sys.exit(main(["datasets"]))
"""


def test_text_c_code_writes_to_descriptor_1_goes_to_stderr():
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _NOISY_COMMAND], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"result": 1}\n'
    assert "raw descriptor noise" in done.stderr and "buffered C stdio noise" in done.stderr


@pytest.mark.parametrize("argv", [
    ["separability", "--n", "10", "--d", "20", "--k", "1", "2", "--monte-carlo", "3"],
    ["datasets", "liver"],
    ["datasets"],
])
def test_other_json_commands_print_json(argv, capsys):
    assert main(argv + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)


def test_warnings_are_single_lines_on_stderr(tmp_path, capsys):
    frame = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "label": [0, 0, 0, 1, 1, 1]})
    path = tmp_path / "indexed.csv"
    frame.to_csv(path)  # pandas' default: the row index as an unnamed first column
    assert main(["select", str(path), "--target", "label", "--cv", "0", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n_features"] == 1
    assert captured.err.count("\n") == 1 and captured.err.startswith("sfmlearn: warning:")
    assert "row index" in captured.err


def test_library_warnings_are_one_line(capsys, monkeypatch):
    from sfmlearn.cli import datasets

    def warns(args):
        import warnings
        warnings.warn("something odd\n  spread over lines", UserWarning)
        return 0

    monkeypatch.setattr(datasets, "run", warns)
    assert main(["datasets"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "sfmlearn: warning: something odd spread over lines (UserWarning)\n"


def test_constant_columns_are_named_as_the_file_names_them(tmp_path, capsys):
    """The fits see arrays, so the library gives constant columns by index; the command
    knows the names and prints those, once for the fit and its folds."""
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.standard_normal((24, 6)), columns=[f"gene{k}" for k in range(6)])
    table["IL-6, serum"] = 1.0
    table["flat"] = 0.0
    table["label"] = np.repeat(["a", "b"], 12)
    table.loc[table.label == "b", "gene0"] += 4.0
    path = tmp_path / "data.csv"
    table.to_csv(path, index=False)
    assert main(["select", str(path), "--target", "label", "--cv", "5"]) == 0
    constant = [line for line in capsys.readouterr().err.splitlines() if "ConstantFeatureWarning" in line]
    assert len(constant) == 1
    assert "(names 'IL-6, serum', 'flat') and cannot be selected" in constant[0]


def test_constant_columns_of_a_fit_on_fewer_columns_keep_their_indices():
    from sfmlearn.cli import _named_columns

    text = "1 of 3 features are constant on the training data (column indices 1) and cannot be selected."
    assert _named_columns(text, ["a", "b"]) == text
    assert _named_columns(text, ["a", "b", "c"]).startswith("1 of 3 features are constant on the training data "
                                                            "(names 'b') and")


def test_warnings_equal_but_for_their_numbers_are_one_line_with_a_count(capsys, monkeypatch):
    """The refits of folds repeat the full-data fit's warning with their own counts: one line
    for a flood, every line for a few (two classes named by number are two facts)."""
    from sfmlearn.cli import datasets

    def warns(args):
        import warnings
        for count in (12, 13, 13, 14, 15, 16):
            warnings.warn(f"{count} of 20 features are constant", UserWarning)
        warnings.warn("the classifier predicts 1 for every sample", UserWarning)
        warnings.warn("the classifier predicts 0 for every sample", UserWarning)
        warnings.warn("the classifier predicts 0 for every sample", RuntimeWarning)
        return 0

    monkeypatch.setattr(datasets, "run", warns)
    assert main(["datasets"]) == 0
    assert capsys.readouterr().err == (
        "sfmlearn: warning: 12 of 20 features are constant (UserWarning; 4 more like it with other numbers)\n"
        "sfmlearn: warning: the classifier predicts 1 for every sample (UserWarning)\n"
        "sfmlearn: warning: the classifier predicts 0 for every sample (UserWarning)\n"
        "sfmlearn: warning: the classifier predicts 0 for every sample (RuntimeWarning)\n")


def test_warnings_of_parallel_refits_are_collected_like_the_others(tmp_path, capfd):
    """--n-jobs runs the permutations in worker processes: their warnings still come back as
    the command's one-line warnings, not as the workers' own prints with file and line."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(20, 6)), columns=[f"g{j}" for j in range(6)])
    frame["flat"] = 1.0
    frame["label"] = np.repeat(["a", "b"], 10)
    frame.loc[frame["label"] == "b", "g0"] += 4.0
    path = tmp_path / "flat.csv"
    frame.to_csv(path, index=False)
    assert main(["select", str(path), "--target", "label", "--cv", "0", "--chance", "4", "--n-jobs", "2",
                 "--quiet", "--json"]) == 0
    err = capfd.readouterr().err.splitlines()
    assert err and all(line.startswith("sfmlearn: warning: ") for line in err)
    assert len([line for line in err if "ConstantFeatureWarning" in line]) == 1
