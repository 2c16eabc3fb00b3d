"""make_toy_fmri: grouped maps of two conditions with known informative voxels."""

import numpy as np
import pytest

from sfmlearn.datasets import make_toy_fmri


def test_every_group_has_both_conditions_in_equal_parts():
    X, y, groups = make_toy_fmri(n_groups=5, maps_per_group=6, n_voxels=20, random_state=1)
    assert X.shape == (30, 20) and y.shape == groups.shape == (30,)
    for g in range(1, 6):
        labels, counts = np.unique(y[groups == g], return_counts=True)
        assert labels.tolist() == ["left", "right"] and counts.tolist() == [3, 3]


def test_only_the_first_voxels_carry_the_condition():
    X, y, _ = make_toy_fmri(n_groups=40, n_voxels=10, n_informative=2, shift=3.0, random_state=0)
    difference = X[y == "right"].mean(axis=0) - X[y == "left"].mean(axis=0)
    np.testing.assert_allclose(difference[:2], 3.0, atol=0.5)
    np.testing.assert_allclose(difference[2:], 0.0, atol=0.5)


def test_same_seed_same_data_and_custom_labels():
    a = make_toy_fmri(labels=(0, 1), random_state=3)
    b = make_toy_fmri(labels=(0, 1), random_state=3)
    for left, right in zip(a, b):
        np.testing.assert_array_equal(left, right)
    assert set(a[1].tolist()) == {0, 1}


def test_a_group_needs_a_map_of_each_condition():
    with pytest.raises(ValueError, match="maps_per_group"):
        make_toy_fmri(maps_per_group=1)
