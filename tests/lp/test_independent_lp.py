"""Every engine against LPs written straight from the papers.

The reference models below are assembled by hand as dense ``A_ub x <= b_ub``,
``A_eq x = b_eq`` matrices over x = (w+, w-, b[, xi]) and solved with
``scipy.optimize.linprog``. Nothing from ``sfmlearn.lp`` is used to build them, so a
mistake in our problem builder, operators or engines cannot cancel out.

* NC eq. 2.6 (hard SFM):  min sum_j |w_j|  s.t.  y_i (w . x_i + b) >= 0,
  (mu_+ - mu_-) . w = 1.
* NC eq. 2.9 (soft SFM):  min sum_j |w_j| + sum_i C_i xi_i  s.t.
  y_i (w . x_i + b) >= -xi_i,  xi >= 0,  (mu_+ - mu_-) . w = +-1 (both signs, the lower
  objective wins).
* Weston's LP (NC eq. 2.4, one l1-AROM step):  min sum_j |w_j|  s.t.
  y_i (w . x_i + b) >= 1.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from sfmlearn.lp import sfm_lp, weston_lp
from sfmlearn.lp.engines import make_engine

ENGINE_NAMES = ["highs", "scipy", "glpk", "colgen", "auto"]


# -- the reference, from the papers -----------------------------------------------------

def reference_lp(X, y, *, margin, delta_mu=None, sign=1.0, C=None):
    """min sum|w| (+ C.xi) over x = (w+, w-, b, xi); returns (objective, w) or None."""
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    k = 0 if C is None else n
    cost = np.r_[np.ones(2 * d), 0.0, np.zeros(k) if C is None else C]
    # y_i (x_i.(w+ - w-) + b) + xi_i >= margin   <=>   -(...) <= -margin
    YX = y[:, None] * X
    A_ub = -np.hstack([YX, -YX, y[:, None], np.eye(n)[:, :k]])
    b_ub = np.full(n, -margin)
    A_eq = b_eq = None
    if delta_mu is not None:
        A_eq = np.r_[delta_mu, -delta_mu, 0.0, np.zeros(k)][None, :]
        b_eq = [sign]
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * k
    res = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status == 2:
        return None
    assert res.status == 0, res.message
    return res.fun, res.x[:d] - res.x[d:2 * d]


def class_mean_difference(X, y):
    X = np.asarray(X, dtype=np.float64)
    return X[y > 0].mean(axis=0) - X[y < 0].mean(axis=0)


# -- the problems -----------------------------------------------------------------------

def make_case(seed):
    """A seeded random problem: kind, data (dense/sparse, float64/float32), costs."""
    rng = np.random.default_rng(seed)
    kind = ["sfm_hard", "sfm_soft", "weston"][seed % 3]
    n = int(rng.integers(8, 24))
    d = int(rng.integers(4, 6 * n))  # column generation needs d > 2n to have work to do
    X = rng.standard_normal((n, d))
    if seed % 4 == 1:  # sparse input
        X[np.abs(X) < 0.6] = 0.0
    if kind == "sfm_soft":
        y = np.where(rng.random(n) < 0.35, 1.0, -1.0)
        X[:, : max(1, d // 10)] += 0.7 * y[:, None]
    else:  # separable: labels from a sparse hyperplane (the SFM's rows need it)
        w_true = np.zeros(d)
        w_true[rng.choice(d, size=min(d, 3), replace=False)] = rng.standard_normal(min(d, 3))
        score = X @ w_true
        score -= np.median(score)
        y = np.where(score > 0, 1.0, -1.0)
    if np.unique(y).size < 2:
        y[0] = -y[0]
        if kind != "sfm_soft":
            return make_case(seed + 1000)
    C = None
    if kind == "sfm_soft":
        base = rng.uniform(0.05, 1.0)
        if seed % 2:  # class_weight="balanced": C_+ n_+ = C_- n_-
            n_pos, n_neg = np.count_nonzero(y > 0), np.count_nonzero(y < 0)
            C = np.where(y > 0, base * n / (2 * n_pos), base * n / (2 * n_neg))
        else:
            C = np.full(n, base)
    if seed % 5 == 2:
        X = X.astype(np.float32)
    data = sp.csr_matrix(X) if seed % 4 == 1 else (sp.csc_array(X) if seed % 4 == 3 and seed % 3 == 0 else X)
    return kind, data, y, C


def dense64(data):
    return np.asarray(data.toarray() if sp.issparse(data) else data, dtype=np.float64)


def reference(kind, data, y, C):
    X = dense64(data)
    if kind == "weston":
        return reference_lp(X, y, margin=1.0)
    delta = class_mean_difference(X, y)
    if kind == "sfm_hard":
        return reference_lp(X, y, margin=0.0, delta_mu=delta)
    plus = reference_lp(X, y, margin=0.0, delta_mu=delta, sign=1.0, C=C)
    minus = reference_lp(X, y, margin=0.0, delta_mu=delta, sign=-1.0, C=C)
    return min((r for r in (plus, minus) if r is not None), key=lambda r: r[0])


def ours(kind, data, y, C, engine):
    d = data.shape[1]
    ones = np.ones(d)
    if kind == "weston":
        solutions = [engine.solve(weston_lp(data, y, ones))]
    elif kind == "sfm_hard":
        solutions = [engine.solve(sfm_lp(data, y, ones))]
    else:
        solutions = [engine.solve(sfm_lp(data, y, ones, sign=s, slack_cost=C)) for s in (1.0, -1.0)]
    optimal = [s for s in solutions if s.status == "optimal"]
    if not optimal:
        return None
    best = min(optimal, key=lambda s: s.objective)
    return best.objective, best.w


def support(w):
    return set(np.flatnonzero(np.abs(w) > 1e-9 * np.abs(w).max(initial=0.0)))


SEEDS = list(range(30))


@pytest.fixture(scope="module")
def references():
    return {seed: reference(*make_case(seed)) for seed in SEEDS}


def test_the_cases_cover_every_problem_kind_and_input_type():
    cases = [make_case(seed) for seed in SEEDS]
    kinds = {c[0] for c in cases}
    assert kinds == {"sfm_hard", "sfm_soft", "weston"}
    assert any(sp.issparse(c[1]) for c in cases) and any(not sp.issparse(c[1]) for c in cases)
    assert any(c[1].dtype == np.float32 for c in cases)
    assert any(c[3] is not None and np.unique(c[3]).size == 2 for c in cases)  # class weights
    assert any(c[1].shape[1] > 2 * c[1].shape[0] for c in cases)  # colgen has work to do


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_matches_the_paper_lp(name, references):
    if name == "glpk":
        pytest.importorskip("swiglpk")
    engine = make_engine(name)
    for seed in SEEDS:
        kind, data, y, C = make_case(seed)
        expected = references[seed]
        got = ours(kind, data, y, C, engine)
        assert (got is None) == (expected is None), (seed, kind)
        if expected is None:
            continue
        assert got[0] == pytest.approx(expected[0], rel=1e-7), (seed, kind)
        assert support(got[1]) == support(expected[1]), (seed, kind)
