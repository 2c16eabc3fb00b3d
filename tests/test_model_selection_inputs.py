"""Bad input to the splitters, the budget choice and the scores: refused with the problem
and the fix, before any split or fit."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.neighbors import NearestCentroid

from sfmlearn.exceptions import DataValidationError
from sfmlearn.model_selection import (
    BootstrapSplit,
    balanced_accuracy_p_value,
    bootstrap_632_score,
    choose_budget,
    hand_till_auc,
    make_cv,
    make_folds,
    make_repeated_folds,
)

X20, Y20 = np.zeros((20, 1)), np.array([0, 1] * 10)


# -- bootstrap --------------------------------------------------------------------------
@pytest.mark.parametrize("groups, message", [
    (np.arange(10), "one id per sample \\(20\\)"),  # the ids of half the samples
    ([1, 2] * 9 + [None, None], "missing"),
])
def test_bootstrap_refuses_groups_that_do_not_label_every_sample(groups, message):
    with pytest.raises(DataValidationError, match=message):
        list(BootstrapSplit(2, random_state=0).split(X20, Y20, groups=groups))
    with pytest.raises(DataValidationError, match=message):
        bootstrap_632_score(NearestCentroid(), X20, Y20, groups=groups, n_bootstraps=2)


def test_bootstrap_with_a_single_group_names_it():
    with pytest.raises(DataValidationError, match="all samples are in one group \\('g'\\)"):
        list(BootstrapSplit(2, random_state=0).split(X20, Y20, groups=["g"] * 20))


def test_bootstrap_refuses_labels_of_another_length():
    with pytest.raises(DataValidationError, match="one label per sample of X \\(20\\)"):
        bootstrap_632_score(NearestCentroid(), X20, Y20[:10], n_bootstraps=2)


@pytest.mark.parametrize("to_sparse", [sp.csr_matrix, sp.coo_matrix, sp.csc_array])
def test_bootstrap_takes_sparse_X_as_the_dense_one(rng, to_sparse):
    X = rng.standard_normal((20, 3))
    X[:, 0] += 2 * Y20
    dense = bootstrap_632_score(NearestCentroid(), X, Y20, n_bootstraps=3, random_state=0)
    sparse = bootstrap_632_score(NearestCentroid(), to_sparse(X), Y20, n_bootstraps=3, random_state=0)
    np.testing.assert_allclose(sparse.scores, dense.scores)
    splits = BootstrapSplit(3, random_state=0)
    for (a, b), (c, d) in zip(splits.split(X, Y20), splits.split(to_sparse(X), Y20)):
        assert np.array_equal(a, c) and np.array_equal(b, d)


# -- folds ------------------------------------------------------------------------------
@pytest.mark.parametrize("cv", [None, 2, "logo"])
def test_make_folds_and_make_cv_refuse_missing_or_too_few_group_ids(cv):
    X, y = np.zeros((4, 1)), [0, 1, 0, 1]
    with pytest.raises(DataValidationError, match="missing"):
        make_folds(cv, X, y, groups=[1, 1, None, None])
    with pytest.raises(DataValidationError, match="one id per sample \\(4\\)"):
        make_folds(cv, X, y, groups=[1, 2])
    with pytest.raises(DataValidationError, match="missing"):
        make_cv(cv, y=y, groups=[1, 1, None, None])


@pytest.mark.parametrize("cv", [2, "loo"])
@pytest.mark.parametrize("n_repeats", [0, -1, 1.5])
def test_make_repeated_folds_refuses_fewer_than_one_repeat(cv, n_repeats):
    with pytest.raises(DataValidationError, match="n_repeats must be a positive integer"):
        make_repeated_folds(cv, np.zeros((4, 1)), [0, 1, 0, 1], n_repeats=n_repeats)


def test_a_class_of_one_sample_gets_advice_that_works():
    """No scheme keeps a single sample's class in the fold that tests it: k-fold is not the fix."""
    with pytest.raises(DataValidationError, match="single sample") as caught:
        make_folds("loo", np.zeros((10, 1)), [0] * 9 + [1])
    assert "k-fold" not in str(caught.value)


# -- budget choice ----------------------------------------------------------------------
SCORES = [[0.7, 0.9], [0.8, 0.7]]


def test_choose_budget_refuses_an_unknown_rule():
    with pytest.raises(DataValidationError, match="select must be 'best' or '1se'; got 'typo'"):
        choose_budget(SCORES, [1, 2], select="typo")


@pytest.mark.parametrize("budgets, message", [
    ([1, 2, 3, 4], "one budget per column of budget_scores \\(2\\)"),
    ([2, 1], "strictly increasing"),
    ([1, 1], "strictly increasing"),
])
def test_choose_budget_refuses_budgets_that_do_not_match_the_columns(budgets, message):
    with pytest.raises(DataValidationError, match=message):
        choose_budget(SCORES, budgets)


def test_choose_budget_refuses_scores_without_folds():
    with pytest.raises(DataValidationError, match="one row per fold"):
        choose_budget(np.empty((0, 2)), [1, 2])


# -- scores -----------------------------------------------------------------------------
def test_auc_refuses_nan_scores_and_scores_of_another_length():
    with pytest.raises(DataValidationError, match="1 NaN scores"):
        hand_till_auc(["a", "b", "a"], [1.0, 2.0, np.nan])
    with pytest.raises(DataValidationError, match="one score .* per label of y_true \\(3\\)"):
        hand_till_auc([0, 1, 0], [1.0, 2.0])


def test_balanced_accuracy_test_refuses_predictions_of_another_length():
    with pytest.raises(DataValidationError, match="one prediction per label"):
        balanced_accuracy_p_value([0, 0, 1], [0, 1])
