"""compare_budgets: nested, budget-respecting, deterministic, JSON round trip, one-line errors."""

import json

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn.datasets import make_weston
from sfmlearn.diagnostics import BudgetComparison, compare_budgets
from sfmlearn.diagnostics.budget_paths import LogisticPath, RepetitiveSubsetsPath, SFMPath
from sfmlearn.exceptions import DataValidationError
from sfmlearn.model_selection import make_folds
from sfmlearn.selection import SupportFeatureMachine, SupportFeatureMachineCV, sfm_path

BUDGETS = (1, 2, 3, 5)


@pytest.fixture(scope="module")
def weston():
    return make_weston(n_samples=60, n_noise=100, random_state=0)


def _fast_methods():
    return {"SFM path": SFMPath(n_Cs=6), "repetitive SFM": RepetitiveSubsetsPath(max_repetitions=3),
            "l1-logistic": LogisticPath(n_Cs=8)}


@pytest.fixture(scope="module")
def comparison(weston):
    X, y = weston
    return compare_budgets(X, y, budgets=BUDGETS, methods=_fast_methods(), cv=3, inner_cv=3,
                           automatic=SupportFeatureMachineCV(Cs=4, cv=3, n_repeats=1,
                                                             class_weight="balanced"))


class RecordingPath:
    """A path method that records the rows it is fitted on; one fit per number of features
    (the features with the largest class-mean difference)."""

    def __init__(self):
        self.fitted_rows = []

    def fit_path(self, X, y):
        self.fitted_rows.append({tuple(np.round(row, 12)) for row in X})
        order = np.argsort(-np.abs(X[y == y.max()].mean(0) - X[y != y.max()].mean(0)))
        predictors = [_TopFeatures(order[:k], X, y) for k in (1, 2, 4)]
        return predictors, np.array([1, 2, 4])


class _TopFeatures:
    def __init__(self, columns, X, y):
        from sklearn.svm import LinearSVC

        self.columns, self.model = columns, LinearSVC().fit(X[:, columns], y)

    def predict(self, X):
        return self.model.predict(X[:, self.columns])


def test_features_used_never_exceed_the_budget(comparison):
    for name in comparison.methods:
        folds = np.array(comparison.fold_features[name], dtype=float)
        for b, k in enumerate(comparison.budgets):
            reached = folds[:, b][~np.isnan(folds[:, b])]
            assert (reached <= k).all(), (name, k, reached)
        chosen = np.array(comparison.chosen_budgets[name])
        assert (chosen <= np.array(comparison.budgets)).all()


def test_the_sfm_path_at_two_features_is_well_above_chance(comparison):
    b = comparison.budgets.index(2)
    assert comparison.accuracy["SFM path"][b] > 0.75
    assert comparison.automatic["name"] == "SupportFeatureMachineCV"
    assert comparison.automatic["accuracy"] > 0.75


def test_the_outer_test_fold_is_never_used_to_choose(weston):
    X, y = weston
    method = RecordingPath()
    compare_budgets(X, y, budgets=(1, 2, 3), methods={"top": method}, automatic=False, cv=3, inner_cv=4,
                    random_state=1)
    folds = make_folds(3, X, y, random_state=1)
    assert len(method.fitted_rows) == 3 * (4 + 1)  # the outer fit and 4 inner fits per fold
    for f, (train, test) in enumerate(folds):
        test_rows = {tuple(np.round(row, 12)) for row in X[test]}
        train_rows = {tuple(np.round(row, 12)) for row in X[train]}
        calls = method.fitted_rows[5 * f: 5 * (f + 1)]  # the folds run in order without n_jobs
        assert calls[0] == train_rows
        for rows in calls:
            assert not rows & test_rows and rows <= train_rows


