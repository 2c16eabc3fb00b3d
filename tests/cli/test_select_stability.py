"""``select`` counts a selected feature's stability over the OUTER folds (the estimate's refits),
and ``--C auto`` prints one row per distinct selection of the full-data path."""

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine, SupportFeatureMachineCV
from sfmlearn.analysis import TrainingData, run_select
from sfmlearn.analysis.select import unstable_features
from sfmlearn.analysis.selectors import softness_summary
from sfmlearn.cli._softness import print_choice
from sfmlearn.datasets import make_weston
from sfmlearn.model_selection import cross_validate_selection


@pytest.fixture(scope="module")
def weston():
    X, y = make_weston(n_samples=40, n_noise=60, random_state=3)
    return X, y, np.array([f"g{j}" for j in range(X.shape[1])])


def test_unstable_counts_the_outer_refits(weston):
    X, y, names = weston
    result = run_select(TrainingData("weston", X, y, names), C=1.0, cv=4, random_state=1).to_dict()
    # The outer folds' refits, fitted here independently of the analysis.
    folds = cross_validate_selection(SupportFeatureMachine(C=1.0), X, y, cv=4, random_state=1)
    assert result["cv"]["selected_per_fold"] == [names[s].tolist() for s in folds.supports]
    counts = {row["name"]: int(folds.supports[:, row["index"]].sum()) for row in result["selected"]}
    assert {row["name"]: row["folds_selected"] for row in result["unstable_features"]} == {
        name: k for name, k in counts.items() if 2 * k < 4}
    assert result["unstable_features"] and all(row["folds"] == 4 for row in result["unstable_features"])


def test_a_feature_every_refit_selects_is_stable():
    rows = [{"index": 0, "name": "a"}, {"index": 1, "name": "b"}, {"index": 2, "name": "c"}]
    per_fold = [["a", "b"], ["a", "b"], ["a", "c"], ["a", "b"], ["x"]]  # a 4, b 3, c 1 of 5
    assert unstable_features(rows, per_fold) == [{"index": 2, "name": "c", "folds_selected": 1, "folds": 5}]
    assert unstable_features(rows[:1], per_fold) == []


@pytest.mark.parametrize("align", ["C", "n_features"])
def test_selections_are_the_full_data_fits_grouped_by_their_set(weston, align):
    X, y, names = weston
    model = SupportFeatureMachineCV(Cs=6, cv=3, n_repeats=1, align=align, random_state=0).fit(X, y)
    summary = softness_summary(model, names, X=X, y=y)
    selections = summary["selections"]
    rows = summary["budget_table"] if align == "n_features" else summary["table"]
    key = "max_features" if align == "n_features" else "C"
    assert sorted(v for s in selections for v in s[key]) == sorted(row[key] for row in rows)
    assert len({tuple(s["features"]) for s in selections}) == len(selections)  # one row per distinct set
    if align == "C":  # here every C scores the same in the inner CV, yet the full-data fits differ
        assert len({(row["mean_score"], row["se_score"], row["mean_features"]) for row in rows}) == 1
        assert len(selections) == 2
    assert [s["chosen"] for s in selections].count(True) == 1
    chosen = next(s for s in selections if s["chosen"])
    assert chosen["features"] == names[model.support_].tolist()
    for s in selections:
        assert s["n_selected"] == len(s["features"])
        for value, score in zip(s[key], s["mean_score"]):
            row = next(r for r in rows if r[key] == value)
            assert row["mean_score"] == score
        if align == "C":  # every C of a row: a fresh fit on all data selects the row's set
            for C in s["C"]:
                fit = SupportFeatureMachine(C=C, class_weight="balanced").fit(X, y)
                assert names[fit.support_].tolist() == s["features"]


def _summary(selections, align="C"):
    return {"folds": 5, "repeats": 1, "scheme": "5-fold CV", "select": "best", "align": align, "scoring": "accuracy", "C": 0.2,
            "chosen_fit": "C = 0.2",
            "budget": 3, "selections": selections,
            "selection_frequency": [{"index": 0, "name": "g1", "frequency": 0.4}]}


