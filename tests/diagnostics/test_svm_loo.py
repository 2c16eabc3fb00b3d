"""The exact Gram-matrix LOO shortcut against brute-force refits (thesis 2.5.5)."""

import numpy as np
import pytest
from sklearn.svm import SVC

from sfmlearn.diagnostics._svm_loo import svm_loo_decisions
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.optim import linear_svm


def _data(n, d, shift, seed):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, 0] += shift * y
    return X, y


def _brute_hard(X, y):
    out = np.empty(y.size)
    for i in range(y.size):
        keep = np.arange(y.size) != i
        w, b = linear_svm(X[keep], y[keep])
        out[i] = X[i] @ w + b
    return out


@pytest.mark.parametrize("n,d,shift", [(10, 9, 0.0), (12, 30, 0.8), (16, 200, 0.0), (14, 15, 1.5)])
def test_hard_margin_matches_one_qp_per_left_out_sample(n, d, shift):
    for seed in range(3):
        X, y = _data(n, d, shift, seed)
        decisions, _ = svm_loo_decisions(X, y)
        np.testing.assert_allclose(decisions, _brute_hard(X, y), atol=1e-5)


@pytest.mark.parametrize("n,d,C", [(12, 5, 1.0), (20, 3, 10.0), (14, 40, 0.05), (30, 8, 0.1)])
def test_hinge_soft_margin_matches_libsvm(n, d, C):
    for seed in range(3):
        X, y = _data(n, d, 0.8, seed)
        decisions, _ = svm_loo_decisions(X, y, C=C)
        reference = np.empty(n)
        for i in range(n):
            keep = np.arange(n) != i
            reference[i] = SVC(kernel="linear", C=C, tol=1e-12).fit(X[keep], y[keep]).decision_function(X[i:i + 1])[0]
        np.testing.assert_allclose(decisions, reference, atol=1e-5)


@pytest.mark.parametrize("n,d,C", [(16, 30, 1.0), (16, 4, 0.5)])
def test_squared_hinge_is_the_hard_margin_on_augmented_data(n, d, C):
    # min 1/2 |w|^2 + C/2 sum xi^2 is the hard margin on [x_i, e_i / sqrt(C)] (thesis eq. 2.5);
    # the left-out sample is tested on its own features only.
    X, y = _data(n, d, 0.8, 0)
    decisions, _ = svm_loo_decisions(X, y, C=C, loss="squared_hinge")
    augmented = np.hstack([X, np.eye(n) / np.sqrt(C)])
    reference = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        w, b = linear_svm(augmented[keep], y[keep])
        reference[i] = X[i] @ w[:d] + b
    np.testing.assert_allclose(decisions, reference, atol=1e-5)


def test_shortcut_needs_no_refit_when_every_sample_is_a_support_vector():
    X, y = _data(12, 5000, 0.0, 0)
    _, n_solved = svm_loo_decisions(X, y)
    assert n_solved == 0


def test_decisions_do_not_depend_on_the_scale_of_the_data():
    X, y = _data(10, 20, 0.5, 1)
    a, _ = svm_loo_decisions(X, y)
    b, _ = svm_loo_decisions(1e4 * X, y)
    np.testing.assert_allclose(a, b, atol=1e-8)


def test_hard_margin_on_inseparable_data_raises():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    with pytest.raises(NotSeparableError):
        svm_loo_decisions(X, y)
