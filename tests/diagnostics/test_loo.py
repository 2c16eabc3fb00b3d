"""LOO pitfalls: simulations, Theorems 2.5.1/2.5.2, effective dimension, the 4.1 border."""

import math

import numpy as np
import pandas as pd
import pytest
from joblib import parallel_config

from sfmlearn.diagnostics import (
    INFINITE_BORDER_COEF,
    asymptotic_loo_error,
    behaves_infinite_dimensional,
    critical_sample_size,
    effective_dimension,
    fit_infinite_border,
    infinite_border_points,
    infinite_dimension_border,
    loo_error,
    loo_error_grid,
    loo_regime,
    sample_embedded_classes,
    simulate_loo_error,
)
from sfmlearn.exceptions import DataValidationError, NotSeparableError


def test_embedded_gram_has_the_wishart_moments():
    # X X' for X (n x d) standard normal: E K_ii = d, var K_ii = 2d, E K_ij = 0, var K_ij = d.
    n, d, runs = 5, 400, 3000
    grams = np.array([(lambda E: E @ E.T)(sample_embedded_classes(3, 2, d, random_state=s)[0])
                      for s in range(runs)])
    diag = grams[:, np.arange(n), np.arange(n)].ravel()
    off = grams[:, 0, 1:].ravel()
    assert diag.mean() == pytest.approx(d, rel=0.01)
    assert diag.var() == pytest.approx(2 * d, rel=0.08)
    assert abs(off.mean()) < 4 * math.sqrt(d / off.size)
    assert off.var() == pytest.approx(d, rel=0.08)


def test_embedded_classes_have_the_requested_mean_distance_and_variances():
    d, runs = 300, 2000
    dist, norm_pos, norm_neg = [], [], []
    for s in range(runs):
        E, y = sample_embedded_classes(1, 1, d, mu2=0.2, sigma2=2.0, tau2=0.5, random_state=s)
        dist.append(np.sum((E[0] - E[1]) ** 2))
        norm_pos.append(E[0] @ E[0])
        norm_neg.append(E[1] @ E[1])
    assert np.mean(dist) == pytest.approx(d * (2.0 + 0.5 + 0.2), rel=0.02)
    assert np.mean(norm_pos) == pytest.approx(2.0 * d, rel=0.02)
    assert np.mean(norm_neg) == pytest.approx(d * (0.5 + 0.2), rel=0.02)


def test_embedded_simulation_agrees_with_full_dimensional_data():
    n, d, runs = 8, 200, 300
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(4), -np.ones(4)]
    direct = [loo_error(rng.standard_normal((n, d)), y) for _ in range(runs)]
    embedded = simulate_loo_error(n, d, n_runs=runs, random_state=1)
    se = math.sqrt(np.var(direct) / runs + np.var(embedded) / runs)
    assert abs(np.mean(direct) - embedded.mean()) < 4 * se


def test_random_labels_loo_error_tends_to_one():
    # Theorem 2.5.1 (thesis Fig. 2.9): 0.5 in low, 1 in high dimensions
    low = simulate_loo_error(10, 12, n_runs=200, random_state=0).mean()
    high = simulate_loo_error(10, 10**7, n_runs=50, random_state=0).mean()
    assert low < 0.75
    assert high == 1.0


def test_critical_sample_size_of_the_thesis():
    # thesis 4.1: mu^2 = 1/30, sigma^2 = tau^2 = 1 -> n = 12
    assert critical_sample_size(1 / 30) == 12
    assert asymptotic_loo_error(5, 5, 1 / 30) == 1.0
    assert asymptotic_loo_error(6, 6, 1 / 30) == 0.5  # boundary: the theorem does not decide
    assert asymptotic_loo_error(7, 7, 1 / 30) == 0.0
    assert critical_sample_size(0.0) == math.inf


def test_theorem_2_5_2_limits_match_simulation_at_large_d():
    for n, expected in [(10, 1.0), (12, 0.5), (16, 0.0)]:
        simulated = simulate_loo_error(n, 10**7, mu2=1 / 30, n_runs=100, random_state=n).mean()
        assert abs(simulated - expected) < 0.15, (n, simulated)


def test_odd_sample_sizes_do_not_reach_one():
    # 8 + 7 samples: leaving out a +1 sample gives balanced 7 + 7 (coin flip), a -1 sample 8 + 6 (wrong)
    assert asymptotic_loo_error(8, 7, 0.0) == pytest.approx(11 / 15)
    assert simulate_loo_error(15, 10**7, n_runs=100, random_state=0).mean() == pytest.approx(11 / 15, abs=0.05)


def test_unequal_variances_follow_the_theorem():
    # sigma^2 = 2, tau^2 = 1, 6 + 6 samples, mu^2 = 0.1: left-out +1 samples fail, -1 samples succeed
    assert asymptotic_loo_error(6, 6, 0.1, sigma2=2.0, tau2=1.0) == 0.5
    simulated = simulate_loo_error(12, 10**7, mu2=0.1, sigma2=2.0, tau2=1.0, n_runs=50, random_state=0).mean()
    assert simulated == pytest.approx(0.5, abs=0.05)


