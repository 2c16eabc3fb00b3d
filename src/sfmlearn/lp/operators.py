"""The LP data as an operator: scaled columns without a scaled copy of X.

Every LP of this package reads its data through :class:`ScaledMatrix`

    Z = (X - 1 m^T) diag(f)        restricted to a set of columns of X

with the user's X left untouched (dense float64/float32 or scipy.sparse). The full-LP
engines materialise Z column block by column block straight into the solver's arrays;
column generation only ever asks for the columns of its working set (``block``) and for
one product Z^T u per pricing round (``rmatvec``), so memory stays O(size of X) +
O(n x working set) even at d = 10^6.

Sparse input is never centred (m = None): centring would densify it, and every LP here
has a free bias, which absorbs the centring exactly (y_i (w . (x_i - m) + b) =
y_i (w . x_i + b - w . m)); only the bias reported in the scaled space shifts (see
:meth:`sfmlearn.selection._lpdata.LPData.lp_to_scaled`).
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["ScaledMatrix", "as_scaled_matrix"]

# Columns per chunk when a float32 or strided block must be upcast (bounded temporaries).
_CHUNK_ELEMENTS = 4_000_000


class ScaledMatrix:
    """Z = (X[:, columns] - mean) * factor, evaluated lazily.

    Parameters
    ----------
    X : ndarray or scipy sparse matrix of shape (n, d)
    factor : ndarray of shape (d,) or None
        Per-column multipliers (None: 1).
    mean : ndarray of shape (d,) or None
        Per-column centres (None: no centring; required for sparse X).
    columns : ndarray of int or None
        The columns of X that Z exposes, in order (None: all).
    """

    def __init__(self, X, factor=None, mean=None, columns=None):
        if sp.issparse(X):
            if mean is not None:
                raise ValueError("sparse data are never centred (it would densify them)")
            if X.format not in ("csr", "csc"):
                X = sp.csr_array(X)  # CSR and CSC are used as given, never copied
        self.X = X
        self.factor = factor
        self.mean = mean
        self.columns = np.arange(X.shape[1]) if columns is None else np.asarray(columns, dtype=np.intp)

    @property
    def shape(self):
        return self.X.shape[0], self.columns.size

    @property
    def is_sparse(self):
        return sp.issparse(self.X)

    @property
    def nnz(self):
        """Non-zero values of the exposed columns (n x m for dense X).

        Sparse X may store explicit zeros (``X.data[k] = 0``); they are not counted, as
        :meth:`block` drops them. The LP builders size their arrays from the block they
        materialise, not from this count.
        """
        if not self.is_sparse:
            return self.shape[0] * self.shape[1]
        X = self.X
        nonzero = X.data != 0
        if X.format == "csc":
            column_of_entry = np.repeat(np.arange(X.shape[1]), np.diff(X.indptr))
        else:
            column_of_entry = X.indices
        per_column = np.bincount(column_of_entry[nonzero], minlength=X.shape[1])
        return int(per_column[self.columns].sum())

    def subset(self, positions):
        """A view exposing only the given positions of this matrix's columns."""
        return ScaledMatrix(self.X, self.factor, self.mean, self.columns[positions])

    def _scale(self, block, cols):
        if self.mean is not None:
            block = block - self.mean[cols]
        if self.factor is not None:
            block = block * self.factor[cols] if not sp.issparse(block) else block @ sp.diags_array(self.factor[cols])
        return block

    def block(self, positions=None):
        """Columns ``positions`` of Z: dense float64 (n, k), or CSC float64 for sparse X.

        A sparse block is canonical: sorted row indices and no stored zeros (whether
        the user's matrix stored explicit zeros, or scaling produced them), so its
        ``nnz`` is the number of LP matrix entries it yields.
        """
        cols = self.columns if positions is None else self.columns[positions]
        if self.is_sparse:
            block = sp.csc_array(self.X[:, cols]).astype(np.float64)
            block = sp.csc_array(self._scale(block, cols))
            block.eliminate_zeros()
            block.sort_indices()
            return block
        return self._scale(np.asarray(self.X[:, cols], dtype=np.float64), cols)

    def dense_block(self, positions=None):
        block = self.block(positions)
        return block.toarray() if sp.issparse(block) else block

    def rmatvec(self, u):
        """Z^T u (float64), one pass over X; float32 data are upcast chunk by chunk."""
        u = np.asarray(u, dtype=np.float64)
        X, cols = self.X, self.columns
        if self.is_sparse:
            full = np.asarray(X.T @ u).ravel()
            product = full[cols]
        elif X.dtype == np.float64 and cols.size == X.shape[1]:
            product = X.T @ u
        else:
            product = np.empty(cols.size)
            step = max(1, _CHUNK_ELEMENTS // max(X.shape[0], 1))
            whole = cols.size == X.shape[1]
            for lo in range(0, cols.size, step):
                hi = min(cols.size, lo + step)
                part = X[:, lo:hi] if whole else X[:, cols[lo:hi]]
                product[lo:hi] = np.asarray(part, dtype=np.float64).T @ u
        if self.mean is not None:
            product -= self.mean[cols] * u.sum()
        if self.factor is not None:
            product *= self.factor[cols]
        return product

    def abs_rmatvec(self, u, positions=None):
        """|Z|^T |u| on the given positions (all by default): for each column, the sum of
        the magnitudes of the terms of (Z^T u)_j, the scale its rounding error and any
        tolerance on it are relative to. Dense data are materialised chunk by chunk."""
        u = np.abs(np.asarray(u, dtype=np.float64))
        positions = np.arange(self.shape[1]) if positions is None else np.asarray(positions)
        if self.is_sparse:
            return np.asarray(abs(self.block(positions)).T @ u).ravel()
        out = np.empty(positions.size)
        step = max(1, _CHUNK_ELEMENTS // max(self.shape[0], 1))
        for lo in range(0, positions.size, step):
            hi = min(positions.size, lo + step)
            out[lo:hi] = np.abs(self.block(positions[lo:hi])).T @ u
        return out

    def max_abs(self):
        """max_ij |Z_ij| (0 for an empty matrix), one chunked pass."""
        if self.is_sparse:
            return float(abs(self.block()).max(initial=0.0)) if self.shape[1] else 0.0
        m = self.shape[1]
        step = max(1, _CHUNK_ELEMENTS // max(self.shape[0], 1))
        largest = 0.0
        for lo in range(0, m, step):
            chunk = self.block(np.arange(lo, min(m, lo + step)))
            largest = max(largest, float(np.abs(chunk).max(initial=0.0)))
        return largest


def as_scaled_matrix(X):
    """Wrap a raw array/sparse matrix (unscaled, uncentred); pass ScaledMatrix through."""
    return X if isinstance(X, ScaledMatrix) else ScaledMatrix(X)
