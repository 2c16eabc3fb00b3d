"""One name per concept: every old name still works for one release, warns with the new
one, and gives the same answer; the public estimators no longer use the old names."""

import inspect

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils._param_validation import InvalidParameterError

import sfmlearn
from sfmlearn.datasets import make_chessboard, make_weston
from sfmlearn.selection import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier,
                                KernelTargetAlignment, QuadraticFSV, SupportFeatureMachine,
                                WestonZeroNormSVM)
from sfmlearn.selection._constraints import REFIT
from sfmlearn.selection.competitors.alignment import (alignment, gaussian_sigma, kernel_alignment,
                                                      kernel_gamma)
from sfmlearn.optim import ITERATED_L1_TOL
from sfmlearn.utils.deprecation import DEPRECATED

#: Names retired in favour of one name per concept (old: new).
RETIRED = {"n_features": "n_features_to_select", "sigma": "gamma", "rho": "gamma",
           "standardize": "scale"}


def _fit_both(old, new, X, y):
    """Fit with the old name (it must warn where fit is called, naming the new name) and
    with the new name."""
    given = {k for k, v in old.get_params().items() if not (isinstance(v, str) and v == DEPRECATED)}
    with pytest.warns(FutureWarning, match=f"'{RETIRED[(given & set(RETIRED)).pop()]}'") as caught:
        fitted_old = old.fit(X, y)
    assert {w.filename for w in caught if w.category is FutureWarning} == {__file__}
    return fitted_old, new.fit(X, y)


@pytest.fixture(scope="module")
def weston():
    return make_weston(n_samples=40, n_noise=30, random_state=0)


def test_golub_n_features_is_n_features_to_select(weston):
    X, y = weston
    old, new = _fit_both(GolubClassifier(n_features=4), GolubClassifier(n_features_to_select=4), X, y)
    np.testing.assert_array_equal(old.support_, new.support_)
    np.testing.assert_array_equal(old.coef_, new.coef_)
    assert np.count_nonzero(old.support_) == 4


@pytest.mark.parametrize("old, new", [
    ({"sigma": 1.5}, {"gamma": 0.5 / 1.5**2}),
    ({"sigma": "max_alignment"}, {"gamma": "max_alignment"}),
    ({"standardize": False}, {"scale": False}),
    ({"kernel": "chi2", "rho": 0.5}, {"kernel": "chi2", "gamma": 0.5}),
    ({"kernel": "chi2", "standardize": False}, {"kernel": "chi2", "scale": False}),
])
def test_alignment_old_names_give_the_same_model(old, new):
    X, y = make_chessboard(48, 2, random_state=4)
    X = X - X.min(axis=0)  # non-negative, for the chi2 kernel
    fitted_old, fitted_new = _fit_both(KernelTargetAlignment(max_iter=8, **old),
                                       KernelTargetAlignment(max_iter=8, **new), X, y)
    np.testing.assert_array_equal(fitted_old.theta_, fitted_new.theta_)
    assert fitted_old.gamma_ == fitted_new.gamma_
    np.testing.assert_array_equal(fitted_old.decision_function(X), fitted_new.decision_function(X))


@pytest.mark.parametrize("estimator, message", [
    (GolubClassifier(10, n_features=5), "n_features=5 and its new name n_features_to_select=10 disagree"),
    (KernelTargetAlignment(standardize=False, scale=True), "standardize=False and its new name scale=True"),
    (KernelTargetAlignment(sigma=2.0, gamma=0.5), r"sigma=2.0 and its new name gamma=0.5 disagree "
                                                   r"\(sigma=2.0 means gamma=0.125\)"),
    (KernelTargetAlignment(kernel="chi2", rho=0.5, gamma=0.1), "rho=0.5 and its new name gamma=0.1"),
])
def test_an_old_and_a_new_name_that_disagree_are_refused(estimator, message):
    X, y = make_chessboard(32, 1, random_state=0)
    with pytest.raises(InvalidParameterError, match=message + ".*Pass only"):
        estimator.fit(X - X.min(axis=0), y)