def test_two_norm_softness_adds_dimensions():
    # thesis 2.5.5: a soft margin with small C behaves like a hard margin in d + 1/C dimensions
    assert effective_dimension(100, 0.001) == pytest.approx(1100)
    assert effective_dimension(100, 1.0, feature_variance=0.01) == pytest.approx(200)
    assert effective_dimension(100) == 100
    hard = simulate_loo_error(10, 200, n_runs=100, random_state=0).mean()
    soft = simulate_loo_error(10, 200, C=1e-4, loss="squared_hinge", n_runs=100, random_state=0).mean()
    like = simulate_loo_error(10, 10200, n_runs=100, random_state=0).mean()
    assert soft > hard + 0.1
    assert abs(soft - like) < 0.05


def test_softness_shifts_the_critical_sample_size_on_normalised_data():
    # sigma^2_eff = 1 + 1/C for the 2-norm soft margin on data / sqrt(d); C = 1 -> n = 16
    assert critical_sample_size(1 / 30, sigma2=2.0, tau2=2.0) == 16
    below = simulate_loo_error(14, 10**6, mu2=1 / 30, C=1.0, loss="squared_hinge", normalize=True,
                               n_runs=30, random_state=0).mean()
    above = simulate_loo_error(18, 10**6, mu2=1 / 30, C=1.0, loss="squared_hinge", normalize=True,
                               n_runs=30, random_state=0).mean()
    assert below > 0.9 and above < 0.1


def test_loo_error_is_rotation_invariant_and_uses_all_features():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((10, 40))
    y = np.repeat(["a", "b"], 5)
    Q, _ = np.linalg.qr(rng.standard_normal((40, 40)))
    assert loo_error(X, y) == loo_error(X @ Q, y)
    assert loo_error(X, y, C=0.5) == loo_error(X @ Q, y, C=0.5)


def test_loo_error_on_inseparable_data_says_to_use_C():
    X = np.arange(8.0)[:, None]
    y = np.array([0, 1] * 4)
    with pytest.raises(NotSeparableError, match="softness C"):
        loo_error(X, y)
    assert 0 <= loo_error(X, y, C=1.0) <= 1


def test_simulations_validate_their_inputs():
    with pytest.raises(DataValidationError, match="d >= n - 1"):
        simulate_loo_error(20, 10)
    with pytest.raises(DataValidationError, match="loss"):
        simulate_loo_error(10, 20, C=1.0, loss="logistic")
    with pytest.raises(DataValidationError, match="C must be"):
        simulate_loo_error(10, 20, C=-1.0)


def test_grid_is_deterministic_independent_of_n_jobs_and_marks_undefined_cells():
    kwargs = dict(n_values=[4, 12], d_values=[8, 100], n_runs=5, random_state=7)
    a = loo_error_grid(**kwargs)
    with parallel_config(backend="threading"):
        b = loo_error_grid(**kwargs, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    undefined = a[(a["n"] == 12) & (a["d"] == 8)]
    assert undefined["loo_error"].isna().all()
    assert a["loo_error"].notna().sum() == 3


def test_border_fit_recovers_a_known_quadratic():
    n_values = np.arange(4, 20, 2)
    border = 100 + 10 * n_values**2
    d_values = np.unique(np.r_[border, border - 1, 50])
    grid = pd.DataFrame([{"n": n, "d": d, "loo_error": 1.0 if d >= b else 0.9}
                         for n, b in zip(n_values, border) for d in d_values])
    points = infinite_border_points(grid)
    np.testing.assert_array_equal(points["d"], border)
    coef = fit_infinite_border(points, n_fit=6)
    np.testing.assert_allclose(coef, (100, 0, 10), atol=1e-6)
    with pytest.raises(DataValidationError, match="at least 3"):
        fit_infinite_border(points.head(2))


def test_regime_uses_the_fitted_border_and_the_effective_dimension():
    a0, a1, a2 = INFINITE_BORDER_COEF
    assert infinite_dimension_border(20) == pytest.approx(a0 + 20 * a1 + 400 * a2)
    assert 3e4 < infinite_dimension_border(20) < 6e4  # thesis 4.1: about 50000 at n = 20
    assert behaves_infinite_dimensional(20, 100_000)
    assert not behaves_infinite_dimensional(20, 100)
    assert behaves_infinite_dimensional(20, 100, C=1e-5)  # 100 + 1e5 effective dimensions
    regime = loo_regime(20, 100, C=1e-5)
    assert regime.infinite_like and "Do not trust LOO" in str(regime)
    with pytest.raises(DataValidationError):
        loo_regime(3, 100)


def test_regime_border_separates_simulated_random_label_errors():
    # well above the border the LOO error is near 1, well below it clearly lower
    n = 10
    border = infinite_dimension_border(n)
    assert simulate_loo_error(n, int(3 * border), n_runs=100, random_state=0).mean() > 0.97
    assert simulate_loo_error(n, int(border / 30), n_runs=100, random_state=0).mean() < 0.9


@pytest.mark.slow
def test_border_coefficients_are_reproduced_by_the_experiment():
    from sfmlearn.experiments.loo_border import run

    table = run()
    np.testing.assert_allclose(table.attrs["coef"], INFINITE_BORDER_COEF, rtol=1e-4)
