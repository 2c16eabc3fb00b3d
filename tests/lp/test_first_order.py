"""The first-order cold start of row generation: the operator product it uses, and a
start that lies on the equality and already separates what the data separate."""

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn.lp import GenerationEngine, HighsEngine, sfm_lp
from sfmlearn.lp.first_order import serves, squared_hinge_start
from sfmlearn.lp.operators import ScaledMatrix


@pytest.mark.parametrize("fmt", ["float64", "float32", "sparse"])
def test_uncentred_matvec_is_the_scaled_product(fmt, monkeypatch):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 12)) + 5.0
    mean = None if fmt == "sparse" else X.mean(axis=0)
    if fmt == "sparse":
        X[rng.random(X.shape) < 0.6] = 0.0
        X = sp.csr_array(X)
    elif fmt == "float32":
        X = X.astype(np.float32)
        monkeypatch.setattr("sfmlearn.lp.operators._CHUNK_ELEMENTS", 50)  # several chunks
    factor = rng.uniform(0.5, 2.0, 12)
    view = ScaledMatrix(X, factor, mean).subset(np.array([7, 2, 11, 0]))
    v = rng.standard_normal(4)
    np.testing.assert_allclose(view.uncentred_matvec(v), view.dense_block() @ v, rtol=1e-10, atol=1e-10)


def _soft_problem(n=600, d=40, shift=1.5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 3 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, :4] += shift / 2 * y[:, None]
    Z = ScaledMatrix(X, 1.0 / X.std(axis=0), X.mean(axis=0))
    return sfm_lp(Z, y, np.ones(d), slack_cost=np.full(n, 1.0)), X, y


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_the_start_lies_on_the_equality_and_separates(sign):
    problem, _, y = _soft_problem()
    problem = sfm_lp(problem.X, y, np.ones(40), slack_cost=problem.slack_cost, sign=sign)
    positions, w, b = squared_hinge_start(problem, keep=6)
    assert 0 < positions.size <= 6
    assert problem.equality.coef[positions] @ w + problem.equality.bias_coef * b == pytest.approx(sign)
    decision = problem.X.matvec(w, positions) + b
    accuracy = np.mean(np.sign(decision) == sign * y)  # sign -1 mirrors the hyperplane
    assert accuracy > 0.8
    assert np.isin(np.arange(4), positions).sum() >= 3  # the shifted features lead


def test_no_start_without_what_it_needs(monkeypatch):
    problem, X, y = _soft_problem()
    hard = sfm_lp(problem.X, y, np.ones(40))
    assert squared_hinge_start(hard, keep=5) is None
    infinite = sfm_lp(problem.X, y, np.ones(40), slack_cost=np.r_[np.inf, np.ones(599)])
    assert squared_hinge_start(infinite, keep=5) is None
    assert serves(problem) and not serves(hard) and not serves(infinite)
    # Row generation neither runs it nor counts its products there.
    calls = []
    monkeypatch.setattr("sfmlearn.lp.rowgen.starts.squared_hinge_start", lambda *a: calls.append(1))
    GenerationEngine(rows=True).solve(infinite)
    assert calls == []


def test_row_generation_from_it_and_without_it_reaches_the_full_lp(monkeypatch):
    problem, X, y = _soft_problem(n=900, d=60, shift=0.6, seed=3)
    full = HighsEngine().solve(sfm_lp(problem.X.dense_block(), y, np.ones(60), slack_cost=problem.slack_cost))
    starts = []
    monkeypatch.setattr("sfmlearn.lp.rowgen.starts.squared_hinge_start",
                        lambda *args: starts.append(squared_hinge_start(*args)) or starts[-1])
    started = GenerationEngine(rows=True).solve(problem)
    assert len(starts) == 1 and starts[0] is not None
    monkeypatch.setattr("sfmlearn.lp.rowgen.starts.squared_hinge_start", lambda *_: None)
    fallback = GenerationEngine(rows=True).solve(problem)  # the subsample LP's start
    for solution in (started, fallback):
        assert solution.objective == pytest.approx(full.objective, rel=1e-7)
