"""The SVM solvers on data far from the origin or far from unit scale.

A free bias absorbs a shift of the data and a positive factor only rescales the SVM, so
the solvers centre data whose offset dwarfs their spread (sfmlearn.optim.conditioning)
and solve data of extreme magnitude at unit scale; the returned hyperplane is for the
data as given. Data near the origin are solved as given, to the last bit.
"""

import numpy as np
import pytest

from sfmlearn.exceptions import NotSeparableError, SolverError
from sfmlearn.lp import weston_lp
from sfmlearn.optim import hard_margin_svm, linear_svm, solve_hyperplane_qp
from sfmlearn.optim.conditioning import OFFSET_RATIO, bias_with_offset, remove_offset
from sfmlearn.optim.qp import KKT_TOL


def _separable(seed=0, n=20):
    """Column 0 separates the classes by at least 1 on each side; two noise columns."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, 3))
    X[:, 0] = y * rng.uniform(1.0, 2.0, n)
    return X, y


def _overlapping(seed=3, n=40):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.standard_normal((n, 6))
    X[:, 0] += y
    return X, y


def test_data_near_the_origin_are_returned_as_given():
    X, _ = _separable()
    for data in (X, X + 5.0, 300.0 * X + 1e4):
        same, centre = remove_offset(data)
        assert same is data and centre is None


def test_an_offset_is_removed_and_the_bias_takes_it_back():
    X, _ = _separable()
    offset = np.array([1e9, -3e8, 7.0])
    centred, centre = remove_offset(X + offset)
    np.testing.assert_allclose(centred, X - X.mean(axis=0), atol=1e-6)
    w, b = np.array([1.0, 2.0, 3.0]), 0.5
    assert bias_with_offset(w, b, centre) == pytest.approx(b - w @ centre, rel=1e-15)
    assert bias_with_offset(w, b, None) == b
    assert np.abs(X + offset).max() > OFFSET_RATIO * np.abs(centred).max()


@pytest.mark.parametrize("offset", [1e8, 1e9, -1e12])
@pytest.mark.parametrize("solver", ["hard_margin_svm", "linear_svm"])
def test_hard_margin_on_offset_data_separates_them_as_given(offset, solver):
    # Without centring: SolverError (relative duality gap 0.075) from +1e8 on in
    # hard_margin_svm; linear_svm's separability LP ended 'Unbounded' at +1e8 and
    # called the data not separable at +1e9.
    X, y = _separable()
    reference = hard_margin_svm(X, y)
    Xo = X + offset
    if solver == "hard_margin_svm":
        solution = hard_margin_svm(Xo, y)
        w, b = solution.w, solution.b
        assert solution.info["duality_gap"] <= KKT_TOL
    else:
        w, b = linear_svm(Xo, y)
    # Xo holds the data to about eps |offset|: so it fixes the SVM and the margins.
    np.testing.assert_allclose(w, reference.w, rtol=1e-6 + 1e-14 * abs(offset))
    rounding = 1e-14 * abs(offset) * np.abs(w).sum()
    assert (y * (Xo @ w + b)).min() == pytest.approx(1.0, abs=1e-6 + rounding)


def test_offset_data_that_do_not_separate_are_still_refused():
    X, y = _overlapping()
    with pytest.raises(NotSeparableError):
        linear_svm(X + 1e9, y)


@pytest.mark.parametrize("offset", [1e4, 1e5, 1e7])
def test_soft_margin_on_offset_data_is_the_unshifted_one(offset):
    # The interior point stopped after 200 iterations from offsets of 1e4 on.
    X, y = _overlapping()
    cost = np.ones(y.size)
    w, b = linear_svm(X, y, slack_cost=cost)
    w_o, b_o = linear_svm(X + offset, y, slack_cost=cost)
    np.testing.assert_allclose(w_o, w, rtol=1e-6, atol=1e-8)
    assert b_o == pytest.approx(b - offset * w.sum(), rel=1e-6, abs=1e-6)
    solution = solve_hyperplane_qp(weston_lp(X + offset, y, np.full(6, 0.1), slack_cost=cost))
    hinge = np.maximum(0.0, 1 - y * ((X + offset) @ solution.w + solution.b))
    np.testing.assert_allclose(solution.xi, hinge, atol=1e-6)
    assert solution.info["duality_gap"] <= KKT_TOL


@pytest.mark.parametrize("scale", [1e-15, 1e-20, 1e-150, 1e20, 1e150])
def test_hard_margin_at_extreme_scales_is_the_rescaled_unit_one(scale):
    # At 1e-15 the multipliers were lost to the rank cut of the least-squares solve
    # (relative duality gap 1); the SVM of s X is (w / s, b).
    X, y = _separable(seed=1)
    reference = hard_margin_svm(X, y)
    solution = hard_margin_svm(X * scale, y)
    np.testing.assert_allclose(solution.w * scale, reference.w, rtol=1e-9)
    assert solution.b == pytest.approx(reference.b, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(solution.margin_duals * scale**2, reference.margin_duals, rtol=1e-9,
                               atol=1e-12)
    assert solution.info["duality_gap"] <= KKT_TOL


def test_a_soft_margin_beyond_double_precision_names_the_fix():
    # X * 1e6 with C = 1 is the unit problem with C = 1e12 (the SVM is not scale
    # invariant): no rescaling inside can solve it, the message says what to change.
    X, y = _overlapping()
    with pytest.raises(SolverError, match=r"standardise the columns of X .* or lower the slack costs"):
        linear_svm(X * 1e6, y, slack_cost=np.ones(y.size))
