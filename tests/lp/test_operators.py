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


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kept_blocks_answer_like_fresh_ones(dtype, monkeypatch):
    """A kept block (the support) answers later requests for subsets of its columns, on
    every sample or some rows, through subset views too, with the values a fresh gather
    gave; what a caller does to its block never reaches the kept one; other columns and
    blocks too large to keep are gathered from X."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((15, 10)).astype(dtype)
    mean, factor = rng.standard_normal(10), rng.uniform(0.5, 2.0, 10)
    Z = ScaledMatrix(X, factor, mean)

    def fresh(cols):
        return (X[:, cols].astype(np.float64) - mean[cols]) * factor[cols]

    support = [8, 2, 5, 6]
    expected = fresh(support)
    block = Z.block(support, keep=True)
    np.testing.assert_array_equal(block, expected)
    block[:] = 0.0  # a caller that overwrites its block
    X[:] = 0  # from here on only the kept block can answer with the old data
    view = Z.subset(np.array([6, 2, 9]))
    np.testing.assert_array_equal(view.block([1, 0]), expected[:, [1, 3]])
    np.testing.assert_array_equal(Z.block([5, 8], rows=[3, 0]), expected[np.ix_([3, 0], [2, 0])])
    np.testing.assert_array_equal(Z.block([2, 9]), fresh([2, 9]))  # column 9 was never kept
    monkeypatch.setattr("sfmlearn.lp.operators.CACHE_ELEMENTS", 10)
    Z.block([0, 1], keep=True)  # 30 elements: not kept; the support's block stays
    np.testing.assert_array_equal(Z.block([5]), expected[:, [2]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("whole_from", [0.0, 2.0])  # always / never multiply all of X
def test_rmatvec_of_a_column_subset_whichever_way_it_is_computed(dtype, whole_from, monkeypatch):
    """Z^T u on a subset view (columns in any order, all of them too) is the same whether
    every column of X is multiplied and the view's ones kept, or the view's columns are
    gathered first; float32 data are upcast in chunks either way."""
    monkeypatch.setattr("sfmlearn.lp.operators.WHOLE_PRODUCT_FROM", whole_from)
    monkeypatch.setattr("sfmlearn.lp.operators._CHUNK_ELEMENTS", 40)  # 2 columns per chunk
    rng = np.random.default_rng(2)
    X = rng.standard_normal((20, 11)).astype(dtype)
    mean, factor = rng.standard_normal(11), rng.uniform(0.5, 2.0, 11)
    u = rng.standard_normal(20)
    for cols in ([7, 0, 3, 10, 4], np.arange(11)[::-1], np.arange(11)):
        view = ScaledMatrix(X, factor, mean).subset(np.asarray(cols))
        cols = np.asarray(cols)
        expected = ((X[:, cols].astype(np.float64) - mean[cols]) * factor[cols]).T @ u
        np.testing.assert_allclose(view.rmatvec(u), expected, rtol=1e-12, atol=1e-12)


def _uncanonical(dense, fmt):
    """``dense`` (float32) as a CSR or CSC matrix in non-canonical form: the first
    non-zero entry repeated (1.5 more) and a stored zero, both appended unsorted at the
    end of their rows (CSR) or columns (CSC)."""
    import scipy.sparse as sp

    lines = dense if fmt == "csr" else dense.T
    duplicated = np.argwhere(lines != 0)[0]
    zero = np.argwhere(lines == 0)[0]
    data, indices, indptr = [], [], [0]
    for i, line in enumerate(lines):
        minor = list(np.flatnonzero(line))
        values = list(line[minor])
        for at, value in ((duplicated, 1.5), (zero, 0.0)):
            if at[0] == i:
                minor.append(at[1])
                values.append(value)
        indices += minor
        data += values
        indptr.append(len(indices))
    matrix = sp.csr_array if fmt == "csr" else sp.csc_array
    X = matrix((np.array(data, dtype=np.float32), np.array(indices), np.array(indptr)), shape=dense.shape)
    assert not X.has_canonical_format and X.nnz == np.count_nonzero(dense) + 2
    return X


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("scaled", [True, False])
@pytest.mark.parametrize("positions, rows", [(None, None), ([7, 0, 3, 3], None),
                                             ([5, 1, 8], [9, 2, 4, 0]), ([2, 6], [1, 3, 10])])
def test_sparse_blocks_gather_the_summed_columns(fmt, scaled, positions, rows):
    """A sparse block holds X[rows][:, cols] times the column factors, the duplicate
    entries of X summed, as a canonical CSC matrix: stored zeros of the data and zeros
    made by a factor of 0 dropped, row indices sorted in the order of ``rows``; through
    subset views too, and float32 data upcast. Rows must be distinct sample indices."""
    rng = np.random.default_rng(2)
    dense = (rng.standard_normal((12, 9)) * (rng.random((12, 9)) < 0.4)).astype(np.float32)
    X = _uncanonical(dense, fmt)
    factor = rng.uniform(0.5, 2.0, 9) if scaled else None
    if scaled:
        factor[3] = 0.0  # a constant column
    Z = ScaledMatrix(X, factor)
    cols = np.arange(9) if positions is None else np.asarray(positions)
    summed = X.toarray().astype(np.float64)
    assert np.count_nonzero(summed != dense) == 1  # the duplicated entry
    picked = summed if rows is None else summed[rows]
    expected = picked[:, cols] * (1.0 if factor is None else factor[cols])
    view = Z.subset(np.arange(9)[::-1]).subset(np.arange(9)[::-1])  # the same columns, through views
    for matrix in (Z, view):
        block = matrix.block(positions, rows)
        assert block.format == "csc" and block.dtype == np.float64
        assert block.has_canonical_format and np.all(block.data != 0)
        np.testing.assert_array_equal(block.toarray(), expected)
    with pytest.raises(ValueError, match="distinct"):
        Z.block([0, 1], rows=[2, 2])
    with pytest.raises(ValueError, match="boolean mask"):
        Z.block([0, 1], rows=np.arange(12) < 3)
