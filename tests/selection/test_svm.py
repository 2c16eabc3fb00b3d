"""Hard-margin SVM, SoftDoubleMinOver (thesis Fig. 2.4) and SVM-RFE."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import RFE, RFECV
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from _expected_failures import run_check
from sfmlearn.datasets import make_weston
from sfmlearn.exceptions import DataValidationError, NotSeparableError
from sfmlearn.optim import linear_svm
from sfmlearn.selection import HardMarginSVM, SoftDoubleMinOver, svm_rfe

# scikit-learn's check data are not linearly separable, and a hard-margin SVM has no
# solution on such data: each of these checks must fail with NotSeparableError (any other
# failure, or a pass, fails the test). The maths forbids these checks.
HARD_MARGIN_IMPOSSIBLE = {
    name: (NotSeparableError, "not linearly separable",
           "check data are not linearly separable; the hard-margin SVM has no solution")
    for name in [
        "check_fit_score_takes_y", "check_n_features_in_after_fitting", "check_estimators_dtypes",
        "check_dtype_object", "check_estimators_nan_inf", "check_classifier_data_not_an_array",
        "check_classifiers_train", "check_supervised_y_2d", "check_fit_idempotent",
        "check_fit_check_is_fitted", "check_n_features_in", "check_decision_proba_consistency",
    ]
}


def _expected_failures(estimator):
    if isinstance(estimator, HardMarginSVM):
        return HARD_MARGIN_IMPOSSIBLE
    return {}


@parametrize_with_checks([HardMarginSVM(), SoftDoubleMinOver(C=1.0)])
def test_sklearn_contract(estimator, check):
    run_check(estimator, check, _expected_failures(estimator))


def _separable(n=60, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, np.where(X[:, 0] + X[:, 1] > 0, 1, -1)


def test_hard_margin_svm_is_libsvms_hard_limit():
    X, y = _separable()
    model = HardMarginSVM().fit(X, y)
    reference = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(model.coef_.ravel(), reference.coef_.ravel(), rtol=1e-4)
    margins = y * model.decision_function(X)
    assert margins.min() == pytest.approx(1.0, abs=1e-7)
    assert model.margin_ == pytest.approx(1 / np.linalg.norm(reference.coef_), rel=1e-4)


def test_hard_margin_svm_refuses_xor():
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    with pytest.raises(NotSeparableError):
        HardMarginSVM().fit(X, [1, 1, -1, -1])


def _cosine(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_double_minover_converges_to_the_hard_margin_svm():
    X, y = _separable()
    w = HardMarginSVM().fit(X, y).coef_.ravel()
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter"):
        errors = [1 - _cosine(SoftDoubleMinOver(max_iter=t, tol=0).fit(X, y).coef_.ravel(), w)
                  for t in (100, 1000, 10000)]
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 1e-4


def test_double_minover_converges_to_the_two_norm_soft_margin_svm():
    # The two-norm soft SVM is the hard SVM on x_i augmented by e_i / sqrt(C).
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 4))
    y = np.where(X[:, 0] + 0.8 * rng.standard_normal(50) > 0, 1, -1)
    C = 0.5
    w_aug, b_aug = linear_svm(np.hstack([X, np.eye(50) / np.sqrt(C)]), y.astype(float))
    model = SoftDoubleMinOver(C=C, max_iter=20000, tol=1e-3).fit(X, y)
    assert model.converged_ and model.n_iter_ < 20000
    assert 1 - _cosine(model.coef_.ravel(), w_aug[:4]) < 1e-6
    # The bias on the same scale: f = (w.x + b) / ||w|| of both must agree.
    scale = np.linalg.norm(model.coef_)
    assert model.intercept_ / scale == pytest.approx(b_aug / np.linalg.norm(w_aug[:4]), abs=1e-3)


def test_double_minover_with_an_rbf_kernel_learns_xor():
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, (200, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    model = SoftDoubleMinOver(C=10.0, kernel="rbf", gamma=2.0).fit(X, y)
    assert model.score(X, y) > 0.95
    assert not hasattr(model, "coef_")


def _overlapping(n=100, seed=0):
    """Two Gaussian classes that overlap: no hyperplane separates them."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.standard_normal((n, 3))
    X[:, 0] += 1.5 * y
    X[:, 1] -= 1.5 * y
    return X, y


