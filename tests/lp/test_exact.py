"""Exact minimum support: MILP against brute-force enumeration, and the public API."""

import numpy as np
import pytest

from sfmlearn import SFMScaler, SupportFeatureMachine, minimum_support
from sfmlearn.datasets import make_basic, make_weston
from sfmlearn.exceptions import DataValidationError, NotSeparableError, SolverError
from sfmlearn.lp.exact import (_verify, minimum_support_brute_force, minimum_support_milp,
                               proven_lower_bound)


@pytest.mark.parametrize("seed", range(6))
def test_milp_matches_brute_force_for_small_d(seed):
    X, y = make_basic(24, 10, 4, class_distance=0.6, positive_fraction=0.5, random_state=seed)
    Z = SFMScaler().fit_transform(X)
    y = y.astype(float)
    exact = minimum_support_milp(Z, y)
    brute = minimum_support_brute_force(Z, y)
    assert exact.status == "optimal" and exact.is_optimal
    assert exact.support.size == brute.support.size == exact.lower_bound
    # The MILP's hyperplane satisfies the SFM rows on its support.
    assert np.min(y * (Z @ exact.w + exact.b)) >= -1e-6
    assert np.all(np.abs(exact.w) < exact.weight_bound)


def test_exact_method_is_never_worse_than_l1_and_reports_a_certificate():
    for seed in range(4):
        X, y = make_weston(30, 30, random_state=seed)
        l1 = SupportFeatureMachine().fit(X, y)
        exact = SupportFeatureMachine(method="exact", time_limit=30).fit(X, y)
        assert exact.support_.sum() <= l1.support_.sum()
        assert exact.exact_.lower_bound == exact.support_.sum()
        assert set(exact.exact_.support) == set(np.flatnonzero(exact.support_))
        assert exact.score(X, y) == 1.0


def test_minimum_support_soft_and_errors():
    X, y = make_weston(30, 10, random_state=1)
    result = minimum_support(X, y)
    assert result.is_optimal and result.support.size >= 1
    soft = minimum_support(X, y, C=0.01)
    assert soft.support.size == 1  # tiny C: one feature, errors are nearly free
    duplicate = np.vstack([X, X[:1]])
    with pytest.raises(NotSeparableError):
        minimum_support(duplicate, np.r_[y, -y[0]])
    with pytest.raises(ValueError, match="method"):
        SupportFeatureMachine(method="l0").fit(X, y)


def test_exact_method_refuses_the_mean_margin_equality_it_would_ignore():
    # The MILP implements NC eq. 2.6 (class means) only; before this check the
    # mean-margin equality was silently replaced by it.
    X, y = make_basic(n_samples=20, n_features=8, random_state=0)
    model = SupportFeatureMachine(method="exact", equality="mean_margin")
    with pytest.raises(ValueError, match="equality='class_means'"):
        model.fit(X, y)
    assert not hasattr(model, "support_")


@pytest.mark.parametrize("bound, objective, soft, expected", [
    (-np.inf, 3.0, False, 1),   # HiGHS stopped before it had a dual bound
    (0.0, 3.0, False, 1),       # w = 0 is excluded by the equality
    (2.3, 5.0, False, 3),       # a support size is an integer
    (7.2, 5.0, False, 5),       # never above the incumbent
    (-np.inf, 4.0, True, 1.0),
    (2.5, 4.0, True, 2.5),
])
def test_the_proven_lower_bound_is_at_least_the_trivial_one(bound, objective, soft, expected):
    assert proven_lower_bound(bound, objective, soft) == expected


@pytest.mark.parametrize("C", [None, 1.0])
def test_a_time_limit_too_short_for_any_bound_still_returns_the_incumbent(C):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 400))
    y = np.where(rng.random(60) < 0.5, 1, -1)
    X[:, :5] += y[:, None]
    result = SupportFeatureMachine(C=C, method="exact", time_limit=0.01).fit(X, y).exact_
    assert result.status in ("time limit", "optimal")
    assert 1 <= result.lower_bound <= result.objective


def _noise(n=30, d=8):
    rng = np.random.default_rng(0)
    return rng.standard_normal((n, d)), np.where(np.arange(n) % 2 == 0, 1.0, -1.0)


@pytest.mark.parametrize("labels, message", [
    (lambda y: (y > 0).astype(float), r"-1 and \+1.*np\.where"),
    (lambda y: np.ones_like(y), "both classes"),
])
def test_milp_refuses_labels_it_cannot_use(labels, message):
    # 0/1 labels and a single class made the class means NaN: "optimal", support [],
    # lower bound 0, although the equality row rules out w = 0.
    Z, y = _noise()
    with pytest.raises(DataValidationError, match=message):
        minimum_support_milp(Z, labels(y))
    with pytest.raises(DataValidationError, match=message):
        minimum_support_brute_force(Z, labels(y), max_size=1)


def test_milp_refuses_non_finite_data():
    Z, y = _noise()
    Z[0, 0] = np.nan
    with pytest.raises(DataValidationError, match="NaN"):
        minimum_support_milp(Z, y)


def test_a_milp_answer_off_its_equality_row_is_not_returned():
    # _verify's tests are written to fail on NaN: w = 0 against NaN class means passed.
    Z, y = _noise(n=6, d=2)
    d = Z.shape[1]
    empty = np.zeros(2 * d + 1)  # w = 0, b = 0, u = 0
    for a in (np.full(d, np.nan), np.ones(d)):
        with pytest.raises(SolverError, match="equality row"):
            _verify(Z, y, a, 1.0, 10.0, np.inf, None, empty, 0.0)
