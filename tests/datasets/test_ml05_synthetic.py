"""ML05 5.1 generators: the labelling rules, shapes and reproducibility."""

import numpy as np
import pytest

from sfmlearn.datasets import make_chessboard, make_quadratic_circle


def test_quadratic_circle_labels_follow_the_circle():
    X, y = make_quadratic_circle(500, 3, random_state=0)
    assert X.shape == (500, 5)
    np.testing.assert_array_equal(y, np.where(X[:, 0] ** 2 + X[:, 1] ** 2 >= 1, 1.0, -1.0))
    assert np.abs(X).max() <= 1.5
    # About pi / 9 of the box lies inside the unit circle.
    assert np.mean(y < 0) == pytest.approx(np.pi / 9, abs=0.06)


def test_chessboard_labels_follow_the_board_and_no_single_feature_decides():
    X, y = make_chessboard(2000, 2, n_cells=4, random_state=1)
    assert X.shape == (2000, 4) and X.min() >= 0 and X.max() < 8
    cell = np.floor(X[:, :2] / 2).astype(int) % 2
    np.testing.assert_array_equal(y == 1, cell[:, 0] != cell[:, 1])
    for j in range(2):  # each board feature alone is uninformative
        assert abs(np.corrcoef(X[:, j], y)[0, 1]) < 0.1


def test_generators_are_reproducible_and_validate_sizes():
    a = make_chessboard(64, 2, random_state=3)
    b = make_chessboard(64, 2, random_state=3)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(a[0], make_chessboard(64, 2, random_state=4)[0])
    with pytest.raises(ValueError, match="n_samples"):
        make_quadratic_circle(1)
    with pytest.raises(ValueError, match="n_cells"):
        make_chessboard(n_cells=1)
