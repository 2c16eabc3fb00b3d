"""Statistical and structural properties of the synthetic benchmarks."""

from itertools import combinations

import numpy as np
import pytest

from sfmlearn.datasets import (
    NONSEPARABLE_SCENARIOS,
    make_basic,
    make_nonseparable,
    make_random_labels,
    make_separable_subspace,
    make_weston,
)
from sfmlearn.lp.separability import minimum_slack_hyperplane


def separable(X, y):
    return not minimum_slack_hyperplane(X, y)[2].any()


def mean_gap(X, y):
    """Class mean difference mu_+ - mu_- per feature."""
    return X[y > 0].mean(axis=0) - X[y < 0].mean(axis=0)


# ------------------------------------------------------------------ make_nonseparable
def test_nonseparable_relevant_features_shift_by_class_distance_and_noise_does_not():
    X, y = make_nonseparable(4000, 30, 10, class_distance=0.4, random_state=0)
    gap = mean_gap(X, y)
    se = np.sqrt(1 / 2000 + 1 / 2000)  # sd of a difference of two means of 2000 values
    assert np.all(np.abs(gap[:10] - 0.8) < 4 * se)
    assert np.all(np.abs(gap[10:]) < 4 * se)
    within = np.r_[X[y > 0] - X[y > 0].mean(0), X[y < 0] - X[y < 0].mean(0)]
    assert np.allclose(within.std(axis=0), 1, atol=0.05)


@pytest.mark.parametrize("n", [10, 11, 200])
def test_nonseparable_classes_are_balanced_and_shuffled(n):
    _, y = make_nonseparable(n, 5, 2, random_state=1)
    assert set(np.unique(y)) == {-1, 1}
    assert abs((y > 0).sum() - (y < 0).sum()) <= n % 2
    if n > 20:
        assert 0 < np.abs(np.diff(y)).sum()  # not sorted by class
        assert not np.array_equal(y[: n // 2], np.ones(n // 2))


def test_nonseparable_is_reproducible_and_seed_dependent():
    a = make_nonseparable(50, 20, 3, random_state=7)
    b = make_nonseparable(50, 20, 3, random_state=7)
    c = make_nonseparable(50, 20, 3, random_state=8)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])


def test_nonseparable_overlaps_when_samples_far_exceed_capacity():
    # d = 5 features, n = 400: Bayes error Phi(-0.3 sqrt 2) ~ 34 %, far beyond 2d points.
    X, y = make_nonseparable(400, 5, 2, class_distance=0.3, random_state=0)
    assert not separable(X, y)


def test_scenarios_follow_the_text_of_thesis_4_2_3():
    s = NONSEPARABLE_SCENARIOS
    assert s[1]["n_relevant"] == 20 and s[1]["n_samples"] > s[1]["n_features"]
    assert s[1]["n_features"] - s[1]["n_relevant"] < s[1]["n_relevant"]  # few irrelevant
    assert s[2]["n_relevant"] < s[1]["n_relevant"] and s[2]["n_samples"] > s[2]["n_features"]
    assert s[2]["n_features"] - s[2]["n_relevant"] > s[1]["n_features"] - s[1]["n_relevant"]
    for k in (3, 4):
        assert s[k]["n_samples"] < s[k]["n_features"]
        assert s[k]["n_features"] > s[2]["n_features"] and s[k]["n_samples"] < s[2]["n_samples"]
    assert [s[k]["class_distance"] for k in (1, 2, 3, 4)] == [0.3, 0.3, 0.65, 0.3]
    X, y = make_nonseparable(**s[3], random_state=0)
    assert X.shape == (s[3]["n_samples"], s[3]["n_features"])


@pytest.mark.parametrize("kwargs, message", [
    ({"n_relevant": 0}, r"'n_relevant' parameter of make_nonseparable must be an int in the range \[1, inf\)"),
    ({"n_relevant": 11, "n_features": 10}, "exceeds n_features"),
    ({"n_samples": 1}, r"'n_samples' parameter of make_nonseparable must be an int in the range \[2, inf\)"),
    ({"n_samples": 10.5}, "'n_samples' parameter of make_nonseparable must be an int"),
    ({"class_distance": -0.1}, r"'class_distance' parameter .* must be a float in the range \[0.0, inf\)"),
    ({"class_distance": np.inf}, r"'class_distance' parameter .* must be a float in the range \[0.0, inf\)"),
])
def test_nonseparable_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_nonseparable(**kwargs)


