"""Validation utilities against hand-computed cases and scikit-learn's references."""

import numpy as np
import pytest
from scipy.stats import binom
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import LeaveOneGroupOut, StratifiedKFold
from sklearn.neighbors import NearestCentroid

from sfmlearn import SupportFeatureMachine
from sfmlearn.exceptions import DataValidationError
from sfmlearn.model_selection import (
    BootstrapSplit,
    average_curves,
    balanced_accuracy_p_value,
    bootstrap_632_score,
    check_folds_keep_classes,
    check_groups,
    cross_validate_selection,
    hand_till_auc,
    make_cv,
    make_folds,
    resample_curve,
)


# -- AUC ---------------------------------------------------------------------------------
def test_binary_auc_by_hand():
    # Pairs (positive, negative): (0.35, 0.1) yes, (0.35, 0.4) no, (0.8, *) yes -> 3/4.
    assert hand_till_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    # A tie between a positive and a negative counts one half: (0.4 vs 0.4) -> (1 + 0.5) / 2.
    assert hand_till_auc(["a", "a", "b"], [0.1, 0.4, 0.4]) == 0.75


def test_multiclass_auc_by_hand():
    # Three classes, one sample each, scores per class column.
    y = np.array([0, 1, 2])
    scores = np.array([[0.9, 0.3, 0.1],
                       [0.2, 0.5, 0.6],
                       [0.1, 0.7, 0.4]])
    # A(0|1): col 0, class 0 (0.9) vs class 1 (0.2) -> 1; A(1|0): col 1, 0.5 vs 0.3 -> 1.
    # A(0|2): 0.9 vs 0.1 -> 1; A(2|0): col 2, 0.4 vs 0.1 -> 1.
    # A(1|2): col 1, 0.5 vs 0.7 -> 0; A(2|1): col 2, 0.4 vs 0.6 -> 0.
    assert hand_till_auc(y, scores) == pytest.approx((1 + 1 + 0) / 3)


def test_multiclass_auc_equals_sklearn_ovo_for_probabilities(rng):
    y = rng.integers(0, 4, 80)
    proba = rng.dirichlet(np.ones(4), 80)
    assert hand_till_auc(y, proba) == pytest.approx(roc_auc_score(y, proba, multi_class="ovo"))


def test_auc_rejects_a_missing_class():
    with pytest.raises(DataValidationError, match="labels"):
        hand_till_auc([1, 1, 1], [0.1, 0.2, 0.3])


# -- the chance test --------------------------------------------------------------------
def test_balanced_accuracy_p_value_is_the_binomial_tail_for_balanced_classes():
    y = np.repeat([0, 1], 10)
    pred = y.copy()
    pred[[0, 1, 2, 10, 11]] = 1 - pred[[0, 1, 2, 10, 11]]  # 15 of 20 correct
    assert balanced_accuracy_p_value(y, pred) == pytest.approx(binom.sf(14, 20, 0.5))


def test_balanced_accuracy_p_value_unbalanced_by_enumeration():
    y = np.array([0, 0, 0, 1])
    pred = np.array([0, 0, 1, 1])  # BA = (2/3 + 1) / 2
    # c0 ~ Bin(3, 1/2), c1 ~ Bin(1, 1/2): BA >= 5/6 iff c0/3 + c1 >= 5/3 iff c1 = 1 and c0 >= 2.
    expected = 0.5 * (binom.pmf(2, 3, 0.5) + binom.pmf(3, 3, 0.5))
    assert balanced_accuracy_p_value(y, pred) == pytest.approx(expected)
    # Always predicting the majority class is chance: BA = 1/2, p > 1/2.
    assert balanced_accuracy_p_value(y, np.zeros(4)) > 0.5


# -- bootstrap --------------------------------------------------------------------------
def test_bootstrap_split_is_stratified_and_tests_out_of_bag(rng):
    y = np.r_[np.zeros(6), np.ones(14)]
    splits = list(BootstrapSplit(30, random_state=0).split(np.zeros((20, 1)), y))
    assert len(splits) == 30
    for train, test in splits:
        assert train.size == 20 and np.sum(y[train] == 0) == 6  # class sizes kept
        assert test.size > 0 and not np.isin(test, train).any()
        assert np.array_equal(np.union1d(train, test), np.arange(20))
    again = list(BootstrapSplit(30, random_state=0).split(np.zeros((20, 1)), y))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(splits, again))


