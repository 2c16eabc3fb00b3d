"""Every engine answer is certified.

"infeasible" needs a Farkas certificate verified on the full data; column generation's
optimality certificate is enforced; the exact soft MILP reports honest bounds; engines do
not silently drop options.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine
from sfmlearn.exceptions import NotSeparableError, SolverError
from sfmlearn.lp import HighsEngine, ScipyEngine, sfm_lp, weston_lp
from sfmlearn.lp import exact, highs, master, scipy_engine
from sfmlearn.lp.rowgen import loop as rowgen_loop
from sfmlearn.lp.certificates import farkas_check
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.lp.operators import ScaledMatrix
from sfmlearn.lp.pricing import MAX_DUAL_VIOLATION
from sfmlearn.lp.engines import CheckedEngine, make_engine
from sfmlearn.lp.glpk import GlpkEngine
from sfmlearn.lp.problems import HyperplaneLP, LPSolution


def _xor(copies=30, seed=1):
    """XOR in two features plus noisy copies of the first: not linearly separable."""
    rng = np.random.default_rng(seed)
    base = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]] * 5)
    y = np.array([1.0, 1.0, -1.0, -1.0] * 5)
    X = np.hstack([base, np.repeat(base[:, :1], copies, axis=1) * (1 + 0.1 * rng.random(copies))])
    return X, y


def _separable(n=20, d=30, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, 0] += 3.0 * y
    return X, y


def _infeasible_problems():
    X, y = _xor()
    rng = np.random.default_rng(5)
    Xr = rng.standard_normal((20, 3))  # 20 random points in 3-D: not separable
    yr = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    one_xor_hard = np.where(np.arange(20) < 4, np.inf, 1.0)  # rows 0-3: one full XOR
    return {
        "sfm-xor": sfm_lp(X, y, np.ones(X.shape[1])),
        "weston-xor": weston_lp(X, y, np.ones(X.shape[1])),
        "sfm-random": sfm_lp(Xr, yr, np.ones(3)),
        "mean-margin": sfm_lp(Xr, yr, np.ones(3), equality="mean_margin"),
        "weston-some-hard": HyperplaneLP(X, y, np.ones(X.shape[1]), 1.0, slack_cost=one_xor_hard),
        "no-intercept": HyperplaneLP(Xr, yr, np.ones(3), 1.0, fit_intercept=False),
    }


ENGINES = {
    "highs": HighsEngine, "highs-sparse": lambda: HighsEngine("sparse"),
    "highs-ipm": lambda: HighsEngine(method="ipm"), "scipy": ScipyEngine, "glpk": GlpkEngine,
}


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("which", list(_infeasible_problems()))
def test_infeasible_answers_carry_a_verified_certificate(engine, which):
    if engine == "glpk":
        pytest.importorskip("swiglpk")
    problem = _infeasible_problems()[which]
    solution = ENGINES[engine]().solve(problem)
    assert solution.status == "infeasible"
    certificate = solution.info["certificate"]
    assert certificate["residual"] <= 1e-6 and certificate["gamma"] > 0
    assert certificate["radius"] > 1e6  # no solution with weights below this


def test_the_check_rejects_multipliers_that_prove_nothing():
    X, y = _separable()
    problem = sfm_lp(X, y, np.ones(X.shape[1]))
    n = y.size
    assert not farkas_check(problem, np.zeros(n + 1))[0]
    assert not farkas_check(problem, np.r_[np.zeros(n), 1.0])[0]  # mu a != 0
    assert not farkas_check(problem, np.r_[-np.ones(n), 0.0])[0]  # lambda < 0
    assert not farkas_check(problem, np.ones(n))[0]  # wrong length
    # A true ray of the XOR problem is rejected once the data change under it.
    Xx, yx = _xor()
    ray = HighsEngine().solve(sfm_lp(Xx, yx, np.ones(Xx.shape[1])))
    assert ray.status == "infeasible"
    Xx[0, 0] += 1.0
    assert not farkas_check(sfm_lp(Xx, yx, np.ones(Xx.shape[1])), np.r_[np.zeros(yx.size), 1.0])[0]


def _lie_once(real):
    """Wrap an LP solve function so that its first call answers 'infeasible'."""
    calls = []

    def lying(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            return "infeasible", None, None, {"iterations": 0, "dual_ray": None}
        return real(*args, **kwargs)
    return lying


def test_highs_lying_infeasible_on_a_separable_problem_is_caught(monkeypatch):
    monkeypatch.setattr(highs, "solve_matrix_lp_highs", _lie_once(highs.solve_matrix_lp_highs))
    X, y = _separable()
    with pytest.raises(SolverError, match="cannot be certified.*feasible"):
        HighsEngine().solve(sfm_lp(X, y, np.ones(X.shape[1])))


def test_a_lying_engine_never_becomes_not_separable_error(monkeypatch):
    # An unproved "infeasible" must not become NotSeparableError ("not separable").
    monkeypatch.setattr(highs, "solve_matrix_lp_highs", _lie_once(highs.solve_matrix_lp_highs))
    X, y = _separable()
    with pytest.raises(SolverError, match="infeasible"):
        SupportFeatureMachine(solver="highs").fit(X, y)


def test_scipy_lying_infeasible_is_caught(monkeypatch):
    monkeypatch.setattr(scipy_engine, "linprog",
                        lambda *a, **k: SimpleNamespace(status=2, nit=0, message="stub: infeasible"))
    X, y = _separable()
    with pytest.raises(SolverError, match="scipy.*cannot be certified"):
        ScipyEngine().solve(sfm_lp(X, y, np.ones(X.shape[1])))


class _LyingEngine:
    name = "liar"

    def solve(self, problem):
        return LPSolution("infeasible", engine=self.name)


def test_user_engines_are_checked():
    X, y = _separable()
    engine = make_engine(_LyingEngine())
    assert isinstance(engine, CheckedEngine) and engine.name == "liar"
    with pytest.raises(SolverError, match="'liar'.*cannot be certified"):
        engine.solve(sfm_lp(X, y, np.ones(X.shape[1])))
    with pytest.raises(SolverError, match="cannot be certified"):
        SupportFeatureMachine(solver=_LyingEngine()).fit(X, y)
    # An honest infeasible answer passes, with its certificate.
    Xx, yx = _xor()
    honest = make_engine(SimpleNamespace(name="honest", solve=HighsEngine().solve))
    assert honest.solve(sfm_lp(Xx, yx, np.ones(Xx.shape[1]))).info["certificate"]["residual"] < 1e-9
    with pytest.raises(NotSeparableError):
        SupportFeatureMachine(solver=SimpleNamespace(name="honest", solve=HighsEngine().solve)).fit(Xx, yx)


def test_built_in_engines_are_not_wrapped():
    for engine in (HighsEngine(), ScipyEngine(), ColumnGenerationEngine()):
        assert make_engine(engine) is engine
    checked = make_engine(_LyingEngine())
    assert make_engine(checked) is checked


# -- column generation ------------------------------------------------------------------

def _master_infeasible_first():
    """A problem whose first master (one useless feature) is infeasible."""
    rng = np.random.default_rng(2)
    n = 30
    y = np.where(np.arange(n) < 15, 1.0, -1.0)
    X = rng.standard_normal((n, 400))
    X[:, 0] = 1.0
    X[:, 399] = 0.01 * y * rng.uniform(0.5, 1.0, n)
    return HyperplaneLP(X, y, np.ones(400), 0.0, sfm_lp(X, y, np.ones(400)).equality)


def test_colgen_infeasibility_is_verified_on_all_columns():
    X, y = _xor(copies=300)
    solution = ColumnGenerationEngine(full_lp_below=0, initial_size=1).solve(
        sfm_lp(X, y, np.ones(X.shape[1])))
    assert solution.status == "infeasible" and solution.engine == "colgen"
    assert solution.info["certificate"]["source"] == "priced farkas ray"


def test_colgen_does_not_trust_a_ray_that_prices_nothing(monkeypatch):
    # A zero "ray" prices every column at 0, so no column would enter: taken for a
    # proof, it would report the feasible problem infeasible.
    monkeypatch.setattr(master, "dual_ray", lambda h: np.zeros(h.getNumRow()))
    problem = _master_infeasible_first()
    solution = ColumnGenerationEngine(full_lp_below=0, initial_size=1).solve(problem)
    assert solution.status == "optimal"
    assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)


def _perturbed_pricing(monkeypatch, times):
    """Make the certificate report a dual violation of 1e-3 ``times`` times."""
    real = rowgen_loop.column_certificate
    state = {"left": times}

    def certificate(*args, **kwargs):
        worst, bad = real(*args, **kwargs)
        if state["left"] > 0:
            state["left"] -= 1
            worst = max(worst, 1e-3)
        return worst, bad
    monkeypatch.setattr(rowgen_loop, "column_certificate", certificate)


def test_colgen_enforces_its_optimality_certificate(monkeypatch):
    X, y = _separable(d=300)
    problem = sfm_lp(X, y, np.ones(300))
    _perturbed_pricing(monkeypatch, times=10**6)
    with pytest.raises(SolverError, match="could not certify optimality"):
        ColumnGenerationEngine(full_lp_below=0).solve(problem)


def test_colgen_recovers_from_one_bad_pricing_by_a_tight_resolve(monkeypatch):
    X, y = _separable(d=300)
    problem = sfm_lp(X, y, np.ones(300))
    _perturbed_pricing(monkeypatch, times=1)
    solution = ColumnGenerationEngine(full_lp_below=0).solve(problem)
    assert solution.info["tightened"] and solution.info["max_dual_violation"] <= MAX_DUAL_VIOLATION
    assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)


def test_colgen_dual_violation_is_defined_for_zero_costs():
    X, y = _separable(d=300)
    problem = HyperplaneLP(X, y, np.zeros(300), 1.0, slack_cost=np.ones(y.size))
    solution = ColumnGenerationEngine(full_lp_below=0).solve(problem)
    assert np.isfinite(solution.info["max_dual_violation"])
    assert solution.info["max_dual_violation"] <= MAX_DUAL_VIOLATION


# -- formulation and options ------------------------------------------------------------

def test_colgen_refuses_the_sparse_formulation():
    with pytest.raises(ValueError, match="colgen.*standard formulation only"):
        make_engine("colgen", "sparse")
    with pytest.raises(ValueError, match="colgen"):
        X, y = _separable()
        SupportFeatureMachine(solver="colgen", formulation="sparse").fit(X, y)


def test_auto_passes_the_formulation_to_its_full_lp():
    engine = make_engine("auto", "sparse")
    assert engine.full_lp.formulation == "sparse"
    X, y = _separable(d=10)  # narrow: the full LP answers
    assert engine.solve(sfm_lp(X, y, np.ones(10))).engine == "highs"


def test_colgen_session_follows_columns_outside_its_master():
    X, y = _separable(n=10, d=30)
    session = ColumnGenerationEngine(full_lp_below=0, initial_size=3).session()
    Z = ScaledMatrix(X)
    first = session.solve(HyperplaneLP(Z, y, np.ones(30), 1.0))
    remaining = np.setdiff1d(np.arange(30), np.flatnonzero(first.w))
    outside = remaining[~np.isin(remaining, session.master.features)]
    assert outside.size  # the next problem is not a restriction of the master
    second = session.solve(HyperplaneLP(Z.subset(remaining), y, np.ones(remaining.size), 1.0))
    cold = HighsEngine().solve(HyperplaneLP(X[:, remaining], y, np.ones(remaining.size), 1.0))
    # Column generation again (full_lp_below=0; a default engine would use the full LP
    # at this size), on the remaining columns only, with the full LP's optimum.
    assert second.engine == "colgen"
    assert np.isin(session.master.features, remaining).all()
    assert second.objective == pytest.approx(cold.objective, rel=1e-7)


# -- exact soft MILP --------------------------------------------------------------------

def _soft_data(shift=1.0, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(12) % 2 == 0, 1.0, -1.0)
    Z = rng.standard_normal((12, 8))
    Z[:, 0] += shift * y
    return Z, y


def _stub_result(Z, y, sign, k, status, bound):
    """A genuine hyperplane on k features with a . w = sign, as one sign's MILP answer."""
    a = Z[y > 0].mean(0) - Z[y < 0].mean(0)
    w = np.zeros(Z.shape[1])
    w[:k] = np.sign(a[:k])
    w *= sign / (a @ w)
    errors = y * (Z @ w) < 0
    return exact._MilpResult(status, w, 0.0, bound, float(k + 0.01 * errors.sum()), 3, 1e3)


