"""select/repeat reports from their JSON results: every part of the result is shown."""

import json
import re

from sfmlearn.report import repeat_report, result_dir_report, select_report


def _select_result(**extra):
    result = {
        "data": "toy.csv", "n_samples": 20, "n_features": 50, "classes": ["a", "b"],
        "class_counts": {"a": 8, "b": 12}, "method": "SupportFeatureMachine", "C": None,
        "class_weight": None, "n_selected": 2, "train_accuracy": 1.0, "fit_seconds": 0.1,
        "selected": [{"index": 7, "name": "gene_7", "weight": -2.5}, {"index": 3, "name": "gene_3", "weight": 1.25}],
    }
    result.update(extra)
    return result


def _chance(n_permutations):
    return {"subset_size": 2, "training_errors": 0, "separates_training_data": True,
            "probability_upper": 0.0123, "n_permutations": n_permutations, "grouped": False,
            "p_value": 0.0476 if n_permutations else None,
            "permutation_sizes": [4, 5, None, 6][:n_permutations], "verdict": "chance check: VERDICT."}


def _ids(text):
    return re.findall(r'<section id="([^"]+)"', text)


def _images(text):
    return len(re.findall(r'src="data:image/png;base64,', text))


def test_select_report_shows_data_features_cv_test_and_permutations():
    cv = {"folds": 3, "grouped": False, "accuracy_mean": 0.8, "accuracy_std": 0.1,
          "accuracy": [0.7, 0.8, 0.9], "n_selected": [2, 3, 2]}
    text = select_report(_select_result(cv=cv, chance=_chance(4), test_accuracy=0.75, n_test=8)).to_html()
    assert _ids(text) == ["data", "method", "features", "accuracy", "chance"]
    assert "a: 8, b: 12" in text and "gene_7" in text and '<td class="num">-2.5</td>' in text
    assert text.index("gene_7") < text.index("gene_3")  # largest weight first, as given
    assert "80.0 % ± 10.0 %" in text and "<td>2, 3, 2</td>" in text and "75.0 %" in text
    assert "chance check: VERDICT." in text and "<td>0.0476</td>" in text
    assert _images(text) == 2  # weights and permutation histogram


def test_select_report_says_what_was_not_computed():
    text = select_report(_select_result(chance=_chance(0))).to_html()
    assert "Cross-validation was skipped" in text
    assert "Only the bound for random data" in text
    assert _images(text) == 1  # no permutation histogram


def test_saved_select_json_gives_the_same_sections(tmp_path):
    path = tmp_path / "select.json"
    path.write_text(json.dumps(_select_result(chance=_chance(0))))
    assert _ids(result_dir_report(path).to_html()) == ["data", "method", "features", "accuracy", "chance"]


def test_repeat_report_without_estimate_shows_ranking_and_says_so():
    ranking = [{"rank": 1, "index": 4, "name": "v4", "repetition": 1, "weight": 0.5},
               {"rank": 2, "index": 9, "name": "v9", "repetition": 1, "weight": -1.5},
               {"rank": 3, "index": 1, "name": "v1", "repetition": 2, "weight": 2.0}]
    result = {"data": "d.csv", "n_samples": 12, "n_features": 30, "classes": ["l", "r"], "method": "SupportFeatureMachine",
              "C": 0.5, "class_weight": "balanced", "n_repetitions": 2, "stop_reason": "not_separable",
              "stopped_because": "STOP TEXT", "n_ranked": 3, "fit_seconds": 0.2,
              "subsets": [["v4", "v9"], ["v1"]], "subset_sizes_by_size": [1, 2], "ranking": ranking}
    text = repeat_report(result).to_html()
    assert _ids(text) == ["data", "method", "features", "rsfm", "accuracy", "chance", "informative"]
    assert "STOP TEXT" in text and "C = 0.5, balanced class weights" in text and "input space" in text
    first = text[text.index('id="features"'):text.index('id="rsfm"')]
    assert first.index("<td>v4</td>") < first.index("<td>v9</td>") and "<td>v1</td>" not in first  # ranking order
    assert "Not estimated (--no-estimate)." in text and "No cross-validated accuracy" in text
    assert _images(text) == 2  # weights, subset sizes
    assert "<td>3 of 30</td>" in text


def test_bound_is_not_quoted_for_a_subset_that_does_not_separate():
    chance = dict(_chance(0), separates_training_data=False, training_errors=3)
    text = select_report(_select_result(chance=chance)).to_html()
    assert "does not apply (the subset does not separate the classes)" in text and "0.0123" not in text
