"""The separability test: the early-stopped dual simplex agrees with the LP's optimum,
and its "not separable" carries a verified Farkas certificate."""

import numpy as np
import pytest

from sfmlearn.lp import separability
from sfmlearn.lp.certificates import farkas_check
from sfmlearn.lp.highs import solve_matrix_lp_highs
from sfmlearn.lp.problems import HyperplaneLP, build_matrix_lp
from sfmlearn.lp.separability import is_separable, minimum_slack_hyperplane


def _data(n, d, shift, seed):
    """Two Gaussian classes ``shift`` apart along every feature (large: separable)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.standard_normal((n, d)) + shift / 2 * y[:, None], y


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("n, d, shift", [(60, 3, 4.0), (60, 3, 0.5), (200, 40, 0.0),
                                         (80, 40, 0.0), (900, 30, 0.6), (120, 60, 0.2)])
@pytest.mark.parametrize("seed", [0, 1])
def test_verdict_agrees_with_the_optimum(n, d, shift, seed, fit_intercept):
    X, y = _data(n, d, shift, seed)
    expected = not minimum_slack_hyperplane(X, y, fit_intercept=fit_intercept)[2].any()
    verdict = separability._certified_verdict(X, y, fit_intercept)
    assert verdict in (expected, None)
    assert is_separable(X, y, fit_intercept=fit_intercept) == expected


def test_overlap_is_proven_by_a_verified_certificate():
    """On overlapping classes the dual simplex stops short of the optimum, and its row
    duals are a Farkas proof for the hard rows (checked here independently)."""
    X, y = _data(600, 10, 0.5, 0)
    problem = HyperplaneLP(X, y, np.zeros(10), 1.0, slack_cost=np.ones(600))
    lp = build_matrix_lp(problem, "standard")
    status, _, row_dual, info = solve_matrix_lp_highs(lp, objective_bound=separability.SEPARABLE_TOL)
    optimum = solve_matrix_lp_highs(lp)[3]
    assert status == "bound"
    assert info["iterations"] < optimum["iterations"]
    lam = row_dual[:600]
    # A lower bound on the optimum: sum(lambda), with 0 <= lambda <= 1 and the free
    # columns' reduced costs 0.
    assert 0 < lam.sum() <= optimum["objective"] + 1e-6
    assert lam.min() >= -1e-9 and lam.max() <= 1 + 1e-9
    assert abs(lam @ y) < 1e-8 and np.abs(X.T @ (lam * y)).max() < 1e-8
    hard = HyperplaneLP(X, y, np.zeros(10), 1.0)
    assert farkas_check(hard, lam)[0]
    assert separability._certified_verdict(X, y, True) is False


def test_an_unverified_answer_falls_back_to_the_optimum(monkeypatch):
    """Multipliers that do not verify prove nothing: the LP's optimum decides."""
    X, y = _data(300, 5, 0.3, 2)
    real = solve_matrix_lp_highs

    def corrupted(lp, **options):
        status, x, row_dual, info = real(lp, **options)
        return status, x, None if row_dual is None else row_dual * 0.0, info

    monkeypatch.setattr(separability, "solve_matrix_lp_highs", corrupted)
    calls = []
    original = separability.minimum_slack_hyperplane
    monkeypatch.setattr(separability, "minimum_slack_hyperplane",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    assert separability._certified_verdict(X, y, True) is None
    assert is_separable(X, y) is False
    assert calls