def test_results_are_deterministic_for_a_random_state(weston):
    X, y = weston
    run = lambda seed, jobs=None: compare_budgets(  # noqa: E731
        X, y, budgets=(1, 2), methods={"l1": LogisticPath(n_Cs=6)}, automatic=False, cv=3, inner_cv=3,
        random_state=seed, n_jobs=jobs)
    first, again, parallel = run(4), run(4), run(4, jobs=2)
    assert first.fold_accuracy == again.fold_accuracy and first.chosen_budgets == again.chosen_budgets
    assert first == again == parallel
    assert run(5).fold_accuracy != first.fold_accuracy  # another seed, other folds


def test_json_round_trip(comparison):
    payload = json.loads(json.dumps(comparison.to_dict()))
    back = BudgetComparison.from_dict(payload)
    assert back.to_dict() == comparison.to_dict()
    assert back.budgets == list(BUDGETS) and back.inner_cv == 3


def test_frame_and_table(comparison):
    frame = comparison.to_frame()
    assert len(frame) == len(comparison.methods) * len(BUDGETS) + 1
    assert set(frame["method"]) == {*comparison.methods, "SupportFeatureMachineCV"}
    text = comparison.format_table()
    assert "k <= 5" in text and "SFM path" in text and "automatic choice" in text
    b = comparison.budgets.index(2)
    assert f"{100 * comparison.accuracy['SFM path'][b]:.1f}" in text


def test_an_unreached_budget_is_nan_not_a_denser_fit(weston):
    X, y = weston

    class FromThree(RecordingPath):
        def fit_path(self, X, y):
            predictors, _ = super().fit_path(X, y)
            return predictors[2:], np.array([4])

    result = compare_budgets(X, y, budgets=(1, 4), methods={"m": FromThree()}, automatic=False, cv=3, inner_cv=None)
    assert np.isnan(result.accuracy["m"][0]) and result.features["m"][1] == 4


def test_inner_cv_none_uses_the_densest_fit_within_the_budget(weston):
    X, y = weston
    result = compare_budgets(X, y, budgets=(1, 2, 3), methods={"top": RecordingPath()}, automatic=False, cv=3,
                             inner_cv=None)
    assert result.features["top"] == [1.0, 2.0, 2.0]
    assert result.chosen_budgets["top"] == [[1, 2, 3]] * 3


@pytest.mark.parametrize(("options", "message"), [
    ({"budgets": (1, 0)}, "budgets must be positive whole numbers of features; got 0"),
    ({"budgets": (1, 2.5)}, "budgets must be positive whole numbers of features; got 2.5"),
    ({"budgets": (1, 500)}, "budget 500 exceeds the 106 features"),
    ({"budgets": (1, 500)}, "give budgets of at most 106"),
    ({"cv": 40}, "class -1.0 has 30 samples, fewer than the 40 folds; use cv=30 or fewer folds"),
    ({"inner_cv": 29}, "in outer training fold 1, fewer than the 29 folds; use inner_cv=24 or fewer folds"),
    ({"methods": [SFMPath()]}, "methods must be a dict of name -> path method; got list"),
    ({"automatic": True}, "automatic must be an estimator, None (the default choice) or False (none); got True"),
    ({"inner_cv": 29}, "fewer than the 29 folds"),
    ({"cv": "loo", "inner_cv": 5, "methods": {str(m): RecordingPath() for m in range(4)}},
     "60 outer folds x 6 paths each x 4 methods = 1440 path fits; at most 1000 are allowed"),
    ({"methods": {"svm": object()}}, "method 'svm' has no fit_path"),
    ({"methods": {}}, "nothing to compare"),
])
def test_bad_input_gives_one_line_errors_before_any_fit(weston, options, message):
    X, y = weston
    options = {"methods": {"top": RecordingPath()}, **options}
    with pytest.raises(DataValidationError, match="^[^\n]*$") as error:
        compare_budgets(X, y, **{"automatic": False, **options})
    assert message in str(error.value)
    recorded = options["methods"].get("top") if isinstance(options["methods"], dict) else None
    assert recorded is None or recorded.fitted_rows == []


