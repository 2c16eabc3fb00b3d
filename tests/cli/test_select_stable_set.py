"""``sfmlearn select --stability``: the stable set, its frequencies and bound, in JSON, text and report."""

import json

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
    assert "In a training fold of the 2-fold cross-validation" in err and "(cv=0)" in err
    result = _json(capsys, ["select", str(path), "--target", "label", "--stability", "--cv", "0"])
    assert ("constant_prediction" in result["stability"]) == (result["n_selected"] == 0)
    assert result["stability"].get("constant_prediction", "a") in ("a", "b")


def test_parallel_half_sample_fits_give_the_same_selection(table, capsys):
    argv = ["select", table, "--target", "diagnosis", "--stability", "--cv", "0"]
    serial, parallel = _json(capsys, argv), _json(capsys, argv + ["--n-jobs", "2"])
    assert parallel["stability"] == serial["stability"] and parallel["selected"] == serial["selected"]