@pytest.mark.parametrize("params, message", [
    ({"rho": 0.5}, "rho=0.5 is the old factor of the chi2 kernel; kernel='gaussian' does not use "
                   "it. Pass kernel='chi2', gamma=0.5"),
    ({"kernel": "chi2", "sigma": 2.0}, "sigma=2.0 is the old factor of the gaussian kernel; "
                                       "kernel='chi2' does not use it. Pass kernel='gaussian', gamma=0.125"),
])
def test_the_old_factor_of_the_other_kernel_is_refused(params, message):
    X, y = make_chessboard(32, 1, random_state=0)
    with pytest.raises(InvalidParameterError, match=message):
        KernelTargetAlignment(**params).fit(X - X.min(axis=0), y)


def test_an_old_and_a_new_name_that_agree_give_the_old_names_model():
    X, y = make_chessboard(48, 2, random_state=4)
    with pytest.warns(FutureWarning, match="'sigma' is replaced by 'gamma' = 1 / \\(2 sigma\\^2\\)"):
        both = KernelTargetAlignment(sigma=2.0, gamma=0.125, max_iter=3).fit(X, y)
    assert both.gamma_ == 0.125
    with pytest.warns(FutureWarning, match="'n_features' is renamed"):
        assert GolubClassifier(3, n_features=3).fit(X, y).support_.sum() == 3


def test_alignment_sigma_attribute_and_functions_warn_and_agree():
    X, y = make_chessboard(48, 2, random_state=4)
    model = KernelTargetAlignment(gamma=0.08, max_iter=3).fit(X, y)
    with pytest.warns(FutureWarning, match="'gamma_'"):
        assert model.sigma_ == pytest.approx(np.sqrt(0.5 / 0.08), rel=1e-15)
    with pytest.warns(FutureWarning, match="'gamma'"):
        assert alignment(X, y, 2.0) == pytest.approx(kernel_alignment(X, y, 0.125), rel=1e-15)
    with pytest.warns(FutureWarning, match="'gamma'"):
        sigma = gaussian_sigma(X, y, "max_alignment")
    assert 0.5 / sigma**2 == pytest.approx(kernel_gamma(X, y, "max_alignment"), rel=1e-12)


@pytest.mark.parametrize("estimator, old", [
    (GolubClassifier(n_features=3), "n_features"),
    (KernelTargetAlignment(sigma=2.0), "sigma"),
    (KernelTargetAlignment(rho=0.1), "rho"),
    (KernelTargetAlignment(standardize=True), "standardize"),
])
def test_old_names_survive_clone_and_keep_their_checks(estimator, old):
    value = estimator.get_params()[old]
    assert clone(estimator).get_params()[old] == value
    bad = clone(estimator).set_params(**{old: -1})
    with pytest.raises(InvalidParameterError, match=f"'{old}' parameter"):
        bad.fit(*make_chessboard(32, 1, random_state=0))


def _estimator_classes():
    return [obj for name in sfmlearn.__all__
            if inspect.isclass(obj := getattr(sfmlearn, name)) and hasattr(obj, "get_params")]


@pytest.mark.parametrize("cls", _estimator_classes(), ids=lambda cls: cls.__name__)
def test_public_estimators_use_no_retired_name(cls):
    for name, parameter in inspect.signature(cls).parameters.items():
        if name in RETIRED:
            assert parameter.default == DEPRECATED, f"{cls.__name__}({name}=): use {RETIRED[name]}="


ITERATED_L1 = [SupportFeatureMachine, WestonZeroNormSVM, RLP, L1SVM, FSV, L2L1SVM, L2L0SVM, QuadraticFSV]


@pytest.mark.parametrize("cls", ITERATED_L1, ids=lambda cls: cls.__name__)
def test_iterated_l1_models_share_the_stopping_rule(cls):
    assert cls().tol == ITERATED_L1_TOL


@pytest.mark.parametrize("cls", [c for c in ITERATED_L1 if c is not QuadraticFSV],
                         ids=lambda cls: cls.__name__)
def test_refit_has_the_same_values_everywhere(cls):
    assert cls._parameter_constraints["refit"] is REFIT
    assert '{"svm", "center", "logistic", None} or classifier' in cls.__doc__
