"""Path scores aligned by sparsity (sfmlearn.model_selection.budgets)."""

import numpy as np
import pytest

from sfmlearn.model_selection import choose_budget, densest_within_budget, scores_within_budget


def test_densest_fit_within_budget_is_the_first_of_the_densest():
    sizes = [1, 2, 2, 4, 3]
    assert densest_within_budget(sizes, 3) == 4
    assert densest_within_budget(sizes, 2) == 1
    assert densest_within_budget(sizes, 0) == -1


def test_folds_are_aligned_by_size_not_by_grid_index():
    # fold 0 reaches 2 features at point 1, fold 1 only at point 2
    scores = [[0.5, 0.9, 0.6], [0.7, 0.4, 0.8]]
    sizes = [[1, 2, 5], [1, 1, 2]]
    aligned = scores_within_budget(scores, sizes, [1, 2, 5])
    np.testing.assert_array_equal(aligned, [[0.5, 0.9, 0.6], [0.7, 0.8, 0.8]])


def test_a_budget_below_every_fit_is_missing_and_never_chosen():
    aligned = scores_within_budget([[0.9, 0.6], [0.8, 0.7]], [[2, 3], [1, 3]], [1, 2, 3])
    assert np.isnan(aligned[0, 0]) and not np.isnan(aligned[1, 0])
    assert choose_budget(aligned, [1, 2, 3]) == 1


def test_one_standard_error_rule_prefers_the_smaller_budget():
    aligned = np.array([[0.70, 0.80, 0.82], [0.78, 0.80, 0.70], [0.74, 0.76, 0.94]])
    assert choose_budget(aligned, [1, 2, 3], "best") == 2
    assert choose_budget(aligned, [1, 2, 3], "1se") == 1


def test_shapes_must_agree_and_some_budget_must_be_complete():
    with pytest.raises(ValueError, match="same shape"):
        scores_within_budget([[0.5, 0.6]], [[1, 2, 3]], [1])
    with pytest.raises(ValueError, match="no budget"):
        choose_budget([[np.nan], [0.5]], [1])