def test_equal_scores_with_different_sets_are_two_rows_in_aligned_columns(capsys):
    same = {"mean_score": [0.9], "se_score": [0.05], "mean_features": [1.0]}
    print_choice(_summary([
        {"C": [0.1], **same, "n_selected": 1, "features": ["g1"], "chosen": False},
        {"C": [0.2], **same, "n_selected": 1, "features": ["g2"], "chosen": True},
        {"C": [0.4, 0.8, 1.6, 3.2], "mean_score": [0.8, 0.85, 0.8, 0.75], "se_score": [0.1, 0.1, 0.1, 0.1],
         "mean_features": [2.0, 2.4, 3.0, 3.0], "n_selected": 6, "features": [f"g{j}" for j in range(6)],
         "chosen": False}]))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "C chosen by 5-fold CV (best, accuracy): 0.2"
    assert out[1] == "  one row per distinct feature set the full-data fit selects:"
    assert out[2:6] == [
        "                           C  selection score (inner CV, optimistic)  +/- SE  features per fold"
        "  selected on all data",
        "                         0.1                                   90.0%    5.0%                1.0  1: g1",
        "                         0.2                                   90.0%    5.0%                1.0  1: g2"
        "                        <- chosen",
        "    4 values from 0.4 to 3.2                          75.0% to 85.0%   10.0%         2.0 to 3.0"
        "  6: g0, g1, g2, g3, ... (+2)"]
    assert out[6:] == ["selection frequency of the chosen fit (fraction of the inner fits that selected the feature):",
                       "    g1  0.40"]


def test_budgets_with_the_same_full_data_fit_are_one_row(capsys):
    print_choice(_summary([
        {"max_features": [1], "mean_score": [0.7], "se_score": [0.05], "n_selected": 1, "features": ["g1"],
         "chosen": False},
        {"max_features": [2, 3], "mean_score": [0.8, 0.85], "se_score": [0.04, 0.04], "n_selected": 2,
         "features": ["g1", "g7"], "chosen": True}], align="n_features"))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("number of features chosen by 5-fold CV (best, accuracy, folds aligned by features): "
                      "at most 3 (C = 0.2)")
    assert out[2:5] == [
        "      features  selection score (inner CV, optimistic)  +/- SE  selected on all data",
        "          <= 1                                   70.0%    5.0%  1: g1",
        "    <= 2, <= 3                          80.0% to 85.0%    4.0%  2: g1, g7             <- chosen"]


def test_the_report_carries_the_distinct_selections_and_the_outer_folds():
    from sfmlearn.report import select_report

    result = {
        "data": "toy.csv", "n_samples": 20, "n_features": 50, "classes": ["a", "b"], "class_counts": {"a": 8, "b": 12},
        "method": "SupportFeatureMachineCV", "C": 0.2, "class_weight": "balanced", "n_selected": 1,
        "train_accuracy": 1.0, "fit_seconds": 0.1, "selected": [{"index": 7, "name": "gene_7", "weight": -2.5}],
        "C_auto": {**_summary([
            {"C": [0.1, 0.2], "mean_score": [0.9, 0.9], "se_score": [0.05, 0.05], "mean_features": [1.0, 1.2],
             "n_selected": 1, "features": ["gene_7"], "chosen": True},
            {"C": [0.4], "mean_score": [0.9], "se_score": [0.05], "mean_features": [1.2], "n_selected": 2,
             "features": ["gene_3", "gene_7"], "chosen": False}]), "table": []},
        "cv": {"folds": 2, "grouped": False, "accuracy_mean": 0.8, "accuracy_std": 0.1, "accuracy": [0.7, 0.9],
               "n_selected": [1, 2], "selected_per_fold": [["gene_1"], ["gene_7", "gene_9"]]},
        "unstable_features": [{"index": 7, "name": "gene_7", "folds_selected": 1, "folds": 2}]}
    report = select_report(result)
    assert [section.anchor for section in report.sections] == ["data", "method", "features", "choice", "accuracy",
                                                              "chance"]
    html = report.to_html()
    choice = html[html.index('<section id="choice">'):html.index('<section id="accuracy">')]
    assert choice.split("<tbody>")[1].count("<tr>") == 2 and "<td>0.1, 0.2</td>" in choice and "<td>gene_3, gene_7</td>" in choice
    accuracy = html[html.index('<section id="accuracy">'):html.index('<section id="chance">')]
    assert "gene_7 was selected in 1 of 2 outer folds" in accuracy and "<td>gene_7, gene_9</td>" in accuracy