# ------------------------------------------------------------------ make_random_labels
def test_random_labels_carry_no_information():
    X, y = make_random_labels(2000, 50, random_state=3)
    assert (y > 0).sum() == (y < 0).sum() == 1000
    se = np.sqrt(2 / 1000)
    assert np.all(np.abs(mean_gap(X, y)) < 4.5 * se)
    assert np.allclose(X.std(axis=0), 1, atol=0.06)


def test_random_labels_honour_positive_fraction_and_are_separable_when_d_exceeds_n():
    X, y = make_random_labels(20, 100, positive_fraction=0.3, random_state=0)
    assert (y > 0).sum() == 6
    assert separable(X, y)  # d > n: almost surely separable (thesis 2.5.4)
    with pytest.raises(ValueError, match="leaves a class empty"):
        make_random_labels(10, 5, positive_fraction=0.01)


# ------------------------------------------------------------------ make_separable_subspace
def test_separable_subspace_separates_with_the_requested_margin():
    X, y, coef = make_separable_subspace(80, 40, 5, margin=0.2, return_coef=True, random_state=0)
    assert np.isclose(np.linalg.norm(coef), 1) and np.all(coef[5:] == 0) and np.all(coef[:5] != 0)
    assert np.min(y * (X @ coef)) == pytest.approx(0.2)
    assert separable(X[:, :5], y)
    assert (y > 0).sum() == (y < 0).sum() == 40


def test_no_proper_subset_of_the_relevant_features_separates():
    X, y = make_separable_subspace(60, 30, 6, random_state=1)
    for j in range(6):
        assert not separable(np.delete(X[:, :6], j, axis=1), y)


def test_no_feature_set_smaller_than_k_separates_exhaustive_small_case():
    k, d = 3, 8
    X, y = make_separable_subspace(40, d, k, random_state=2)
    for size in (1, 2):
        for subset in combinations(range(d), size):
            assert not separable(X[:, subset], y), subset
    assert separable(X[:, :k], y)


def test_separable_subspace_noise_is_standard_normal_and_relevant_part_is_reflected_gaussian():
    X, y, coef = make_separable_subspace(4000, 8, 3, margin=0.1, return_coef=True,
                                         random_state=4)
    assert np.allclose(X[:, 3:].mean(axis=0), 0, atol=0.07)
    assert np.allclose(X[:, 3:].std(axis=0), 1, atol=0.05)
    # Orthogonal to the true normal, the relevant part is untouched N(0, 1).
    w = coef[:3]
    other = np.linalg.svd(np.eye(3) - np.outer(w, w))[0][:, :2]
    orthogonal = X[:, :3] @ other
    assert np.allclose(orthogonal.mean(axis=0), 0, atol=0.07)
    assert np.allclose(orthogonal.std(axis=0), 1, atol=0.05)
    assert np.allclose(mean_gap(X[:, 3:], y), 0, atol=0.15)


def test_separable_subspace_reproducible():
    a = make_separable_subspace(30, 10, 2, random_state=5)
    b = make_separable_subspace(30, 10, 2, random_state=5)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.parametrize("kwargs, message", [
    ({"n_samples": 9, "n_relevant": 5}, "n_samples >= 10"),
    ({"margin": 0.0}, r"'margin' parameter of make_separable_subspace must be a float in the range \(0.0, inf\)"),
    ({"n_relevant": 200}, "exceeds n_features"),
])
def test_separable_subspace_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_separable_subspace(**kwargs)


# ------------------------------------------------------------------ behaviour kept from main
def test_make_basic_separable_in_relevant_features():
    X, y = make_basic(60, 30, 4, random_state=0)
    assert np.all(y * X[:, :4].sum(axis=1) > 0)
    assert (y > 0).sum() == 36  # NC's 60 % / 40 %


def test_make_weston_training_sets_separable_in_the_six_relevant_features():
    X, y = make_weston(40, 50, random_state=0)
    assert X.shape == (40, 56) and separable(X[:, :6], y)
    assert np.allclose(X[:, 6:].std(), 20, rtol=0.05)