def test_default_budgets_are_clipped_to_the_features():
    X, y = make_weston(n_samples=30, n_noise=2, random_state=0)  # 8 features
    result = compare_budgets(X, y, methods={"top": RecordingPath()}, automatic=False, cv=3, inner_cv=None)
    assert result.budgets == [1, 2, 3, 5]


def test_default_sfm_paths_share_supports_and_differ_in_the_classifier(weston):
    """The two default SFM paths select the same features at every C and place different
    hyperplanes on them (hard-margin SVM vs logistic regression)."""
    from sfmlearn.diagnostics.budget_paths import default_path_methods

    X, y = weston
    methods = default_path_methods()
    methods["SFM path"].n_Cs = 6
    svm_fits, svm_sizes = methods["SFM path"].fit_path(X, y)
    logistic_fits, logistic_sizes = methods["SFM path, logistic refit"].fit_path(X, y)
    np.testing.assert_array_equal(svm_sizes, logistic_sizes)
    for svm_fit, logistic_fit in zip(svm_fits, logistic_fits):
        np.testing.assert_array_equal(svm_fit.coef_[0] != 0, logistic_fit.coef_ != 0)
    assert any(not np.allclose(a.decision_function(X), b.decision_function(X))
               for a, b in zip(svm_fits, logistic_fits))
    # the classifiers are the SFM's own refit="logistic" on the same path, whose LPs ran once
    refit = SFMPath(SupportFeatureMachine(class_weight="balanced", refit="logistic"), n_Cs=6).fit_path(X, y)[0]
    for own, shared in zip(refit, logistic_fits):
        np.testing.assert_allclose(shared.decision_function(X), own.decision_function(X), rtol=1e-6, atol=1e-8)


def test_the_logistic_path_reuses_the_kept_supports_and_fits_them_on_other_data(weston, monkeypatch):
    from sfmlearn.diagnostics import budget_paths
    from sfmlearn.diagnostics.budget_paths import LogisticOnSFMPath

    X, y = weston
    path = SFMPath(n_Cs=6)
    path.fit_path(X, y)
    calls = []
    monkeypatch.setattr(budget_paths, "sfm_path", lambda *a, **k: calls.append(1) or sfm_path(*a, **k))
    LogisticOnSFMPath(path).fit_path(X, y)
    assert calls == []  # kept from the path's own fit on the same data
    LogisticOnSFMPath(path).fit_path(X[:-2], y[:-2])
    assert calls == [1]  # other training data: fitted


