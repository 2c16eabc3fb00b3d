"""SupportFeatureMachineCV / WestonZeroNormSVMCV: the choice of C, the folds,
the refit, selection frequencies, and no peeking at an outer test fold."""

import warnings

import numpy as np
import pytest
from scipy.special import expit
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn import (SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM,
                      WestonZeroNormSVMCV)
from sfmlearn.datasets import make_weston
from sfmlearn.preprocessing import SFMScaler
from sfmlearn.selection._probability import fit_platt
from sfmlearn.selection.sfm.softness_cv import choose_C

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::sklearn.exceptions.ConvergenceWarning")


@pytest.fixture(scope="module")
def data():
    return make_weston(n_samples=60, n_noise=60, random_state=3)


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    return {select: SupportFeatureMachineCV(select=select, Cs=8, align="C", n_repeats=1, random_state=0).fit(X, y)
            for select in ("best", "1se")}


@pytest.fixture(scope="module")
def aligned(data):
    """The choice along the path alone (no repetitive-SFM unions)."""
    X, y = data
    return {select: SupportFeatureMachineCV(select=select, Cs=8, n_repeats=1, max_repetitions=0,
                                            random_state=0).fit(X, y)
            for select in ("best", "1se")}


def test_one_standard_error_rule_selects_no_more_features_than_best(fitted):
    best, one_se = fitted["best"], fitted["1se"]
    np.testing.assert_array_equal(best.Cs_, one_se.Cs_)
    features = best.cv_results_["mean_n_features"]
    assert features[one_se.best_index_] <= features[best.best_index_]
    mean, sem = best.cv_results_["mean_test_score"], best.cv_results_["sem_test_score"]
    assert mean[one_se.best_index_] >= mean.max() - sem[np.argmax(mean)] - 1e-12


def test_choose_C_rules_on_a_hand_made_table():
    mean = np.array([0.70, 0.84, 0.86, 0.85])
    sem = np.array([0.02, 0.02, 0.03, 0.02])
    features = np.array([1.0, 2.0, 5.0, 4.0])
    assert choose_C(mean, sem, features, "best") == 2
    assert choose_C(mean, sem, features, "1se") == 1  # 0.84 >= 0.86 - 0.03 with 2 features
    assert choose_C(np.array([0.9, 0.9]), sem[:2], np.array([3.0, 2.0]), "best") == 1  # ties: fewer


def test_refit_on_all_data_at_the_chosen_C(data, fitted):
    X, y = data
    model = fitted["best"]
    assert model.C_ == model.Cs_[model.best_index_]
    reference = SupportFeatureMachine(C=model.C_, class_weight="balanced").fit(X, y)
    np.testing.assert_array_equal(model.support_, reference.support_)
    np.testing.assert_allclose(model.coef_, reference.coef_)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))
    for name in ("scaled_coef_", "n_iter_", "history_", "n_training_errors_", "classes_"):
        assert hasattr(model, name)
    keys = {"C", "mean_test_score", "std_test_score", "sem_test_score", "mean_n_features",
            "rank_test_score", "split0_test_score", "split0_n_features"}
    assert keys <= set(model.cv_results_)
    assert model.transform(X).shape[1] == model.support_.sum()


def test_selection_frequency_equals_a_hand_count(data):
    X, y = data
    folds = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    C = 0.8
    model = SupportFeatureMachineCV(Cs=[C], cv=folds, class_weight=None).fit(X, y)
    # each fold is fitted at C n / n_train (C is a per-sample cost; module docstring)
    supports = [SupportFeatureMachine(C=C * len(y) / len(train)).fit(X[train], y[train]).support_
                for train, _ in folds]
    expected = np.mean(supports, axis=0)
    np.testing.assert_array_equal(model.selection_frequency_, expected)
    # predict_proba's sigmoid is fitted to the folds' held-out signed distances to their
    # hyperplanes in the SFM's scaled space: decision value / ||w / f|| (f: SFMScaler's factors)
    held_out = []
    for train, test in folds:
        fit = SupportFeatureMachine(C=C * len(y) / len(train)).fit(X[train], y[train])
        factor = SFMScaler().fit(X[train]).feature_factor_
        held_out.append(fit.decision_function(X[test]) / np.linalg.norm(fit.coef_[0] / factor))
    signed = np.concatenate([np.where(y[test] == model.classes_[1], 1, -1) for _, test in folds])
    slope, _ = fit_platt(np.concatenate(held_out), signed, fit_intercept=False)
    assert model.probability_slope_ == pytest.approx(slope)
    assert model.probability_intercept_ == 0.0
    scale = np.linalg.norm(model.coef_[0] / SFMScaler().fit(X).feature_factor_)
    assert model.decision_scale_ == pytest.approx(scale)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], expit(-slope * model.decision_function(X) / scale),
                               rtol=1e-6)
    np.testing.assert_array_equal(model.fold_supports_, supports)
    assert 0 < expected.max() <= 1 and set(np.unique(expected * 3)) <= {0.0, 1.0, 2.0, 3.0}


