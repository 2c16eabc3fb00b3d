import numpy as np
import pytest
import scipy.sparse as sp
import scipy.stats

from sfmlearn.panels import screen


@pytest.mark.parametrize("to", [np.asarray, sp.csr_matrix])
def test_welch_t_matches_scipy_over_blocks_of_cells(to, monkeypatch):
    monkeypatch.setattr(screen, "_ROWS", 7)  # several blocks
    rng = np.random.RandomState(0)
    X, codes = rng.poisson(1.0, (40, 6)).astype(float), rng.randint(0, 3, 40)
    expected = [scipy.stats.ttest_ind(X[codes == k], X[codes != k], equal_var=False).statistic
                for k in range(3)]
    np.testing.assert_allclose(screen.one_vs_rest_t(to(X), codes, 3), expected)


def test_balanced_subsample_keeps_the_type_and_spreads_the_others():
    codes = np.repeat([0, 1, 2], [500, 300, 20])
    rows = screen.balanced_subsample(codes, 0, 100, np.random.RandomState(0))
    counts = np.bincount(codes[rows])
    assert counts[0] == 100 and counts[1] == 51 and counts[2] == 20