@pytest.mark.parametrize("l1_ratio", [1.0, 0.5])
def test_the_logistic_paths_first_fits_on_sparse_counts_predict_both_classes(l1_ratio):
    """Word counts (uncentred): the intercept carries the class balance. liblinear
    penalises it, and at intercept_scaling=1 the one-word fit kept b = 0 and predicted
    one class for every sample."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 40)
    counts = rng.poisson(0.3, size=(80, 50)).astype(float)
    counts[:, 0] = rng.poisson(np.where(y == 1, 3.0, 0.5))  # the word of class 1
    predictors, sizes = LogisticPath(l1_ratio=l1_ratio).fit_path(sp.csr_matrix(counts), y)
    first = next(p for p, size in zip(predictors, sizes) if size == 1)
    predicted = first.predict(sp.csr_matrix(counts))
    assert set(predicted) == {0, 1}
    assert np.mean(predicted == y) > 0.75


def test_the_soft_repetitive_path_runs_every_repetition_with_logistic_regression_on_its_unions():
    """With a soft base the path skips the chance test (which on noise stops the run before
    its repetitions), and ``classifier="logistic"`` is the SFM's refit="logistic" placement
    with the base's class weights on each union of the subsets in the order found."""
    from sfmlearn.diagnostics.budget_paths import SOFT_SUBSETS_BASE
    from sfmlearn.selection.repetitive import run_repetitions
    from sfmlearn.selection.sfm.unions import logistic_on_features
    from sklearn.utils.class_weight import compute_sample_weight

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 40)), np.repeat(["a", "b"], [12, 18])
    tested = run_repetitions(SOFT_SUBSETS_BASE, X, np.where(y == "b", 1, -1), max_repetitions=4)
    assert tested.n_repetitions < 4  # the chance test stops the plain run on noise
    predictors, sizes = RepetitiveSubsetsPath(SOFT_SUBSETS_BASE, max_repetitions=4, classifier="logistic").fit_path(X, y)
    run = run_repetitions(SOFT_SUBSETS_BASE, X, np.where(y == "b", 1, -1), max_repetitions=4, chance_alpha=None)
    assert run.n_repetitions == 4 and len(predictors) == 4
    assert not np.array_equal(run.size_order, np.arange(4))  # so the order found is what is tested
    weights = compute_sample_weight("balanced", y)
    for t, (predictor, size) in enumerate(zip(predictors, sizes), start=1):
        union = np.sort(np.concatenate(run.subsets[:t]))
        assert size == union.size
        coef, intercept, _ = logistic_on_features(X, np.where(y == "b", 1.0, -1.0), weights, union)
        decision = predictor.decision_function(X)
        np.testing.assert_allclose(decision, X @ coef + intercept)
        np.testing.assert_array_equal(predictor.predict(X), np.where(decision > 0, "b", "a"))
        assert np.all(predictor.coef_[np.setdiff1d(np.arange(40), union)] == 0)
    # the same path on the data stored sparse
    sparse_predictors, sparse_sizes = RepetitiveSubsetsPath(
        SOFT_SUBSETS_BASE, max_repetitions=4, classifier="logistic").fit_path(sp.csr_array(X), y)
    np.testing.assert_array_equal(sparse_sizes, sizes)
    np.testing.assert_allclose(sparse_predictors[-1].decision_function(sp.csr_array(X)),
                               predictors[-1].decision_function(X), rtol=1e-6, atol=1e-8)


def test_the_soft_path_starts_with_the_informative_subset_where_later_ones_are_smaller():
    """Two informative features among eight: the soft SFM's first subset holds them, and
    once they are gone it keeps a single noise feature; sorted by size that subset would
    be the path's first point (the hard base keeps NC 4.4's order by size)."""
    from sfmlearn.diagnostics.budget_paths import SOFT_SUBSETS_BASE
    from sfmlearn.selection.repetitive import run_repetitions

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 8))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=30) > 0, 1, -1)
    run = run_repetitions(SOFT_SUBSETS_BASE, X, y, max_repetitions=10, chance_alpha=None)
    assert {0, 1} <= set(run.subsets[0].tolist()) and run.sizes.min() < run.sizes[0]
    predictors, sizes = RepetitiveSubsetsPath(SOFT_SUBSETS_BASE, classifier="logistic").fit_path(X, y)
    np.testing.assert_array_equal(sizes, np.cumsum(run.sizes))
    assert {0, 1} <= set(np.flatnonzero(predictors[0].coef_).tolist())
    hard = run_repetitions(SupportFeatureMachine(), X, y, max_repetitions=3)
    hard_sizes = RepetitiveSubsetsPath(max_repetitions=3).fit_path(X, y)[1]
    np.testing.assert_array_equal(hard_sizes, np.cumsum(np.sort(hard.sizes)))


def test_unions_follow_the_order_asked_for():
    from sfmlearn.selection.repetitive import RepetitionPath

    run = RepetitionPath(n_features=6, subsets=[np.array([4, 0]), np.array([5]), np.array([2, 1, 3])],
                         coefs=sp.csr_array((3, 6)), intercepts=np.zeros(3), n_training_errors=np.zeros(3, int),
                         chance_p_values=np.full(3, np.nan), seconds=np.zeros(3), stop_reason="max_repetitions")
    assert [u.tolist() for u in run.unions()] == [[5], [0, 4, 5], [0, 1, 2, 3, 4, 5]]
    assert [u.tolist() for u in run.unions("found")] == [[0, 4], [0, 4, 5], [0, 1, 2, 3, 4, 5]]
    with pytest.raises(ValueError, match='"size" or "found"'):
        run.unions("sizes")


