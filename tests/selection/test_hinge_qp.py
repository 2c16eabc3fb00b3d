"""l2-l1-SVM, l2-l0-SVM (DCA as a sequence of QPs) and quadratic FSV (ML05 3, 4.2)."""

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.datasets import make_quadratic_circle, make_weston
from sfmlearn.selection import L2L0SVM, L2L1SVM, QuadraticFSV
from sfmlearn.lp.monomial import MonomialEngine, MonomialLP, monomial_values, quadratic_monomials


@parametrize_with_checks([L2L1SVM(), L2L0SVM(), QuadraticFSV()])
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_l2l1_without_the_l1_term_is_the_linear_svm():
    X, y = make_weston(50, 10, separable=False, random_state=0)
    X = X / X.std(axis=0)
    mu = 20.0
    model = L2L1SVM(mu=mu, nu=0.0, scale=False).fit(X, y)
    reference = SVC(kernel="linear", C=mu / 50, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(model.coef_.ravel(), reference.coef_.ravel(), atol=1e-5)


def test_l2l1_objective_is_recorded_and_the_l1_term_sparsifies():
    X, y = make_weston(60, 40, random_state=1)
    dense = L2L1SVM(mu=100.0, nu=0.0).fit(X, y)
    sparse = L2L1SVM(mu=100.0, nu=1.0).fit(X, y)
    assert sparse.support_.sum() < dense.support_.sum()
    w = sparse.scaled_coef_
    xi = np.maximum(1 - y * (X @ sparse.coef_.ravel() + sparse.intercept_[0]), 0)
    expected = 100.0 * xi.mean() + 0.5 * w @ w + 1.0 * np.abs(w).sum()
    assert sparse.history_["objective"][-1] == pytest.approx(expected, rel=1e-6)
    assert sparse.n_iter_ == 1  # one convex QP


@pytest.mark.parametrize("seed", range(3))
def test_l2l0_dca_objective_is_monotone_and_selects_relevant_features(seed):
    X, y = make_weston(100, 100, random_state=seed)
    X = X / X.std(axis=0)
    model = L2L0SVM(mu=np.exp(4), nu=np.exp(1), scale=False, max_iter=100).fit(X, y)
    objective = model.history_["objective"]
    assert objective.size >= 2
    assert np.all(np.diff(objective) <= 1e-9 * (1 + np.abs(objective[:-1])))
    assert np.all(np.flatnonzero(model.support_) < 6)
    # The recorded value is f of ML05 eq. 8 at the final iterate.
    w = model.coef_.ravel()
    xi = np.maximum(1 - y * (X @ w + model.intercept_[0]), 0)
    f = np.exp(4) * xi.mean() + 0.5 * w @ w + np.exp(1) * np.sum(1 - np.exp(-5 * np.abs(w)))
    assert objective[-1] == pytest.approx(f, rel=1e-6)


def test_l2l0_selects_fewer_features_than_l2l1():
    X, y = make_weston(100, 100, random_state=7)
    X = X / X.std(axis=0)
    l1 = L2L1SVM(mu=np.exp(4), nu=np.exp(-1), scale=False).fit(X, y)
    l0 = L2L0SVM(mu=np.exp(4), nu=np.exp(-1), scale=False, max_iter=100).fit(X, y)
    assert l0.support_.sum() < l1.support_.sum()


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


def test_l2l0_works_inside_grid_search():
    X, y = make_weston(60, 30, random_state=2)
    search = GridSearchCV(L2L0SVM(), {"nu": [0.1, 1.0]}, cv=3).fit(X, y)
    assert search.best_estimator_.support_.sum() >= 1
