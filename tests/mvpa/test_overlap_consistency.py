import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import (QUANTILES, consensus, consistency_map, overlap_with_tmap,
                           overlap_with_truth, top_by_rank, top_by_score)
from sfmlearn.mvpa.overlap import top_count


def test_top_count_rounds_and_keeps_one():
    assert top_count(1, 1000) == 10 and top_count(2.5, 1000) == 25
    assert top_count(1, 10) == 1
    with pytest.raises(DataValidationError):
        top_count(0, 10)


def test_top_by_rank_ignores_unranked_voxels():
    # 3 ranked voxels, 7 unranked sharing rank 4
    ranking = np.array([2, 4, 1, 4, 4, 3, 4, 4, 4, 4])
    np.testing.assert_array_equal(np.flatnonzero(top_by_rank(ranking, 20)), [0, 2])
    np.testing.assert_array_equal(np.flatnonzero(top_by_rank(ranking, 50)), [0, 2, 5])


def test_top_by_score_ties_by_order_and_never_nan():
    scores = np.array([1.0, 3.0, np.nan, 3.0, 2.0])
    np.testing.assert_array_equal(np.flatnonzero(top_by_score(scores, 40)), [1, 3])
    assert not top_by_score(scores, 100)[2]


def test_overlap_is_100_when_the_ranking_follows_t_and_about_q_at_random():
    rng = np.random.default_rng(0)
    d = 2000
    t = rng.standard_normal(d)
    by_t = np.empty(d, dtype=int)
    by_t[np.argsort(-np.abs(t))] = np.arange(1, d + 1)
    table = overlap_with_tmap(by_t, t)
    np.testing.assert_allclose(table["overlap"], 100.0)
    np.testing.assert_allclose(table["expected"], QUANTILES, atol=0.05)
    random = np.array([rng.permutation(d) + 1 for _ in range(20)])
    table = overlap_with_tmap(random, t).set_index("q")
    for q in QUANTILES:
        # mean of 20 hypergeometric overlaps: sd well below 4 points for m >= 20
        assert abs(table.loc[q, "overlap"] - q) < 4 + (q == 1.0) * 6


def test_overlap_p_threshold_is_least_significant_top_voxel():
    t = np.array([5.0, -4.0, 0.1, 3.0])
    p = np.array([0.001, 0.002, 0.9, 0.01])
    table = overlap_with_tmap(np.array([1, 2, 3, 4]), t, p, quantiles=(50.0,))
    assert table.loc[0, "p_threshold"] == 0.002
    assert table.loc[0, "overlap"] == 100.0


def test_overlap_with_truth_precision_recall():
    truth = np.zeros(10, dtype=bool)
    truth[[0, 1]] = True
    ranking = np.array([1, 3, 2, 4, 5, 6, 7, 8, 9, 10])  # voxels 0, 2 first
    table = overlap_with_truth({"r": ranking, "s": np.arange(10.0)[::-1]}, truth,
                               quantiles=(20.0,)).set_index("method")
    assert table.loc["r", "precision"] == 50.0 and table.loc["r", "recall"] == 50.0
    assert table.loc["s", "precision"] == 100.0 and table.loc["s", "recall"] == 100.0
    assert table.loc["r", "precision_chance"] == 20.0


def test_consistency_counts_folds():
    rankings = np.array([[1, 2, 3, 4], [2, 1, 3, 4], [3, 1, 2, 4]])
    np.testing.assert_allclose(consistency_map(rankings, 25), [1 / 3, 2 / 3, 0, 0])
    np.testing.assert_array_equal(consensus(rankings, 50), [True, True, False, False])
