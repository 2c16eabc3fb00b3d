"""The LP layer: builders, engines and solution checks agree with each other."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sfmlearn.exceptions import ConstraintViolationError, SolverError
from sfmlearn.lp import HighsEngine, ScipyEngine, check_solution, make_engine, sfm_lp, weston_lp
from sfmlearn.lp.checks import check_optimality
from sfmlearn.lp.problems import HyperplaneLP, LPSolution, build_matrix_lp
from sfmlearn.lp.separability import minimum_slack_hyperplane

ENGINES = [HighsEngine("standard"), HighsEngine("sparse"), ScipyEngine("standard"), ScipyEngine("sparse")]


def _problem(kind, X, y, rng):
    d = X.shape[1]
    cost = rng.uniform(0.5, 2.0, d)
    n = y.size
    if kind == "sfm":
        return sfm_lp(X, y, cost)
    if kind == "sfm_mean_margin":
        return sfm_lp(X, y, cost, equality="mean_margin")
    if kind == "soft_sfm":
        return sfm_lp(X, y, cost, slack_cost=rng.uniform(0.1, 1.0, n), sign=-1.0)
    if kind == "weston":
        return weston_lp(X, y, cost)
    return weston_lp(X, y, cost, slack_cost=np.full(n, 0.3))


def _support(w):
    return set(np.flatnonzero(np.abs(w) > 1e-7 * np.abs(w).max()))


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(6, 30), d=st.integers(2, 60), seed=st.integers(0, 10_000),
    kind=st.sampled_from(["sfm", "sfm_mean_margin", "soft_sfm", "weston", "soft_weston"]),
    sparse_input=st.booleans(),
)
def test_engines_and_formulations_agree(n, d, seed, kind, sparse_input):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X[:, 0] += 2.0 * y  # make most problems feasible
    if sparse_input:
        X[np.abs(X) < 0.5] = 0.0
        X = sp.csc_array(X)
    problem = _problem(kind, X, y, rng)
    solutions = [engine.solve(problem) for engine in ENGINES]
    statuses = {s.status for s in solutions}
    assert len(statuses) == 1
    if statuses == {"infeasible"}:
        return
    objectives = np.array([s.objective for s in solutions])
    np.testing.assert_allclose(objectives, objectives[0], rtol=1e-7, atol=1e-9)
    # Supports agree unless the LP has several optimal vertices (degenerate); the
    # objective equality above is the invariant, the support the common case.
    supports = [_support(s.w) for s in solutions]
    if all(len(s) == len(supports[0]) for s in supports):
        assert sum(s == supports[0] for s in supports) >= 2


def test_hard_sfm_infeasible_on_xor(rng):
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    for engine in ENGINES:
        assert engine.solve(sfm_lp(X, y, np.ones(2))).status == "infeasible"
        assert engine.solve(weston_lp(X, y, np.ones(2))).status == "infeasible"


def test_margin_duals_certify_optimality(rng):
    """Strong duality: objective = rhs . duals for the hard SFM (bias column reduced cost 0)."""
    X = rng.standard_normal((20, 40))
    y = np.where(np.arange(20) < 10, 1.0, -1.0)
    X[:, 3] += y
    problem = sfm_lp(X, y, np.ones(40))
    for engine in (HighsEngine(), ScipyEngine()):
        s = engine.solve(problem)
        assert np.all(s.margin_duals >= -1e-9)
        # Dual objective: margin rows have rhs 0, the equality rhs 1.
        assert s.equality_dual == pytest.approx(s.objective, rel=1e-7)
        # Dual feasibility: |X'(lambda*y) + mu*dmu| <= cost for every feature.
        reduced = X.T @ (s.margin_duals * y) + s.equality_dual * problem.equality.coef
        assert np.all(np.abs(reduced) <= 1 + 1e-7)


def test_check_solution_rejects_violations(rng):
    X = rng.standard_normal((15, 8))
    y = np.where(np.arange(15) < 7, 1.0, -1.0)
    X[:, 0] += 3 * y
    problem = sfm_lp(X, y, np.ones(8))
    good = HighsEngine().solve(problem)
    bad_row = LPSolution("optimal", w=good.w.copy(), b=good.b + 10.0, objective=good.objective)
    with pytest.raises(ConstraintViolationError, match="margin row"):
        check_solution(problem, bad_row)
    bad_eq = LPSolution("optimal", w=2 * good.w, b=2 * good.b, objective=2 * good.objective)
    with pytest.raises(ConstraintViolationError, match="equality"):
        check_solution(problem, bad_eq)
    bad_obj = LPSolution("optimal", w=good.w, b=good.b, objective=good.objective + 1.0)
    with pytest.raises(ConstraintViolationError, match="objective"):
        check_solution(problem, bad_obj)


def test_infinite_slack_cost_makes_a_row_hard(rng):
    X = rng.standard_normal((12, 5))
    y = np.where(np.arange(12) < 6, 1.0, -1.0)
    cost = np.full(12, 0.01)
    cost[:3] = np.inf
    s = HighsEngine().solve(weston_lp(X, y, np.ones(5), slack_cost=cost))
    assert np.all(s.xi[:3] == 0)
    assert np.all(y[:3] * (X[:3] @ s.w + s.b) >= 1 - 1e-7)
    assert build_matrix_lp(weston_lp(X, y, np.ones(5), slack_cost=cost)).shape[1] == 2 * 5 + 1 + 9


def test_separability_test_without_bias():
    # Separable only with a bias: all points on the positive x axis.
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([-1, -1, 1, 1])
    assert minimum_slack_hyperplane(X, y)[2].sum() == 0
    assert minimum_slack_hyperplane(X, y, fit_intercept=False)[2].sum() > 0
    problem = HyperplaneLP(X, y.astype(float), np.zeros(1), 1.0, slack_cost=np.ones(4), fit_intercept=False)
    assert HighsEngine().solve(problem).b == 0.0


def test_standard_form_stores_the_data_twice_and_sparse_once(rng):
    X = rng.standard_normal((10, 30))
    y = np.where(np.arange(10) < 5, 1.0, -1.0)
    problem = sfm_lp(X, y, np.ones(30))
    standard, sparse = build_matrix_lp(problem, "standard"), build_matrix_lp(problem, "sparse")
    assert standard.value.size == 2 * (10 + 1) * 30 + 10  # thesis 3.5: n(2d+1) plus the equality row
    assert sparse.value.size == (10 + 1) * 30 + 4 * 30 + 10


class _Returns:
    """A home-made engine that answers every problem with one fixed solution."""

    def __init__(self, solution):
        self.solution = solution

    def solve(self, problem):
        return self.solution


def _two_points():
    X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    return X, np.array([1.0, 1.0, -1.0, -1.0])


@pytest.mark.parametrize("w, b", [([np.nan, np.nan], 0.0), ([1.0, 0.0], np.nan), ([np.inf, 0.0], 0.0)])
def test_check_solution_refuses_values_that_are_not_finite(w, b):
    # w = [nan, nan] came back "optimal" with objective nan: every comparison was False.
    X, y = _two_points()
    answer = LPSolution("optimal", w=np.array(w), b=b, objective=1.0)
    with pytest.raises(ConstraintViolationError, match="not finite"):
        make_engine(_Returns(answer)).solve(weston_lp(X, y, np.ones(2)))


def test_check_solution_refuses_nan_slacks_and_misshapen_answers():
    X, y = _two_points()
    soft = weston_lp(X, y, np.ones(2), slack_cost=np.ones(4))
    with pytest.raises(ConstraintViolationError, match="not finite"):
        check_solution(soft, LPSolution("optimal", w=np.array([1.0, 0.0]), xi=np.full(4, np.nan)))
    with pytest.raises(ConstraintViolationError, match=r"w of shape \(3,\).*2 columns"):
        check_solution(weston_lp(X, y, np.ones(2)), LPSolution("optimal", w=np.ones(3)))


def test_check_solution_refuses_a_bias_when_the_lp_has_none():
    # HiGHS proves this LP infeasible; an engine's b = -5 was accepted as optimal.
    X, y = _two_points()
    problem = HyperplaneLP(X[:, :1] + 3, y, np.ones(1), 1.0, fit_intercept=False)
    answer = LPSolution("optimal", w=np.array([2.0]), b=-5.0, objective=2.0)
    with pytest.raises(ConstraintViolationError, match=r"b = -5.*fit_intercept=False"):
        make_engine(_Returns(answer)).solve(problem)
    assert HighsEngine().solve(problem).status == "infeasible"


def test_check_optimality_refuses_nan_multipliers():
    X, y = _two_points()
    problem = weston_lp(X, y, np.ones(2))
    solution = HighsEngine().solve(problem)
    solution.margin_duals = np.full(4, np.nan)
    with pytest.raises(SolverError, match="do not certify"):
        check_optimality(problem, solution)