def test_hard_double_minover_refuses_data_the_hard_margin_svm_refuses():
    X, y = _overlapping()
    with pytest.raises(NotSeparableError):
        HardMarginSVM().fit(X, y)
    with pytest.raises(NotSeparableError, match=r"not separable.*SoftDoubleMinOver\(C=1.0\)"):
        SoftDoubleMinOver().fit(X, y)
    # The rbf kernel separates XOR (checked in its feature space), but not a point that
    # carries both labels.
    xor = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    assert SoftDoubleMinOver(kernel="rbf", gamma=2.0).fit(xor, [1, 1, 0, 0]).score(xor, [1, 1, 0, 0]) == 1.0
    with pytest.raises(NotSeparableError, match="rbf kernel"):
        SoftDoubleMinOver(kernel="rbf", gamma=2.0).fit(np.vstack([xor, xor[:1]]), [1, 1, 0, 0, 0])


def test_double_minover_stops_at_its_margin_gap_and_warns_when_it_cannot():
    X, y = _overlapping()
    model = SoftDoubleMinOver(C=1.0).fit(X, y)
    assert model.converged_ and model.margin_gap_ <= 1e-2 and model.n_iter_ < model.max_iter
    closer = SoftDoubleMinOver(C=1.0, tol=1e-3).fit(X, y)
    assert closer.n_iter_ > model.n_iter_ and closer.margin_gap_ <= 1e-3
    assert model.score(X, y) == closer.score(X, y) == 0.87
    with pytest.warns(ConvergenceWarning, match="wrong side.*Increase max_iter"):
        early = SoftDoubleMinOver(C=100.0, max_iter=1000).fit(X, y)
    assert not early.converged_ and early.margin_gap_ > 1


def test_double_minover_refuses_a_kernel_beyond_the_float_range():
    X, y = _overlapping()
    with pytest.raises(DataValidationError, match="overflows.*Rescale X"):
        SoftDoubleMinOver(C=1.0).fit(X * 1e160, y)
    # Within the range: K and 1 / C both 1e200 times larger give the same steps, and
    # finite, equivalent results.
    model = SoftDoubleMinOver(C=1e-200).fit(X * 1e100, y)
    assert np.isfinite(model.intercept_) and np.isfinite(model.coef_).all()
    reference = SoftDoubleMinOver(C=1.0).fit(X, y)
    np.testing.assert_array_equal(model.alpha_, reference.alpha_)
    np.testing.assert_array_equal(model.predict(X * 1e100), reference.predict(X))


def test_svm_rfe_ranks_the_relevant_features_first():
    X, y = make_weston(80, 30, random_state=0)
    X = X / X.std(axis=0)
    rfe = svm_rfe(4, C=1.0)
    assert isinstance(rfe, RFE)
    assert np.all(np.flatnonzero(rfe.fit(X, y).support_) < 6)
    rfecv = svm_rfe(step=0.2, C=1.0, cv=3, n_jobs=1)
    assert isinstance(rfecv, RFECV) and rfecv.n_jobs == 1
    assert rfecv.fit(X, y).support_[:6].sum() >= 2


@pytest.mark.parametrize("factor", [1e-8, 1e16])
def test_hard_double_minover_checks_separability_at_any_scale(factor):
    """Its separability LP runs on the data without offset at unit scale: on raw X * 1e-8 it
    failed its answer check and on X * 1e16 HiGHS rejected the model."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    assert SoftDoubleMinOver().fit(X * factor, y).score(X * factor, y) == 1.0
