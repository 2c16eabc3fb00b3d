"""Kernel-target alignment selection (ML05 3.2.2, 4.2.4, Fig. 2)."""

import numpy as np
import pytest
from sklearn.metrics.pairwise import chi2_kernel, rbf_kernel
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.datasets import make_chessboard
from sfmlearn.exceptions import DataValidationError
from sfmlearn.selection import KernelTargetAlignment
from sfmlearn.selection.competitors.alignment import (
    _AlignmentProgram, _Chi2Block, _GaussianBlock, kernel_alignment, kernel_gamma,
)


@parametrize_with_checks([KernelTargetAlignment()])
def test_sklearn_contract(estimator, check):
    check(estimator)


def _f(X, y, theta, gamma, lam, alpha, kernel):
    """ML05 eq. 12 computed directly from the kernel matrix."""
    yn = np.where(y > 0, 1.0 / np.sum(y > 0), -1.0 / np.sum(y < 0))
    if kernel == "gaussian":
        K = rbf_kernel(X * np.sqrt(theta), gamma=gamma)
    else:
        K = chi2_kernel(X * theta, gamma=gamma)
    d = X.shape[1]
    return -(1 - lam) * 0.5 * yn @ K @ yn + lam / d * np.sum(1 - np.exp(-alpha * theta))


@pytest.mark.parametrize("kernel", ["gaussian", "chi2"])
def test_the_dc_split_is_the_objective_and_its_gradients_are_exact(kernel):
    rng = np.random.default_rng(0)
    X = rng.uniform(0.1, 2.0, (25, 4))
    y = np.where(rng.random(25) > 0.5, 1.0, -1.0)
    block = _GaussianBlock if kernel == "gaussian" else _Chi2Block
    program = _AlignmentProgram(X, y, block, gamma=0.3, lam=0.2, alpha=5.0)
    theta = rng.uniform(0, 1, 4)
    assert program.objective(theta) == pytest.approx(_f(X, y, theta, 0.3, 0.2, 5.0, kernel), rel=1e-12)
    for part in (program._g, program._h):
        value, grad = part(theta)
        step = 1e-6
        numeric = [(part(theta + step * e)[0] - part(theta - step * e)[0]) / (2 * step)
                   for e in np.eye(4)]
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_chessboard_noise_features_are_discarded_even_without_penalty():
    # ML05 Fig. 2: chess board in R^4, two noise features, n = 64, lambda = 0. Over 30
    # boards we measured both noise features discarded in 26; the board's two features
    # were always kept.
    perfect = 0
    for seed in range(20):
        X, y = make_chessboard(64, 2, random_state=seed)
        model = KernelTargetAlignment(lam=0.0).fit(X, y)
        assert model.support_[:2].all()
        assert np.all(np.diff(model.history_["objective"]) <= 1e-12)  # DCA is monotone
        perfect += not model.support_[2:].any()
        if seed == 0:
            X_test, y_test = make_chessboard(2000, 2, random_state=99)
            assert model.score(X_test, y_test) > 0.8
    assert perfect >= 16


def test_chessboard_with_penalty_selects_the_board():
    X, y = make_chessboard(64, 2, random_state=11)
    model = KernelTargetAlignment(lam=0.1).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(model.support_), [0, 1])
    assert model.n_support_vectors_ > 0


@pytest.mark.parametrize("kernel", ["gaussian", "chi2"])
def test_gamma_rules(kernel):
    X, y = make_chessboard(64, 6, random_state=0)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0) if kernel == "gaussian" else X - X.min(axis=0)
    auto = 1 / (2 * np.sqrt(8 / 2) ** 2) if kernel == "gaussian" else 2.0**-11  # ML05 5.2.2, 5.3
    assert kernel_gamma(Xs, y, "auto", kernel) == pytest.approx(auto, rel=1e-15)
    best = kernel_gamma(Xs, y, "max_alignment", kernel)
    grid = np.exp(np.linspace(np.log(best) - 2, np.log(best) + 2, 41))
    assert kernel_alignment(Xs, y, best, kernel) >= \
        max(kernel_alignment(Xs, y, g, kernel) for g in grid) - 1e-9
    if kernel == "gaussian":
        model = KernelTargetAlignment(gamma="max_alignment", max_iter=5).fit(X, y)
        assert model.gamma_ == pytest.approx(best, rel=1e-6)


def test_kernel_alignment_is_cristianinis_on_the_kernel_matrix():
    X, y = make_chessboard(40, 2, random_state=2)
    yy = np.where(y == np.unique(y)[-1], 1.0, -1.0)
    for kernel, K in (("gaussian", rbf_kernel(X, gamma=0.3)), ("chi2", chi2_kernel(X - X.min(0), gamma=0.3))):
        data = X if kernel == "gaussian" else X - X.min(0)
        expected = yy @ K @ yy / (yy.size * np.linalg.norm(K))
        assert kernel_alignment(data, y, 0.3, kernel) == pytest.approx(expected, rel=1e-12)


def test_chi2_kernel_needs_nonnegative_features():
    rng = np.random.default_rng(1)
    X = rng.random((40, 5))
    y = np.where(X[:, 0] + X[:, 1] > 1.0, 1, -1)
    model = KernelTargetAlignment(lam=0.1, kernel="chi2", gamma=2.0).fit(X, y)
    assert model.gamma_ == 2.0 and model.theta_.shape == (5,)
    assert np.all(np.diff(model.history_["objective"]) <= 1e-12)
    with pytest.raises(DataValidationError, match="non-negative"):
        KernelTargetAlignment(kernel="chi2").fit(X - 0.5, y)


def test_constant_features_get_zero_weight():
    X, y = make_chessboard(64, 1, random_state=3)
    X = np.hstack([X, np.ones((64, 1))])
    model = KernelTargetAlignment(lam=0.0).fit(X, y)
    assert model.theta_[3] == 0.0 and not model.support_[3]


def test_works_inside_grid_search():
    X, y = make_chessboard(64, 2, random_state=5)
    search = GridSearchCV(KernelTargetAlignment(), {"lam": [0.0, 0.3], "C": [1.0, 10.0]}, cv=3)
    assert search.fit(X, y).best_estimator_.support_[:2].all()


def test_gamma_rule_fails_like_the_estimator_parameter():
    from sklearn.utils._param_validation import InvalidParameterError

    X, y = np.random.default_rng(0).standard_normal((10, 3)), np.repeat([0, 1], 5)
    with pytest.raises(InvalidParameterError, match="'rule' parameter of kernel_gamma"):
        kernel_gamma(X, y, "widest")
