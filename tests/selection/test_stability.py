"""StabilitySelection: the halves, the stability path against the path fitted by hand,
MB's bound, the stable set, and the refusals."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn import StabilitySelection, SupportFeatureMachine, WestonZeroNormSVM, sfm_path
from sfmlearn.datasets import make_weston
from sfmlearn.exceptions import DataValidationError
from sfmlearn.selection import default_Cs
from sfmlearn.selection.sfm.stability import _halves, false_selection_bound


@pytest.fixture(scope="module")
def data():
    """Weston's data: features 0-5 relevant, 40 noise features."""
    return make_weston(n_samples=40, n_noise=40, random_state=1)


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    return StabilitySelection(Cs=5, n_pairs=4, random_state=3).fit(X, y)


def test_complementary_halves_partition_the_samples_by_class():
    y = np.where(np.arange(23) < 9, -1, 1)
    halves = _halves(y, None, 5, random_state=0)
    assert len(halves) == 10
    for first, second in zip(halves[::2], halves[1::2]):
        np.testing.assert_array_equal(np.sort(np.r_[first, second]), np.arange(23))
        for half in (first, second):  # stratified: each class split as evenly as it goes
            assert abs(2 * np.count_nonzero(y[half] < 0) - 9) <= 1
    assert len({tuple(np.sort(h)) for h in halves[::2]}) > 1  # new splits, not one repeated


def test_groups_stay_whole_in_their_half():
    y = np.tile([-1, 1], 12)
    groups = np.repeat(np.arange(6), 4)
    for half in _halves(y, groups, 3, random_state=0):
        inside = np.unique(groups[half])
        np.testing.assert_array_equal(np.sort(np.flatnonzero(np.isin(groups, inside))), np.sort(half))


def test_stability_path_is_the_path_fitted_on_every_half(data, fitted):
    """Recompute Pi_j(C) with sfm_path on the same halves, C scaled by n / n_half."""
    X, y = data
    base = SupportFeatureMachine(class_weight="balanced")
    Cs = default_Cs(X, y, estimator=base, n_Cs=5)
    np.testing.assert_allclose(fitted.Cs_, Cs)
    counts, union_sizes = np.zeros((5, X.shape[1])), []
    for half in _halves(np.where(y > 0, 1, -1), None, 4, random_state=3):
        supports = sfm_path(X[half], y[half], Cs * (y.size / half.size), estimator=base).supports
        counts += supports
        union_sizes.append(supports.any(axis=0).sum())
    np.testing.assert_array_equal(fitted.stability_path_, counts / 8)
    np.testing.assert_array_equal(fitted.selection_frequency_, (counts / 8).max(axis=0))
    assert fitted.n_halves_ == 8
    assert fitted.mean_union_size_ == pytest.approx(np.mean(union_sizes))


def test_the_stable_set_holds_the_frequent_features_and_mb_bounds_it(data, fitted):
    X, _ = data
    frequency = fitted.selection_frequency_
    np.testing.assert_array_equal(fitted.support_, frequency >= 0.6)
    assert fitted.support_.any() and set(fitted.get_support(indices=True)) <= set(range(6))
    q, p = fitted.mean_union_size_, X.shape[1]
    assert fitted.false_selection_bound_ == pytest.approx(q ** 2 / (0.2 * p))
    assert fitted.coef_[0][~fitted.support_].tolist() == [0.0] * (p - fitted.support_.sum())
    assert np.all(fitted.coef_[0][fitted.support_] != 0)


def test_bound_is_infinite_at_or_below_one_half():
    assert false_selection_bound(3.0, 0.5, 100) == np.inf
    assert false_selection_bound(3.0, 0.9, 100) == pytest.approx(9 / 80)


def test_constant_columns_are_named_once(data):
    from sfmlearn.exceptions import ConstantFeatureWarning

    X, y = data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(np.c_[X, np.ones(y.size)], y)
    constant = [w for w in caught if issubclass(w.category, ConstantFeatureWarning)]
    assert len(constant) == 1 and f"1 of {X.shape[1] + 1} features" in str(constant[0].message)


def test_max_features_keeps_the_most_frequent(data, fitted):
    X, y = data
    top = StabilitySelection(Cs=5, n_pairs=4, threshold=0.0, max_features=3, random_state=3).fit(X, y)
    np.testing.assert_array_equal(top.stability_path_, fitted.stability_path_)  # same halves
    order = np.argsort(-fitted.selection_frequency_, kind="stable")
    np.testing.assert_array_equal(top.get_support(indices=True), np.sort(order[:3]))
    assert top.false_selection_bound_ == np.inf


def test_sparse_input_gives_the_dense_result(data, fitted):
    X, y = data
    on_sparse = StabilitySelection(Cs=5, n_pairs=4, random_state=3).fit(sp.csr_array(X), y)
    np.testing.assert_array_equal(on_sparse.stability_path_, fitted.stability_path_)
    np.testing.assert_allclose(on_sparse.coef_, fitted.coef_, rtol=1e-8)


