"""The P-SVM chapter's synthetic data follow its written constructions."""

import numpy as np
import pytest

from sfmlearn.datasets import make_psvm_nonlinear, make_psvm_redundancy, make_weston_modes


def test_weston_modes_construction():
    X, y = make_weston_modes(random_state=0)
    assert X.shape == (600, 2000)
    assert (y == 1).sum() == 300 and (y == -1).sum() == 300
    # Per sample exactly one block of four indicative features: y * x ~ N(2, 0.5 tau)
    # there, N(0, 1) elsewhere among the first 20, so the block mean of y * x is ~2.
    blocks = (y[:, None] * X[:, :20]).reshape(600, 5, 4).mean(axis=2)
    mode = blocks.argmax(axis=1)
    assert np.bincount(mode, minlength=5).min() > 80  # uniform modes: ~120 each
    in_mode = blocks[np.arange(600), mode]
    assert abs(in_mode.mean() - 2.0) < 0.15
    # Spreads of the indicative features within a mode grow with tau: 0.5, 1, 1.5, 2.
    members = (y[:, None] * X[:, :20]).reshape(600, 5, 4)[np.arange(600), mode]
    np.testing.assert_allclose(members.std(axis=0), [0.5, 1.0, 1.5, 2.0], rtol=0.2)
    assert abs(X[:, 20:].std() - 20.0) < 0.2
    # Each relevant feature is indicative for a fifth of the data: E[y x_j] = 2 / 5.
    np.testing.assert_allclose((y[:, None] * X[:, :20]).mean(axis=0), 0.4, atol=0.25)
    assert np.abs((y[:, None] * X[:, 20:]).mean(axis=0)).max() < 4.0


def test_weston_modes_is_reproducible_and_checks_its_size():
    a = make_weston_modes(100, 30, random_state=3)
    b = make_weston_modes(100, 30, random_state=3)
    np.testing.assert_array_equal(a[0], b[0])
    with pytest.raises(ValueError, match=r"'n_features' parameter .* int in the range \[20, inf\)"):
        make_weston_modes(100, 10)


def test_correlation_tables_of_section_3_1():
    X, t = make_psvm_redundancy("cancel")
    np.testing.assert_array_equal(t, X[:, 0] + X[:, 1])
    assert np.corrcoef(X[:, 0], t)[0, 1] == pytest.approx(0.0, abs=1e-12)
    X, t = make_psvm_redundancy("redundant")
    np.testing.assert_array_equal(t, X[:, 1] + X[:, 2])
    np.testing.assert_allclose(np.corrcoef(X.T, t)[-1, :3], [0.905, 0.707, 0.707], atol=1e-3)


@pytest.mark.parametrize("toy, d, group", [("table1_top", 100, 3), ("table1_bottom", 1000, 30)])
def test_table1_toys(toy, d, group):
    X, y = make_psvm_redundancy(toy, 4000, random_state=1)
    assert X.shape == (4000, d)
    assert abs(X[:, 2 * group:].std() - 20.0) < 0.2
    # Labels switched with probability 0.2 and each group indicative for half the
    # samples: E[y x_j] = 0.5 * (1 - 2 * 0.2) * mean_j.
    means = np.arange(1.0, 4.0) if group == 3 else np.full(group, 2.0)
    expected = 0.3 * np.r_[means, means]
    np.testing.assert_allclose((y[:, None] * X[:, :2 * group]).mean(axis=0), expected, atol=0.12)
    assert abs((y == 1).mean() - 0.5) < 0.03
    with pytest.raises(ValueError, match="'toy' parameter of make_psvm_redundancy must be a str among"):
        make_psvm_redundancy("table2")


@pytest.mark.parametrize("task", ["A", "B"])
def test_nonlinear_toys(task):
    X, y = make_psvm_nonlinear(task, random_state=2)
    assert X.shape == (500, 100)
    raw = X[:, 0] ** 2 + X[:, 1] ** 2 if task == "A" else X[:, 0] * X[:, 1]
    np.testing.assert_array_equal(y, np.clip(raw, -1, 1))
    assert y.min() >= -1 and y.max() <= 1
    # No linear trace of the relevant features (the point of the experiment).
    assert np.abs(np.corrcoef(X[:, :2].T, y)[-1, :2]).max() < 0.15
    with pytest.raises(ValueError, match="task"):
        make_psvm_nonlinear("C")
