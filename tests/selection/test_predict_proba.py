"""predict_proba of the SFM-family classifiers: Platt's sigmoid, the multi-class wrappers
and the marker panel."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit, softmax
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV, CalibrationDisplay
from sklearn.exceptions import NotFittedError
from sklearn.datasets import make_blobs
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import cross_val_score

from sfmlearn import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM,
                      KernelTargetAlignment, PotentialSVM, QuadraticFSV, RepetitiveSFM,
                      SoftDoubleMinOver, StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV,
                      WestonZeroNormSVM, WestonZeroNormSVMCV)
from sfmlearn.datasets import make_weston
from sfmlearn.panels import MarkerPanel
from sfmlearn.panels.marker_panel import fit_distance_scale
from sfmlearn.selection._probability import fit_platt, platt_probability, platt_targets
from sfmlearn.selection.multiclass import OneVsOneSelector, OneVsRestSelector, pairwise_coupling
from test_multiclass import three_classes  # noqa: F401  (the three-class data, a fixture)

CLASSIFIERS = [
    SupportFeatureMachine(), SupportFeatureMachine(C=1.0, class_weight="balanced"),
    WestonZeroNormSVM(C=1.0), RLP(), L1SVM(), FSV(), L2L1SVM(), L2L0SVM(), QuadraticFSV(),
    HardMarginSVM(), SoftDoubleMinOver(C=1.0), KernelTargetAlignment(),
    PotentialSVM(n_features_to_select=3), GolubClassifier(n_features_to_select=6),
    StabilitySelection(Cs=3, n_pairs=3, random_state=0),
]
CV_CLASSIFIERS = [SupportFeatureMachineCV(Cs=3, cv=3), WestonZeroNormSVMCV(Cs=3, cv=3)]


def _name(estimator):
    return repr(estimator)


@pytest.fixture(scope="module")
def data():
    """Weston's data (features 0-5 relevant, 6 noise; linearly separable) with string labels."""
    X, y = make_weston(n_samples=60, n_noise=6, random_state=0)
    return X, np.where(y > 0, "tumour", "normal")


@pytest.fixture(scope="module")
def held_out():
    X, y = make_weston(n_samples=200, n_noise=6, random_state=1)
    return X, np.where(y > 0, "tumour", "normal")


def _check_probabilities(model, X):
    """What every two-class predict_proba guarantees, on X."""
    proba = model.predict_proba(X)
    decision = model.decision_function(X)
    assert proba.shape == (X.shape[0], 2)
    assert np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    # Column 1 is classes_[1], the class of positive decision values, and the sigmoid
    # passes through 1/2 at the threshold: the more probable class is the predicted one.
    np.testing.assert_array_equal(model.classes_[proba.argmax(axis=1)], model.predict(X))
    order = np.argsort(decision, kind="stable")
    assert np.all(np.diff(proba[order, 1]) >= 0)  # monotone in the decision function
    np.testing.assert_allclose(model.predict_log_proba(X), np.log(proba), rtol=1e-8)
    return proba


@pytest.mark.parametrize("estimator", CLASSIFIERS + CV_CLASSIFIERS, ids=_name)
def test_probabilities_follow_the_classes_and_the_decision_function(estimator, data, held_out):
    X, y = data
    model = clone(estimator).fit(X, y)
    assert list(model.classes_) == ["normal", "tumour"]
    proba = _check_probabilities(model, X)
    _check_probabilities(model, held_out[0])
    assert np.isfinite(model.probability_slope_) and model.probability_slope_ < 0
    assert model.probability_intercept_ == 0.0
    # Fitted in fit: a plain classifier on its training decision values (a CV estimator on
    # its folds' held-out ones: tests/selection/test_softness_cv.py).
    if estimator not in CV_CLASSIFIERS:
        y_signed = np.where(y == model.classes_[1], 1, -1)
        on_training, _ = fit_platt(model.decision_function(X), y_signed, fit_intercept=False)
        assert model.probability_slope_ == pytest.approx(on_training, rel=1e-9)
    # The true class is the more probable one on average (the models fit these data).
    assert proba[np.arange(y.size), (y == "tumour").astype(int)].mean() > 0.6


