"""The penalties of the reweighting loop (sfmlearn.optim.penalties)."""

import numpy as np
import pytest

from sfmlearn.optim.penalties import ExponentialPenalty, L1Penalty, ZeroNorm


@pytest.mark.parametrize("penalty", [L1Penalty(0.7), L1Penalty(0.7, ridge=0.0),
                                     ExponentialPenalty(0.3, alpha=5.0)],
                         ids=["l1", "l1-no-ridge", "exponential"])
def test_the_multipliers_are_a_tangent_that_majorises_the_penalty(penalty):
    # rho(v) <= rho(v_k) + rho'(v_k) . (v - v_k) for a concave rho (equality for l1):
    # what makes every step of the loop decrease the objective (DCA, ML05 Theorem 1).
    rng = np.random.default_rng(0)
    for _ in range(20):
        v_k, v = rng.exponential(0.5, 30), rng.exponential(0.5, 30)
        tangent = penalty.value(v_k) + penalty.update(v_k) @ (v - v_k)
        assert penalty.value(v) <= tangent + 1e-12
    # The multipliers are the gradient (finite differences).
    v_k, step = rng.exponential(0.5, 5), 1e-7
    gradient = [(penalty.value(v_k + step * e) - penalty.value(v_k - step * e)) / (2 * step)
                for e in np.eye(5)]
    np.testing.assert_allclose(penalty.update(v_k), gradient, rtol=1e-6)


def test_zero_norm_reweights_by_the_inverse_and_drops_zeros():
    v = np.array([2.0, 0.0, 0.5])
    np.testing.assert_array_equal(ZeroNorm().update(v), [0.5, np.inf, 2.0])
    assert ZeroNorm().value(v) == 2.0
    # Every penalty starts the loop from v^0 = 1.
    np.testing.assert_array_equal(ZeroNorm().update(np.ones(3)), np.ones(3))


def test_only_the_l1_penalty_is_solved_once():
    assert L1Penalty(1.0).convex and not ExponentialPenalty(1.0).convex and not ZeroNorm().convex