def test_bootstrap_split_with_groups_draws_whole_groups():
    groups = np.repeat(np.arange(5), 4)
    for train, test in BootstrapSplit(10, random_state=1).split(np.zeros((20, 1)), groups=groups):
        assert train.size % 4 == 0
        assert not np.isin(groups[test], groups[train]).any()


def test_bootstrap_632_combines_test_and_training_accuracy(rng):
    X = rng.standard_normal((30, 4))
    y = np.repeat([0, 1], 15)
    X[:, 0] += 1.5 * y
    result = bootstrap_632_score(NearestCentroid(), X, y, n_bootstraps=20, random_state=0)
    np.testing.assert_allclose(result.scores, 0.632 * result.test_scores + 0.368 * result.train_scores)
    # By hand for the first split.
    train, test = next(BootstrapSplit(20, random_state=0).split(X, y))
    model = NearestCentroid().fit(X[train], y[train])
    assert result.test_scores[0] == model.score(X[test], y[test])
    assert result.train_scores[0] == model.score(X[train], y[train])
    assert result.score == pytest.approx(result.scores.mean())


# -- cross-validation with supports -------------------------------------------------------
def test_make_cv_defaults():
    assert isinstance(make_cv(None, groups=[0, 1]), LeaveOneGroupOut)
    assert isinstance(make_cv(None), StratifiedKFold)
    assert make_cv(3).get_n_splits() == 3
    with pytest.raises(DataValidationError, match="groups"):
        make_cv("logo")


def test_k_fold_shrinks_to_the_smallest_class_or_the_groups():
    y = np.r_[np.zeros(3), np.ones(9)]
    assert make_cv(5, y=y).get_n_splits() == 3
    assert make_cv(None, y=y).get_n_splits() == 3
    assert make_cv(2, y=y).get_n_splits() == 2
    assert make_cv(5).get_n_splits() == 5  # without labels nothing to shrink to
    groups = np.repeat([0, 1, 2, 3], 3)
    assert make_cv(10, y=y, groups=groups).get_n_splits() == 4
    assert isinstance(make_cv(None, y=y, groups=groups), LeaveOneGroupOut)


def test_k_fold_that_cannot_keep_a_class_says_why():
    with pytest.raises(DataValidationError, match="the smallest class has 1 sample"):
        make_cv(5, y=[0, 1, 1, 1])
    with pytest.raises(DataValidationError, match="all samples are in one group"):
        make_cv(3, y=[0, 0, 1, 1], groups=[7, 7, 7, 7])


def test_make_folds_refuses_a_training_fold_without_a_class():
    y = np.array([0, 0, 1, 1, 1, 1])
    groups = np.array([5, 5, 6, 6, 7, 7])  # group 5 holds every sample of class 0
    with pytest.raises(DataValidationError, match="leave-one-group-out fold 1 of 3 has no sample of class 0"):
        make_folds(None, np.zeros((6, 1)), y, groups, what="leave-one-group-out")
    folds = make_folds(2, np.zeros((6, 1)), y, random_state=0)
    check_folds_keep_classes(folds, y)
    assert len(folds) == 2 and sorted(np.concatenate([test for _, test in folds]).tolist()) == list(range(6))


def test_check_groups_one_valid_id_per_sample():
    assert check_groups(None, 3) is None
    np.testing.assert_array_equal(check_groups(["a", "b", "a"], 3), ["a", "b", "a"])
    with pytest.raises(DataValidationError, match="one id per sample"):
        check_groups([1, 2], 3)
    with pytest.raises(DataValidationError, match="groups"):
        check_groups([None, 1, 2], 3)


def test_cross_validate_selection_gives_what_a_command_prints(rng):
    """k used (shrunk to the smallest class), per-fold accuracy and support sizes, progress."""
    y = np.r_[np.zeros(3), np.ones(9)].astype(int)
    X = rng.standard_normal((12, 20))
    X[:, 0] += 4 * y
    ticks = []
    result = cross_validate_selection(SupportFeatureMachine(C=1.0), X, y, cv=5, random_state=0,
                                      progress=lambda: ticks.append(1))
    assert len(result.folds) == 3 and len(ticks) == 3
    for (train, test), accuracy, size in zip(result.folds, result.accuracy, result.n_selected):
        fold = SupportFeatureMachine(C=1.0).fit(X[train], y[train])
        assert accuracy == fold.score(X[test], y[test])
        assert size == fold.support_.sum()


