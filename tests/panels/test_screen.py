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
    # atol: a gene whose means are equal gets t = 0 up to rounding
    np.testing.assert_allclose(screen.one_vs_rest_t(to(X), codes, 3), expected, atol=1e-12)


def test_balanced_subsample_keeps_the_type_and_spreads_the_others():
    codes = np.repeat([0, 1, 2], [500, 300, 20])
    rows = screen.balanced_subsample(codes, 0, 100, np.random.RandomState(0))
    counts = np.bincount(codes[rows])
    assert counts[0] == 100 and counts[1] == 51 and counts[2] == 20


@pytest.mark.parametrize("to", [np.asarray, sp.csr_matrix, sp.csc_matrix])
@pytest.mark.parametrize("offset, dtype", [(1e5, np.float32), (1e8, np.float64)])
def test_welch_t_keeps_its_precision_far_from_zero(to, offset, dtype, monkeypatch):
    """E[x^2] - E[x]^2 in float32 gave t = 0 for this marker at an offset of 1e5."""
    monkeypatch.setattr(screen, "_ROWS", 70)  # several blocks
    rng = np.random.default_rng(0)
    codes = np.repeat([0, 1, 2], [100, 60, 40])
    X = rng.standard_normal((200, 5))
    X[:, 0] += 2.0 * (codes == 0)
    X = (X + offset).astype(dtype)
    values = X.astype(float) - offset  # the same values, shifted exactly: scipy's t is then precise
    expected = [scipy.stats.ttest_ind(values[codes == k], values[codes != k], equal_var=False).statistic
                for k in range(3)]
    np.testing.assert_allclose(screen.one_vs_rest_t(to(X), codes, 3), expected, rtol=1e-9)


def test_the_panel_reports_the_precise_welch_t():
    from sfmlearn.panels import MarkerPanel

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 100)
    X = rng.standard_normal((200, 5))
    X[:, 0] += 2.0 * (y == 0)
    X = (X + 1e5).astype(np.float32)
    panel = MarkerPanel(2, normalize="none", random_state=0).fit(X, y)
    expected = scipy.stats.ttest_ind(X[y == 0, 0].astype(float), X[y == 1, 0].astype(float),
                                     equal_var=False).statistic
    assert panel.panel_[0] == 0
    assert abs(panel.markers_.t.iloc[0]) == pytest.approx(abs(expected), rel=1e-6)
