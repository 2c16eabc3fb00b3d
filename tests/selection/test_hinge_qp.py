"""l2-l1-SVM and l2-l0-SVM (DCA as a sequence of QPs; ML05 3, 4.2.2)."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.datasets import make_weston
from sfmlearn.selection import L2L0SVM, L2L1SVM


@parametrize_with_checks([L2L1SVM(), L2L0SVM()])
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


def test_l2l0_works_inside_grid_search():
    X, y = make_weston(60, 30, random_state=2)
    search = GridSearchCV(L2L0SVM(), {"nu": [0.1, 1.0]}, cv=3).fit(X, y)
    assert search.best_estimator_.support_.sum() >= 1