@pytest.mark.parametrize("estimator", CLASSIFIERS, ids=_name)
def test_probability_scorers_and_calibration_tools_work(estimator, data, held_out):
    X, y = data
    auc = cross_val_score(clone(estimator), X, y, scoring="roc_auc", cv=3)
    log_loss = cross_val_score(clone(estimator), X, y, scoring="neg_log_loss", cv=3)
    assert np.all(np.isfinite(log_loss)) and np.all(log_loss < 0)
    assert auc.mean() > 0.6
    model = clone(estimator).fit(X, y)
    X_test, y_test = held_out
    # The sigmoid is increasing, so the ranking (and the AUC) is the decision function's.
    assert roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]) == pytest.approx(
        roc_auc_score(y_test, model.decision_function(X_test)))
    display = CalibrationDisplay.from_estimator(model, X_test, y_test, pos_label="tumour", n_bins=5)
    assert np.all((display.prob_pred >= 0) & (display.prob_pred <= 1))
    assert display.prob_true.size >= 2


def test_held_out_calibration_wraps_the_model(data, held_out):
    X, y = data
    calibrated = CalibratedClassifierCV(SupportFeatureMachine(C=1.0), cv=3).fit(X, y)
    proba = calibrated.predict_proba(held_out[0])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert list(calibrated.classes_) == ["normal", "tumour"]


def test_probabilities_need_a_fit():
    with pytest.raises(NotFittedError):
        SupportFeatureMachine().predict_proba(np.ones((2, 3)))


def test_hard_sfm_on_separable_data_keeps_a_finite_slope(data):
    X, y = data
    sfm = SupportFeatureMachine().fit(X, y)
    decision = sfm.decision_function(X)
    positive = y == "tumour"
    assert decision[positive].min() > 0 > decision[~positive].max()  # separated
    proba = sfm.predict_proba(X)
    assert np.isfinite(sfm.probability_slope_)
    assert proba.max() < 1.0 and proba.min() > 0.0  # not the 0/1 of an infinite slope


# -- fit_platt -------------------------------------------------------------------------
def _reference(decision, y_signed, weights=None, fit_intercept=True):
    """Minimise the same cross-entropy with scipy's BFGS."""
    w = np.ones(decision.size) if weights is None else weights
    t = platt_targets(y_signed)

    def objective(theta):
        z = theta[0] * decision + (theta[1] if fit_intercept else 0.0)
        return np.sum(w * (np.logaddexp(0.0, z) + (t - 1.0) * z))

    found = minimize(objective, np.zeros(2 if fit_intercept else 1), method="BFGS",
                     options={"gtol": 1e-9})
    return found.x


def test_fit_platt_recovers_a_known_sigmoid():
    rng = np.random.default_rng(0)
    decision = rng.normal(0.0, 2.0, 100_000)
    A, B = -1.5, 0.7
    y = np.where(rng.random(decision.size) < expit(-(A * decision + B)), 1, -1)
    fitted_A, fitted_B = fit_platt(decision, y)
    assert fitted_A == pytest.approx(A, abs=0.05)
    assert fitted_B == pytest.approx(B, abs=0.05)
    y0 = np.where(rng.random(decision.size) < expit(-A * decision), 1, -1)
    only_A, zero = fit_platt(decision, y0, fit_intercept=False)
    assert only_A == pytest.approx(A, abs=0.05) and zero == 0.0


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_fit_platt_matches_a_general_minimiser(fit_intercept, weighted):
    rng = np.random.default_rng(1)
    decision = rng.normal(0.3, 1.5, 300)
    y = np.where(rng.random(300) < expit(2.0 * decision - 0.5), 1, -1)
    weights = rng.uniform(0.2, 3.0, 300) if weighted else None
    A, B = fit_platt(decision, y, weights, fit_intercept=fit_intercept)
    expected = _reference(decision, y, weights, fit_intercept)
    assert A == pytest.approx(expected[0], abs=1e-5)
    assert B == pytest.approx(expected[1] if fit_intercept else 0.0, abs=1e-5)


def test_platt_targets_keep_the_slope_finite_on_separated_values():
    decision = np.array([-3.0, -2.0, -1.5, 1.0, 2.5, 4.0, 5.0])
    y = np.array([-1, -1, -1, 1, 1, 1, 1])
    np.testing.assert_allclose(platt_targets(y), [1 / 5] * 3 + [5 / 6] * 4)
    A, B = fit_platt(decision, y)
    assert np.isfinite(A) and A < 0
    np.testing.assert_allclose([A, B], _reference(decision, y), atol=1e-5)
    p = platt_probability(decision, A, B)
    assert np.all((p > 0) & (p < 1))