def test_a_misspelt_classifier_of_the_repetitive_path_is_named_before_any_fit(monkeypatch):
    from sfmlearn.diagnostics import budget_paths

    monkeypatch.setattr(budget_paths, "run_repetitions", lambda *a, **k: pytest.fail("fitted before the check"))
    with pytest.raises(ValueError, match='"logistic"; got \'logstic\''):
        RepetitiveSubsetsPath(classifier="logstic").fit_path(*make_weston(n_samples=20, n_noise=5, random_state=0))


def test_the_automatic_choice_gets_each_outer_training_folds_groups():
    from sklearn.base import BaseEstimator, ClassifierMixin

    seen = []

    class Automatic(ClassifierMixin, BaseEstimator):
        def fit(self, X, y, groups=None):
            seen.append(None if groups is None else sorted(set(groups.tolist())))
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    X, y = make_weston(n_samples=24, n_noise=4, random_state=0)
    groups = np.tile(np.arange(4), 6)
    compare_budgets(X, y, budgets=(1,), methods={"SFM path": SFMPath(n_Cs=3)}, automatic=Automatic(), groups=groups)
    assert sorted(seen) == [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]


def test_a_class_too_small_for_the_automatic_choices_inner_folds_is_named_before_any_fit(monkeypatch):
    from sfmlearn.diagnostics import budgets

    monkeypatch.setattr(budgets, "_outer_fold", lambda *a, **k: pytest.fail("fitted before the check"))
    X, y = make_weston(n_samples=22, n_noise=4, random_state=0)
    y = np.where(np.arange(22) < 2, "rare", "common")  # 2 samples: one per outer training set of cv=2
    with pytest.raises(DataValidationError, match="'rare' has 1 sample in outer training fold 1, and the automatic "
                                                  r"choice \(SupportFeatureMachineCV\) needs at least 2"):
        compare_budgets(X, y, budgets=(1,), cv=2)
    monkeypatch.undo()
    result = compare_budgets(X, y, budgets=(1,), methods={"SFM path": SFMPath(n_Cs=3)}, automatic=False, cv=2)
    assert result.n_folds == 2  # the paths alone need one sample per class
    from sklearn.linear_model import RidgeClassifierCV  # another estimator's cv: not sfmlearn's folds

    result = compare_budgets(X, y, budgets=(1,), methods={"SFM path": SFMPath(n_Cs=3)}, automatic=RidgeClassifierCV(),
                             cv=2)
    assert result.n_folds == 2


def test_test_parts_of_one_class_pool_the_held_out_predictions_so_the_majority_class_scores_chance():
    """With one diagnosis per patient, a mean over leave-one-patient-out folds of each
    fold's balanced accuracy (there the recall of its one class) would weight the classes
    by their patients: a majority-class predictor would score 75 % on 30 / 10 samples."""
    from sklearn.dummy import DummyClassifier

    class Majority:
        def fit_path(self, X, y):
            return [DummyClassifier(strategy="most_frequent").fit(X, y)], np.array([1])

    X = np.random.default_rng(0).normal(size=(40, 5))
    y = np.array(["a"] * 30 + ["b"] * 10)
    patient = np.repeat(np.arange(8), 5)
    for options in ({"groups": patient}, {"cv": "loo"}):
        result = compare_budgets(X, y, budgets=(1,), methods={"majority": Majority()},
                                 automatic=DummyClassifier(), **options)
        assert result.pooled
        assert result.accuracy["majority"] == [0.5] and result.se["majority"] == [0.0]
        assert result.automatic["accuracy"] == 0.5
        assert np.mean(result.fold_accuracy["majority"]) == 0.75  # what the mean over folds would say
        assert "pooled" in result.format_table().splitlines()[0]
        assert BudgetComparison.from_dict(json.loads(json.dumps(result.to_dict()))).pooled
    assert not compare_budgets(X, y, budgets=(1,), methods={"majority": Majority()}, automatic=False).pooled