def _planted_leak(n=60, d=40, folds=3, seed=0):
    """Noise data with one planted feature per outer fold that equals the label on that
    fold's test samples only (noise on the training samples): only a fit that saw the
    test fold can find it."""
    rng = np.random.default_rng(seed)
    y = np.tile([0, 1], n // 2)
    X = rng.normal(size=(n, d + folds))
    outer = list(StratifiedKFold(folds, shuffle=True, random_state=seed).split(X, y))
    for f, (_, test) in enumerate(outer):
        X[test, d + f] = 4.0 * (2 * y[test] - 1)
    return X, y, outer


def test_nested_in_cross_val_score_it_never_sees_the_test_fold():
    X, y, outer = _planted_leak()
    model = SupportFeatureMachineCV(Cs=4, n_repeats=1, random_state=0)
    # The detector works: a fit that sees the test fold (train on train + test) finds the
    # planted feature and scores almost perfectly.
    leaky = [SupportFeatureMachineCV(Cs=4, n_repeats=1, random_state=0).fit(X, y).score(X[test], y[test])
             for _, test in outer]
    assert np.mean(leaky) > 0.9
    honest = cross_val_score(model, X, y, cv=outer, scoring="balanced_accuracy")
    assert np.mean(honest) < 0.75


def test_groups_keep_every_group_in_one_fold(data):
    X, y = data
    groups = np.arange(len(y)) % 4
    model = SupportFeatureMachineCV(Cs=3).fit(X, y, groups=groups)
    assert model.n_splits_ == 4  # leave one group out


def test_weston_cv_and_parallel_folds_agree(data):
    X, y = data
    serial = WestonZeroNormSVMCV(Cs=4, cv=3, n_repeats=2, random_state=0).fit(X, y)
    parallel = WestonZeroNormSVMCV(Cs=4, cv=3, n_repeats=2, random_state=0, n_jobs=2).fit(X, y)
    assert serial.C_ == parallel.C_
    np.testing.assert_array_equal(serial.selection_frequency_, parallel.selection_frequency_)
    assert serial.C_ in serial.Cs_


@pytest.mark.parametrize("cv_class, base_class, own", [
    (SupportFeatureMachineCV, SupportFeatureMachine, {"method", "time_limit"}),
    (WestonZeroNormSVMCV, WestonZeroNormSVM, set()),
])
def test_cv_parameters_are_the_base_parameters_with_the_base_defaults(cv_class, base_class, own):
    # One declaration serves both: every parameter the CV version passes on has the
    # base's constraint and the base's default, except the documented default of the
    # automatic choice (the SFM's balanced classes).
    cv_params, base_params = cv_class().get_params(), base_class().get_params()
    passed_on = set(base_params) - {"C"} - own
    assert passed_on <= set(cv_params)
    changed = {k for k in passed_on if cv_params[k] != base_params[k]}
    expected = {"class_weight": "balanced"} if cv_class is SupportFeatureMachineCV else {}
    assert {k: cv_params[k] for k in changed} == expected
    for name in passed_on:
        assert cv_class._parameter_constraints[name] is base_class._parameter_constraints[name]
    own_cv = {"max_repetitions"} if cv_class is SupportFeatureMachineCV else set()
    assert set(cv_params) - passed_on == {"Cs", "cv", "n_repeats", "align", "select", "scoring", "n_jobs",
                                          "random_state"} | own_cv


def test_aligned_choice_takes_the_full_path_densest_fit_within_the_chosen_budget(data, aligned):
    X, y = data
    from sfmlearn import sfm_path
    from sfmlearn.model_selection import densest_within_budget

    for model in aligned.values():
        path = sfm_path(X, y, model.Cs_, estimator=SupportFeatureMachine(class_weight="balanced"))
        assert model.best_index_ == densest_within_budget(path.n_features, model.budget_)
        assert model.support_.sum() <= model.budget_
        np.testing.assert_array_equal(model.support_, path.supports[model.best_index_])
        np.testing.assert_allclose(model.coef_, path.coefs[model.best_index_][None, :])
        np.testing.assert_array_equal(model.candidate_supports_[:model.Cs_.size], path.supports)
    assert aligned["1se"].budget_ <= aligned["best"].budget_


def test_budget_results_are_the_fold_scores_aligned_by_size(aligned):
    model = aligned["best"]
    from sfmlearn.model_selection import scores_within_budget

    folds = model.n_splits_
    scores = np.array([model.cv_results_[f"split{f}_test_score"] for f in range(folds)])
    sizes = np.array([model.cv_results_[f"split{f}_n_features"] for f in range(folds)])
    budgets = model.budget_results_["n_features"]
    np.testing.assert_allclose(model.budget_results_["mean_test_score"],
                               np.nanmean(scores_within_budget(scores, sizes, budgets), axis=0))
    complete = model.budget_results_["n_folds_within"] == folds
    best = budgets[complete][np.argmax(model.budget_results_["mean_test_score"][complete])]
    assert model.budget_ == best
    # every inner fit's chosen support respects the budget
    assert model.fold_supports_.sum(axis=1).max() <= model.budget_


def test_repeats_reshuffle_a_k_fold_split_and_leave_a_fixed_scheme_alone(data):
    X, y = data
    repeated = SupportFeatureMachineCV(Cs=3, cv=3, n_repeats=2, random_state=0).fit(X, y)
    assert repeated.n_splits_ == 6
    groups = np.arange(len(y)) % 4
    fixed = SupportFeatureMachineCV(Cs=3, n_repeats=2).fit(X, y, groups=groups)
    assert fixed.n_splits_ == 4


def test_a_choice_that_would_run_for_hours_is_refused_before_any_fit(data):
    X, y = data
    from sfmlearn.exceptions import DataValidationError

    with pytest.raises(DataValidationError, match="exceeds the limit"):
        SupportFeatureMachineCV(Cs=1000, cv="loo").fit(X, y)
    # 300 values of C x 60 leave-one-out folds fit the limit; the repetitive SFM's fits count too
    with pytest.raises(DataValidationError, match=r"300 values of C \+ 100 repetitions x 60 folds = 24000 fits"):
        SupportFeatureMachineCV(Cs=300, cv="loo", max_repetitions=100).fit(X, y)
    with pytest.raises(InvalidParameterError, match="max_repetitions"):
        SupportFeatureMachineCV(max_repetitions=101).fit(X, y)


@pytest.fixture(scope="module")
def spread():
    """Forty weakly informative features of 200: the path alone stops at a few."""
    from sfmlearn.datasets import make_basic

    X, y = make_basic(60, 200, 40, class_distance=0.6, random_state=0)
    return X, y, SupportFeatureMachineCV(Cs=6, n_repeats=1, random_state=0).fit(X, y)


def test_the_choice_can_take_a_union_of_repetitive_subsets_beyond_the_path(spread):
    from sfmlearn.selection._placement import logistic_on_selected
    from sfmlearn.selection.repetitive import RepetitiveSFM

    X, y, model = spread
    n_path = model.Cs_.size
    assert model.n_subsets_ > 0 and model.C_ is None and model.best_index_ >= n_path
    sizes = model.candidate_supports_.sum(axis=1)
    assert sizes[n_path:].min() > sizes[:n_path].max()  # the unions go on where the path ends
    assert model.support_.sum() == sizes[model.best_index_] <= model.budget_
    assert (sizes[model.best_index_ + 1:] > model.budget_).all()  # the densest within the budget
    np.testing.assert_array_equal(model.support_, model.candidate_supports_[model.best_index_])
    # the estimator: the repetitive SFM of the run behind the unions, as its own fit would be
    refitted = RepetitiveSFM(SupportFeatureMachine(refit=None), n_subsets=model.n_subsets_,
                             max_repetitions=model.max_repetitions, chance_alpha=None).fit(X, y)
    assert isinstance(model.estimator_, RepetitiveSFM) and model.estimator_.n_subsets_ == model.n_subsets_
    np.testing.assert_array_equal(model.estimator_.get_support(), refitted.get_support())
    np.testing.assert_array_equal(model.estimator_.ranking_, refitted.ranking_)
    np.testing.assert_array_equal(model.estimator_.transform(X), refitted.transform(X))
    assert model.estimator_.stop_reason_ == refitted.stop_reason_
    np.testing.assert_array_equal(model.support_, refitted.support_)
    # the same subsets as the default repetitive SFM (whose base places a hyperplane)
    default_base = RepetitiveSFM(max_repetitions=model.max_repetitions).fit(X, y)
    assert [s.tolist() for s in default_base.subsets_] == [s.tolist() for s in model.estimator_.subsets_]
    # the classifier: balanced logistic regression on the union, in the input space
    chosen = np.flatnonzero(model.support_)
    y_signed = np.where(y == model.classes_[1], 1.0, -1.0)
    weights = np.where(y_signed > 0, y.size / (2.0 * (y_signed > 0).sum()), y.size / (2.0 * (y_signed < 0).sum()))
    w, b = logistic_on_selected(X[:, chosen], y_signed, weights)
    np.testing.assert_allclose(model.coef_[0, chosen], w, rtol=1e-6, atol=1e-9)
    assert not model.coef_[0, ~model.support_].any()
    np.testing.assert_allclose(model.decision_function(X), X[:, chosen] @ w + b, rtol=1e-6, atol=1e-9)
    assert (model.predict(X) == model.classes_[(X[:, chosen] @ w + b > 0).astype(int)]).all()


def test_a_chosen_union_keeps_the_feature_names(spread):
    pd = pytest.importorskip("pandas")
    X, y, model = spread
    frame = pd.DataFrame(X, columns=[f"gene{j}" for j in range(X.shape[1])])
    named = SupportFeatureMachineCV(Cs=6, n_repeats=1, random_state=0).fit(frame, y)
    assert named.n_subsets_ == model.n_subsets_ > 0
    expected = frame.columns[model.support_].tolist()
    assert named.get_feature_names_out().tolist() == expected
    assert named.estimator_.get_feature_names_out().tolist() == expected
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "fitted without feature names" warning
        assert named.estimator_.transform(frame).shape == (X.shape[0], len(expected))


def test_without_repetitions_the_candidates_are_the_path(spread):
    X, y, model = spread
    path_only = SupportFeatureMachineCV(Cs=6, n_repeats=1, max_repetitions=0, random_state=0).fit(X, y)
    assert path_only.n_subsets_ == 0 and path_only.C_ == path_only.Cs_[path_only.best_index_]
    np.testing.assert_array_equal(path_only.candidate_supports_, model.candidate_supports_[:model.Cs_.size])
    # the unions won the inner CV where the path alone stopped
    assert model.budget_results_["mean_test_score"].max() > path_only.budget_results_["mean_test_score"].max()


def test_a_refit_leaves_no_attribute_of_the_previous_fit(spread):
    """A union chosen, then a refit by C: the budget, the candidates and the repetitive
    SFM's attributes of the first fit must not describe the second model."""
    from sklearn.base import clone

    X, y, model = spread
    first = clone(model).fit(X, y)
    assert first.n_subsets_ > 0 and hasattr(first, "subsets_by_size_") and hasattr(first, "budget_")
    second = first.set_params(align="C", Cs=4).fit(X, y)
    fresh = clone(second).fit(X, y)
    assert sorted(k for k in vars(second) if k.endswith("_")) == sorted(k for k in vars(fresh) if k.endswith("_"))
    assert not hasattr(second, "budget_") and not hasattr(second, "subsets_by_size_")


@pytest.mark.parametrize("Cs, shown", [([-1.0, 1.0], r"\[-1.0, 1.0\]"), ([np.nan, 1.0], r"\[nan, 1.0\]"), ([], r"\[\]"),
                                       (["a", "b"], r"\['a', 'b'\]")])
def test_a_grid_of_bad_values_is_refused_as_given_before_any_fit(data, Cs, shown, monkeypatch):
    from sfmlearn.selection.sfm import softness_cv

    monkeypatch.setattr(softness_cv, "fold_candidates", lambda *a, **k: pytest.fail("fitted before the check"))
    with pytest.raises(ValueError, match=f"(finite positive softness|numbers).*got {shown}"):
        SupportFeatureMachineCV(Cs=Cs).fit(*data)


def test_a_scorer_sees_the_users_labels_and_one_needing_probabilities_is_refused(data, monkeypatch):
    from sklearn.metrics import f1_score, make_scorer

    from sfmlearn.exceptions import DataValidationError
    from sfmlearn.selection.sfm import softness_cv

    X, y01 = data
    y = np.where(y01 == y01.max(), "tumor", "normal")
    seen = set()

    def tumor_f1(model, X_test, y_test):
        seen.update(np.unique(y_test).tolist() + np.unique(model.predict(X_test)).tolist())
        np.testing.assert_array_equal(model.predict(X_test) == "tumor", model.decision_function(X_test) > 0)
        rows = [int(np.flatnonzero((X == x).all(axis=1))[0]) for x in X_test]
        np.testing.assert_array_equal(y_test, y[rows])  # the fold's true labels, in the user's names
        return f1_score(y_test, model.predict(X_test), pos_label="tumor")

    model = SupportFeatureMachineCV(Cs=4, n_repeats=1, max_repetitions=0, scoring=tumor_f1, random_state=0).fit(X, y)
    assert seen == {"normal", "tumor"} and np.isfinite(model.cv_results_["mean_test_score"]).all()
    pos_label = make_scorer(f1_score, pos_label="tumor")
    with_pos_label = SupportFeatureMachineCV(Cs=4, n_repeats=1, max_repetitions=0, scoring=pos_label,
                                             random_state=0).fit(X, y)
    np.testing.assert_allclose(with_pos_label.cv_results_["mean_test_score"], model.cv_results_["mean_test_score"])
    monkeypatch.setattr(softness_cv, "fold_candidates", lambda *a, **k: pytest.fail("fitted before the check"))
    with pytest.raises(DataValidationError, match="scoring='neg_log_loss' needs predicted probabilities"):
        SupportFeatureMachineCV(scoring="neg_log_loss").fit(X, y)
    from sklearn.metrics import roc_auc_score

    with pytest.raises(DataValidationError, match="needs predicted probabilities"):
        SupportFeatureMachineCV(scoring=make_scorer(roc_auc_score, response_method=("predict_proba",))).fit(X, y)


def test_settings_and_labels_are_named_in_plain_words():
    from sfmlearn.exceptions import DataValidationError
    X = np.random.default_rng(0).normal(size=(20, 5))
    y = np.r_[np.ones(10), -np.ones(10)]
    with pytest.raises(InvalidParameterError) as cv_error:
        SupportFeatureMachineCV(cv=1).fit(X, y)
    assert str(cv_error.value).count("[2, inf)") == 1
    with pytest.raises(InvalidParameterError, match="'n_jobs' parameter"):
        SupportFeatureMachineCV(n_jobs=0).fit(X, y)
    with pytest.raises(DataValidationError, match=r"only one class \(1.0\)"):
        SupportFeatureMachine(C=1.0).fit(X, np.ones(20))
    with pytest.raises(DataValidationError, match=r"no entry for classes \[-1.0\]"):
        SupportFeatureMachine(C=1.0, class_weight={1.0: 2.0}).fit(X, y)


@pytest.fixture
def no_fit(monkeypatch):
    """Fail the test if the choice fits anything (the grid or a fold)."""
    from sfmlearn.selection.sfm import softness_cv

    monkeypatch.setattr(softness_cv, "fold_candidates", lambda *a, **k: pytest.fail("fitted before the check"))
    monkeypatch.setattr(softness_cv, "default_Cs", lambda *a, **k: pytest.fail("fitted the grid before the check"))


def test_a_scorer_that_cannot_score_the_folds_is_refused_before_any_fit(data, no_fit):
    from sfmlearn.exceptions import DataValidationError

    X, y01 = data
    with pytest.raises(DataValidationError, match=r"scoring='roc_auc' has no value on a test fold that holds one "
                                                   r"class \(fold 0 holds only '-?1.0'.*e\.g\. cv=5"):
        SupportFeatureMachineCV(cv="loo", scoring="roc_auc").fit(X, y01)
    groups = np.where(y01 == y01.max(), np.arange(y01.size) % 3, 3 + np.arange(y01.size) % 3)  # one class each
    with pytest.raises(DataValidationError, match="holds one class"):
        SupportFeatureMachineCV(scoring="roc_auc", align="C").fit(X, y01, groups=groups)
    y = np.where(y01 == y01.max(), "tumor", "normal")
    with pytest.raises(DataValidationError, match=r"scoring='f1' cannot score the test folds of labels normal, "
                                                   r"tumor: pos_label=1 is not a valid label.*pos_label=\.\.\."):
        SupportFeatureMachineCV(scoring="f1").fit(X, y)
    with pytest.raises(InvalidParameterError, match=r"SupportFeatureMachineCV: scoring='foo' is not a scorer; "
                                                    r"pass a name of sklearn.metrics.get_scorer_names\(\)"):
        SupportFeatureMachineCV(scoring="foo").fit(X, y)


def test_a_grid_that_the_folds_would_scale_above_the_largest_softness_is_refused_in_the_users_units(data, no_fit):
    from sfmlearn import StabilitySelection

    X, y = data  # 60 samples: 5 folds train on 48, C x 1.25; halves on 30, C x 2
    with pytest.raises(InvalidParameterError, match=r"Cs holds 9e\+09, .* C x 1.25 .* = 1.12e\+10, above the "
                                                    r"largest softness 1e\+10; pass Cs at most 8e\+09"):
        SupportFeatureMachineCV(Cs=[1.0, 9e9]).fit(X, y)
    with pytest.raises(InvalidParameterError, match=r"C x 2 .*pass Cs at most 5e\+09"):
        StabilitySelection(Cs=[6e9]).fit(X, y)
    with pytest.raises(InvalidParameterError, match=r"flat list of softness values; got shape \(1, 2\)"):
        SupportFeatureMachineCV(Cs=[[1.0, 2.0]]).fit(X, y)


def test_a_failed_fit_leaves_the_estimator_unfitted(data):
    from sklearn.exceptions import NotFittedError

    from sfmlearn.exceptions import DataValidationError

    X, y = data
    model = SupportFeatureMachineCV(Cs=3, n_repeats=1, max_repetitions=0, random_state=0).fit(X, y)
    assert hasattr(model, "coef_")
    model.set_params(cv="loo", scoring="roc_auc")
    with pytest.raises(DataValidationError):
        model.fit(X, y)
    assert not [key for key in vars(model) if key.endswith("_") and not key.startswith("_")]
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_tied_scores_share_their_rank_as_in_grid_search():
    X, y = make_weston(n_samples=40, n_noise=30, random_state=1)
    model = SupportFeatureMachineCV(Cs=8, align="C", n_repeats=1, random_state=0).fit(X, y)
    mean, rank = model.cv_results_["mean_test_score"], model.cv_results_["rank_test_score"]
    assert np.unique(mean).size < mean.size  # the data give ties
    np.testing.assert_array_equal(rank, [1 + np.sum(mean > m) for m in mean])
    assert rank[model.best_index_] == 1


def test_test_folds_of_one_class_are_named_with_the_fix(data):
    """Leave one patient out with one diagnosis per patient: each fold's balanced accuracy
    is one class's recall, and the mean weights the classes by their patients."""
    X, y = data
    one_class_groups = np.where(y == y.max(), np.arange(y.size) % 3, 3 + np.arange(y.size) % 3)
    options = {"Cs": 3, "max_repetitions": 0, "random_state": 0}
    with pytest.warns(UserWarning, match=r"6 of the 6 inner test folds of SupportFeatureMachineCV hold one class"):
        SupportFeatureMachineCV(**options).fit(X, y, groups=one_class_groups)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # folds of whole groups that hold both classes: no warning
        SupportFeatureMachineCV(cv=3, **options).fit(X, y, groups=one_class_groups)
