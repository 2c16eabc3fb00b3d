"""The soft-SFM path: exact ends, training errors, warm == cold."""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn import SFMScaler, SupportFeatureMachine, WestonZeroNormSVM, sfm_path
from sfmlearn.datasets import make_weston
from sfmlearn.selection.sfm.path import default_Cs


@pytest.fixture(scope="module")
def weston():
    # d = 306 > 4 (n + 1): the fits run through column generation (the warm-started engine).
    return make_weston(n_samples=50, n_noise=300, random_state=0)


@pytest.fixture(scope="module")
def path(weston):
    X, y = weston
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sfm_path(X, y)


def _largest_scaled_mean_difference(X, y):
    Z = SFMScaler().fit_transform(X)
    delta = Z[y == np.unique(y)[1]].mean(axis=0) - Z[y == np.unique(y)[0]].mean(axis=0)
    return int(np.argmax(np.abs(delta)))


def test_smallest_C_selects_exactly_the_feature_with_the_largest_scaled_mean_difference(weston, path):
    X, y = weston
    assert path.n_features[0] == 1
    assert np.flatnonzero(path.supports[0]).tolist() == [_largest_scaled_mean_difference(X, y)]
    assert path.n_features[1:].max() > 1  # the grid does not stay at the trivial end


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_single_feature_end_holds_on_other_data(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 80))
    y = np.r_[np.zeros(15), np.ones(15)]
    X[:, 7] += 1.5 * y  # a strong feature among noise
    C = default_Cs(X, y, n_Cs=2)[0]
    fitted = SupportFeatureMachine(C=C).fit(X, y)
    assert np.flatnonzero(fitted.support_).tolist() == [_largest_scaled_mean_difference(X, y)]


def test_largest_C_is_the_hard_sfm_on_separable_data(weston, path):
    X, y = weston
    hard = SupportFeatureMachine().fit(X, y)
    np.testing.assert_array_equal(path.supports[-1], hard.support_)
    np.testing.assert_allclose(path.scaled_coefs[-1], hard.scaled_coef_, atol=1e-8)
    assert path.n_training_errors[-1] == 0


def test_training_errors_do_not_grow_with_C(path):
    assert np.all(np.diff(path.n_training_errors) <= 0), path.n_training_errors
    assert path.n_training_errors[0] > 0  # the cheap end pays with errors
    assert np.all(np.diff(path.Cs) > 0)


def test_warm_started_path_equals_cold_fits(weston, path):
    X, y = weston
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(0, path.Cs.size, 3):
            cold = SupportFeatureMachine(C=path.Cs[i]).fit(X, y)
            np.testing.assert_array_equal(path.supports[i], cold.support_)
            np.testing.assert_allclose(path.coefs[i], cold.coef_[0], atol=1e-8)
            assert path.n_training_errors[i] == cold.n_training_errors_
        unwarmed = sfm_path(X, y, path.Cs, warm_start=False)
    np.testing.assert_array_equal(unwarmed.supports, path.supports)


def test_path_reports_objective_and_training_error_per_C(weston, path):
    X, y = weston
    assert path.coefs.shape == (path.Cs.size, X.shape[1])
    # the l0 objective: features plus C times the (unweighted) training errors
    np.testing.assert_allclose(path.objective, path.n_features + path.Cs * path.n_training_errors)
    assert np.all((path.training_error >= 0) & (path.training_error <= 1))


def test_weston_path_ends(weston):
    X, y = weston
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = sfm_path(X, y, 6, estimator=WestonZeroNormSVM())
        hard = WestonZeroNormSVM().fit(X, y)
    assert path.Cs.size == 6 and 1 <= path.n_features[0] <= 2
    np.testing.assert_array_equal(path.supports[-1], hard.support_)


def test_bad_grids_and_equalities_are_refused(weston):
    X, y = weston
    with pytest.raises(InvalidParameterError, match="finite positive"):
        sfm_path(X, y, [0.1, -1.0])
    with pytest.raises(InvalidParameterError, match="pass the grid yourself"):
        sfm_path(X, y, estimator=SupportFeatureMachine(equality="mean_margin"))


@pytest.mark.parametrize("arguments, message", [
    ({"n_Cs": 0}, "positive whole number"), ({"n_Cs": 2.5}, "positive whole number"),
    ({"min_ratio": 0}, r"in \(0, 1\)"), ({"min_ratio": -1.0}, r"in \(0, 1\)"),
    ({"min_ratio": float("nan")}, r"in \(0, 1\)"), ({"min_ratio": 2.0}, r"in \(0, 1\)"),
    ({"estimator": LogisticRegression()}, "Pass the grid yourself")])
def test_the_default_grids_settings_are_checked_before_any_fit(weston, arguments, message):
    X, y = weston
    with pytest.raises(InvalidParameterError, match=message):
        default_Cs(X, y, **arguments)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # one LP only
def test_the_single_feature_end_is_tight_on_these_data(weston):
    # the grid starts 1 % below C_1; 2 % above C_1 the first LP already takes a second feature
    X, y = weston
    C_1 = default_Cs(X, y, n_Cs=2)[0] / 0.99
    assert SupportFeatureMachine(C=0.99 * C_1, max_iter=1).fit(X, y).support_.sum() == 1
    assert SupportFeatureMachine(C=1.02 * C_1, max_iter=1).fit(X, y).support_.sum() >= 2


def test_a_path_without_probabilities_has_the_same_fits_and_says_why_predict_proba_fails(weston, path):
    from sklearn.exceptions import NotFittedError

    X, y = weston
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bare = sfm_path(X, y, probability=False)
    np.testing.assert_array_equal(bare.coefs, path.coefs)
    np.testing.assert_array_equal(bare.intercepts, path.intercepts)
    for fitted, with_sigmoid in zip(bare.estimators, path.estimators):
        np.testing.assert_array_equal(fitted.decision_function(X), with_sigmoid.decision_function(X))
        with pytest.raises(NotFittedError, match="probability=False"):
            fitted.predict_proba(X)
    assert path.estimators[-1].predict_proba(X).shape == (y.size, 2)