def test_cross_validate_selection_keeps_fold_supports(rng):
    n = 40
    y = np.repeat([0, 1], n // 2)
    X = rng.standard_normal((n, 60))
    X[:, 3] = np.where(y == 1, 1.0, -1.0) * rng.uniform(1, 2, n)  # separates alone
    groups = np.tile(np.arange(4), n // 4)
    result = cross_validate_selection(SupportFeatureMachine(), X, y, groups=groups)
    assert result.supports.shape == (4, 60)
    assert result.supports[:, 3].all()
    assert result.selection_frequency[3] == 1.0
    assert np.array_equal(result.n_selected, result.supports.sum(axis=1))
    assert np.all(result.accuracy == 1.0) and result.auc == 1.0
    assert result.oof_score.shape == (n,)
    # Leave-one-out: one-sample folds have no balanced accuracy, the pooled AUC exists.
    loo = cross_validate_selection(SupportFeatureMachine(), X[:12], y[:12] * 0 + np.r_[np.zeros(6), np.ones(6)],
                                   cv="loo")
    assert np.isnan(loo.balanced_accuracy).all() and loo.auc is not None


def test_cross_validate_selection_reads_the_support_of_a_pipeline_or_a_search(rng):
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    y = np.repeat([0, 1], 15)
    X = rng.standard_normal((30, 12))
    X[:, 2] += 3 * y
    plain = cross_validate_selection(SupportFeatureMachine(C=1.0), X, y, cv=3, random_state=0)
    piped = cross_validate_selection(make_pipeline(StandardScaler(), SupportFeatureMachine(C=1.0)), X, y, cv=3,
                                     random_state=0)
    assert piped.supports.shape == plain.supports.shape and piped.supports[:, 2].all()
    search = GridSearchCV(SupportFeatureMachine(), {"C": [0.5, 1.0]}, cv=2)
    searched = cross_validate_selection(search, X, y, cv=3, random_state=0)
    for (train, _), support in zip(searched.folds, searched.supports):
        assert np.array_equal(support, search.fit(X[train], y[train]).best_estimator_.support_)


def test_cross_validate_selection_checks_the_selector_and_the_labels_before_any_fit(rng):
    from sklearn.linear_model import LogisticRegression
    y = np.repeat([0, 1], 15)
    X = rng.standard_normal((30, 12))
    X[:, 2] += 3 * y
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.feature_selection import SelectKBest
    from sklearn.model_selection import GridSearchCV
    for not_a_selector in (LogisticRegression(), SelectKBest(k=3), CalibratedClassifierCV(SupportFeatureMachine(C=1.0)),
                           GridSearchCV(SupportFeatureMachine(), {"C": [1.0]}, refit=False)):
        with pytest.raises(DataValidationError, match="is no selector-classifier"):
            cross_validate_selection(not_a_selector, X, y, cv=3)
    missing = y.astype(float)
    missing[4] = np.nan
    with pytest.raises(DataValidationError, match="missing labels"):
        cross_validate_selection(SupportFeatureMachine(C=1.0), X, missing, cv=3)
    flat = cross_validate_selection(SupportFeatureMachine(C=1.0), X, y, cv=3, random_state=0)
    with pytest.warns(UserWarning, match="column-vector"):
        column = cross_validate_selection(SupportFeatureMachine(C=1.0), X, y.reshape(-1, 1), cv=3, random_state=0)
    assert np.array_equal(column.accuracy, flat.accuracy)


def test_labels_held_as_objects_split_like_their_values(rng):
    # a pandas object column of 0/1: scikit-learn's stratified splitters cannot type it
    from sfmlearn import RepetitiveSFM
    y = np.repeat([0, 1], 15)
    X = rng.standard_normal((30, 12))
    X[:, 2] += 3 * y
    as_objects = y.astype(object)
    folds = make_folds(3, X, as_objects, random_state=0)
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(folds, make_folds(3, X, y, random_state=0)))
    result = cross_validate_selection(SupportFeatureMachine(C=1.0), X, as_objects, cv=3, random_state=0)
    assert np.array_equal(result.supports, cross_validate_selection(SupportFeatureMachine(C=1.0), X, y, cv=3,
                                                                    random_state=0).supports)
    assert RepetitiveSFM(SupportFeatureMachine(C=1.0)).fit(X, as_objects).classes_.tolist() == [0, 1]
    auto = RepetitiveSFM(SupportFeatureMachine(C=1.0), max_repetitions=3, n_subsets="auto", subsets_cv=3,
                         random_state=0)
    assert np.array_equal(auto.fit(X, as_objects).n_subsets_scores_, auto.fit(X, y).n_subsets_scores_, equal_nan=True)


def test_mean_jaccard_by_hand():
    from sfmlearn.model_selection import SelectionCVResult

    supports = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]], dtype=bool)
    result = SelectionCVResult([], supports, np.zeros(3), np.zeros(3), None, None)
    # Pairs: (0,1) 1/3, (0,2) 1, (1,2) 1/3.
    assert result.mean_jaccard == pytest.approx((1 / 3 + 1 + 1 / 3) / 3)
    np.testing.assert_allclose(result.selection_frequency, [1, 2 / 3, 1 / 3, 0])


