"""SupportFeatureMachine: known answers, invariants of the reweighting, the API contract."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sfmlearn import SFMScaler, SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.datasets import make_basic, make_weston
from sfmlearn.exceptions import ConstantFeatureWarning, DataValidationError, NotSeparableError
from sfmlearn.selection._placement import best_threshold



def separable_in_features(n_samples, n_features, relevant, rng, margin=0.5):
    """Labels sign(sum of the ``relevant`` features), samples within ``margin`` dropped."""
    X = rng.standard_normal((n_samples, n_features))
    score = X[:, relevant].sum(axis=1)
    keep = np.abs(score) > margin
    return X[keep], np.where(score[keep] > 0, 1, -1)


def test_selects_the_single_separating_feature_among_thousands(rng):
    X = rng.standard_normal((40, 3000))
    y = np.where(np.arange(40) < 20, 1, -1)
    X[:, 1234] = y * rng.uniform(0.5, 2.0, 40)  # separates, by itself, with a gap
    sfm = SupportFeatureMachine().fit(X, y)
    assert np.flatnonzero(sfm.support_).tolist() == [1234]
    assert sfm.score(X, y) == 1.0


def test_selects_exactly_the_two_features_needed(rng):
    X, y = separable_in_features(200, 2000, [7, 42], rng, margin=0.3)
    for j in (7, 42):  # neither relevant feature separates alone
        assert X[y > 0, j].min() < X[y < 0, j].max()
    sfm = SupportFeatureMachine().fit(X, y)
    assert np.flatnonzero(sfm.support_).tolist() == [7, 42]


def test_soft_sfm_as_c_to_zero_selects_the_largest_mean_difference(rng):
    X, y = make_basic(60, 200, 5, class_distance=0.5, random_state=1)
    Xs = SFMScaler().fit_transform(X)
    best = np.argmax(np.abs(Xs[y > 0].mean(0) - Xs[y < 0].mean(0)))
    for C in (1e-3, 1e-5):
        sfm = SupportFeatureMachine(C=C).fit(X, y)
        assert np.flatnonzero(sfm.support_).tolist() == [best]
        assert sfm.equality_sign_ == 1.0


@pytest.mark.parametrize("C", [1e-4, 1e-2, 0.1])
def test_balanced_class_weight_keeps_the_small_class(rng, C):
    X = rng.standard_normal((100, 50))
    y = np.where(np.arange(100) < 90, 1, -1)  # 90 vs 10
    X[:, :3] += 0.8 * y[:, None]
    sfm = SupportFeatureMachine(C=C, class_weight="balanced").fit(X, y)
    assert sfm.support_.sum() >= 1
    assert np.any(sfm.coef_ != 0)
    predictions = sfm.predict(X)
    assert set(np.unique(predictions)) == {-1, 1}  # not a majority classifier
    assert np.mean(predictions[y < 0] == -1) > 0.5


@pytest.mark.parametrize("params", [
    dict(), dict(equality="mean_margin"), dict(C=0.5), dict(C=0.5, reweight_slack=False),
    dict(C=2.0, class_weight="balanced"),
])
def test_objective_never_increases(params):
    X, y = make_basic(80, 300, 10, class_distance=0.4, separable="C" not in params, random_state=3)
    h = SupportFeatureMachine(**params).fit(X, y).history_
    assert np.all(np.diff(h["n_features"]) <= 0)  # columns only ever leave
    # Majorise-minimise: the previous iterate is feasible for the next LP and costs
    # exactly objective[t-1] there, so the next LP optimum cannot exceed it.
    assert np.all(h["lp_objective"][1:] <= h["objective"][:-1] + 1e-7)
    if params.get("reweight_slack", True):  # l0 objective is monotone when slack is reweighted
        assert np.all(np.diff(h["objective"]) <= 1e-9)


def test_hard_sfm_on_non_separable_data_says_to_pass_C():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 0, 1])
    with pytest.raises(NotSeparableError, match=r"Pass a softness C"):
        SupportFeatureMachine().fit(X, y)
    assert SupportFeatureMachine(C=1.0).fit(X, y).support_.tolist() == [True]


def test_decision_function_is_linear_in_input_space(rng):
    X, y = make_weston(40, 200, random_state=2)
    sfm = SupportFeatureMachine().fit(X, y)
    np.testing.assert_allclose(sfm.decision_function(X), X @ sfm.coef_.ravel() + sfm.intercept_[0])
    assert np.all(sfm.coef_[0, ~sfm.support_] == 0)
    assert sfm.score(X, y) == 1.0  # hard SFM + hard-margin refit separates the training data


@pytest.mark.parametrize("refit", ["svm", "center", None, LinearSVC(C=10.0)])
def test_refit_changes_the_hyperplane_not_the_selection(refit):
    X, y = make_weston(50, 300, random_state=4)
    reference = SupportFeatureMachine(refit=None).fit(X, y)
    sfm = SupportFeatureMachine(refit=refit).fit(X, y)
    np.testing.assert_array_equal(sfm.support_, reference.support_)
    np.testing.assert_array_equal(sfm.scaled_coef_, reference.scaled_coef_)
    if refit == "svm":
        # Hard-margin SVM on the selected features: every training margin >= 1 (scaled space).
        Xs = sfm.scaler_.transform(X)[:, sfm.support_]
        w = sfm.coef_.ravel()[sfm.support_] / sfm.scaler_.feature_factor_[sfm.support_]
        b = sfm.decision_function(X)[0] - Xs[0] @ w
        assert np.min(y * (Xs @ w + b)) >= 1 - 1e-6


def test_hard_fit_svm_refit_is_its_own_separation_proof(monkeypatch):
    # The certified hard-margin SVM of the selected features has every margin >= 1, so
    # neither separability LP runs - and the hyperplane is linear_svm's.
    from sfmlearn.lp import separability
    from sfmlearn.optim import linear_svm, svm
    from sfmlearn.selection import _placement
    X, y = make_weston(50, 300, random_state=4)
    calls = []
    monkeypatch.setattr(svm, "separable", lambda *a, **k: calls.append("lp") or True)
    monkeypatch.setattr(_placement, "minimum_slack_hyperplane",
                        lambda *a, **k: calls.append("lp") or separability.minimum_slack_hyperplane(*a, **k))
    sfm = SupportFeatureMachine().fit(X, y)
    assert calls == []
    Xs = sfm.scaler_.transform(X)[:, sfm.support_]
    w, b = linear_svm(Xs, np.where(y > 0, 1.0, -1.0))
    np.testing.assert_allclose(sfm.decision_function(X), Xs @ w + b, rtol=1e-9, atol=1e-9)
    # With another refit the LP's hyperplane, moved off the samples on it, proves strict
    # separation: no LP either.
    calls.clear()
    SupportFeatureMachine(refit="center").fit(X, y)
    assert calls == []


def test_hard_fit_svm_refit_starts_from_the_samples_on_the_lp_margin(monkeypatch):
    # Wolfe's loop starts from the samples the last LP left on its (zero) margin: both
    # classes, every one of them on the LP's hyperplane; the answer is linear_svm's.
    from sfmlearn.optim import linear_svm
    from sfmlearn.selection import _placement
    X, y = make_weston(50, 300, random_state=4)
    starts = []
    solve = _placement.hard_margin_svm
    monkeypatch.setattr(_placement, "hard_margin_svm",
                        lambda X_sel, y_sel, start=None: starts.append(start) or solve(X_sel, y_sel, start=start))
    sfm = SupportFeatureMachine().fit(X, y)
    [start] = starts
    y_signed = np.where(y > 0, 1.0, -1.0)
    assert set(y_signed[start]) == {-1.0, 1.0}
    lp_plane = SupportFeatureMachine(refit=None).fit(X, y).decision_function(X)
    on_margin = np.abs(lp_plane) <= 1e-9 * np.abs(lp_plane).max()
    assert on_margin[start].all()
    Xs = sfm.scaler_.transform(X)[:, sfm.support_]
    w, b = linear_svm(Xs, y_signed)
    np.testing.assert_allclose(sfm.decision_function(X), Xs @ w + b, rtol=1e-9, atol=1e-9)


def test_hard_fit_svm_refit_on_weakly_separating_features_centres_as_before():
    # Two selected features leave samples on the zero-margin hyperplane: the SVM attempt
    # fails (quietly), the separability LPs decide, and the fit warns and centres.
    X, y = make_basic(40, 150, 30, class_distance=1.0, positive_fraction=0.5,
                      separable=False, random_state=3)
    X = np.where(np.abs(X) > 1.0, X, 0.0)
    with pytest.warns(UserWarning) as record:
        sfm = SupportFeatureMachine().fit(X, y)
    messages = [str(r.message) for r in record]
    assert any("only weakly" in m for m in messages)
    assert not any("refit failed" in m for m in messages)
    centred = SupportFeatureMachine(refit="center").fit(X, y)
    np.testing.assert_allclose(sfm.decision_function(X), centred.decision_function(X))


def test_best_threshold_takes_the_middle_of_the_widest_error_free_gap():
    projection = np.array([-3.0, -2.0, -1.0, 0.5, 2.5, 3.0])
    y = np.array([-1, -1, -1, 1, 1, 1])
    assert best_threshold(projection, y, np.ones(6)) == pytest.approx(0.25)
    # One positive outlier at -2.5: the best cut still errs once, in the widest gap.
    projection = np.array([-3.0, -2.5, -2.0, 1.0, 2.0, 3.0])
    y = np.array([-1, 1, -1, 1, 1, 1])
    assert best_threshold(projection, y, np.ones(6)) == pytest.approx(0.5)
    # Weights: a heavy negative class moves the cut to sacrifice the light positive.
    y = np.array([1, -1, -1, 1, 1, 1])
    w = np.array([1.0, 5.0, 5.0, 1.0, 1.0, 1.0])
    assert -best_threshold(projection, y, w) > -2.0


def test_dense_sparse_and_float32_agree():
    X, y = make_weston(40, 300, random_state=5)
    X[np.abs(X) < 5] = 0.0  # make sparse input meaningful
    dense = SupportFeatureMachine().fit(X, y)
    for Xin in (sp.csr_matrix(X), sp.csc_array(X), X.astype(np.float32)):
        other = SupportFeatureMachine().fit(Xin, y)
        np.testing.assert_array_equal(other.support_, dense.support_)
        np.testing.assert_allclose(other.decision_function(X), dense.decision_function(X), rtol=1e-5, atol=1e-6)


def test_scaling_decides_success_on_the_weston_benchmark():
    """Without standardisation the N(0, 20^2) noise features win the one-norm (NC A.2)."""
    relevant_scaled, relevant_raw = [], []
    for seed in range(5):
        X, y = make_weston(50, 1000, random_state=seed)
        relevant_scaled.append(np.mean(np.flatnonzero(SupportFeatureMachine().fit(X, y).support_) < 6))
        relevant_raw.append(np.mean(np.flatnonzero(SupportFeatureMachine(scale=False).fit(X, y).support_) < 6))
    assert np.mean(relevant_scaled) >= 0.8
    assert np.mean(relevant_raw) <= 0.5


def test_constant_features_are_never_selected(rng):
    X = rng.standard_normal((30, 60))
    y = np.where(np.arange(30) < 15, 1, -1)
    X[:, 5] = 7.0
    X[:, 6] = 0.0
    with pytest.warns(UserWarning, match=r"2 of 60 features are constant .*indices 5, 6\)"):
        sfm = SupportFeatureMachine().fit(X, y)
    assert not sfm.support_[5] and not sfm.support_[6]
    assert sfm.scaler_.constant_features_[[5, 6]].all()
    # Nothing varies: the real cause, not "the hard SFM has no solution".
    X_only_constant = np.ones((4, 2))
    for model in (SupportFeatureMachine(), SupportFeatureMachine(C=1.0)):
        with pytest.raises(DataValidationError, match="All 2 features are constant"):
            model.fit(X_only_constant, [0, 1, 0, 1])


def test_string_labels_pandas_names_pipeline_and_grid_search():
    X, y = make_weston(40, 30, random_state=6)
    labels = np.where(y > 0, "tumour", "normal")
    frame = pd.DataFrame(X, columns=[f"gene_{j}" for j in range(X.shape[1])])
    sfm = SupportFeatureMachine().fit(frame, labels)
    assert list(sfm.classes_) == ["normal", "tumour"]
    assert set(sfm.predict(frame)) <= {"normal", "tumour"}
    names = sfm.get_feature_names_out()
    assert list(names) == list(frame.columns[sfm.support_])
    assert sfm.transform(frame).shape == (40, sfm.support_.sum())
    pipe = make_pipeline(SupportFeatureMachine(C=1.0), LinearSVC())
    search = GridSearchCV(pipe, {"supportfeaturemachine__C": [0.1, 1.0]}, cv=3).fit(frame, labels)
    assert search.best_score_ > 0.7


@pytest.mark.parametrize("X, y, message", [
    ([[0.0, np.nan], [1.0, 2.0]], [0, 1], "NaN"),
    ([[0.0, np.inf], [1.0, 2.0]], [0, 1], "infinite"),
    ([[0.0], [1.0], [2.0]], [1, 1, 1], "only one class"),
    ([[0.0], [1.0], [2.0]], [0, 1, 2], "Only binary classification"),
    ([[0.0]], [1], "at least 2"),
    ([[0.0], [1.0]], [0, 1, 1], "different lengths"),
    (np.zeros((3, 0)), [0, 1, 0], "0 feature"),
    ([["a", "b"], ["c", "d"]], [0, 1], "non-numeric"),
    ([[0.0], [1.0]], [0.5, 1.7], "continuous"),
])
def test_bad_input_names_the_problem(X, y, message):
    with pytest.raises(DataValidationError, match=message):
        SupportFeatureMachine().fit(X, y)


@pytest.mark.parametrize("params, message", [
    (dict(C=0), "'C' parameter .* must be a float in the range \\(0.0, inf\\)"),
    (dict(C=-1.0), "'C' parameter"), (dict(C=float("nan")), "'C' parameter"),
    (dict(formulation="dense"), "formulation"), (dict(max_iter=0), "max_iter"),
    (dict(refit="magic"), "refit"), (dict(class_weight="auto"), "class_weight"),
    (dict(class_weight={0: 1.0}), "no entry"), (dict(solver="cplex"), "solver"),
])
def test_bad_parameters_name_the_problem(params, message):
    X, y = make_weston(20, 10, random_state=0)
    with pytest.raises(ValueError, match=message):
        SupportFeatureMachine(**{"C": 1.0, **params}).fit(X, y)


def test_mean_margin_equality_and_formulations_agree():
    X, y = make_weston(30, 100, random_state=7)
    supports = {
        (eq, form, solver): tuple(np.flatnonzero(
            SupportFeatureMachine(equality=eq, formulation=form, solver=solver).fit(X, y).support_))
        for eq in ("class_means", "mean_margin") for form in ("standard", "sparse")
        for solver in ("highs", "scipy")
    }
    for eq in ("class_means", "mean_margin"):
        assert len({v for k, v in supports.items() if k[0] == eq}) == 1


def test_subset_refitter_equals_fresh_fits_on_the_remaining_columns():
    from sfmlearn.selection._base import SubsetRefitter

    X, y = make_basic(60, 800, 40, class_distance=0.5, positive_fraction=0.5, separable=False, random_state=8)
    refitter = SubsetRefitter(SupportFeatureMachine(), X, y)
    removed = np.zeros(800, dtype=bool)
    for _ in range(4):
        model = refitter.fit(exclude=removed)
        keep = np.flatnonzero(~removed)
        fresh = SupportFeatureMachine().fit(X[:, keep], y)
        assert np.array_equal(np.flatnonzero(model.support_), keep[fresh.support_])
        assert not np.any(model.support_ & removed)
        np.testing.assert_allclose(model.decision_function(X), fresh.decision_function(X[:, keep]), atol=1e-8)
        removed |= model.support_


def test_hard_sfm_rejects_data_only_weakly_separable(rng):
    """A sample duplicated with the other label sits on any 'zero-margin' hyperplane."""
    X = rng.standard_normal((20, 5))
    y = np.where(np.arange(20) < 10, 1, -1)
    X = np.vstack([X, X[:1]])
    y = np.r_[y, -y[0]]
    with pytest.raises(NotSeparableError, match="not linearly separable"):
        SupportFeatureMachine().fit(X, y)
    with pytest.raises(NotSeparableError):
        WestonZeroNormSVM().fit(X, y)
    assert SupportFeatureMachine(C=1.0).fit(X, y).n_training_errors_ >= 1


@pytest.mark.parametrize("estimator", [SupportFeatureMachine, WestonZeroNormSVM])
@pytest.mark.parametrize("C", [1e12, 1e15, 1e300])
def test_a_softness_beyond_what_the_lps_resolve_is_refused_naming_the_hard_problem(estimator, C):
    from sklearn.utils._param_validation import InvalidParameterError
    X, y = make_basic(n_samples=40, n_features=30, random_state=0)
    with pytest.raises(InvalidParameterError, match=r"above 1e\+10.*C=None for the hard problem"):
        estimator(C=C).fit(X, y)


def test_the_largest_softness_gives_the_hard_sfm_on_separable_data():
    X, y = make_basic(n_samples=40, n_features=30, random_state=0)
    hard = SupportFeatureMachine().fit(X, y)
    largest = SupportFeatureMachine(C=1e10).fit(X, y)
    assert np.array_equal(largest.get_support(), hard.get_support())


@pytest.mark.parametrize("factor, scale, message", [
    (1e-310, True, "subnormal number"),
    (1e-310, False, "subnormal number"),
    (1e300, False, r"above the 1e\+15 the LP solvers accept"),
])
def test_values_the_lps_cannot_represent_are_refused_naming_the_fix(factor, scale, message):
    """Such data used to end in overflow warnings and a wrong "not separable"."""
    X, y = make_basic(n_samples=40, n_features=30, random_state=0)
    with pytest.raises(DataValidationError, match=message):
        SupportFeatureMachine(scale=scale).fit(X * factor, y)


@pytest.mark.parametrize("sparse", [False, True])
def test_an_unscaled_column_below_the_solvers_smallest_coefficient_is_refused(sparse):
    """HiGHS reads |x| < 1e-9 as 0: unscaled, the one separating column looked constant and
    the data 'not separable'; scaled, it is selected."""
    X, y = make_weston(n_samples=30, n_noise=14, random_state=0)
    X[:, 0] = np.where(y > 0, 1.0, -1.0) * 1e-10 * (1 + np.arange(30) % 3)
    data = sp.csr_matrix(X) if sparse else X
    with pytest.raises(DataValidationError, match=r"column 0 of X varies but holds values no larger than 3e-10 .*"
                                                  "keep scale=True"):
        SupportFeatureMachine(scale=False).fit(data, y)
    assert SupportFeatureMachine().fit(data, y).get_support()[0]


def test_a_standardised_constant_column_of_round_off_is_no_tiny_column():
    """StandardScaler turns a constant column into round-off (about 1e-17): a constant feature
    as before, not a column the solver cannot see."""
    X, y = make_weston(n_samples=30, n_noise=14, random_state=0)
    X[:, 5] = 0.1
    Z = StandardScaler().fit_transform(X)
    assert 0 < np.abs(Z[:, 5]).max() < 1e-9
    with pytest.warns(ConstantFeatureWarning):
        model = SupportFeatureMachine(C=1.0, scale=False).fit(Z, y)
    assert not model.get_support()[5] and model.score(Z, y) > 0.9


def test_a_column_whose_range_exceeds_the_largest_float_is_refused_not_called_inseparable():
    X, y = make_weston(n_samples=30, n_noise=14, random_state=0)
    X[:, 10] = 1e308
    X[0, 10] = -1e308  # centring gives -2e308: it overflowed to -inf, and the LP found no separation
    with pytest.raises(DataValidationError, match="column 10 of X runs from -1e\\+308 to 1e\\+308"):
        SupportFeatureMachine().fit(X, y)
    Z = SFMScaler().fit_transform(X)  # the scaler alone scales before it centres such a column
    assert np.isfinite(Z).all() and np.allclose(Z.mean(axis=0), 0.0)


def test_a_refit_that_is_not_linear_is_named_and_leaves_the_estimator_unfitted():
    from sklearn.exceptions import NotFittedError
    from sklearn.svm import SVC
    X, y = make_weston(n_samples=40, n_noise=30, random_state=0)
    model = SupportFeatureMachine().fit(X, y)
    with pytest.raises(DataValidationError, match="no linear coef_"):
        model.set_params(refit=SVC()).fit(X[:, :10], y)
    with pytest.raises(NotFittedError):  # not the last fit's 36 weights beside the new data's 10 features
        model.predict(X[:, :10])
    assert SupportFeatureMachine(refit=SVC(kernel="linear")).fit(X, y).coef_.shape == (1, X.shape[1])


@pytest.mark.parametrize("method", ["predict", "decision_function", "predict_proba", "transform"])
def test_data_without_the_fitted_feature_names_warn_once_per_call(method):
    import warnings
    X, y = make_weston(n_samples=40, n_noise=30, random_state=0)
    model = SupportFeatureMachine().fit(pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]), y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(model, method)(X)
    assert sum("feature names" in str(w.message) for w in caught) == 1


def test_a_dataframe_with_repeated_column_names_is_refused_naming_them():
    X, y = make_weston(n_samples=30, n_noise=10, random_state=0)
    frame = pd.DataFrame(X, columns=["a", "a"] + [f"f{j}" for j in range(2, X.shape[1])])
    with pytest.raises(DataValidationError, match="repeated column names \\('a' 2 times\\)"):
        SupportFeatureMachine(C=1.0).fit(frame, y)
    frame.columns = list("aabbccdd") + [f"f{j}" for j in range(8, X.shape[1])]
    with pytest.raises(DataValidationError, match="'c' 2 times and 1 more\\)"):
        SupportFeatureMachine(C=1.0).fit(frame, y)


def test_transform_keeps_a_dataframe_with_pandas_output_and_every_sparse_format():
    X, y = make_weston(n_samples=40, n_noise=30, random_state=0)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])], index=[f"s{i}" for i in range(40)])
    model = SupportFeatureMachine(C=1.0).fit(frame, y).set_output(transform="pandas")
    out = model.transform(frame)
    assert list(out.columns) == list(frame.columns[model.support_]) and list(out.index) == list(frame.index)
    plain = SupportFeatureMachine(C=1.0).fit(X, y)
    for as_sparse in (sp.coo_matrix, sp.csc_array):  # COO cannot be column-indexed as given
        np.testing.assert_array_equal(plain.transform(as_sparse(X)).toarray(), plain.transform(X))
    for dtype in (np.int64, np.float32, bool):  # like scikit-learn's selectors, an array keeps its dtype
        assert plain.transform(X.astype(dtype)).dtype == dtype


@pytest.mark.parametrize("duplicated", [False, True])
def test_classes_with_the_same_mean_on_every_feature_are_refused_by_the_soft_sfm_in_plain_words(duplicated):
    """XOR patterns, or the same rows under both labels: (mu+ - mu-) . w = +-1 cannot hold."""
    from sfmlearn import RepetitiveSFM, StabilitySelection, SupportFeatureMachineCV

    if duplicated:
        rows = np.random.default_rng(0).normal(size=(10, 3))
        X, y = np.vstack([rows, rows]), np.repeat(["a", "b"], 10)
    else:
        X = np.tile([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], (10, 1))
        y = np.tile(["a", "b", "b", "a"], 10)
    for model in (SupportFeatureMachine(C=1.0), SupportFeatureMachineCV(), StabilitySelection(n_pairs=2),
                  RepetitiveSFM(SupportFeatureMachine(C=1.0))):
        with pytest.raises(DataValidationError, match=r"same mean on every feature .* \(mu\+ - mu-\) \. w = \+-1 "
                                                      r"\(NC eq. 2.6\) cannot hold"):
            model.fit(X, y)
    with pytest.raises(NotSeparableError):  # equal means: no hyperplane separates the classes
        SupportFeatureMachine().fit(X, y)
    with pytest.warns(UserWarning, match="selected no feature"):  # no equality: w = 0 is a solution
        assert WestonZeroNormSVM(C=1.0).fit(X, y).n_features_in_ == X.shape[1]
