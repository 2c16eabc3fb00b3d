"""``select`` answers what a clinician asks first: the test split's class counts, confusion matrix,
sensitivity and specificity, the misclassified samples; ``--C auto`` prints one row per distinct
selection, names its optimistic score and says when the chosen features are unstable across the
outer folds."""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.analysis import load_dataset, run_select
from sfmlearn.analysis.select import score_test_split
from sfmlearn.cli import main
from sfmlearn.cli import select as select_cli
from sfmlearn.cli._softness import names_text

#: The keys ``select --json`` printed before the test split's details, in their order.
EARLIER_KEYS = ["data", "n_samples", "n_features", "classes", "class_counts", "method", "C", "class_weight",
                "selected", "n_selected", "train_accuracy", "fit_seconds", "test_accuracy", "n_test"]
TEST_KEYS = ["test_class_counts", "test_confusion_matrix", "test_per_class", "test_positive_class",
             "test_sensitivity", "test_specificity", "test_misclassified"]


@pytest.fixture(scope="module")
def leukemia_json():
    return run_select(load_dataset("leukemia"), cv=0).to_dict()


def test_json_gains_the_test_split_details_after_the_existing_keys(leukemia_json):
    assert list(leukemia_json) == EARLIER_KEYS + TEST_KEYS + ["scaled", "seconds"]
    r = leukemia_json
    assert r["test_accuracy"] == pytest.approx(29 / 34) and r["n_test"] == 34
    assert r["test_class_counts"] == {"ALL": 20, "AML": 14}
    assert r["test_confusion_matrix"] == [[20, 0], [5, 9]]
    assert r["test_per_class"] == [
        {"class": "ALL", "n": 20, "sensitivity": 1.0, "specificity": pytest.approx(9 / 14)},
        {"class": "AML", "n": 14, "sensitivity": pytest.approx(9 / 14), "specificity": 1.0}]
    assert r["test_positive_class"] == "AML"
    assert r["test_sensitivity"] == pytest.approx(9 / 14) and r["test_specificity"] == 1.0
    assert r["test_misclassified"] == [{"id": patient, "class": "AML", "predicted": "ALL"}
                                       for patient in ("52", "57", "60", "61", "66")]


def test_no_test_split_no_test_keys(tmp_path):
    X = np.array([[0.0, 1.0], [0.2, 3.0], [1.0, 2.0], [1.2, 0.5]])
    from sfmlearn.analysis import TrainingData

    result = run_select(TrainingData("four", X, np.array(["a", "a", "b", "b"]), np.array(["x", "z"])), cv=0)
    assert not set(TEST_KEYS) & set(result.to_dict())


def test_sample_ids_of_the_split_name_the_misclassified():
    summary = score_test_split(["a", "b", "b"], ["b", "b", "a"], ["a", "b"], ["P1", "P2", "P3"])
    assert summary["test_misclassified"] == [{"id": "P1", "class": "a", "predicted": "b"},
                                             {"id": "P3", "class": "b", "predicted": "a"}]


def test_three_classes_get_one_against_the_rest_and_no_positive_class():
    summary = score_test_split(["a", "a", "b", "b", "c", "c"], ["a", "b", "b", "b", "c", "a"], ["a", "b", "c"],
                             list("123456"))
    assert summary["test_confusion_matrix"] == [[1, 1, 0], [0, 2, 0], [1, 0, 1]]
    assert summary["test_per_class"] == [
        {"class": "a", "n": 2, "sensitivity": 0.5, "specificity": 0.75},
        {"class": "b", "n": 2, "sensitivity": 1.0, "specificity": 0.75},
        {"class": "c", "n": 2, "sensitivity": 0.5, "specificity": 1.0}]
    assert "test_positive_class" not in summary and "test_sensitivity" not in summary


def test_a_class_missing_from_the_test_split_has_no_sensitivity():
    summary = score_test_split(["a", "a"], ["a", "b"], ["a", "b"], ["1", "2"])
    assert summary["test_per_class"][1] == {"class": "b", "n": 0, "sensitivity": None, "specificity": 0.5}


