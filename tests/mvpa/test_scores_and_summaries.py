"""What the MVPA results report: p-values, balanced accuracies, rankings read back, JSON summaries."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.metrics import balanced_accuracy_score

from sfmlearn.datasets import make_toy_fmri
from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import (PermutationDecoding, consistency_map, decode, is_ranking, overlap_with_truth,
                           permuted_decoding, reference_svm, repetitive_decoding)


@pytest.fixture(scope="module")
def toy():
    return make_toy_fmri(random_state=0)


def _runs(y, groups):
    """Run ids that each hold one class: two runs per participant, one per condition."""
    return np.where(y == "left", groups * 2, groups * 2 + 1)


def test_permutations_within_groups_of_one_class_are_refused(toy):
    X, y, groups = toy
    with pytest.raises(DataValidationError, match="one class only.*changes no label.*participants as groups"):
        permuted_decoding(X, y, _runs(y, groups), n_permutations=3, random_state=0)


def test_failed_permutations_are_left_out_of_the_p_value():
    permutations = pd.DataFrame({"accuracy": [np.nan, 0.9, 0.5], "mean_selected": [np.nan, 2.0, 3.0]})
    result = PermutationDecoding(accuracy=0.8, mean_selected=2.0, permutations=permutations)
    assert result.p_value == pytest.approx((1 + 1) / (1 + 2))  # 0.9 is as good; the failure does not count
    assert result.n_failed == 1 and result.summary()["n_failed"] == 1


def test_no_successful_permutation_gives_no_p_value():
    X, y, groups = make_toy_fmri(n_voxels=6, n_informative=3, shift=6, random_state=0)
    with pytest.warns(UserWarning, match="no solution on any of the 3 permuted.*soft estimator"):
        result = permuted_decoding(X, y, groups, n_permutations=3, random_state=1)
    assert np.isnan(result.p_value)
    summary = result.summary()
    assert summary["p_value"] is None and summary["n_failed"] == 3
    json.dumps(summary, allow_nan=False)


def test_held_out_runs_of_one_class_pool_the_balanced_accuracy(toy):
    X, y, groups = toy
    runs = _runs(y, groups)
    predicted = np.empty_like(y)
    for run in np.unique(runs):
        test = runs == run
        predicted[test] = clone(reference_svm()).fit(X[~test], y[~test]).predict(X[test])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Mean of empty slice" or one-label warnings
        result = decode(X, y, runs, reference_svm())
    assert result.pooled and result.balanced_accuracy == pytest.approx(balanced_accuracy_score(y, predicted))
    summary = result.summary()
    assert summary["balanced_accuracy_pooled"] is True
    assert summary["balanced_accuracy"] == pytest.approx(result.balanced_accuracy)


def test_selector_on_runs_of_one_class_pools_too(toy):
    X, y, groups = toy
    result = decode(X, y, _runs(y, groups))
    left = result.folds["held_out_class"] == "left"
    recall = [np.average(result.folds.loc[side, "accuracy"], weights=result.folds.loc[side, "n_test"])
              for side in (left, ~left)]
    assert result.balanced_accuracy == pytest.approx(np.mean(recall))


def test_summaries_are_valid_json(toy):
    X, y, groups = toy
    json.dumps(decode(X, y, groups, reference_svm()).summary(), allow_nan=False)  # auc None, no NaN
    repetitive = repetitive_decoding(X, y, groups, max_repetitions=2, informative_every=1, random_state=0)
    summary = repetitive.summary()
    assert isinstance(summary["informative_fraction"]["extrapolated"], bool)
    json.dumps(summary, allow_nan=False)


def test_rankings_are_read_by_value_whatever_the_dtype():
    ranking, truth = np.arange(1, 11), np.arange(10) < 2
    as_int = overlap_with_truth({"r": ranking}, truth, quantiles=(20.0,))
    as_float = overlap_with_truth({"r": ranking.astype(float)}, truth, quantiles=(20.0,))  # e.g. from a CSV file
    assert as_int["precision"].tolist() == as_float["precision"].tolist() == [100.0]
    folds = overlap_with_truth({"r": np.vstack([ranking, ranking]).astype(float)}, truth, quantiles=(20.0,))
    assert folds["precision"].tolist() == [100.0]
    assert is_ranking([3.0, 1.0, 2.0, 5.0, 5.0]) and not is_ranking(np.abs([0.5, 2.0, 1.0]))


def test_scores_and_their_kind_are_explicit():
    truth = np.arange(10) < 2
    counts = np.arange(10, 0, -1)  # scores 10..1 look like a ranking: voxel 0 would be the worst
    assert overlap_with_truth({"c": counts}, truth, quantiles=(20.0,))["precision"].tolist() == [0.0]
    as_scores = overlap_with_truth({"c": counts}, truth, quantiles=(20.0,), kinds={"c": "scores"})
    assert as_scores["precision"].tolist() == [100.0]
    with pytest.raises(DataValidationError, match="2-D entry must hold one ranking per fold"):
        overlap_with_truth({"t": np.full((2, 10), 0.5)}, truth, quantiles=(20.0,))
    with pytest.raises(DataValidationError, match="kinds must map names"):
        overlap_with_truth({"c": counts}, truth, kinds={"other": "scores"})


def test_fractional_ranks_are_refused():
    with pytest.raises(DataValidationError, match="whole-number ranks"):
        consistency_map(np.array([[1, 2, 3, 4, 5]]) + 0.9, 20)