def test_soft_exact_combines_the_lower_bounds_of_both_signs(monkeypatch):
    Z, y = _soft_data()
    answers = {1.0: _stub_result(Z, y, 1.0, 5, "time limit", 2.0),   # incumbent 5, bound 2
               -1.0: _stub_result(Z, y, -1.0, 4, "optimal", None)}  # solved to 4
    answers[-1.0].bound = answers[-1.0].objective
    monkeypatch.setattr(exact, "_solve_milp", lambda Z, y, a, sign, *args: answers[sign])
    result = exact.minimum_support_milp(Z, y, error_cost=np.full(12, 0.01))
    assert result.objective == answers[-1.0].objective  # the better sign wins ...
    assert result.lower_bound == 2.0  # ... but its bound does not replace the other's
    assert result.status != "optimal" and not result.is_optimal


def test_soft_exact_is_optimal_when_the_loser_bound_is_no_lower(monkeypatch):
    Z, y = _soft_data()
    winner = _stub_result(Z, y, -1.0, 4, "optimal", None)
    winner.bound = winner.objective
    loser = _stub_result(Z, y, 1.0, 5, "time limit", winner.objective + 0.5)
    monkeypatch.setattr(exact, "_solve_milp", lambda Z, y, a, sign, *args: {1.0: loser, -1.0: winner}[sign])
    result = exact.minimum_support_milp(Z, y, error_cost=np.full(12, 0.01))
    assert result.status == "optimal" and result.lower_bound == winner.objective