def test_the_pooled_accuracy_and_its_binomial_standard_error_by_hand():
    folds = [{"m": {"accuracy": [1.0], "features": [1], "chosen_budget": [1], "hits": [[3, 0]], "counts": [3, 0]}},
             {"m": {"accuracy": [0.5], "features": [1], "chosen_budget": [1], "hits": [[0, 2]], "counts": [1, 4]}}]
    table = BudgetComparison.from_folds(folds, methods=["m"], budgets=[1], automatic_name=None, n_folds=2,
                                        inner_cv=None, seconds=0.0)
    recall = np.array([3 / 4, 2 / 4])  # pooled: class 1 has 3 of 4 right, class 2 has 2 of 4
    assert table.pooled and table.accuracy["m"] == [pytest.approx(recall.mean())]
    assert table.se["m"] == [pytest.approx(np.sqrt(np.sum(recall * (1 - recall) / 4)) / 2)]


def test_a_test_fold_of_one_class_is_scored_by_its_recall_without_a_warning():
    import warnings

    X, y = make_weston(n_samples=24, n_noise=4, random_state=0)
    groups = np.arange(24) % 3
    groups[np.flatnonzero(y == y[0])[:2]] = 3  # group 3 holds two samples of one class
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = compare_budgets(X, y, budgets=(1,), methods={"SFM path": SFMPath(n_Cs=3)}, automatic=False,
                                 groups=groups)
    assert result.n_folds == 4 and np.isfinite(result.accuracy["SFM path"]).all()


def test_the_stability_ranking_adds_the_most_frequent_feature_at_each_budget(weston):
    """Fit k uses the k features of highest selection frequency (StabilitySelection on the
    same halves), with the SFM's logistic refit on them."""
    from sfmlearn import StabilitySelection
    from sfmlearn.diagnostics.budget_paths import StabilityRanking, logistic_on_each

    X, y = weston
    fits, sizes = StabilityRanking(n_pairs=3, max_features=4, random_state=1).fit_path(X, y)
    frequency = StabilitySelection(n_pairs=3, threshold=0.0, random_state=1).fit(X, y).selection_frequency_
    order = np.argsort(-frequency, kind="stable")
    np.testing.assert_array_equal(sizes, np.arange(1, min(4, np.count_nonzero(frequency)) + 1))
    for k, fit in zip(sizes, fits):
        np.testing.assert_array_equal(np.flatnonzero(fit.coef_), np.sort(order[:k]))
    expected = logistic_on_each(X, y, "balanced", [order[:sizes[-1]]])[0]
    np.testing.assert_allclose(fits[-1].decision_function(X), expected.decision_function(X))


def test_the_stability_ranking_reaches_no_budget_on_a_class_of_one_sample():
    """A training fold with one sample of a class: the ranking's path is empty (as the
    repetitive SFM's without a subset), and the comparison runs."""
    from sfmlearn.diagnostics.budget_paths import StabilityRanking

    X, y = make_weston(n_samples=30, n_noise=4, random_state=0)
    labels = np.where(np.arange(30) < 3, "rare", "common")
    fits, sizes = StabilityRanking(n_pairs=2).fit_path(X[2:], labels[2:])
    assert fits == [] and sizes.size == 0
    result = compare_budgets(X, labels, budgets=(1,), automatic=False, cv=3, inner_cv=2,
                             methods={"SFM stability ranking": StabilityRanking(n_pairs=2),
                                      "SFM path": SFMPath(n_Cs=4)})
    assert not np.isnan(result.accuracy["SFM path"][0])


