"""Property tests (hypothesis): the selected support does not depend on how the data are
written down -- positive per-feature units (1e-12 .. 1e12), the order of the rows, the
order of the columns (indices mapped back).

Tie rule. The iterated one-norm LPs can have several optimal vertices when the data
are degenerate (duplicate or exactly collinear columns, equal values); then any of them
is a correct answer and which one the simplex method returns may depend on the order of
rows and columns. These properties are therefore asserted for data in general position:
Gaussian values in float64 (no exact ties with probability 1), separated classes for the
hard problems. The scaled LP sees the same numbers up to rounding (relative 1e-16), far
below any gap between distinct vertices of such data.

The examples are derandomised (a fixed sequence), so CI is deterministic.
"""

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sfmlearn import L1SVM, SupportFeatureMachine, WestonZeroNormSVM

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                             database=None, print_blob=True)


@st.composite
def problems(draw, separable):
    """(X, y, per-column units, row order, column order) in general position."""
    n = draw(st.integers(12, 30))
    d = draw(st.integers(3, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.standard_normal((n, d))
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    if separable:  # move x_0, x_1 so that (x_0 + x_1) y = 1 + |x_0 + x_1| >= 1
        total = X[:, 0] + X[:, 1]
        X[:, :2] += ((sign * (1 + np.abs(total)) - total) / 2)[:, None]
    else:  # feature 0 is informative, the classes overlap
        X[:, 0] += 1.2 * sign
    exponents = draw(st.lists(st.floats(-12, 12), min_size=d, max_size=d))
    rows = np.array(draw(st.permutations(range(n))))
    cols = np.array(draw(st.permutations(range(d))))
    return X, sign, 10.0 ** np.array(exponents), rows, cols


def _support(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make().fit(X, y).support_


def _check_invariance(make, problem):
    X, y, units, rows, cols = problem
    reference = _support(make, X, y)
    np.testing.assert_array_equal(_support(make, X * units, y), reference)
    np.testing.assert_array_equal(_support(make, X[rows], y[rows]), reference)
    np.testing.assert_array_equal(_support(make, X[:, cols], y)[np.argsort(cols)], reference)


@PROPERTY_SETTINGS
@given(problems(separable=True))
def test_hard_sfm_support_is_invariant(problem):
    _check_invariance(SupportFeatureMachine, problem)


@PROPERTY_SETTINGS
@given(problems(separable=False))
def test_soft_sfm_support_is_invariant(problem):
    _check_invariance(lambda: SupportFeatureMachine(C=1.0), problem)


@PROPERTY_SETTINGS
@given(problems(separable=True))
def test_weston_support_is_invariant(problem):
    _check_invariance(WestonZeroNormSVM, problem)


@PROPERTY_SETTINGS
@given(problems(separable=False))
def test_l1svm_support_is_invariant(problem):
    _check_invariance(L1SVM, problem)
