"""ScaledMatrix.block centres and scales in place, so it must only ever touch a copy."""

import numpy as np
import pytest

from sfmlearn.lp.operators import ScaledMatrix


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("positions, rows", [(None, None), ([3, 0, 7], None), ([5, 1], [4, 2, 9])])
def test_block_scales_a_copy_and_leaves_the_data_alone(dtype, positions, rows):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 9)).astype(dtype)
    original = X.copy()
    mean, factor = rng.standard_normal(9), rng.uniform(0.5, 2.0, 9)
    Z = ScaledMatrix(X, factor, mean)
    cols = np.arange(9) if positions is None else np.asarray(positions)
    picked = np.arange(12) if rows is None else np.asarray(rows)
    expected = (X[np.ix_(picked, cols)].astype(np.float64) - mean[cols]) * factor[cols]
    for _ in range(2):  # a second call sees the same, unmodified data
        np.testing.assert_array_equal(Z.block(positions, rows), expected)
    np.testing.assert_array_equal(X, original)
