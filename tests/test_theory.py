"""Tests of sfmlearn.theory against brute force and the thesis' quoted values (thesis 2.5.4, 3.4)."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from joblib import parallel_config

from sfmlearn.exceptions import DataValidationError
from sfmlearn.theory import (
    growth_function,
    is_linearly_separable,
    log_binom,
    prob_separable,
    prob_separable_single_feature,
    prob_separable_subspace_bounds,
    prob_separable_subspace_mc,
    vc_dimension_selection,
)


def wendel_exact(n, d):
    """P_{d,n} as an exact fraction from the thesis formula."""
    if n <= d:
        return Fraction(1)
    return Fraction(sum(math.comb(n - 1, j) for j in range(d)), 2 ** (n - 1))


def test_prob_separable_matches_exact_fractions_on_a_grid():
    n, d = np.meshgrid(np.arange(1, 41), np.arange(1, 16), indexing="ij")
    expected = np.vectorize(lambda a, b: float(wendel_exact(a, b)))(n, d)
    np.testing.assert_allclose(prob_separable(n, d), expected, rtol=1e-12)


def test_prob_separable_is_one_when_samples_do_not_exceed_dimensions():
    assert prob_separable(5, 5) == 1.0
    assert prob_separable(38, 7129) == 1.0
    assert prob_separable(6, 5) < 1.0


def test_half_at_twice_the_dimension():
    # thesis 2.5.4: n must be twice d for the probability to drop to 0.5
    assert prob_separable(np.array([4, 10, 40]), np.array([2, 5, 20])) == pytest.approx([0.5, 0.5, 0.5])


@pytest.mark.parametrize("n,d", [(3000, 1), (2000, 300), (1500, 40)])
def test_log_space_matches_big_integer_arithmetic_where_doubles_underflow(n, d):
    exact = math.log(sum(math.comb(n - 1, j) for j in range(d))) - (n - 1) * math.log(2)
    assert prob_separable(n, d, log=True) == pytest.approx(exact, rel=1e-10)


def test_with_intercept_adds_one_dimension():
    assert prob_separable(12, 3, fit_intercept=True) == prob_separable(12, 4)


def test_with_intercept_matches_uniformly_random_labels_by_simulation():
    # Cover 1965: for points in general position and uniformly random labels,
    # separability with bias in R^d has probability P_{d+1,n}.
    rng = np.random.default_rng(0)
    n, d, trials = 8, 2, 600
    hits = 0
    for _ in range(trials):
        y = rng.choice([-1, 1], n)
        hits += np.unique(y).size == 1 or is_linearly_separable(rng.standard_normal((n, d)), y)
    p = prob_separable(n, d, fit_intercept=True)
    assert abs(hits / trials - p) < 4 * math.sqrt(p * (1 - p) / trials)


def test_prob_separable_matches_simulation_without_bias():
    rng = np.random.default_rng(1)
    n, d, trials = 6, 3, 600
    y = np.r_[np.ones(3), -np.ones(3)]
    hits = sum(is_linearly_separable(rng.standard_normal((n, d)), y, fit_intercept=False) for _ in range(trials))
    p = prob_separable(n, d)
    assert p == 0.5
    assert abs(hits / trials - p) < 4 * math.sqrt(p * (1 - p) / trials)


def test_single_feature_matches_inclusion_exclusion():
    for n in range(1, 9):
        for d in range(1, 9):
            series = sum((-1) ** (i + 1) * math.comb(d, i) * Fraction(1, 2 ** (i * (n - 1)))
                         for i in range(1, d + 1))
            assert prob_separable_single_feature(n, d) == pytest.approx(float(series), rel=1e-12, abs=1e-15)


def test_single_feature_is_accurate_when_tiny():
    # P ~ d 2^(1-n) when that is small; naive 1 - (1 - p)^d would give 0.
    assert prob_separable_single_feature(200, 10) == pytest.approx(10 * 2.0**-199, rel=1e-9)


def test_four_samples_in_fifty_dimensions_are_separable_in_one_feature_almost_surely():
    # thesis 2.5.4: "a dataset with 4 samples in 50 dimensions will have at least one
    # dimension in which it is separable with probability 1"
    assert prob_separable_single_feature(4, 50) > 0.998


def test_leukemia_two_feature_bound_is_the_thesis_value():
    # thesis 4.4: P_{2,7129,38} is upper bounded by 0.007
    lower, upper = prob_separable_subspace_bounds(38, 7129, 2)
    assert round(upper, 3) == 0.007
    assert upper == pytest.approx(math.comb(7129, 2) * 38 / 2**37, rel=1e-12)
    assert lower == pytest.approx(38 / 2**37, rel=1e-12)


def test_bounds_enclose_the_exact_single_feature_probability():
    n, d = np.meshgrid(np.arange(2, 30), np.array([1, 2, 5, 50, 1000]), indexing="ij")
    lower, upper = prob_separable_subspace_bounds(n, d, 1)
    exact = prob_separable_single_feature(n, d)
    assert np.all(lower <= exact * (1 + 1e-12))
    assert np.all(exact <= upper * (1 + 1e-12))


def test_bounds_collapse_when_k_equals_d():
    lower, upper = prob_separable_subspace_bounds(np.arange(2, 20), 4, 4)
    np.testing.assert_allclose(lower, prob_separable(np.arange(2, 20), 4))
    np.testing.assert_allclose(upper, lower)


def test_bounds_reject_k_above_d():
    with pytest.raises(DataValidationError, match="k must not exceed d"):
        prob_separable_subspace_bounds(10, 3, 4)


@pytest.mark.parametrize("bad", [0, -1, 2.5, "3", True])
def test_counts_are_validated(bad):
    with pytest.raises(DataValidationError):
        prob_separable(bad, 3)


def test_scalar_inputs_give_floats_and_arrays_broadcast():
    assert isinstance(prob_separable(10, 3), float)
    assert prob_separable(np.arange(1, 5)[:, None], np.arange(1, 4)).shape == (4, 3)


def test_growth_function_counts_separable_labellings_exactly():
    # Cover 1965: n points in general position in R^d admit exactly G_d(n) labellings
    # separable by hyperplanes through the origin. Count them with the LP test.
    rng = np.random.default_rng(2)
    for n, d in [(6, 2), (7, 3), (5, 5)]:
        X = rng.standard_normal((n, d))
        count = sum(is_linearly_separable(X, np.array(labels), fit_intercept=False)
                    for labels in itertools.product([-1, 1], repeat=n))
        assert growth_function(n, d) == pytest.approx(count)


def test_growth_function_is_two_to_the_n_up_to_d():
    assert growth_function(np.arange(1, 6), 5) == pytest.approx(2.0 ** np.arange(1, 6))
    assert growth_function(2000, 3, log=True) == pytest.approx(math.log(2 * (1 + 1999 + math.comb(1999, 2))))


def test_vc_dimension_of_choosing_one_feature():
    d = np.arange(1, 3000)
    np.testing.assert_array_equal(vc_dimension_selection(d, 1), 1 + np.floor(np.log2(d)).astype(int))


def test_vc_bound_solves_its_defining_inequality_exactly():
    def fits(n, d, k):  # 2^n <= C(d, k) G_k(n), integers only
        growth = 2**n if n <= k else 2 * sum(math.comb(n - 1, j) for j in range(k))
        return 2**n <= math.comb(d, k) * growth

    for d, k in [(5, 4), (10, 2), (100, 2), (1000, 5), (7129, 3)]:
        h = vc_dimension_selection(d, k)
        assert fits(h, d, k) and not fits(h + 1, d, k)


def test_vc_bound_can_exceed_d():
    # thesis Fig. 3.5: the bound is loose enough to exceed the VC dimension d of all features
    assert vc_dimension_selection(5, 4) > 5


def test_binary_digit_data_is_shattered_by_single_features():
    # thesis 3.4: d = 2^m, n = m + 1 = h samples with x_ij = +-1 from the binary digits
    # of i; every labelling equals +-column j for some feature j.
    m = 3
    d, n = 2**m, m + 1
    X = np.array([[1 if (j >> (n - 1 - i)) & 1 == 0 else -1 for j in range(d)] for i in range(n)])
    assert vc_dimension_selection(d, 1) == n
    for labels in itertools.product([-1, 1], repeat=n):
        y = np.array(labels)
        assert any(is_linearly_separable(X[:, [j]], y, fit_intercept=False) for j in range(d))


def test_log_binom():
    assert np.exp(log_binom(7129, 2)) == pytest.approx(math.comb(7129, 2))
    assert log_binom(3, 4) == -np.inf


def test_is_linearly_separable_basic_cases():
    xor = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    assert not is_linearly_separable(xor, ["a", "a", "b", "b"])
    assert is_linearly_separable(xor, ["a", "b", "b", "b"])
    one_side = np.array([[1.0], [2.0]])
    assert is_linearly_separable(one_side, [1, -1])
    assert not is_linearly_separable(one_side, [1, -1], fit_intercept=False)


def test_is_linearly_separable_validates_labels():
    X = np.zeros((3, 2))
    with pytest.raises(DataValidationError, match="3 classes"):
        is_linearly_separable(X, [0, 1, 2])
    with pytest.raises(DataValidationError, match="one label per row"):
        is_linearly_separable(X, [0, 1])


def test_monte_carlo_agrees_with_the_exact_single_feature_probability():
    n, d, trials = 4, 5, 1500
    estimate = prob_separable_subspace_mc(n, d, 1, trials, random_state=0)
    p = prob_separable_single_feature(n, d)
    assert abs(estimate - p) < 4 * math.sqrt(p * (1 - p) / trials)


def test_monte_carlo_lies_within_the_bounds():
    n, d, k, trials = 8, 5, 2, 150
    estimate = prob_separable_subspace_mc(n, d, k, trials, random_state=1)
    lower, upper = prob_separable_subspace_bounds(n, d, k)
    slack = 4 * math.sqrt(0.25 / trials)
    assert lower - slack <= estimate <= upper + slack
    assert lower + slack < estimate  # in between, not at a bound, for this (n, d, k)


def test_monte_carlo_is_reproducible_and_independent_of_n_jobs():
    a = prob_separable_subspace_mc(8, 4, 2, 40, random_state=3)
    with parallel_config(backend="threading"):  # the seeding, not the backend, is under test
        b = prob_separable_subspace_mc(8, 4, 2, 40, random_state=3, n_jobs=2)
    assert a == b


def test_monte_carlo_validates():
    with pytest.raises(DataValidationError, match="k must not exceed d"):
        prob_separable_subspace_mc(5, 2, 3, 10)
    with pytest.raises(DataValidationError, match="n_trials"):
        prob_separable_subspace_mc(5, 2, 1, 0)


def test_subset_separability_table_matches_the_single_functions():
    from sfmlearn.theory import subset_separability

    table = subset_separability(38, 7129, [1, 2])
    assert list(table.columns) == ["k", "p_fixed_subset", "upper_bound", "upper_bound_with_bias", "exact",
                                   "vc_bound"]
    for row in table.itertuples():
        lower, upper = prob_separable_subspace_bounds(38, 7129, row.k)
        assert (row.p_fixed_subset, row.upper_bound) == (lower, upper)
        assert row.upper_bound_with_bias == prob_separable_subspace_bounds(38, 7129, row.k, fit_intercept=True)[1]
        assert row.vc_bound == vc_dimension_selection(7129, row.k)
    assert table["exact"].iloc[0] == prob_separable_single_feature(38, 7129)
    assert np.isnan(table["exact"].iloc[1])
    assert round(table["upper_bound"].iloc[1], 3) == 0.007  # thesis 4.4: P_2,7129,38 <= 0.007


def test_subset_separability_defaults_and_monte_carlo_column():
    from sfmlearn.theory import subset_separability

    assert subset_separability(10, 3)["k"].tolist() == [1, 2, 3]  # k up to min(5, d)
    simulated = subset_separability(6, 4, [1], monte_carlo=40, random_state=0)
    assert simulated["monte_carlo"].iloc[0] == prob_separable_subspace_mc(6, 4, 1, 40, random_state=0)


def test_counts_beyond_2_to_the_53_are_refused_not_wrapped():
    """n >= 2**63 wrapped to a negative int64 and printed P = 1."""
    from sfmlearn.exceptions import DataValidationError
    from sfmlearn.theory import prob_separable, prob_separable_subspace_bounds

    for n in (10**19, 10**23, 1e19, 2**53 + 2):
        with pytest.raises(DataValidationError, match=r"n must be at most 2\*\*53"):
            prob_separable(n, 10)
    with pytest.raises(DataValidationError, match=r"d must be at most 2\*\*53"):
        prob_separable_subspace_bounds(5, 10**19, 1)
    assert prob_separable(10**11, 10**14) == 1.0  # more features than samples: separable


def test_the_separability_command_refuses_a_shape_whose_probability_is_nan(capsys):
    """At n = 1e15 scipy's binomial tail gives NaN: the command printed 'P = nan' and then
    a traceback."""
    from sfmlearn.cli import main

    assert main(["separability", "--n", str(10**15), "--d", "10", "--k", "1"]) == 2
    err = capsys.readouterr().err
    assert "are beyond what the probabilities can be computed for in double precision" in err
    assert err.count("\n") == 1


# -- large counts and scale ----------------------------------------------------------------
@pytest.mark.parametrize("n", [60, 10**6, 10**9, 10**15, 2**53 - 1, 2**53])
@pytest.mark.parametrize("k", [0, 1, 2, 3, 20, 21, 50, 1000])
def test_log_binom_matches_exact_integers_at_large_n(n, k):
    """Two gammaln values near n log n cancelled: log C(1e15, 1) came out 32.0, not 34.54."""
    k = min(k, n)
    exact = math.log(math.comb(n, k)) if k else 0.0
    assert log_binom(n, k) == pytest.approx(exact, rel=1e-14, abs=1e-14)
    assert log_binom(n, n - k) == pytest.approx(exact, rel=1e-14, abs=1e-14)


def test_log_binom_matches_exact_integers_for_every_k_of_small_n():
    n = np.arange(1, 80)[:, None]
    k = np.arange(0, 80)[None, :]
    exact = np.array([[math.log(math.comb(a, b)) if b <= a else -np.inf for b in range(80)] for a in range(1, 80)])
    np.testing.assert_allclose(log_binom(n, k), exact, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("d", [2**40 - 1, 2**40, 10**15, 2**53 - 1, 2**53])
def test_vc_bound_of_one_feature_is_exact_for_large_d(d):
    assert vc_dimension_selection(d, 1) == d.bit_length()  # 1 + floor(log2 d)


def test_union_bound_is_exact_for_many_features():
    _, upper = prob_separable_subspace_bounds(60, 10**15, 1)
    assert upper == pytest.approx(10**15 * 2.0**-59, rel=1e-13)


@pytest.mark.parametrize("d", [1, 1000, 2**53])
def test_single_feature_log_stays_finite_where_the_probability_underflows(d):
    expected = math.log(d) - 1099 * math.log(2)  # log(d 2^(1-n)), the terms beyond are far below rounding
    assert prob_separable_single_feature(1100, d, log=True) == pytest.approx(expected, rel=1e-15)
    if d == 1:
        assert prob_separable_single_feature(1100, 1, log=True) == pytest.approx(prob_separable(1100, 1, log=True))


@pytest.mark.parametrize("factor", [1e-300, 1e-15, 1e-9, 1.0, 1e20, 1e300])
def test_separability_does_not_depend_on_the_unit_of_X(factor):
    line = np.array([[0.0], [1.0], [2.0], [3.0]])
    xor = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    assert is_linearly_separable(line * factor, [0, 0, 1, 1])
    assert not is_linearly_separable(line * factor, [0, 1, 0, 1])
    assert not is_linearly_separable(xor * factor, [0, 0, 1, 1])
    assert not is_linearly_separable(xor * factor, [0, 1, 0, 1], fit_intercept=False)  # (0, 0) on the plane
    assert is_linearly_separable(sp.csr_matrix(line * factor), [0, 0, 1, 1])


def test_separability_of_all_zero_X_and_the_cross_check_solver():
    assert not is_linearly_separable(np.zeros((4, 2)), [0, 1, 0, 1])
    assert is_linearly_separable(np.zeros((2, 2)), [1, 1])
    assert is_linearly_separable(np.array([[0.0], [1.0], [2.0], [3.0]]) * 1e-9, [0, 0, 1, 1], solver="scipy")


def test_monte_carlo_takes_a_numpy_generator():
    first = prob_separable_subspace_mc(6, 3, 2, 20, random_state=np.random.default_rng(0))
    assert first == prob_separable_subspace_mc(6, 3, 2, 20, random_state=np.random.default_rng(0))
    assert 0.0 <= first <= 1.0