def test_extreme_decision_values_do_not_overflow():
    decision = np.array([-1e6, -1.0, 1.0, 1e6])
    A, B = fit_platt(decision, np.array([-1, -1, 1, 1]))
    with np.errstate(all="raise"):
        p = platt_probability(decision, A, B)
    assert np.isfinite(A) and np.isfinite(B) and np.all(np.isfinite(p))
    assert np.all(np.diff(p) >= 0) and p[1] < p[2]


# -- several classes -------------------------------------------------------------------
def test_one_vs_rest_normalises_the_class_probabilities(three_classes):
    X, y = three_classes
    ovr = OneVsRestSelector(SupportFeatureMachine(C=1.0, class_weight="balanced")).fit(X, y)
    proba = ovr.predict_proba(X)
    per_class = np.column_stack([e.predict_proba(X)[:, 1] for e in ovr.estimators_])
    np.testing.assert_allclose(proba, per_class / per_class.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.mean(ovr.classes_[proba.argmax(axis=1)] == y) > 0.9
    np.testing.assert_allclose(ovr.predict_log_proba(X), np.log(proba))
    assert cross_val_score(clone(ovr), X, y, scoring="neg_log_loss", cv=3).max() < 0


def test_one_vs_rest_predicts_the_most_probable_class():
    # Blobs whose per-class decision scales differ: the raw decision values and the
    # probabilities disagreed on some samples.
    X, y = make_blobs(n_samples=300, random_state=0)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    ovr = OneVsRestSelector(SupportFeatureMachine(C=1.0)).fit(X, y)
    decision, proba = ovr.decision_function(X), ovr.predict_proba(X)
    np.testing.assert_array_equal(ovr.classes_[proba.argmax(axis=1)], ovr.predict(X))
    np.testing.assert_array_equal(ovr.classes_[decision.argmax(axis=1)], ovr.predict(X))
    # Each column is the class's log-odds: Platt's rescaling of its decision value, same sign.
    for k, estimator in enumerate(ovr.estimators_):
        raw = estimator.decision_function(X)
        np.testing.assert_allclose(decision[:, k], -estimator.probability_slope_ * raw)
        np.testing.assert_array_equal(decision[:, k] > 0, raw > 0)
    # The per-problem slopes differ, which is why the raw values were not comparable.
    slopes = np.abs([e.probability_slope_ for e in ovr.estimators_])
    assert slopes.max() / slopes.min() > 1.2


def test_one_vs_rest_log_probabilities_stay_finite_far_from_the_data(three_classes):
    X, y = three_classes
    ovr = OneVsRestSelector(SupportFeatureMachine(C=1.0, class_weight="balanced")).fit(X, y)
    far = 1e6 * X[:3]
    log_proba = ovr.predict_log_proba(far)
    assert np.isfinite(log_proba).all()
    np.testing.assert_allclose(np.exp(log_proba).sum(axis=1), 1.0)
    np.testing.assert_array_equal(ovr.classes_[log_proba.argmax(axis=1)], ovr.predict(far))


def test_one_vs_one_couples_the_pairwise_probabilities(three_classes):
    X, y = three_classes
    ovo = OneVsOneSelector(SupportFeatureMachine(C=1.0)).fit(X, y)
    proba = ovo.predict_proba(X)
    assert proba.shape == (60, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert proba.min() >= 0
    assert np.mean(ovo.classes_[proba.argmax(axis=1)] == y) > 0.9
    # The coupled P(ant) / (P(ant) + P(bee)) follows the (ant, bee) estimator's own
    # P(ant | ant or bee) on the samples of those two classes.
    r_ant_bee = ovo.estimators_[0].predict_proba(X)[:, 0]
    ant_or_bee = np.isin(y, ["ant", "bee"])
    ratio = proba[:, 0] / (proba[:, 0] + proba[:, 1])
    assert np.corrcoef(ratio[ant_or_bee], r_ant_bee[ant_or_bee])[0, 1] > 0.9


def test_pairwise_coupling_recovers_consistent_probabilities():
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(4), size=50)
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    r = np.column_stack([p[:, i] / (p[:, i] + p[:, j]) for i, j in pairs])
    np.testing.assert_allclose(pairwise_coupling(r, pairs, 4), p, atol=1e-6)
    two = pairwise_coupling(r[:, :1], [(0, 1)], 2)
    np.testing.assert_allclose(two[:, 0], r[:, 0], atol=1e-6)


def test_wrappers_offer_probabilities_only_with_a_probabilistic_base():
    assert hasattr(OneVsRestSelector(), "predict_proba")
    assert not hasattr(OneVsRestSelector(RepetitiveSFM()), "predict_proba")
    assert not hasattr(OneVsOneSelector(RepetitiveSFM()), "predict_proba")


# -- marker panel ----------------------------------------------------------------------
def test_distance_scale_recovers_a_known_softmax():
    rng = np.random.default_rng(3)
    distances = rng.gamma(2.0, 1.0, size=(50_000, 3))
    a = 1.3
    u = rng.random(distances.shape[0])[:, None]
    codes = (u > np.cumsum(softmax(-a * distances, axis=1), axis=1)).sum(axis=1)
    assert fit_distance_scale(distances, codes) == pytest.approx(a, rel=0.03)


def test_distance_scale_of_two_types_is_platts_slope():
    rng = np.random.default_rng(4)
    distances = rng.gamma(2.0, 1.0, size=(400, 2))
    codes = (rng.random(400) < expit(0.8 * (distances[:, 0] - distances[:, 1]))).astype(int)
    A, _ = fit_platt(distances[:, 0] - distances[:, 1], np.where(codes == 1, 1, -1),
                     fit_intercept=False)
    assert fit_distance_scale(distances, codes) == pytest.approx(-A, rel=1e-5)


def test_marker_panel_probabilities_agree_with_its_predictions():
    rng = np.random.default_rng(5)
    y = np.repeat(["B cell", "T cell", "NK cell"], 30)
    X = rng.standard_normal((90, 30))
    for c in range(3):
        X[y == np.unique(y)[c], c] += 3.0
    panel = MarkerPanel(n_markers=3, normalize="none", n_Cs=3, max_cells=30, random_state=0).fit(X, y)
    proba = panel.predict_proba(X)
    assert proba.shape == (90, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(panel.classes_[proba.argmax(axis=1)], panel.predict(X))
    assert proba[np.arange(90), np.searchsorted(panel.classes_, y)].mean() > 0.6
    np.testing.assert_allclose(panel.predict_log_proba(X), np.log(proba))
    assert np.isfinite(panel.probability_scale_) and panel.probability_scale_ > 0


def test_the_sigmoid_through_one_half_rises_with_the_decision_even_below_chance():
    """Decision values that point the wrong way (held-out values of a choice below chance)
    would fit A > 0 and turn every probability against ``predict``; with B = 0 the slope
    stays at its bound, A = -MIN_SLOPE / max|f|, and the probabilities at 1/2 +- 2.5e-7."""
    from sfmlearn.selection._probability import MIN_SLOPE

    decision = np.array([-2.0, -1.0, -0.5, 0.5, 1.0, 4.0])
    y = np.array([1, 1, 1, -1, -1, 1])
    A, B = fit_platt(decision, y, fit_intercept=False)
    assert A == pytest.approx(-MIN_SLOPE / 4.0) and B == 0.0
    p = platt_probability(decision, A, B)
    assert np.all(np.diff(p) > 0) and np.all(np.abs(p - 0.5) <= MIN_SLOPE / 4 * (1 + 1e-9))
    assert fit_platt(decision, y)[0] > 0  # Platt's free two parameters are not bound


def test_cv_probabilities_agree_with_predict_when_the_inner_scores_are_below_chance():
    from sklearn.datasets import make_classification
    from sfmlearn import SupportFeatureMachineCV

    X, y = make_classification(n_samples=40, n_features=30, n_informative=2, n_redundant=0, flip_y=0.3,
                               class_sep=0.3, random_state=3)
    model = SupportFeatureMachineCV(random_state=0).fit(X, y)
    assert model.probability_slope_ < 0
    positive = model.predict_proba(X)[:, 1]
    predicted_positive = model.predict(X) == model.classes_[1]
    # ties at exactly 1/2 (samples on the hyperplane, |f| ~ 1e-16) are the only disagreement
    assert np.all(positive[predicted_positive] >= 0.5) and np.all(positive[~predicted_positive] <= 0.5)
    assert np.count_nonzero(positive != 0.5) >= 25