def test_zero_norm_svm_as_the_path_estimator(data):
    X, y = data
    Cs = np.array([0.1, 1.0, 10.0, 100.0])
    model = StabilitySelection(WestonZeroNormSVM(), Cs=Cs, n_pairs=2, random_state=0).fit(X, y)
    assert model.stability_path_.shape == (4, X.shape[1])
    halves = _halves(np.where(y > 0, 1, -1), None, 2, random_state=0)
    counts = sum(sfm_path(X[h], y[h], Cs * (y.size / h.size), estimator=WestonZeroNormSVM()).supports for h in halves)
    np.testing.assert_array_equal(model.stability_path_, counts / 4)  # Weston's path, not the SFM's


@pytest.mark.parametrize("class_weight, predicted, prior", [("balanced", "a", 0.5), (None, "b", 25 / 35)])
def test_an_empty_stable_set_predicts_the_weighted_prior_and_says_which_class(class_weight, predicted, prior):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((35, 40))
    y = np.repeat(["a", "b"], [10, 25])
    base = SupportFeatureMachine(class_weight=class_weight)
    with pytest.warns(UserWarning, match=rf"no feature reached a selection frequency of 1.0 .*predicts '{predicted}'"):
        model = StabilitySelection(base, Cs=3, n_pairs=3, threshold=1.0, random_state=0).fit(X, y)
    assert not model.support_.any()
    assert set(model.predict(X)) == {predicted}
    np.testing.assert_allclose(model.predict_proba(X[:3])[:, 1], prior)


def test_the_bound_counts_only_columns_that_can_be_selected(data):
    X, y = data
    plain = StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(X, y)
    padded = StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(np.c_[X, np.zeros((y.size, 500))], y)
    assert padded.n_candidate_features_ == plain.n_candidate_features_ == X.shape[1]
    assert padded.false_selection_bound_ == plain.false_selection_bound_
    np.testing.assert_array_equal(padded.selection_frequency_[:X.shape[1]], plain.selection_frequency_)


def test_string_labels_and_a_class_weight_by_label(data):
    X, y = data
    labels = np.where(y > 0, "tumour", "normal")
    weighted = SupportFeatureMachine(class_weight={"normal": 1.0, "tumour": 2.0})
    model = StabilitySelection(weighted, Cs=5, n_pairs=4, random_state=3).fit(X, labels)
    assert set(model.predict(X)) <= {"normal", "tumour"}
    assert model.score(X, labels) > 0.8


def test_a_class_of_one_sample_is_refused_before_any_fit(data):
    X, y = data
    y = np.where(np.arange(y.size) == 0, "rare", "common")
    with pytest.raises(DataValidationError, match=r"class 'rare' has fewer than 2 samples"):
        StabilitySelection(n_pairs=2).fit(X, y)


@pytest.mark.parametrize("split", ["by class", "rare class in one mixed group"])
def test_groups_that_keep_a_class_in_one_group_are_refused(data, split):
    X, y = data
    groups = np.where(y > 0, "g1", "g2") if split == "by class" else np.arange(y.size) % 4
    if split != "by class":
        y = np.where(np.isin(np.arange(y.size), [0, 4]), "rare", "common")  # both in group 0
    with pytest.raises(DataValidationError, match=r"every sample of class (-1.0|'rare') is in one group"):
        StabilitySelection(n_pairs=2).fit(X, y, groups=groups)


def test_group_halves_are_drawn_anew_whatever_the_groups_class_mix():
    """Patients with different numbers of tumour and normal samples: every pair is a new
    random split of the patients, of about equal size."""
    groups = np.repeat(np.arange(10), 6)
    y = np.concatenate([[1] * k + [-1] * (6 - k) for k in [0, 1, 2, 3, 4, 5, 6, 1, 5, 3]])
    halves = _halves(y, groups, 30, random_state=0)
    assert len({min(tuple(a), tuple(b)) for a, b in zip(halves[::2], halves[1::2])}) >= 25
    assert all(abs(first.size - second.size) <= 6 for first, second in zip(halves[::2], halves[1::2]))


def test_two_groups_warn_that_the_splits_repeat(data):
    X, y = data
    with pytest.warns(UserWarning, match=r"the 4 random splits of the 2 groups into halves hold only 1 distinct"):
        StabilitySelection(Cs=3, n_pairs=4, random_state=0).fit(X, y, groups=np.arange(y.size) % 2)


def test_one_group_is_refused(data):
    X, y = data
    with pytest.raises(DataValidationError, match=r"groups hold one group"):
        StabilitySelection(n_pairs=2).fit(X, y, groups=np.zeros(y.size))


def test_threshold_zero_never_keeps_a_feature_no_half_selected(data):
    X, y = data
    model = StabilitySelection(Cs=3, n_pairs=2, threshold=0.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.support_, model.selection_frequency_ > 0)
    assert 0 < model.support_.sum() < X.shape[1]


def test_groups_change_the_halves(data):
    X, y = data
    groups = np.arange(y.size) % 8
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        by_group = StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(X, y, groups=groups)
        plain = StabilitySelection(Cs=3, n_pairs=2, random_state=0).fit(X, y)
    assert not np.array_equal(by_group.stability_path_, plain.stability_path_)


@parametrize_with_checks([StabilitySelection(Cs=3, n_pairs=2, random_state=0)])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # random data: often nothing is stable
        check(estimator)
