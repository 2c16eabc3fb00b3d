"""The budget rules and the inner-information reading of ``bench_choice.py --part rules`` (``_choice_rules.py``)."""

import os
import sys

import numpy as np
import pytest

from sfmlearn.model_selection import choose_budget

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from _choice_rules import RULES, inner_information, outer_choice  # noqa: E402

BUDGETS = np.array([1, 2, 3, 4])


def _pick(rule, aligned, budgets=BUDGETS):
    return int(budgets[RULES[rule](np.array(aligned, dtype=float), budgets)])


def test_best_and_1se_are_the_estimators_own_rules():
    rng = np.random.default_rng(0)
    for _ in range(20):
        aligned = rng.uniform(0.5, 1.0, size=(5, 4)).round(1)
        for name, select in (("best", "best"), ("1 se", "1se")):
            assert RULES[name](aligned, BUDGETS) == choose_budget(aligned, BUDGETS, select)


def test_a_budget_some_inner_fold_does_not_reach_never_competes():
    aligned = [[np.nan, 0.6, 0.7, 0.7], [0.9, 0.6, 0.7, 0.7]]
    for name in RULES:
        assert _pick(name, aligned) != 1, name


def test_a_fraction_of_the_standard_error_is_a_smaller_tolerance():
    # best at budget 4 (mean 0.8, SD 0.1 over two folds, SE 0.071); budget 2 lies 0.06 below, budget 3 0.03
    aligned = [[0.5, 0.64, 0.67, 0.7], [0.5, 0.84, 0.87, 0.9]]
    assert _pick("best", aligned) == 4
    assert _pick("1 se", aligned) == 2
    assert _pick("0.5 se", aligned) == 3
    assert _pick("0.25 se", aligned) == 4


def test_paired_differences_cancel_what_the_folds_share():
    # budget 1 is 0.02 below the best in every fold: the folds differ by 0.3, the paired differences not at all
    aligned = [[0.58, 0.6], [0.88, 0.9], [0.68, 0.7]]
    budgets = np.array([1, 2])
    assert _pick("1 se", aligned, budgets) == 1
    assert _pick("paired 1 se", aligned, budgets) == 2
    # equal on average, opposite fold by fold: the paired rule takes the smaller budget
    assert _pick("paired 1 se", [[0.6, 0.7], [0.8, 0.7]], budgets) == 1


def test_tolerances_penalties_ranks_and_smoothing():
    aligned = [[0.70, 0.797, 0.80, 0.60], [0.70, 0.797, 0.80, 0.60]]
    assert _pick("within 1 point", aligned) == 2
    assert _pick("within 2 points", aligned) == 2
    assert _pick("log penalty 0.005", aligned) == 3  # 0.8 - 0.005 log 3 > 0.797 - 0.005 log 2
    assert _pick("log penalty 0.01", aligned) == 2  # 0.8 - 0.01 log 3 < 0.797 - 0.01 log 2
    # budget 3 wins one fold by far and loses the other two: best by mean, not by rank
    ranked = [[0.7, 0.8, 1.0], [0.7, 0.8, 0.75], [0.7, 0.8, 0.75]]
    assert _pick("best", ranked, BUDGETS[:3]) == 3
    assert _pick("mean rank", ranked, BUDGETS[:3]) == 2
    # a lone peak among low neighbours loses to a broad plateau once smoothed over log k
    budgets = np.array([10, 11, 12, 40, 41, 42])
    peaked = [[0.6, 0.9, 0.6, 0.85, 0.85, 0.85]] * 2
    assert _pick("best", peaked, budgets) == 11
    assert _pick("smoothed 0.3", peaked, budgets) in (40, 41, 42)


def _fold(inner_means, outer_scores, sizes):
    return {"budgets": np.arange(1, len(inner_means) + 1),
            "aligned": np.array([inner_means, inner_means], dtype=float),
            "scores": np.array(outer_scores, dtype=float), "sizes": np.array(sizes)}


def test_the_outer_candidate_is_the_densest_within_the_chosen_budget():
    # candidates of 2, 2 and 4 features; budget 3 (best inner mean) -> the first 2-feature one
    fold = _fold([0.5, 0.6, 0.9, 0.7], [0.8, 0.7, 0.9], [2, 2, 4])
    assert outer_choice(fold, RULES["best"]) == (0.8, 2)
    # budget 1, below every candidate: the smallest, as the estimator's refit
    fold = _fold([0.9, 0.6, 0.5, 0.7], [0.8, 0.7, 0.9], [2, 3, 4])
    assert outer_choice(fold, RULES["best"]) == (0.8, 2)


def test_inner_information_of_a_perfect_and_of_a_reversed_inner_cv():
    sizes = [1, 2, 3, 4]
    perfect = inner_information(_fold([0.6, 0.7, 0.8, 0.9], [0.6, 0.7, 0.8, 0.9], sizes))
    assert perfect["spearman"] == pytest.approx(1.0)
    assert perfect["chosen"] == perfect["best_candidate"] == pytest.approx(0.9)
    assert perfect["random_candidate"] == pytest.approx(0.75)
    reversed_ = inner_information(_fold([0.6, 0.7, 0.8, 0.9], [0.9, 0.8, 0.7, 0.6], sizes))
    assert reversed_["spearman"] == pytest.approx(-1.0)
    assert reversed_["chosen"] == pytest.approx(0.6)
    # budgets that reach the same candidate count it once
    repeated = inner_information(_fold([0.6, 0.6, 0.6, 0.9], [0.5, 1.0], [1, 4]))
    assert repeated["random_candidate"] == pytest.approx(0.75)
    assert np.isnan(repeated["spearman"])  # two distinct points: no correlation