class _TamperedHighs:
    """A HiGHS model whose reported solution is altered by ``tamper(x)``."""

    def __init__(self, h, tamper):
        self._h, self._tamper = h, tamper

    def __getattr__(self, name):
        return getattr(self._h, name)

    def getSolution(self):
        x = np.array(self._h.getSolution().col_value, dtype=np.float64)
        return SimpleNamespace(col_value=self._tamper(x))


def _with_tampered_solution(monkeypatch, tamper):
    real = exact.new_highs
    monkeypatch.setattr(exact, "new_highs", lambda **kw: _TamperedHighs(real(**kw), tamper))


def test_soft_exact_checks_the_margin_rows_of_its_solution(monkeypatch):
    Z, y = _soft_data(shift=0.5, seed=1)
    n, d = Z.shape
    honest = exact.minimum_support_milp(Z, y, error_cost=np.full(n, 0.3))
    assert honest.status == "optimal" and honest.objective > honest.support.size  # has errors
    # Clear every error indicator: the objective drops, but margin rows now fail (the
    # old check looked at the equality row only and returned this).
    _with_tampered_solution(monkeypatch, lambda x: np.r_[x[:2 * d + 1], np.zeros(n)])
    with pytest.raises(SolverError, match="margin row"):
        exact.minimum_support_milp(Z, y, error_cost=np.full(n, 0.3))


