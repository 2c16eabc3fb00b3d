"""Column generation gives the full LP's answers, with a certificate, on every input type."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sfmlearn.lp import HighsEngine, sfm_lp, weston_lp
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.lp.engines import make_engine
from sfmlearn.lp.operators import ScaledMatrix
from sfmlearn.lp.problems import HyperplaneLP


def _data(n, d, seed, kind):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(np.arange(n) % 3 == 0, 1.0, -1.0)
    X[:, :5] += 0.7 * y[:, None]
    if kind == "float32":
        X = X.astype(np.float32)
    elif kind in ("csr", "csc"):
        X[np.abs(X) < 1.0] = 0.0
        X = sp.csr_matrix(X) if kind == "csr" else sp.csc_array(X)
    return X, y


def _problem(which, X, y):
    d = X.shape[1]
    cost = np.ones(d)
    if which == "sfm":
        return sfm_lp(X, y, cost)
    if which == "mean_margin":
        return sfm_lp(X, y, cost, equality="mean_margin")
    if which == "soft":
        return sfm_lp(X, y, cost, slack_cost=np.full(y.size, 0.3))
    return weston_lp(X, y, cost)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(8, 40), d=st.integers(50, 600), seed=st.integers(0, 10**6),
       kind=st.sampled_from(["float64", "float32", "csr", "csc"]),
       which=st.sampled_from(["sfm", "mean_margin", "soft", "weston"]))
def test_same_objective_and_support_as_the_full_lp(n, d, seed, kind, which):
    X, y = _data(n, d, seed, kind)
    problem = _problem(which, X, y)
    full = HighsEngine().solve(problem)
    generated = ColumnGenerationEngine(full_lp_below=0, initial_size=n // 2).solve(problem)
    assert generated.status == full.status
    if full.status == "infeasible":
        return
    assert generated.objective == pytest.approx(full.objective, rel=1e-7, abs=1e-9)
    assert generated.info["max_dual_violation"] <= 1e-6  # the optimality certificate
    # Non-degenerate problems have one optimal vertex: the same support.
    if np.count_nonzero(full.w) == np.count_nonzero(generated.w):
        assert set(np.flatnonzero(full.w)) == set(np.flatnonzero(generated.w))


def test_farkas_pricing_proves_infeasibility_beyond_the_master():
    # XOR in two features, and 300 noisy copies of the first: not linearly separable.
    rng = np.random.default_rng(1)
    base = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]] * 5)
    y = np.array([1.0, 1.0, -1.0, -1.0] * 5)
    copies = np.repeat(base[:, :1], 300, axis=1) * (1 + 0.1 * rng.random(300))
    X = np.hstack([base, copies])
    problem = sfm_lp(X, y, np.ones(X.shape[1]))
    assert HighsEngine().solve(problem).status == "infeasible"
    assert ColumnGenerationEngine(full_lp_below=0, initial_size=1).solve(problem).status == "infeasible"


def test_infeasible_master_recovers_by_farkas_pricing():
    """The first master (two useless features) is infeasible; pricing the ray finds the rest."""
    rng = np.random.default_rng(2)
    n = 30
    y = np.where(np.arange(n) < 15, 1.0, -1.0)
    X = rng.standard_normal((n, 400))
    X[:, 0] = 0.0 * y + 1.0  # constant: useless
    X[:, 399] = y * rng.uniform(0.5, 1.0, n)  # separates alone, but |mean diff| ranks low
    X[:, 399] *= 0.01
    problem = HyperplaneLP(X, y, np.ones(400), 0.0, sfm_lp(X, y, np.ones(400)).equality)
    solution = ColumnGenerationEngine(full_lp_below=0, initial_size=1).solve(problem)
    assert solution.status == "optimal" and solution.info["rounds"] > 1
    assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)


def test_a_session_starts_from_the_previous_working_set():
    X, y = _data(30, 2000, 3, "float64")
    session = ColumnGenerationEngine().session()
    Z = ScaledMatrix(X)
    first = session.solve(HyperplaneLP(Z, y, np.ones(2000), 1.0))
    keep = np.setdiff1d(np.arange(2000), np.flatnonzero(first.w))
    cold = ColumnGenerationEngine().solve(HyperplaneLP(X[:, keep], y, np.ones(keep.size), 1.0))
    warm = session.solve(HyperplaneLP(Z.subset(keep), y, np.ones(keep.size), 1.0))
    assert warm.objective == pytest.approx(cold.objective, rel=1e-7)
    assert warm.info["rounds"] <= cold.info["rounds"]


def test_scaled_operator_never_copies_and_matches_the_explicit_matrix():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((20, 300)).astype(np.float32)
    mean, factor = X.mean(0).astype(np.float64), 1.0 / X.std(0).astype(np.float64)
    Z = ScaledMatrix(X, factor, mean, columns=np.arange(10, 300))
    explicit = (X[:, 10:].astype(np.float64) - mean[10:]) * factor[10:]
    u = rng.standard_normal(20)
    np.testing.assert_allclose(Z.rmatvec(u), explicit.T @ u, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(Z.block(np.array([0, 5])), explicit[:, [0, 5]], rtol=1e-6)
    assert Z.X is X  # the data are referenced, not copied
    np.testing.assert_allclose(Z.subset(np.array([3, 4])).rmatvec(u), (explicit.T @ u)[[3, 4]], rtol=1e-5)


def test_auto_uses_column_generation_only_for_wide_problems():
    X, y = _data(20, 1000, 5, "float64")
    engine = make_engine("auto")
    wide = engine.solve(sfm_lp(X, y, np.ones(1000)))
    narrow = engine.solve(sfm_lp(X[:, :50], y, np.ones(50)))
    assert wide.engine == "colgen" and narrow.engine == "highs"


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_input_is_referenced_not_copied(fmt):
    X, y = _data(30, 400, 6, fmt)
    Z = ScaledMatrix(X, np.full(400, 0.5))
    assert Z.X is X
    assert Z.nnz == X.nnz
    dense = X.toarray()
    u = np.random.default_rng(0).standard_normal(30)
    np.testing.assert_allclose(Z.rmatvec(u), 0.5 * dense.T @ u)
    np.testing.assert_allclose(Z.subset(np.arange(10, 20)).nnz, np.count_nonzero(dense[:, 10:20]))
