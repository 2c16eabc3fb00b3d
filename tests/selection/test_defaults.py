"""The ML05 selectors give a sparse, non-empty, useful model at their defaults.

With ``scale=True`` their weights are measured in the data's unit, the critical slope t*
(:mod:`sfmlearn.selection.sfm._critical`): the l1-SVM is empty exactly for lam >= 1/2 and
the l2-l1-SVM exactly for nu >= mu, on any data.
"""

import warnings

import numpy as np
import pytest
from scipy.optimize import linprog

from sfmlearn import FSV, L1SVM, L2L0SVM, L2L1SVM, SFMScaler
from sfmlearn.selection.sfm._critical import critical_slope


def _two_feature_labels(seed=0, n=60, d=300):
    """Labels depend on two of 300 features (hinge_lp, "Units"); a test set of equal size."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((2 * n, d))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X[:n], y[:n], X[n:], y[n:]


@pytest.mark.parametrize("make", [L1SVM, FSV, L2L1SVM, L2L0SVM], ids=lambda m: m.__name__)
def test_defaults_select_a_few_features_including_the_relevant_ones(make):
    """Before: L1SVM() selected 0 features, L2L1SVM() 256 and L2L0SVM() 124."""
    X, y, X_test, y_test = _two_feature_labels()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no empty-selection or convergence warning
        model = make().fit(X, y)
    selected = np.flatnonzero(model.support_)
    assert 2 <= selected.size <= 20
    assert {0, 1} <= set(selected.tolist())
    assert model.score(X_test, y_test) >= 0.9


def _full_lp_critical_slope(Z, y):
    """t* by one LP over all features (the definition, no working set)."""
    n = y.size
    free = y > 0 if (y > 0).sum() > (y < 0).sum() else y < 0
    G = (Z * (y / n)[:, None]).T
    base, Gf = G[:, ~free].sum(axis=1), G[:, free]
    k, ones = Gf.shape[1], np.ones((G.shape[0], 1))
    result = linprog(np.r_[np.zeros(k), 1.0], A_ub=np.block([[Gf, -ones], [-Gf, -ones]]),
                     b_ub=np.r_[-base, base], A_eq=np.r_[np.ones(k), 0.0][None, :],
                     b_eq=[(~free).sum()], bounds=[(0, 1)] * k + [(0, None)], method="highs")
    return result.x[-1]


def test_critical_slope_matches_its_definition():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((35, 400))  # 400 features > the first working set (2n + 10)
    y = np.where(np.arange(35) < 22, 1.0, -1.0)  # unbalanced: the LP case
    X[:, 3] += 0.8 * y
    Z = SFMScaler().fit_transform(X)
    assert critical_slope(Z, y, np.ones(35)) == pytest.approx(_full_lp_critical_slope(Z, y), rel=1e-7)
    balanced = np.where(y > 0, 35 / 44, 35 / 26)  # class_weight="balanced": ||mu+ - mu-|| / 2
    half_gap = np.abs(Z[y > 0].mean(0) - Z[y < 0].mean(0)).max() / 2
    assert critical_slope(Z, y, balanced) == pytest.approx(half_gap, rel=1e-12)


@pytest.mark.parametrize("n_positive, class_weight", [(30, None), (40, None), (40, "balanced")])
def test_l1svm_is_empty_exactly_from_lam_one_half(n_positive, class_weight):
    rng = np.random.default_rng(n_positive)
    X = rng.standard_normal((60, 80)) * rng.uniform(0.1, 100, 80)  # arbitrary units
    y = np.r_[np.ones(n_positive), -np.ones(60 - n_positive)]
    X[:, :3] += y[:, None]
    with pytest.warns(UserWarning, match="selected no feature"):
        above = L1SVM(lam=0.5 + 1e-6, class_weight=class_weight).fit(X, y)
    below = L1SVM(lam=0.5 - 1e-3, class_weight=class_weight).fit(X, y)
    assert not above.support_.any() and below.support_.any()


def test_l2l1svm_is_empty_exactly_from_nu_equal_mu():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((50, 60)) * 1e-6
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(50) > 0, 1, 0)
    with pytest.warns(UserWarning, match="selected no feature"):
        above = L2L1SVM(mu=3.0, nu=3.0 * (1 + 1e-4)).fit(X, y)
    below = L2L1SVM(mu=3.0, nu=3.0 * (1 - 1e-2)).fit(X, y)
    assert not above.support_.any() and below.support_.any()


def test_explicit_parameters_keep_the_papers_units_without_scaling():
    """scale=False (how ml05_tables reproduces ML05) uses the given values as they are."""
    X, y, _, _ = _two_feature_labels(n=40, d=20)
    Xs = (X - X.mean(0)) / X.std(0)
    model = L1SVM(lam=0.1, scale=False).fit(Xs, y)
    # The same LP solved independently: minimise 0.9 mean hinge + 0.1 ||w||_1.
    n, d = Xs.shape
    ys = np.where(y == 1, 1.0, -1.0)
    A = -np.column_stack([ys[:, None] * Xs, -ys[:, None] * Xs, ys, np.eye(n)])
    cost = np.r_[np.full(2 * d, 0.1), 0.0, np.full(n, 0.9 / n)]
    bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
    reference = linprog(cost, A_ub=A, b_ub=-np.ones(n), bounds=bounds, method="highs")
    assert model.history_["objective"][-1] == pytest.approx(reference.fun, rel=1e-7)
