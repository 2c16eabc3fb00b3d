"""DCA (ML05 4.1-4.2.1): known solutions, monotone objectives, and SLA as DCA = the FSV loop."""

import numpy as np
import pytest

from sfmlearn.datasets import make_weston
from sfmlearn.lp.highs import HighsEngine
from sfmlearn.lp.problems import HyperplaneLP
from sfmlearn.optim.dca import dca, stopped_moving
from sfmlearn.selection import FSV


class _BoxedQuadraticMinusSmooth:
    """f(x) = 1/2 ||x - a||^2 + chi_[0,1]^d - beta sum_i sqrt(1 + x_i^2)."""

    def __init__(self, a, beta):
        self.a, self.beta = a, beta

    def subgradient_h(self, x):
        return self.beta * x / np.sqrt(1.0 + x**2)

    def argmin_linearised(self, slope, x):
        return np.clip(self.a + slope, 0.0, 1.0)

    def objective(self, x):
        return 0.5 * np.sum((x - self.a) ** 2) - self.beta * np.sum(np.sqrt(1.0 + x**2))


def test_dca_reaches_the_known_minimiser_of_a_one_step_problem():
    # f(x) = 1/2 x^2 - |x| has minima +-1; one DCA step from x0 lands on sign(x0).
    class Problem:
        def subgradient_h(self, x):
            return np.sign(x)

        def argmin_linearised(self, slope, x):
            return slope

        def objective(self, x):
            return float(np.sum(0.5 * x**2 - np.abs(x)))

    result = dca(Problem(), np.array([0.3, -2.0, 5.0]), tol=0.0)
    np.testing.assert_array_equal(result.x, [1.0, -1.0, 1.0])
    assert result.converged and result.n_iter == 2
    assert result.history["objective"][-1] == pytest.approx(-1.5)


@pytest.mark.parametrize("seed", range(4))
def test_dca_objective_never_increases_and_ends_at_a_critical_point(seed):
    rng = np.random.default_rng(seed)
    problem = _BoxedQuadraticMinusSmooth(rng.uniform(-0.5, 1.5, 20), beta=0.8)
    result = dca(problem, rng.uniform(0, 1, 20), tol=1e-12, max_iter=500, keep_iterates=True)
    objective = np.asarray(result.history["objective"])
    assert np.all(np.diff(objective) <= 1e-12)
    assert result.converged
    # Critical point of g - h: x = argmin g - <grad h(x), .>.
    np.testing.assert_allclose(problem.argmin_linearised(problem.subgradient_h(result.x), result.x),
                               result.x, atol=1e-10)
    assert len(result.iterates) == result.n_iter + 1


def test_problem_methods_are_checked_before_running():
    with pytest.raises(TypeError, match="subgradient_h"):
        dca(object(), np.zeros(2))


def test_ml05_stopping_rule_is_absolute_or_relative():
    assert stopped_moving(np.array([1000.5]), np.array([1000.0]), 1e-3)  # relative 5e-4
    assert stopped_moving(np.array([1e-9]), np.array([0.0]), 1e-6)  # absolute
    assert not stopped_moving(np.array([1.1, 0.0]), np.array([1.0, 0.0]), 1e-3)


class _FSVProgram:
    """FSV (ML05 eq. 6) as the DC program g = chi_X, h = -f over its polyhedron X
    (ML05 Corollary 2: SLA is DCA with this split), x = (w, b, xi, v)."""

    def __init__(self, X, y, lam, alpha):
        self.X, self.y, self.lam, self.alpha = X, y, lam, alpha
        self.n, self.d = X.shape

    def _split(self, x):
        d, n = self.d, self.n
        return x[:d], x[d], x[d + 1:d + 1 + n], x[d + 1 + n:]

    def objective(self, x):
        _, _, xi, v = self._split(x)
        return (1 - self.lam) / self.n * xi.sum() + self.lam * np.sum(1 - np.exp(-self.alpha * v))

    def subgradient_h(self, x):
        # h = -f: minus a supergradient of the concave f.
        _, _, _, v = self._split(x)
        return -np.r_[np.zeros(self.d + 1), np.full(self.n, (1 - self.lam) / self.n),
                      self.lam * self.alpha * np.exp(-self.alpha * v)]

    def argmin_linearised(self, slope, x):
        # argmin_{z in X} chi_X(z) - <slope, z>: a vertex of X minimising <-slope, z>.
        z = -slope
        d, n = self.d, self.n
        assert np.all(z[:d + 1] == 0)  # only xi and v are priced
        problem = HyperplaneLP(self.X, self.y, z[d + 1 + n:], 1.0, slack_cost=z[d + 1:d + 1 + n])
        solution = HighsEngine().solve(problem)
        return np.r_[solution.w, solution.b, solution.xi, np.abs(solution.w)]

    def stopping_part(self, x):
        return self._split(x)[3]


class _Recorder:
    """An engine that remembers every LP solution the reweighting loop receives."""

    def __init__(self):
        self.engine, self.solutions = HighsEngine(), []

    def solve(self, problem):
        solution = self.engine.solve(problem)
        self.solutions.append(solution)
        return solution


@pytest.mark.parametrize("lam", [0.05, 0.3])
def test_sla_as_dca_gives_the_same_iterates_as_the_fsv_estimator(lam):
    # The generic DCA and the reweighting loop of the estimators are one scheme.
    X, y = make_weston(40, 30, random_state=3)
    X = X / X.std(axis=0)
    recorder = _Recorder()
    estimator = FSV(lam, scale=False, solver=recorder).fit(X, y)
    program = _FSVProgram(X, y, lam, 5.0)
    x0 = np.r_[np.zeros(X.shape[1] + 1 + X.shape[0]), np.ones(X.shape[1])]  # v^0 = 1
    result = dca(program, x0, tol=1e-5, keep_iterates=True)
    assert result.n_iter == estimator.n_iter_
    for k, solution in enumerate(recorder.solutions, start=1):
        np.testing.assert_allclose(program.stopping_part(result.iterates[k]), np.abs(solution.w),
                                   atol=1e-9)
    # Both report the same objective, and it never increases (ML05 Theorem 1).
    np.testing.assert_allclose(result.history["objective"][1:], estimator.history_["objective"],
                               rtol=1e-9, atol=1e-12)
    assert np.all(np.diff(result.history["objective"]) <= 1e-12)