def test_the_limit_counts_the_path_fits_a_method_costs(weston):
    from sfmlearn.diagnostics.budget_paths import StabilityRanking

    X, y = weston
    with pytest.raises(DataValidationError, match=r"5 outer folds x 6 paths each x 45 path fits of 2 methods = 1350"):
        compare_budgets(X, y, automatic=False, cv=5, inner_cv=5,
                        methods={"ranking": StabilityRanking(n_pairs=44), "top": RecordingPath()})


def test_a_path_method_that_takes_groups_gets_the_training_parts_groups():
    """Runs as groups: the stability ranking's halves keep every run whole, in the outer
    and the inner training sets."""
    from sfmlearn.diagnostics.budget_paths import StabilityRanking

    seen = []

    class Recording(StabilityRanking):
        def fit_path(self, X, y, groups=None):
            seen.append(None if groups is None else np.unique(groups).size)
            return super().fit_path(X, y, groups=groups)

    X, y = make_weston(n_samples=48, n_noise=10, random_state=0)
    runs = np.arange(48) % 6
    compare_budgets(X, y, budgets=(1, 2), automatic=False, groups=runs, inner_cv=2,
                    methods={"ranking": Recording(n_pairs=2)})
    assert len(seen) == 6 * 3 and all(n is not None for n in seen)
    assert sorted(set(seen)) == [2, 3, 5]  # 5 runs per outer training part, 2 or 3 per inner one


def test_the_ranking_reaches_no_budget_where_a_class_lies_in_one_group():
    from sfmlearn.diagnostics.budget_paths import StabilityRanking

    X, y = make_weston(n_samples=24, n_noise=4, random_state=0)
    groups = np.where(y > 0, 0, np.arange(24) % 3 + 1)  # the positive class is one group
    fits, sizes = StabilityRanking(n_pairs=2).fit_path(X, y, groups=groups)
    assert fits == [] and sizes.size == 0


@pytest.mark.parametrize("n_groups, options, message", [
    (3, {"inner_cv": 5, "automatic": False}, "outer training fold 1 holds 2 groups, and inner_cv=5 keeps groups "
                                             "whole: it needs at least 5; use fewer inner folds"),
    (2, {}, "outer training fold 1 holds 1 group, and the automatic choice (SupportFeatureMachineCV) leaves "
            "groups out in its inner folds: it needs at least 2"),
    ("one class each", {}, "is in 1 group of outer training fold 1, and the automatic choice "
                           "(SupportFeatureMachineCV) leaves groups out in its inner folds: an inner fold without "
                           "that group would train without the class"),
])
def test_too_few_groups_for_the_inner_folds_are_refused_before_any_fit(weston, monkeypatch, n_groups, options,
                                                                        message):
    X, y = weston
    if n_groups == "one class each":  # two groups per class: leaving one out leaves one group of that class
        groups = np.where(y == y.max(), np.arange(y.size) % 2, 2 + np.arange(y.size) % 2)
    else:
        groups = np.arange(y.size) % n_groups
    monkeypatch.setattr(LogisticPath, "fit_path", lambda *a: pytest.fail("fitted before the check"))
    with pytest.raises(DataValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        compare_budgets(X, y, budgets=(1,), methods={"l1": LogisticPath()}, groups=groups, **options)


def test_a_method_that_reaches_no_budget_says_why_its_row_is_empty(weston):
    X, y = weston
    X = np.vstack([X, X[:4]])
    y = np.r_[y, -y[:4]]  # the same samples with the other label: no hyperplane separates them
    with pytest.warns(UserWarning, match="'repetitive SFM' reaches none of the budgets in every outer fold"):
        result = compare_budgets(X, y, budgets=(1, 2), methods={"repetitive SFM": RepetitiveSubsetsPath()},
                                 automatic=False, cv=3)
    assert np.isnan(result.accuracy["repetitive SFM"]).all()