def test_exact_checks_the_linking_rows(monkeypatch):
    Z, y = _soft_data()
    d = Z.shape[1]

    def drop_indicators(x):  # w stays, its indicators u say "unused"
        x = x.copy()
        x[d + 1: 2 * d + 1] = 0.0
        return x
    _with_tampered_solution(monkeypatch, drop_indicators)
    with pytest.raises(SolverError, match="linking row"):
        exact.minimum_support_milp(Z, y)


def test_exact_hard_infeasibility_is_certified_by_the_lp():
    X, y = _xor(copies=3)
    with pytest.raises(NotSeparableError):
        exact.minimum_support_milp(X, y)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_input_that_is_not_separable_is_certified(fmt):
    """A hard SFM on sparse data that no hyperplane separates: the infeasibility
    certificate must be checked on sparse data too (its data magnitude came from a
    sparse max() call scipy does not support), ending in NotSeparableError."""
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5))
    y = np.r_[np.zeros(15), np.ones(15)]
    X = np.vstack([X, X])  # every sample twice, once with each label
    y = np.r_[y, 1 - y]
    with pytest.raises(NotSeparableError):
        SupportFeatureMachine(solver="highs").fit(sp.csr_matrix(X).asformat(fmt), y)


def _weston_problem():
    from sfmlearn.datasets import make_basic
    X, y = make_basic(n_samples=40, n_features=30, random_state=1)
    return weston_lp(X, y, np.ones(X.shape[1]))


def test_a_full_lp_optimum_is_certified_by_its_multipliers():
    solution = HighsEngine().solve(_weston_problem())
    assert solution.info["duality_gap"] <= 1e-6 and solution.info["max_dual_violation"] <= 1e-6


def test_a_feasible_but_suboptimal_point_reported_optimal_is_refused(monkeypatch):
    """HiGHS' status alone is not trusted: a feasible point 1.2 times the optimum, reported
    with the optimum's multipliers, leaves a duality gap and raises."""
    solve = highs.solve_matrix_lp_highs

    def suboptimal(lp, **options):
        status, x, row_dual, info = solve(lp, **options)
        info["objective"] *= 1.2
        return status, 1.2 * x, row_dual, info

    monkeypatch.setattr(highs, "solve_matrix_lp_highs", suboptimal)
    with pytest.raises(SolverError, match="do not certify.*duality gap"):
        HighsEngine().solve(_weston_problem())
