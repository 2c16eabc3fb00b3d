"""Saved select/repeat results with impossible numbers are refused, naming the field."""

import copy
import json
import warnings

import pytest

from sfmlearn.report import result_dir_report

SELECT = {
    "data": "toy.csv", "n_samples": 20, "n_features": 50, "classes": ["a", "b"],
    "class_counts": {"a": 8, "b": 12}, "method": "SupportFeatureMachine", "C": None, "class_weight": None,
    "n_selected": 2, "train_accuracy": 1.0, "fit_seconds": 0.1,
    "selected": [{"index": 7, "name": "gene_7", "weight": -2.5}, {"index": 3, "name": "gene_3", "weight": 1.25}],
    "cv": {"folds": 2, "grouped": False, "accuracy_mean": 0.75, "accuracy_std": 0.05, "accuracy": [0.7, 0.8],
           "n_selected": [2, 3]},
}
REPEAT = {
    "data": "d.csv", "n_samples": 12, "n_features": 30, "classes": ["l", "r"], "method": "SupportFeatureMachine",
    "C": None, "class_weight": None, "n_repetitions": 2, "stop_reason": "not_separable", "n_ranked": 3,
    "fit_seconds": 0.2, "subsets": [["v4", "v9"], ["v1"]],
    "ranking": [{"rank": 1, "index": 4, "name": "v4", "repetition": 1, "weight": 0.5},
                {"rank": 2, "index": 9, "name": "v9", "repetition": 1, "weight": -1.5},
                {"rank": 3, "index": 1, "name": "v1", "repetition": 2, "weight": 2.0}],
    "estimate": {"available": False, "fraction": None, "reason": "too few repetitions", "grouped": False,
                 "folds": 2, "every": 1},
}
AVAILABLE = {"available": True, "fraction": 0.3, "n_informative": 9.0, "fit": "free", "reason": "",
             "extrapolated": False, "folds": 2, "grouped": False, "every": 1, "fold_repetitions": [2, 3]}


def _report(tmp_path, result, **changes):
    result = copy.deepcopy(result)
    for field, value in changes.items():
        *parents, key = field.split("__")
        target = result
        for parent in parents:
            target = target[int(parent) if isinstance(target, list) else parent]
        target[int(key) if isinstance(target, list) else key] = value
    path = tmp_path / "result.json"
    path.write_text(json.dumps(result))
    return result_dir_report(path)


@pytest.mark.parametrize("changes, field, problem", [
    ({"train_accuracy": float("nan")}, "train_accuracy is NaN", "must be a fraction"),
    ({"train_accuracy": 5.0}, "train_accuracy is 5.0", "fraction in [0, 1]"),
    ({"n_selected": 99}, "n_selected is 99", "selected lists 2 entries"),
    ({"n_features": -1}, "n_features is -1", "a count of at least 1"),
    ({"C": -1}, "C is -1", "above 0"),
    ({"class_counts": {"a": 1, "b": 2}}, "class_counts is", "add up to 3, not to n_samples = 20"),
    ({"class_counts": {"a": 8, "c": 12}}, "class_counts is", "those of 'classes'"),
    ({"selected__0__index": 50}, "selected[0].index is 50", "column index (from 0) in [0, 49]"),
    ({"selected__1__weight": float("inf")}, "selected[1].weight is Infinity", "must be a number"),
    ({"cv__accuracy": [0.7]}, "cv.folds is 2", "cv.accuracy lists 1 entry"),
    ({"cv__accuracy_mean": 1.5}, "cv.accuracy_mean is 1.5", "fraction"),
])
def test_impossible_numbers_of_a_select_result_are_refused(tmp_path, changes, field, problem):
    with pytest.raises(ValueError) as refused:
        _report(tmp_path, SELECT, **changes)
    message = str(refused.value)
    assert field in message and problem in message and "edited or is damaged" in message
    assert "sfmlearn select --json" in message and "\n" not in message


@pytest.mark.parametrize("changes, field, problem", [
    ({"n_repetitions": 3}, "n_repetitions is 3", "subsets lists 2 entries"),
    ({"n_ranked": 2}, "n_ranked is 2", "ranking lists 3 entries"),
    ({"ranking__2__repetition": 3}, "ranking[2].repetition is 3", "in [1, 2]"),
    ({"estimate": {**AVAILABLE, "fraction": 7.5}}, "estimate.fraction is 7.5", "fraction in [0, 1]"),
    ({"estimate": {**AVAILABLE, "fraction": float("nan")}}, "estimate.fraction is NaN", "fraction"),
    ({"estimate": {**AVAILABLE, "fold_repetitions": [2]}}, "estimate.folds is 2", "lists 1 entry"),
])
def test_impossible_numbers_of_a_repeat_result_are_refused(tmp_path, changes, field, problem):
    with pytest.raises(ValueError, match="edited or is damaged") as refused:
        _report(tmp_path, REPEAT, **changes)
    assert field in str(refused.value) and problem in str(refused.value)


def test_results_as_the_commands_write_them_pass(tmp_path):
    assert [s.anchor for s in _report(tmp_path, SELECT).sections][:3] == ["data", "method", "features"]
    assert "30.0 %" in _report(tmp_path, REPEAT, estimate=AVAILABLE).to_html()


def test_a_very_long_feature_name_is_cut_in_tables_and_figures(tmp_path):
    name = "A" * 100_000
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no layout warning of a figure too small for its labels
        text = _report(tmp_path, SELECT, selected__0__name=name,
                       cv__selected_per_fold=[[name], ["gene_3"]]).to_html()
    assert name[:37] + "..." in text and "A" * 41 not in text
