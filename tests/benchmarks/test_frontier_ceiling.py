"""The ceiling verdicts of ``benchmarks/bench_frontier.py --part ceiling`` (``_frontier_ceiling.py``)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from _frontier_ceiling import ceiling_report, within_budget  # noqa: E402


def _path(scores, sizes):
    return np.array(scores, dtype=float), np.array(sizes)


def test_the_densest_fit_and_the_best_fit_within_a_budget():
    folds = [_path([0.6, 0.9, 0.7], [1, 2, 3]), _path([0.8, 0.5], [1, 3])]
    # within 3: the densest fits score 0.7 and 0.5, the best ones 0.9 and 0.8
    assert np.allclose(within_budget(folds, 3, "densest"), [0.7, 0.5])
    assert np.allclose(within_budget(folds, 3, "ceiling"), [0.9, 0.8])
    assert np.allclose(within_budget(folds, 2, "densest"), [0.9, 0.8])
    assert within_budget([_path([0.6], [2])], 1, "ceiling") is None


def test_a_cell_is_out_of_reach_only_when_the_best_family_fit_of_every_fold_loses():
    # fold 1: method A's best within 2 is 0.70, B's 0.80; fold 2: A 0.90, B 0.60.
    # The family ceiling takes the better method per fold: (0.80 + 0.90) / 2 = 85.0.
    per_fold = [{"A": _path([0.7, 0.5], [1, 2]), "B": _path([0.8], [2]), "peer": _path([0.84], [2])},
                {"A": _path([0.9], [1]), "B": _path([0.6], [2]), "peer": _path([0.86], [1])}]
    lines = ceiling_report("toy", per_fold, [2], ("A", "B"), "peer")
    assert lines[-1] == "k <=  2: SFM family ceiling  85.0 vs peer's frontier cell  85.0: within reach"
    per_fold[0]["peer"] = _path([0.86], [2])
    assert ceiling_report("toy", per_fold, [2], ("A", "B"), "peer")[-1].endswith(
        "85.0 vs peer's frontier cell  86.0: out of reach")


def test_a_budget_one_side_does_not_reach_is_named():
    per_fold = [{"A": _path([0.7], [3]), "peer": _path([0.8], [1])}]
    assert ceiling_report("toy", per_fold, [1], ("A",), "peer")[-1] == "k <=  1: only peer reaches k in every fold"
    per_fold = [{"A": _path([0.7], [1]), "peer": _path([0.8], [3])}]
    assert ceiling_report("toy", per_fold, [1], ("A",), "peer")[-1] == (
        "k <=  1: only the SFM family reaches k in every fold")
