"""is_linearly_separable does not depend on an offset added to the data (with a bias).

The LP saw X divided by its largest magnitude: with 1e9 added to every value, the
spread that separates the classes was 1e-9 of the data and HiGHS called separable data
not separable (at +1e8 it stopped with status 'Unbounded'). Dense data far from the
origin are centred first; the bias absorbs the shift.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn.theory import is_linearly_separable


def _data(separable):
    rng = np.random.default_rng(0)
    y = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((20, 3))
    X[:, 0] = y * rng.uniform(1.0, 2.0, 20)
    if not separable:
        X[0] = X[1]  # the same point with both labels
    return X, y


@pytest.mark.parametrize("offset", [0.0, 1e8, 1e9, -1e12])
@pytest.mark.parametrize("separable", [True, False])
def test_an_offset_does_not_change_the_verdict(offset, separable):
    X, y = _data(separable)
    assert is_linearly_separable(X + offset, y) is separable
    assert is_linearly_separable(X + offset, np.where(y > 0, "a", "b")) is separable


def test_hyperplanes_through_the_origin_see_the_offset():
    # Without a bias an offset is not free: on a line of positive points a threshold at
    # the origin cannot split them (centred, it could).
    X, y = np.array([[1.0], [2.0], [4.0], [5.0]]) + 1e9, np.array([-1.0, -1.0, 1.0, 1.0])
    assert is_linearly_separable(X, y)
    assert not is_linearly_separable(X, y, fit_intercept=False)


def test_sparse_data_are_not_centred():
    X, y = _data(True)
    assert is_linearly_separable(sp.csr_array(X), y)
