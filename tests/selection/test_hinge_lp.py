"""RLP, l1-SVM and FSV (ML05 2, 4.2.1): the LPs against an independent formulation,
selection on the Weston benchmark, monotone SLA objectives, and the estimator contract."""

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.datasets import make_weston
from sfmlearn.selection import FSV, L1SVM, L2L0SVM, L2L1SVM, RLP

# Failures that come from the shared input validator (sfmlearn._validation), whose
# messages do not use scikit-learn's wording; SupportFeatureMachine fails them alike.

@parametrize_with_checks([RLP(), L1SVM(), FSV()])
def test_sklearn_contract(estimator, check):
    check(estimator)


def _hinge_l1_reference(X, y, feature_cost, slack_cost):
    """min c.|w| + C.xi s.t. y(Xw + b) + xi >= 1 in the variables (w, b, xi, v), by linprog."""
    n, d = X.shape
    cost = np.r_[np.zeros(d + 1), slack_cost, feature_cost]
    Z = X * y[:, None]
    A_margin = np.hstack([-Z, -y[:, None], -np.eye(n), np.zeros((n, d))])
    A_upper = np.hstack([np.eye(d), np.zeros((d, 1 + n)), -np.eye(d)])
    A_lower = np.hstack([-np.eye(d), np.zeros((d, 1 + n)), -np.eye(d)])
    result = linprog(cost, A_ub=np.vstack([A_margin, A_upper, A_lower]),
                     b_ub=np.r_[-np.ones(n), np.zeros(2 * d)],
                     bounds=[(None, None)] * (d + 1) + [(0, None)] * (n + d), method="highs-ipm")
    return result.fun


def _objective(X, y, w, b, lam, rho):
    return (1 - lam) * np.mean(np.maximum(1 - y * (X @ w + b), 0)) + lam * rho(np.abs(w))


@pytest.mark.parametrize("lam", [0.01, 0.1, 0.4])
def test_l1svm_reaches_the_optimum_of_an_independent_lp(lam):
    X, y = make_weston(40, 20, separable=False, random_state=0)
    X = X / X.std(axis=0)
    model = L1SVM(lam, scale=False).fit(X, y)
    w, b = model.coef_.ravel(), model.intercept_[0]
    achieved = _objective(X, y, w, b, lam, np.sum)
    reference = _hinge_l1_reference(X, y, np.full(X.shape[1], lam), np.full(40, (1 - lam) / 40))
    assert achieved == pytest.approx(reference, rel=1e-7, abs=1e-10)
    assert model.history_["objective"][-1] == pytest.approx(reference, rel=1e-7)


def test_rlp_minimises_the_mean_hinge_loss_and_balanced_weights_change_it():
    X, y = make_weston(60, 10, separable=False, random_state=1)
    y[:10] = 1.0  # unbalance the classes
    n = y.size
    plain = RLP(scale=False).fit(X, y)
    loss = np.mean(np.maximum(1 - y * (X @ plain.coef_.ravel() + plain.intercept_[0]), 0))
    assert loss == pytest.approx(_hinge_l1_reference(X, y, np.zeros(X.shape[1]), np.full(n, 1 / n)),
                                 abs=1e-9)
    balanced = RLP(scale=False, class_weight="balanced").fit(X, y)
    n_pos = np.sum(y > 0)
    weights = np.where(y > 0, n / (2 * n_pos), n / (2 * (n - n_pos))) / n
    margin = y * (X @ balanced.coef_.ravel() + balanced.intercept_[0])
    assert weights @ np.maximum(1 - margin, 0) == pytest.approx(
        _hinge_l1_reference(X, y, np.zeros(X.shape[1]), weights), abs=1e-9)


def test_fsv_with_lambda_zero_is_rlp():
    X, y = make_weston(50, 20, separable=False, random_state=2)
    np.testing.assert_allclose(FSV(0.0).fit(X, y).coef_, RLP().fit(X, y).coef_, atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_fsv_selects_relevant_weston_features_and_its_objective_never_increases(seed):
    X, y = make_weston(100, 200, random_state=seed)
    model = FSV(0.1).fit(X, y)
    selected = np.flatnonzero(model.support_)
    assert 1 <= selected.size <= 6
    assert np.all(selected < 6)  # only the six relevant features
    objective = model.history_["objective"]
    assert np.all(np.diff(objective) <= 1e-12)
    assert model.converged_
    # The recorded objective is FSV's (ML05 eq. 6) at the final weights.
    xi = np.maximum(1 - y * (X @ model.coef_.ravel() + model.intercept_[0]), 0)
    expected = 0.9 * xi.mean() + 0.1 * np.sum(1 - np.exp(-5.0 * np.abs(model.scaled_coef_)))
    assert objective[-1] == pytest.approx(expected, rel=1e-7)


def test_fsv_stays_sparse_where_the_l1_svm_is_not():
    # A small penalty: the l1-SVM keeps many features, the concave l0 approximation
    # of FSV does not (the reason Bradley & Mangasarian proposed it).
    X, y = make_weston(100, 200, random_state=5)
    fsv, l1 = FSV(0.005).fit(X, y), L1SVM(0.005).fit(X, y)
    assert fsv.support_.sum() <= 6 < l1.support_.sum()


def test_a_heavy_penalty_selects_nothing_and_warns():
    X, y = make_weston(40, 10, random_state=0)
    with pytest.warns(UserWarning, match="penalty outweighs"):
        model = L1SVM(0.95).fit(X, y)
    assert not model.support_.any()


@pytest.mark.parametrize("bad", [{"lam": 1.0}, {"lam": -0.1}, {"alpha": 0.0}, {"max_iter": 0}])
def test_bad_parameters_name_the_parameter(bad):
    X, y = make_weston(20, 5, random_state=0)
    with pytest.raises(ValueError, match=f"'{next(iter(bad))}' parameter of FSV"):
        FSV(**bad).fit(X, y)


def test_fsv_works_inside_grid_search():
    X, y = make_weston(60, 40, random_state=4)
    search = GridSearchCV(FSV(), {"lam": [0.05, 0.2]}, cv=3).fit(X, y)
    assert search.best_params_["lam"] in (0.05, 0.2)
    assert search.best_estimator_.support_.sum() >= 1


@pytest.mark.parametrize("model", [L1SVM(), FSV(), L2L1SVM(), L2L0SVM()], ids=repr)
def test_training_errors_are_the_misclassified_samples_not_the_margin_violations(model):
    X, y = make_weston(n_samples=40, n_noise=5, random_state=1)
    y = y.copy()
    flipped = np.random.default_rng(3).choice(40, 4, replace=False)
    y[flipped] = -y[flipped]  # four labels no hyperplane of the relevant features gets right
    model.fit(X, y)
    misclassified = int(np.count_nonzero(model.predict(X) != y))
    assert model.n_training_errors_ == misclassified
    margins = y * model.decision_function(X)
    assert model.n_margin_violations_ == model.history_["n_errors"][-1] > misclassified
    if model.refit is None:  # the model's own hyperplane: its violations are y f(x) < 1
        assert model.n_margin_violations_ == np.count_nonzero(margins < 1 - 1e-7)