# -- curves -------------------------------------------------------------------------------
def test_resample_curve_is_piecewise_constant():
    grid = np.arange(12)
    out = resample_curve([0, 5, 9], [0.1, 0.2, 0.5], grid)
    np.testing.assert_array_equal(out, [0.1] * 5 + [0.2] * 4 + [0.5] * 3)
    assert np.isnan(resample_curve([2, 4], [0.1, 0.2], [0, 1, 2])[:2]).all()


def test_average_curves_of_different_lengths_mean_and_median():
    curves = [([0, 3], [0.0, 0.6]), ([0, 2, 4], [0.2, 0.4, 0.5]), ([0, 1], [0.1, 0.3])]
    grid = np.arange(6)
    mean, resampled = average_curves(curves, grid)
    np.testing.assert_allclose(resampled[0], [0, 0, 0, 0.6, 0.6, 0.6])
    np.testing.assert_allclose(resampled[1], [0.2, 0.2, 0.4, 0.4, 0.5, 0.5])
    np.testing.assert_allclose(resampled[2], [0.1, 0.3, 0.3, 0.3, 0.3, 0.3])
    np.testing.assert_allclose(mean, resampled.mean(axis=0))
    median, _ = average_curves(curves, grid, aggregate="median")
    np.testing.assert_allclose(median, [0.1, 0.2, 0.3, 0.4, 0.5, 0.5])
    with pytest.raises(DataValidationError, match="non-decreasing"):
        resample_curve([3, 1], [0, 1], grid)


class _GroupedSelector:
    """A selector whose fit records the groups it is given (in ``seen``, shared by class)."""

    seen = []

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self

    def fit(self, X, y, groups=None):
        self.seen.append(None if groups is None else sorted(set(np.asarray(groups).tolist())))
        self.classes_ = np.unique(y)
        self.support_ = np.ones(np.shape(X)[1], dtype=bool)
        return self

    def get_support(self):
        return self.support_

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y):
        return float(np.mean(self.predict(X) == np.asarray(y)))


def test_a_cross_validated_estimator_gets_the_training_folds_groups():
    from sfmlearn.diagnostics import chance_report
    from sfmlearn.model_selection import bootstrap_632_score, cross_validate_selection

    X, y, groups = np.zeros((12, 3)), np.tile(["a", "b"], 6), np.repeat([0, 1, 2], 4)
    _GroupedSelector.seen = []
    cross_validate_selection(_GroupedSelector(), X, y, groups=groups)
    assert sorted(_GroupedSelector.seen) == [[0, 1], [0, 2], [1, 2]]
    _GroupedSelector.seen = []
    bootstrap_632_score(_GroupedSelector(), X, y, groups=list(groups), n_bootstraps=3, random_state=0)
    assert len(_GroupedSelector.seen) == 3 and all(seen is not None for seen in _GroupedSelector.seen)
    _GroupedSelector.seen = []
    chance_report(X + np.arange(12)[:, None], y, _GroupedSelector(), groups=groups, n_permutations=2, random_state=0)
    assert _GroupedSelector.seen == [[0, 1, 2]] * 3  # the fit and both permutations


def test_a_group_splitter_without_groups_says_what_is_missing():
    from sklearn.model_selection import GroupKFold

    from sfmlearn.model_selection import split_indices

    with pytest.raises(DataValidationError, match="GroupKFold splits by groups; pass groups"):
        split_indices(GroupKFold(2), np.zeros((6, 2)), np.tile([0, 1], 3))


def test_a_summary_written_without_its_scheme_is_described_by_its_folds_and_repeats():
    from sfmlearn.plotting.softness import inner_scheme

    assert inner_scheme({"folds": 5, "repeats": 3}) == "5-fold CV x 3 repeats"
    assert inner_scheme({"folds": 5, "repeats": 1, "scheme": "leave-one-group-out CV (5 groups)"}).startswith("leave")


def test_leave_one_group_out_with_one_group_says_so():
    y = np.repeat([0, 1], 5)
    for cv in (None, "logo"):
        with pytest.raises(DataValidationError, match="there is 1 group"):
            make_cv(cv, y=y, groups=np.zeros(10))