def test_text_output_shows_the_test_split_in_aligned_columns(capsys):
    assert main(["select", "--dataset", "leukemia", "--cv", "0", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index("test accuracy: 85.3% (34 independent samples)")
    assert out[start + 1:start + 18] == [
        "  samples per class: ALL 20, AML 14",
        "  confusion matrix (rows: true class; columns: predicted class):",
        "         ALL  AML",
        "    ALL   20    0",
        "    AML    5    9",
        "  positive class: AML (the second of the sorted classes): sensitivity 64.3%, specificity 100.0%",
        "  per class (one against the rest):",
        "    class  samples  sensitivity  specificity",
        "    ALL         20       100.0%        64.3%",
        "    AML         14        64.3%       100.0%",
        "  misclassified test samples: 5 of 34",
        "    sample  class  predicted",
        "    52      AML    ALL",
        "    57      AML    ALL",
        "    60      AML    ALL",
        "    61      AML    ALL",
        "    66      AML    ALL"]


def test_report_shows_the_test_split_with_the_accuracies(tmp_path, capsys):
    report = tmp_path / "r.html"
    assert main(["select", "--dataset", "leukemia", "--cv", "0", "--quiet", "--report", str(report)]) == 0
    html = report.read_text()
    accuracy = html[html.index('<section id="accuracy">'):html.index('<section id="chance">')]
    assert "Independent test set (34 samples, never seen by the selection):" in accuracy
    assert "Confusion matrix of the test set" in accuracy and "<td>52</td>" in accuracy
    assert "Confusion matrix" in html and "predicted AML" in html and "Misclassified test samples (5 of 34)" in html
    assert "<td>52</td>" in html


def test_C_auto_on_leukemia_counts_the_outer_folds_and_prints_distinct_selections(capsys):
    assert main(["select", "--dataset", "leukemia", "--C", "auto", "--cv", "3", "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    per_fold = result["cv"]["selected_per_fold"]
    assert len(per_fold) == 3 and [len(names) for names in per_fold] == result["cv"]["n_selected"]
    counts = {row["name"]: sum(row["name"] in names for names in per_fold) for row in result["selected"]}
    unstable = result["unstable_features"]
    assert unstable and {row["name"]: row["folds_selected"] for row in unstable} == {
        name: k for name, k in counts.items() if 2 * k < 3}
    assert all(row["folds"] == 3 for row in unstable)
    auto = result["C_auto"]
    chosen = [s for s in auto["selections"] if s["chosen"]]
    assert len(chosen) == 1 and chosen[0]["features"] == [
        s["name"] for s in sorted(result["selected"], key=lambda s: s["index"])]
    assert auto["budget"] in chosen[0]["max_features"]
    select_cli._print_human(result, None)
    out = capsys.readouterr().out.splitlines()
    assert "  selected by the refit of each fold: " + " | ".join(names_text(names) for names in per_fold) in out
    first = unstable[0]
    assert (f"unstable: feature {first['name']} was selected in {first['folds_selected']} of 3 outer folds "
            "(the refits of the CV estimate)") in out
    named = [line for line in out if line.startswith("unstable: feature ")]
    assert len(named) == min(len(unstable), select_cli.SHOWN_UNSTABLE)
    if len(unstable) > select_cli.SHOWN_UNSTABLE:  # the rest counted in one line
        assert f"unstable: {len(unstable) - select_cli.SHOWN_UNSTABLE} more selected features, each in fewer " \
               "than half of the outer folds (--json lists them all)" in out
    header = [i for i, line in enumerate(out) if "selection score (inner CV, optimistic)" in line]
    rows = out[header[0] + 1:header[0] + 1 + len(auto["selections"])]
    assert len(header) == 1 and [line.endswith("<- chosen") for line in rows] == [s["chosen"] for s in
                                                                                  auto["selections"]]


def test_C_auto_labels_the_outer_cv_as_the_estimate(tmp_path, capsys):
    X = np.random.default_rng(0).standard_normal((24, 5))
    X[:12, 0] += 3.0  # g0 separates the first twelve samples (a) from the rest (b)
    X[12:, 0] -= 3.0
    pd.DataFrame(X, columns=[f"g{j}" for j in range(5)]).assign(**{"class": np.repeat(["a", "b"], 12)}).to_csv(
        tmp_path / "d.csv", index=False)
    assert main(["select", str(tmp_path / "d.csv"), "--target", "class", "--C", "auto", "--cv", "3",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\nestimate (outer CV, C re-chosen in every fold): 3-fold CV accuracy: " in out
    assert "unstable:" not in out  # the planted feature is selected in every fold
