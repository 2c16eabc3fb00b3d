"""The interior-point hyperplane QP: agreement with libsvm and with independent solvers,
exact zeros, certificates, soft rows only, and the l2-l1 optimality conditions."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import SVC

from sfmlearn.exceptions import NotSeparableError
from sfmlearn.lp.problems import HyperplaneLP
from sfmlearn.optim import linear_svm
from sfmlearn.optim.qp import KKT_TOL, QPEngine, best_bias, solve_hyperplane_qp


def _data(n, d, seed, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + X[:, 1] + noise * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
def test_soft_svm_matches_libsvm(seed, C):
    X, y = _data(60, 8, seed)
    w, b = linear_svm(X, y, np.full(60, C))
    reference = SVC(kernel="linear", C=C, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(w, reference.coef_.ravel(), atol=1e-5 * (1 + C))
    assert b == pytest.approx(reference.intercept_[0], abs=1e-4 * (1 + C))


def test_hard_svm_matches_libsvm_and_has_margin_one():
    X, y = _data(40, 5, 0, noise=0.0)
    w, b = linear_svm(X, y)
    reference = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(w, reference.coef_.ravel(), rtol=1e-4, atol=1e-6)
    margins = y * (X @ w + b)
    assert margins.min() == pytest.approx(1.0, abs=1e-7)


def test_hard_svm_on_xor_is_not_separable():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    with pytest.raises(NotSeparableError):
        linear_svm(X, y)


@pytest.mark.parametrize("slack_cost", [None, np.array([1.0, np.inf, 1.0, 1.0])],
                         ids=["hard", "one-hard-row"])
def test_hard_rows_are_refused_with_the_way_to_the_hard_margin(slack_cost):
    # The hard margin has its own exact solver (hard_margin_svm); the interior point
    # solves soft rows only (its exact-penalty path for hard rows had no caller left).
    X, y = _data(4, 2, 0)
    with pytest.raises(ValueError, match="finite slack cost.*linear_svm"):
        solve_hyperplane_qp(HyperplaneLP(X, y, np.zeros(2), 1.0, slack_cost=slack_cost))
    with pytest.raises(ValueError, match="finite slack cost"):
        linear_svm(X, y, slack_cost=np.full(4, np.inf))


def _l2l1_objective(X, y, w, b, nu, C):
    return 0.5 * w @ w + nu * np.abs(w).sum() + C @ np.maximum(1 - y * (X @ w + b), 0)


@pytest.mark.parametrize("nu", [0.0, 0.3, 3.0])
def test_l2_l1_qp_matches_an_independent_solver(nu):
    # SLSQP on the smooth reformulation in (w, b, xi, v): an unrelated algorithm.
    X, y = _data(30, 4, 3)
    n, d = X.shape
    C = np.full(n, 0.7)
    solution = QPEngine().solve(HyperplaneLP(X, y, np.full(d, nu), 1.0, slack_cost=C))

    def unpack(z):
        return z[:d], z[d], z[d + 1:d + 1 + n], z[d + 1 + n:]

    constraints = [
        {"type": "ineq", "fun": lambda z: y * (X @ unpack(z)[0] + unpack(z)[1]) + unpack(z)[2] - 1},
        {"type": "ineq", "fun": lambda z: unpack(z)[3] - unpack(z)[0]},
        {"type": "ineq", "fun": lambda z: unpack(z)[3] + unpack(z)[0]},
    ]
    bounds = [(None, None)] * (d + 1) + [(0, None)] * (n + d)
    reference = minimize(
        lambda z: 0.5 * unpack(z)[0] @ unpack(z)[0] + C @ unpack(z)[2] + nu * unpack(z)[3].sum(),
        np.zeros(d + 1 + n + d), method="SLSQP", bounds=bounds, constraints=constraints,
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    assert reference.success
    assert solution.objective == pytest.approx(reference.fun, rel=1e-6)
    np.testing.assert_allclose(solution.w, unpack(reference.x)[0], atol=1e-4)
    assert solution.objective == pytest.approx(
        _l2l1_objective(X, y, solution.w, solution.b, nu, C), rel=1e-12)


def test_weights_are_exact_zeros_where_the_soft_threshold_holds():
    X, y = _data(80, 30, 1)
    nu = 2.0
    solution = QPEngine().solve(HyperplaneLP(X, y, np.full(30, nu), 1.0, slack_cost=np.full(80, 1.0)))
    zero = solution.w == 0.0
    assert 0 < zero.sum() < 30
    # Stationarity: w = sign(g) max(|g| - nu, 0) with g = X^T (lambda y).
    g = X.T @ (solution.margin_duals * y)
    np.testing.assert_allclose(solution.w, np.sign(g) * np.maximum(np.abs(g) - nu, 0.0), atol=1e-12)
    assert np.all(np.abs(g[zero]) <= nu + 1e-9)
    assert solution.info["duality_gap"] <= KKT_TOL


@pytest.mark.parametrize("shape", [(56, 2000), (300, 8), (200, 160)])
def test_ml05_grid_corners_are_solved_and_certified(shape):
    # The corners of ML05's (mu, nu) grid, where HiGHS' QP solver failed or stalled.
    n, d = shape
    X, y = _data(n, d, 7, noise=2.0)
    for mu, nu in [(np.exp(10), np.exp(-5)), (np.exp(10), np.exp(5)), (1.0, np.exp(-5))]:
        solution = QPEngine().solve(HyperplaneLP(X, y, np.full(d, nu), 1.0, slack_cost=np.full(n, mu / n)))
        assert solution.status == "optimal"
        assert abs(solution.info["duality_gap"]) <= KKT_TOL


def test_best_bias_minimises_the_hinge_loss():
    rng = np.random.default_rng(0)
    t = rng.standard_normal(25)
    y = np.where(rng.random(25) > 0.4, 1.0, -1.0)
    C = rng.random(25) + 0.1
    b = best_bias(t, y, C, 1.0)
    grid = np.linspace(-4, 4, 80001)
    losses = (C[:, None] * np.maximum(1 - y[:, None] * (t[:, None] + grid), 0)).sum(axis=0)
    best_loss = (C * np.maximum(1 - y * (t + b), 0)).sum()
    assert best_loss <= losses.min() + 1e-12


def test_equality_rows_are_rejected():
    from sfmlearn.lp.problems import sfm_lp

    X, y = _data(20, 3, 0)
    with pytest.raises(ValueError, match="equality"):
        solve_hyperplane_qp(sfm_lp(X, y, np.ones(3)))
