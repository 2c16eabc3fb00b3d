"""Quadratic FSV's LP (sfmlearn.lp.monomial): the monomial map and the engine."""

import numpy as np
import pytest
from scipy.optimize import linprog

from sfmlearn.lp.monomial import MonomialEngine, MonomialLP, monomial_values, quadratic_monomials


def test_quadratic_monomials_follow_ml05s_feature_map():
    pairs = quadratic_monomials(4)
    assert pairs.shape == (4 * 7 // 2, 2)  # d (d + 3) / 2
    X = np.arange(1.0, 5.0)[None, :]
    values = monomial_values(X, pairs).ravel()
    expected = sorted([1, 2, 3, 4, 1, 4, 9, 16, 2, 3, 4, 6, 8, 12])
    assert sorted(values.tolist()) == expected


def test_monomial_lp_matches_an_independent_formulation():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (30, 3))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 0.5, 1.0, -1.0)
    pairs = quadratic_monomials(3)
    Phi = monomial_values(X, pairs)
    feature_cost, slack_cost = np.array([0.3, 0.5, 0.7]), np.full(30, 1 / 30)
    solution = MonomialEngine().solve(MonomialLP(Phi, y, pairs, feature_cost, slack_cost))
    # Free w, explicit rows -v_j <= w_m <= v_j, via scipy's interior point.
    n, m = Phi.shape
    rows, rhs = [], []
    Z = Phi * y[:, None]
    rows.append(np.hstack([-Z, -y[:, None], -np.eye(n), np.zeros((n, 3))]))
    rhs.append(-np.ones(n))
    for index, (j, k) in enumerate(pairs):
        for feature in {j, k} - {-1}:
            for sign in (1, -1):
                row = np.zeros(m + 1 + n + 3)
                row[index], row[m + 1 + n + feature] = sign, -1
                rows.append(row[None, :])
                rhs.append([0.0])
    reference = linprog(np.r_[np.zeros(m + 1), slack_cost, feature_cost],
                        A_ub=np.vstack(rows), b_ub=np.concatenate(rhs),
                        bounds=[(None, None)] * (m + 1) + [(0, None)] * (n + 3), method="highs-ipm")
    assert solution.objective == pytest.approx(reference.fun, rel=1e-7)
