"""Quadratic FSV (ML05 3.2.1, 4.2.3): the estimator."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.datasets import make_quadratic_circle
from sfmlearn.lp.monomial import monomial_values, quadratic_monomials
from sfmlearn.selection import QuadraticFSV


@parametrize_with_checks([QuadraticFSV()])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.mark.parametrize("seed", range(3))
def test_quadratic_fsv_finds_the_circle_in_r4(seed):
    # ML05 Fig. 1: y = sgn(x1^2 + x2^2 - 1) with two noise features, n = 64, lambda = 0.1.
    X, y = make_quadratic_circle(64, 2, random_state=seed)
    model = QuadraticFSV(0.1).fit(X, y)
    np.testing.assert_array_equal(model.support_, [True, True, False, False])
    assert np.all(np.diff(model.history_["objective"]) <= 1e-12)
    X_test, y_test = make_quadratic_circle(2000, 2, random_state=100 + seed)
    assert model.score(X_test, y_test) > 0.9
    # Monomials of discarded features carry no weight.
    uses_noise = np.isin(model.monomials_, [2, 3]).any(axis=1)
    assert np.all(model.monomial_coef_[uses_noise] == 0)


def test_quadratic_fsv_decision_function_is_the_monomial_model():
    X, y = make_quadratic_circle(64, 1, random_state=0)
    model = QuadraticFSV(0.05, scale=False).fit(X, y)
    phi = monomial_values(X[:, model.candidates_], quadratic_monomials(3))
    np.testing.assert_allclose(model.decision_function(X), phi @ model.monomial_coef_ + model.intercept_)
    np.testing.assert_array_equal(model.predict(X), np.where(model.decision_function(X) > 0, 1.0, -1.0))
