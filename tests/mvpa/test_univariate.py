import numpy as np
import pytest
from scipy import stats

from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import paired_t_map


def test_t_map_equals_scipy_paired_test_on_participant_means():
    rng = np.random.default_rng(0)
    n_part, runs, d = 5, 3, 7
    groups = np.repeat(np.arange(n_part), 2 * runs)
    labels = np.tile(np.r_[np.zeros(runs), np.ones(runs)], n_part).astype(int)
    X = rng.standard_normal((groups.size, d)) + 0.8 * labels[:, None] * np.arange(d)
    result = paired_t_map(X, labels, groups)
    means = {c: np.array([X[(groups == p) & (labels == c)].mean(axis=0) for p in range(n_part)])
             for c in (0, 1)}
    reference = stats.ttest_rel(means[1], means[0], axis=0)
    np.testing.assert_allclose(result.t, reference.statistic)
    np.testing.assert_allclose(result.p, reference.pvalue)
    assert result.df == n_part - 1


def test_participant_without_both_classes_is_refused():
    X = np.random.default_rng(1).standard_normal((6, 3))
    labels = np.array([0, 1, 0, 1, 0, 0])
    groups = np.array([1, 1, 2, 2, 3, 3])
    with pytest.raises(DataValidationError, match="no map of class"):
        paired_t_map(X, labels, groups)
