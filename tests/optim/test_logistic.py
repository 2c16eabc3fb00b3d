"""The Newton solver of the small logistic regressions (refit, unions, Platt's sigmoid)."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from sfmlearn.optim.logistic import logistic_newton


@pytest.mark.parametrize("n_samples, n_columns", [(40, 3), (50, 160)])
def test_the_penalised_fit_is_scikit_learns_minimum(n_samples, n_columns):
    rng = np.random.default_rng(n_columns)
    Z = rng.standard_normal((n_samples, n_columns))
    labels = (Z[:, 0] + rng.standard_normal(n_samples) > 0.3).astype(float)
    weights = np.where(labels == 1, 1.5, 0.75)
    coef, intercept = logistic_newton(Z, labels, weights, penalty=1.0)
    reference = LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000).fit(Z, labels, sample_weight=weights)
    np.testing.assert_allclose(coef, reference.coef_[0], atol=1e-5)
    assert intercept == pytest.approx(reference.intercept_[0], abs=1e-5)

    def objective(v, c):
        margin = Z @ v + c
        return weights @ (np.logaddexp(0.0, margin) - labels * margin) + 0.5 * v @ v

    assert objective(coef, intercept) <= objective(reference.coef_[0], reference.intercept_[0]) + 1e-10


def test_a_singular_unpenalised_fit_still_finds_a_minimum():
    """Two equal columns and no penalty: the Hessian is singular (no Cholesky factor);
    the step is taken by least squares and the loss reaches its minimum."""
    rng = np.random.default_rng(0)
    column = rng.standard_normal(60)
    Z = np.column_stack([column, column])
    targets = np.where(column > 0, 0.95, 0.05)
    coef, intercept = logistic_newton(Z, targets)
    assert np.all(np.isfinite(coef)) and np.isfinite(intercept)
    single, single_intercept = logistic_newton(column[:, None], targets)
    assert coef.sum() == pytest.approx(single[0], rel=1e-6)  # the same function of the column
    assert intercept == pytest.approx(single_intercept, abs=1e-6)
