"""``sfmlearn select``: what the output says about a fit (its units, a weakly separating hard
fit) and the runs it refuses before the work."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


def write(tmp_path, frame, name="data.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return str(path)


@pytest.fixture
def separable(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 15)
    X = rng.standard_normal((30, 6))
    X[:, 0] += np.where(y == "b", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(6)])
    frame["label"] = y
    return frame


def weakly_separable(tmp_path):
    """g0 is non-zero for half of class b only, g1 + g2 separate the classes strictly: the
    zero-margin hard SFM takes g0 alone and leaves class a on its hyperplane."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 20)
    X = rng.standard_normal((40, 5))
    X[:, 0] = np.where((y == "b") & (np.arange(40) % 2 == 0), 1.0 + rng.random(40), 0.0)
    X[:, 1] *= 2
    X[:, 2] = -X[:, 1] + np.where(y == "b", 0.75, -0.75) + 0.2 * rng.random(40)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(5)])
    frame["label"] = y
    return write(tmp_path, frame)


def test_a_weakly_separating_hard_fit_is_said_in_the_output_the_json_and_the_report(tmp_path, capsys):
    path = weakly_separable(tmp_path)
    assert main(["select", path, "--target", "label", "--cv", "0", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "training accuracy: 75.0%" in out and "weakly separated:" in out and "--C 1 or --method weston" in out
    # the library's warning in the command's flags, not its parameters
    assert "only weakly" in err and "--C 1 or --method weston avoids it" in err and "(C)" not in err
    report = tmp_path / "r.html"
    assert main(["select", path, "--target", "label", "--cv", "0", "--json", "--report", str(report)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["weakly_separated"] is True and result["train_accuracy"] == 0.75
    html = report.read_text()
    assert "weakly separated" in html and "no training errors allowed" not in html


def test_a_strictly_separating_fit_says_nothing_of_it(tmp_path, separable, capsys):
    assert main(["select", write(tmp_path, separable), "--target", "label", "--cv", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["train_accuracy"] == 1.0 and "weakly_separated" not in result and result["scaled"] is True


def test_unscaled_weights_are_labelled_as_the_features_as_given(tmp_path, separable, capsys):
    separable[["g0", "g1"]] *= 1e6  # weights of order 1e-6: printed in powers of ten, not as +0.0000
    path = write(tmp_path, separable)
    assert main(["select", path, "--target", "label", "--cv", "0", "--no-scale"]) == 0
    out = capsys.readouterr().out
    assert "weight (features as given; + favours b)" in out and "+0.0000" not in out and "e-0" in out
    assert main(["select", path, "--target", "label", "--cv", "0", "--no-scale", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scaled"] is False


def test_a_class_name_with_a_trailing_space_is_quoted_in_the_weight_header(tmp_path, separable, capsys):
    separable["label"] = separable["label"].map({"a": "a", "b": "a "})
    assert main(["select", write(tmp_path, separable), "--target", "label", "--cv", "0"]) == 0
    assert "+ favours 'a ')" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--class-weight", "balanced", "--groups", "patient"], "sfmlearn: error: --class-weight weights the training errors a soft method "
                                     "allows; the hard method allows none: give --C"),
    (["--C", "auto", "--groups", "patient", "--cv", "3", "--chance", "5"],
     "every group holds samples of one class only, .* run --chance without --groups or group the samples"),
])
def test_options_that_cannot_take_effect_are_refused_before_the_fit(tmp_path, separable, capsys, monkeypatch, argv,
                                                                    message):
    separable.insert(0, "patient", [f"P{i // 3}" for i in range(30)])  # every patient of one class
    monkeypatch.setattr("sfmlearn.analysis.select.timed_fit", lambda *a: pytest.fail("fitted before refusing"))
    assert main(["select", write(tmp_path, separable), "--target", "label", "--quiet", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.search(message, err[0])


@pytest.mark.parametrize("counts, argv, message", [
    ((28, 2), [], "In training part 1 of the 2-fold cross-validation, the cross-validated choice of C cannot split "
                  r"its inner folds: the smallest class has 1 sample; .* Skip the estimate \(--cv 0\) or use a fixed "
                  "--C."),
    ((29, 1), ["--cv", "0"], r"The cross-validated choice of C \(--C auto\) cannot split the data into its inner "
                             "folds: the smallest class has 1 sample; .* Use a fixed --C."),
])
def test_an_automatic_choice_that_cannot_split_its_inner_folds_is_refused_before_the_fit(
        tmp_path, separable, capsys, monkeypatch, counts, argv, message):
    separable["label"] = ["a"] * counts[0] + ["b"] * counts[1]
    monkeypatch.setattr("sfmlearn.analysis.select.timed_fit", lambda *a: pytest.fail("fitted before refusing"))
    assert main(["select", write(tmp_path, separable), "--target", "label", "--C", "auto", "--quiet", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.search(message, err[0])
