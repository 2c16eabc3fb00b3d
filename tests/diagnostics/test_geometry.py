"""Distance concentration and hubness measures (thesis 2.5.2-2.5.3)."""

import math

import numpy as np
import pytest

from sfmlearn.diagnostics import (
    angle_statistics,
    concentration_curves,
    hubness,
    k_occurrence,
    norm_concentration,
    pairwise_angles,
    relative_variance,
)
from sfmlearn.exceptions import DataValidationError


def test_relative_variance_definition():
    assert relative_variance([2.0, 2.0, 2.0]) == 0.0
    assert relative_variance([1.0, 3.0]) == pytest.approx(1.0 / 2.0)
    with pytest.raises(DataValidationError):
        relative_variance([-1.0, 1.0])


def test_norm_concentration_shrinks_like_one_over_sqrt_2d():
    # ||x||_2 of d standard normals: sd -> 1/sqrt(2), mean -> sqrt(d), so RV -> 1/sqrt(2d)
    rng = np.random.default_rng(0)
    values = [norm_concentration(rng.standard_normal((3000, d))) for d in (10, 100, 1000)]
    assert values[0] > values[1] > values[2]
    assert values[2] == pytest.approx(1 / math.sqrt(2000), rel=0.1)


def test_fractional_norms_concentrate_less_on_uniform_data():
    # Aggarwal et al. 2001 (thesis 2.5.2): smaller p, less concentration
    X = np.random.default_rng(1).uniform(size=(2000, 50))
    assert norm_concentration(X, p=0.5) > norm_concentration(X, p=1) > norm_concentration(X, p=2)


def test_pairwise_angles_of_known_vectors():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0], [-1.0, 0.0]])
    angles = pairwise_angles(X)  # pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    np.testing.assert_allclose(angles, [90, 0, 180, 90, 90, 180], atol=1e-6)
    with pytest.raises(DataValidationError, match="zero vector"):
        pairwise_angles(np.array([[0.0, 0.0], [1.0, 0.0]]))


def test_random_angles_approach_ninety_degrees():
    rng = np.random.default_rng(2)
    low = angle_statistics(rng.standard_normal((50, 3)))
    high = angle_statistics(rng.standard_normal((50, 5000)))
    assert high["max"] - high["min"] < 10 < low["max"] - low["min"]
    assert high["mean"] == pytest.approx(90, abs=0.5)


def test_k_occurrence_counts_neighbours():
    X = np.array([[0.0], [1.0], [3.0], [7.0]])  # nearest: 0->1, 1->0, 3->1, 7->3
    np.testing.assert_array_equal(k_occurrence(X, k=1), [1, 2, 1, 0])
    counts = k_occurrence(np.random.default_rng(3).standard_normal((40, 5)), k=4)
    assert counts.sum() == 40 * 4
    with pytest.raises(DataValidationError, match="k must be"):
        k_occurrence(X, k=4)


def test_hubness_grows_with_dimension():
    # Radovanovic et al. 2010: N_k is skewed to the right in high dimensions
    rng = np.random.default_rng(4)
    low = hubness(rng.standard_normal((400, 2)), k=10)
    high = hubness(rng.standard_normal((400, 1000)), k=10)
    assert high > 1.0 > low


def test_concentration_curves_converge_to_the_simplex():
    curves = concentration_curves([3, 30, 3000, 300000], n=10, n_runs=20, random_state=0)
    assert set(curves["quantity"]) == {"norm", "distance", "angle", "eigenvalue"}
    assert curves.attrs["n"] == 10
    for quantity, limit in [("norm", 1.0), ("distance", 1.0), ("angle", 90.0), ("eigenvalue", 1.0)]:
        part = curves[curves["quantity"] == quantity].sort_values("d")
        spread = (part["max"] - part["min"]).to_numpy()
        assert np.all(np.diff(spread) < 0), quantity
        assert part["mean"].iloc[-1] == pytest.approx(limit, rel=0.01)
