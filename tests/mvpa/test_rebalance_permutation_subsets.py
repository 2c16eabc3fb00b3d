import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.mvpa import (one_vs_rest_rebalanced, permuted_decoding, random_subset_svm,
                           reference_svm, subset_sizes)


def test_rebalancing_averages_other_classes_per_block():
    # one participant, classes t (2 maps) and o1, o2 (2 maps each, runs 1 and 2)
    X = np.arange(6, dtype=float)[:, None] * np.array([[1.0, 10.0]])
    y = np.array(["t", "t", "o1", "o1", "o2", "o2"])
    groups = np.zeros(6, dtype=int)
    runs = np.array([1, 2, 1, 1, 2, 2])
    X_new, y_new, g_new = one_vs_rest_rebalanced(X, y, groups, "t", blocks=runs)
    assert list(y_new) == ["t", "t", "rest", "rest"]
    np.testing.assert_allclose(X_new[2:], [[2.5, 25.0], [4.5, 45.0]])
    # without blocks: 2 target maps / 2 other classes = one chunk per class, same result here
    X_chunks, _, _ = one_vs_rest_rebalanced(X, y, groups, "t")
    np.testing.assert_allclose(X_chunks, X_new)
    assert (g_new == 0).all()


def test_rebalancing_thesis_shape_and_errors():
    # thesis 6.4.2: 8 target maps vs 4 x 8 others -> 8 vs 8 per participant
    y = np.repeat(["joy", "anger", "disgust", "fear", "sadness"], 8)
    X = np.random.default_rng(0).standard_normal((y.size, 3))
    _, y_new, _ = one_vs_rest_rebalanced(X, y, np.zeros(y.size), "joy")
    assert (y_new == "joy").sum() == 8 and (y_new == "rest").sum() == 8
    with pytest.raises(DataValidationError, match="not a label"):
        one_vs_rest_rebalanced(X, y, np.zeros(y.size), "awe")
    with pytest.raises(DataValidationError, match="equal chunks"):
        one_vs_rest_rebalanced(X[:-1], y[:-1], np.zeros(y.size - 1), "joy")


def test_subset_sizes_are_powers_of_two_then_all():
    np.testing.assert_array_equal(subset_sizes(10), [1, 2, 4, 8, 10])
    np.testing.assert_array_equal(subset_sizes(8), [1, 2, 4, 8])


def test_random_subsets_find_the_spread_information(buttonpress):
    sim = buttonpress
    table = random_subset_svm(sim.X, sim.labels, sim.participants, sizes=[1, sim.X.shape[1]],
                              n_repeats=8, random_state=0)
    assert len(table) == 8 + 1
    assert table["error"].between(0, 1).all()
    again = random_subset_svm(sim.X, sim.labels, sim.participants, sizes=[1],
                              n_repeats=8, random_state=0)
    np.testing.assert_array_equal(again["error"], table.loc[table["size"] == 1, "error"])
    # all voxels decode the button press; single random voxels mostly do not
    all_voxels = table.loc[table["size"] == sim.X.shape[1], "error"].item()
    assert all_voxels < table.loc[table["size"] == 1, "error"].mean()
    with pytest.raises(DataValidationError, match="subset sizes"):
        random_subset_svm(sim.X, sim.labels, sim.participants, sizes=[0])


def test_permutations_and_random_subsets_stop_at_the_callers_time_limit(monkeypatch):
    """Each loop checks the limit after every step and says how far it got (joblib reads
    the clock too, so only "before the end" is certain)."""
    from sfmlearn.utils.time_limit import TimeLimitError, time_limit

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(4), 8)
    y = np.tile(np.repeat([0, 1], 4), 4)
    X = rng.standard_normal((y.size, 20))
    clock = iter(np.arange(0.0, 1e6, 10.0))  # every reading of the clock is 10 s later
    monkeypatch.setattr("sfmlearn.utils.time_limit.time.time", lambda: next(clock))
    with time_limit(25.0), pytest.raises(TimeLimitError, match="after [1-8] of 9 label permutations$"):
        permuted_decoding(X, y, groups, reference_svm(), n_permutations=9, random_state=0)
    with time_limit(5.0), pytest.raises(TimeLimitError, match=r"after [1-5] of 6 chunks of random-subset SVMs$"):
        random_subset_svm(X, y, groups, sizes=[1, 2], n_repeats=3)  # 6 tasks, one chunk each


def test_permutations_give_chance_and_a_p_value():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(4), 8)
    y = np.tile(np.repeat([0, 1], 4), 4)
    X = rng.standard_normal((y.size, 20))
    X[:, 0] += 4 * (2 * y - 1)
    result = permuted_decoding(X, y, groups, reference_svm(), n_permutations=9, random_state=0)
    assert result.accuracy > 0.85
    acc = result.permutations["accuracy"]
    assert acc.mean() < 0.75
    expected = (1 + np.count_nonzero(acc >= result.accuracy)) / 10
    assert result.p_value == pytest.approx(expected)
    assert result.summary()["n_permutations"] == 9
