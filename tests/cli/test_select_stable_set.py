"""``sfmlearn select --stability``: the stable set, its frequencies and bound, in JSON, text and report."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from sfmlearn import StabilitySelection, SupportFeatureMachine
from sfmlearn.cli import main
from sfmlearn.datasets import make_weston
from sfmlearn.report import select_report


@pytest.fixture(scope="module")
def weston():
    X, y = make_weston(40, 30, random_state=0)
    return X, np.where(y > 0, "case", "control")


@pytest.fixture
def table(tmp_path, weston):
    X, y = weston
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    frame.insert(0, "diagnosis", y)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return str(path)


def _json(capsys, argv):
    assert main(argv + ["--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_stable_set_is_the_stability_selection_of_the_soft_path(table, weston, capsys):
    result = _json(capsys, ["select", table, "--target", "diagnosis", "--stability", "0.7", "--cv", "0"])
    X, y = weston
    direct = StabilitySelection(SupportFeatureMachine(class_weight="balanced"), threshold=0.7,
                                random_state=0).fit(X, y)
    frequency = direct.selection_frequency_
    stability = result["stability"]
    assert result["method"] == "StabilitySelection" and result["class_weight"] == "balanced"
    assert {row["index"] for row in result["selected"]} == set(np.flatnonzero(frequency >= 0.7))
    assert [row["frequency"] for row in result["selected"]] == [frequency[row["index"]] for row in result["selected"]]
    shown = stability["most_frequent"]
    assert [row["frequency"] for row in shown] == sorted((row["frequency"] for row in shown), reverse=True)
    assert shown[0]["frequency"] == frequency.max() and all(row["frequency"] > 0 for row in shown)
    q, p = stability["mean_union_size"], stability["n_candidate_features"]
    assert stability["n_halves"] == 50 and p == X.shape[1]
    assert stability["false_selection_bound"] == pytest.approx(q ** 2 / ((2 * 0.7 - 1) * p))


def test_text_output_names_the_bound_or_why_there_is_none(table, capsys):
    assert main(["select", table, "--target", "diagnosis", "--stability", "0.7", "--cv", "0", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "stability selection over the soft SFM path, pi 0.7, balanced" in out
    assert "expected false selections <= " in out and "non-constant features" in out
    assert "most frequent: g" in out and "frequency" in out
    assert main(["select", table, "--target", "diagnosis", "--stability", "0.5", "--cv", "0", "--quiet"]) == 0
    assert "no bound on false selections (it needs pi > 0.5)" in capsys.readouterr().out


def test_an_empty_stable_set_says_what_the_classifier_does(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(30, 40)), columns=[f"n{j}" for j in range(40)])
    frame.insert(0, "label", np.repeat(["a", "b"], 15))
    path = tmp_path / "noise.csv"
    frame.to_csv(path, index=False)
    assert main(["select", str(path), "--target", "label", "--stability", "1", "--cv", "0", "--quiet"]) == 0
    printed = capsys.readouterr()
    assert "0 features selected in at least 100% of 50" in printed.out
    assert "no feature reaches the threshold: the classifier predicts a for every sample" in printed.out
    assert "training accuracy: 50.0%" in printed.out and "predicts 'a' for every sample" in printed.err


@pytest.mark.parametrize("extra, message", [
    (["--stability", "--C", "1"], "--stability runs the soft path over its own grid of C"),
    (["--stability", "0"], "must be a fraction of the half-sample fits in (0, 1]"),
    (["--stability", "high"], "expected a number, the threshold PI (without one, put the flag after the data"),
    (["--stability", "--select", "1se"], "--stability runs the soft path over its own grid of C"),
])
def test_refusals_are_one_line_with_exit_2(table, capsys, extra, message):
    try:  # argparse's errors exit, the command's own return
        code = main(["select", table, "--target", "diagnosis", "--cv", "0"] + extra)
    except SystemExit as stopped:
        code = stopped.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_the_report_has_the_stability_section_and_the_frequencies(table, capsys):
    result = _json(capsys, ["select", table, "--target", "diagnosis", "--stability", "--cv", "0"])
    report = select_report(result)
    assert "stability" in [section.anchor for section in report.sections]
    html = report.to_html()
    assert "expected false selections" in html and result["stability"]["most_frequent"][0]["name"] in html
    assert "standardised" in html


def test_the_method_is_named_in_json_text_and_report_for_either_path(table, capsys):
    weston = _json(capsys, ["select", table, "--target", "diagnosis", "--stability", "--method", "weston",
                            "--cv", "0"])
    assert weston["stability"]["path_estimator"] == "WestonZeroNormSVM"
    assert weston["stability"]["kind"] == "stability selection over Weston's zero-norm SVM path, pi 0.6"
    html = select_report(weston).to_html()
    assert "stability selection over Weston&#x27;s zero-norm SVM path" in html or \
        "stability selection over Weston's zero-norm SVM path" in html
    assert "The soft path of WestonZeroNormSVM" in html and "hard (no training errors allowed)" not in html


def test_a_training_fold_that_cannot_be_halved_is_named_as_such(tmp_path, capsys):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(12, 6)), columns=[f"f{j}" for j in range(6)])
    frame.insert(0, "label", ["a"] * 10 + ["b"] * 2)
    path = tmp_path / "two.csv"
    frame.to_csv(path, index=False)
    assert main(["select", str(path), "--target", "label", "--stability", "--cv", "2", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "In a training fold of the 2-fold cross-validation" in err and "(--cv 0)" in err
    result = _json(capsys, ["select", str(path), "--target", "label", "--stability", "--cv", "0"])
    assert ("constant_prediction" in result["stability"]) == (result["n_selected"] == 0)
    assert result["stability"].get("constant_prediction", "a") in ("a", "b")


def test_parallel_half_sample_fits_give_the_same_selection(table, capsys):
    argv = ["select", table, "--target", "diagnosis", "--stability", "--cv", "0"]
    serial, parallel = _json(capsys, argv), _json(capsys, argv + ["--n-jobs", "2"])
    assert parallel["stability"] == serial["stability"] and parallel["selected"] == serial["selected"]


@pytest.fixture
def few_halves(monkeypatch):
    """Stability selections over 3 pairs of halves, so that runs with folds and permutations stay quick."""
    import sfmlearn.analysis.select as select_module

    original = select_module.make_selector
    monkeypatch.setattr(select_module, "make_selector",
                        lambda *args, **kwargs: original(*args, **kwargs).set_params(n_pairs=3))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_folds_and_permutations_repeat_no_warning_of_the_full_data_fit(tmp_path, capfd, few_halves, jobs):
    rng = np.random.default_rng(1)  # no feature in every half of all samples
    frame = pd.DataFrame(rng.normal(size=(24, 8)), columns=[f"n{j}" for j in range(8)])
    frame["n3"] = 1.0  # constant: warned about once, by the fit on all samples
    frame.insert(0, "label", np.repeat(["a", "b"], 12))
    path = tmp_path / "noise.csv"
    frame.to_csv(path, index=False)
    argv = ["select", str(path), "--target", "label", "--stability", "1", "--cv", "3", "--chance", "3",
            "--n-jobs", jobs, "--quiet"]
    assert main(argv) == 0
    printed = capfd.readouterr()
    assert "selected by the refit of each fold: none | none | none" in printed.out
    err = printed.err.splitlines()
    assert err and all(line.startswith("sfmlearn: warning: ") for line in err)
    assert len([line for line in err if "no feature reached a selection frequency" in line]) == 1
    assert len([line for line in err if "ConstantFeatureWarning" in line]) == 1
    assert main(argv[:-1] + ["--json", "--quiet"]) == 0
    assert json.loads(capfd.readouterr().out)["chance"]["estimator"] == "StabilitySelection"


def _weston_table(tmp_path, weston, names, extra=None):
    X, y = weston
    frame = pd.DataFrame(X, columns=names)
    for name, column in (extra or {}).items():
        frame[name] = frame[column]
    frame.insert(0, "diagnosis", y)
    path = tmp_path / "named.csv"
    frame.to_csv(path, index=False)
    return str(path)


def test_names_with_the_lists_separator_are_quoted_in_the_most_frequent_list(tmp_path, weston, capsys):
    names = [f"g{j}" for j in range(weston[0].shape[1])]
    names[2], names[5] = "IL-6, serum", "TNF|a"  # both among the most frequent on these data
    table = _weston_table(tmp_path, weston, names)
    assert main(["select", table, "--target", "diagnosis", "--stability", "0.7", "--cv", "0", "--quiet"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "most frequent:" in line)
    assert "'IL-6, serum' 0." in line and "'TNF|a' 0." in line
    shown = line.split("most frequent: ")[1]
    entries = re.findall(r"(?:'[^']*'|[^,' ]+) \d\.\d\d", shown)  # a name, quoted when it holds a comma
    assert ", ".join(entries) == shown and len(entries) == shown.count(" 0.") + shown.count(" 1.")


def test_an_identical_copy_of_a_frequent_column_is_named_with_it(tmp_path, weston, capsys):
    names = [f"g{j}" for j in range(weston[0].shape[1])]
    table = _weston_table(tmp_path, weston, names, {"g2_copy": "g2"})
    argv = ["select", table, "--target", "diagnosis", "--stability", "0.7", "--cv", "0"]
    result = _json(capsys, argv)
    groups = result["stability"]["identical_columns"]
    assert [[row["name"] for row in group] for group in groups] == [["g2", "g2_copy"]]
    frequency = {row["name"]: row["frequency"] for row in result["stability"]["most_frequent"]}
    assert [row["frequency"] for row in groups[0]] == [frequency.get("g2", 0.0), frequency.get("g2_copy", 0.0)]
    assert main(argv + ["--quiet"]) == 0
    out = capsys.readouterr().out
    assert "g2 and g2_copy are identical columns: their halves' selections are split between them" in out
    assert "drop one to see its frequency" in out
    assert "2 identical columns: g2 (" in select_report(result).to_html()
    plain = _json(capsys, ["select", _weston_table(tmp_path, weston, names), "--target", "diagnosis",
                           "--stability", "0.7", "--cv", "0"])
    assert plain["stability"]["identical_columns"] == []


def test_many_identical_copies_are_named_by_the_first_few_and_their_number(tmp_path, weston, capsys):
    names = [f"g{j}" for j in range(weston[0].shape[1])]
    table = _weston_table(tmp_path, weston, names, {f"g2_copy{c}": "g2" for c in range(5)})
    assert main(["select", table, "--target", "diagnosis", "--stability", "0.7", "--cv", "0", "--quiet"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "identical columns" in line)
    assert line.startswith("  g2, g2_copy0, g2_copy1, g2_copy2, ... (+2) (6 columns) are identical columns")
    assert "frequencies 0." in line and "drop all but one" in line
