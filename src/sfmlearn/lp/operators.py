"""The LP data as an operator: scaled columns without a scaled copy of X.

Every LP of this package reads its data through :class:`ScaledMatrix`

    Z = (X - 1 m^T) diag(f)        restricted to a set of columns of X

with the user's X left untouched (dense float64/float32 or scipy.sparse). The full-LP
engines materialise Z column block by column block straight into the solver's arrays;
column generation only ever asks for the columns of its working set (``block``) and for
one product Z^T u per pricing round (``rmatvec``), so memory stays O(size of X) +
O(n x working set) even at d = 10^6 (sparse X other than canonical CSC: X and one CSC
copy of it, from which column blocks are gathered).

Sparse input is never centred (m = None): centring would densify it, and every LP here
has a free bias, which absorbs the centring exactly (y_i (w . (x_i - m) + b) =
y_i (w . x_i + b - w . m)); only the bias reported in the scaled space shifts (see
:meth:`sfmlearn.selection._lpdata.LPData.lp_to_scaled`).
"""

import numpy as np
import scipy.sparse as sp

from .inputs import check_lp_data

__all__ = ["ScaledMatrix", "as_scaled_matrix"]

# Columns per chunk when a float32 or strided block must be upcast (bounded temporaries).
_CHUNK_ELEMENTS = 4_000_000
#: Largest dense block (elements, 8 bytes each) that :class:`_LastBlock` keeps.
CACHE_ELEMENTS = 8_000_000
#: :meth:`ScaledMatrix.rmatvec` multiplies every column of dense X and keeps the exposed
#: ones when they are at least this share of X's columns, rather than gathering them
#: (see the guide's row-generation page).
WHOLE_PRODUCT_FROM = 0.1


class _LastBlock:
    """The last dense block of whole columns that :meth:`ScaledMatrix.block` gathered,
    shared by a matrix and its :meth:`~ScaledMatrix.subset` views.

    The reweighting loop and row generation ask, round after round, for the columns of
    the support of w on every sample (activities, solution checks, negligible weights);
    the support only shrinks within a run. Those requests (``keep=True``) are kept, and
    any later request for a subset of their columns is sliced from them: a copy of the
    requested columns, bit-identical to a fresh gather from X (the same element-wise
    operations made it), without reading the rows of X again.
    """

    def __init__(self, n_columns):
        self.n_columns = n_columns
        self.position = None  # column of X -> block column (-1: not kept), from the first keep
        self.values = None

    def get(self, cols, rows):
        """The block's values on ``cols`` (columns of X) and ``rows``, or None."""
        if self.values is None:
            return None
        at = self.position[cols]
        if at.size == 0 or at.min() < 0:
            return None
        return self.values[:, at] if rows is None else self.values[np.ix_(np.asarray(rows), at)]

    def keep(self, cols, values):
        """Keep a copy of ``values`` (every sample, columns ``cols`` of X) if small enough."""
        if values.size > CACHE_ELEMENTS:
            return
        if self.position is None:
            self.position = np.empty(self.n_columns, dtype=np.intp)
        self.position.fill(-1)
        self.position[cols] = np.arange(cols.size)
        self.values = values.copy()


class _SparseColumns:
    """Column access to sparse X for :meth:`ScaledMatrix.block`, shared by a matrix and
    its :meth:`~ScaledMatrix.subset` views.

    Column generation asks for a few columns of X hundreds of times per fit; scipy's
    fancy indexing builds several intermediate matrices per request, which cost more than
    the gather itself on data like DEXTER's (0.5 % dense). The columns are gathered here
    with array arithmetic from one canonical CSC copy of X (built at the first request;
    X itself when it is canonical CSC already), as one matrix: the values of
    ``X[rows][:, cols]`` (duplicate entries of X summed) times the column factors, stored
    zeros dropped, row indices sorted.
    """

    def __init__(self, X):
        self.X = X
        self.csc = None

    def gather(self, cols, rows, factor):
        """CSC float64 block of X's columns ``cols`` on ``rows`` (distinct sample
        indices, in the block's order; None: all), each column times ``factor[col]``
        (None: 1), without stored zeros, row indices sorted."""
        if self.csc is None:
            self.csc = _canonical_csc(self.X)
        X = self.csc
        starts, counts = X.indptr[cols], X.indptr[cols + 1] - X.indptr[cols]
        column = np.repeat(np.arange(cols.size), counts)
        entry = np.arange(column.size) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
        row, value = X.indices[entry].astype(np.intp), X.data[entry].astype(np.float64)
        if factor is not None:
            value *= factor[cols][column]
        n_rows = X.shape[0]
        keep = value != 0
        if rows is not None:
            rows = np.asarray(rows)
            if rows.dtype == bool:
                raise ValueError("block rows must be sample indices, not a boolean mask")
            rows = rows.astype(np.intp, copy=False)
            position = np.full(n_rows, -1, dtype=np.intp)
            position[rows] = np.arange(rows.size)
            if np.count_nonzero(position >= 0) != rows.size:
                raise ValueError("block rows must be distinct sample indices")
            row, n_rows = position[row], rows.size
            keep &= row >= 0
        row, value, column = row[keep], value[keep], column[keep]
        if rows is not None and np.any(np.diff(rows) < 0):
            order = np.lexsort((row, column))
            row, value, column = row[order], value[order], column[order]
        indptr = np.zeros(cols.size + 1, dtype=np.intp)
        np.cumsum(np.bincount(column, minlength=cols.size), out=indptr[1:])
        block = sp.csc_array((value, row, indptr), shape=(n_rows, cols.size))
        block.has_sorted_indices = True
        return block


def _canonical_csc(X):
    """X as CSC with sorted row indices and no duplicate entries (summed), a copy unless
    X is such a matrix already."""
    if X.format == "csc" and X.has_canonical_format:
        return X
    X = sp.csc_array(X, copy=True)
    X.sum_duplicates()
    return X


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
                X = sp.csr_array(X)  # CSR and CSC are used as given (blocks: one CSC copy)
        self.X = X
        self.factor = factor
        self.mean = mean
        self.columns = np.arange(X.shape[1]) if columns is None else np.asarray(columns, dtype=np.intp)
        self._block_source = _SparseColumns(X) if sp.issparse(X) else _LastBlock(X.shape[1])

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
        view = ScaledMatrix(self.X, self.factor, self.mean, self.columns[positions])
        view._block_source = self._block_source
        return view

    def _scale(self, block, cols):
        """Centre and scale the gathered dense columns ``cols``, a fresh copy (fancy
        indexing copies), in place: the same operations, without two temporaries of its
        size."""
        if self.mean is not None:
            block -= self.mean[cols]
        if self.factor is not None:
            block *= self.factor[cols]
        return block

    def block(self, positions=None, rows=None, keep=False):
        """Columns ``positions`` (all by default) of Z, on ``rows`` (all by default): dense
        float64 (k_rows, k), or CSC float64 for sparse X.

        Centring happens element by element before any product, so a product with this
        block carries no cancellation from the column offsets (see :meth:`rmatvec`).
        A sparse block is canonical: sorted row indices and no stored zeros (whether
        the user's matrix stored explicit zeros, or scaling produced them), so its
        ``nnz`` is the number of LP matrix entries it yields. A dense block of every
        sample asked for with ``keep=True`` (the support of w) is kept, and later
        requests for a subset of its columns sliced from it (:class:`_LastBlock`);
        sparse columns are gathered from a CSC copy (:class:`_SparseColumns`). ``rows``
        are distinct sample indices.
        """
        cols = self.columns if positions is None else self.columns[positions]
        if self.is_sparse:
            return self._block_source.gather(cols, rows, self.factor)
        kept = self._block_source.get(cols, rows)
        if kept is not None:
            return kept
        raw = self.X[:, cols] if rows is None else self.X[np.ix_(np.asarray(rows), cols)]
        block = self._scale(np.asarray(raw, dtype=np.float64), cols)
        if keep and rows is None:
            self._block_source.keep(cols, block)
        return block

    def dense_block(self, positions=None, rows=None, keep=False):
        block = self.block(positions, rows, keep)
        return block.toarray() if sp.issparse(block) else block

    def matvec(self, w, positions):
        """Z[:, positions] @ w, from the centred block (no cancellation; see :meth:`block`)."""
        positions = np.asarray(positions, dtype=np.intp)
        if positions.size == 0:
            return np.zeros(self.shape[0])
        return np.asarray(self.block(positions) @ np.asarray(w, dtype=np.float64)).ravel()

    def uncentred_matvec(self, v):
        """Z v for a dense ``v`` on every exposed column, in one pass over X and without
        any block: X (f v) - (m . f v) 1, rows upcast chunk by chunk for float32 data.

        Multiplied uncentred, it carries the offset cancellation :meth:`rmatvec`
        documents, uncorrected: for heuristics (:mod:`.first_order`), not certificates
        (those use :meth:`matvec`, from the centred block)."""
        u = np.zeros(self.X.shape[1])
        u[self.columns] = np.asarray(v, dtype=np.float64) * (1.0 if self.factor is None
                                                             else self.factor[self.columns])
        X = self.X
        if self.is_sparse or X.dtype == np.float64:
            product = np.asarray(X @ u, dtype=np.float64).ravel()
        else:
            product = np.empty(X.shape[0])
            step = max(1, _CHUNK_ELEMENTS // max(X.shape[1], 1))
            for lo in range(0, X.shape[0], step):
                product[lo:lo + step] = np.asarray(X[lo:lo + step], dtype=np.float64) @ u
        if self.mean is not None:
            product -= float(self.mean @ u)
        return product

    def rmatvec(self, u, rows=None):
        """Z^T u (float64), one pass over X (or over ``rows`` of it, where u is zero
        elsewhere: ``u`` is then indexed like ``rows``); float32 data are upcast chunk
        by chunk.

        Centred data are multiplied as X^T u - m (sum u): for a column whose offset
        |m_j| is large against its spread the subtraction loses digits. The extra
        rounding error is bounded by :meth:`offset_error`; callers that certify a
        result recompute the columns that bound leaves in doubt with
        :meth:`exact_rmatvec`.
        """
        u = np.asarray(u, dtype=np.float64)
        X, cols = self.X, self.columns
        if rows is not None:
            product = self._rows_rmatvec(np.asarray(rows, dtype=np.intp), u)
        elif self.is_sparse:
            full = np.asarray(X.T @ u).ravel()
            product = full[cols]
        elif cols.size >= WHOLE_PRODUCT_FROM * X.shape[1]:
            product = self._whole_rmatvec(u)[cols]
        else:
            product = np.empty(cols.size)
            step = max(1, _CHUNK_ELEMENTS // max(X.shape[0], 1))
            for lo in range(0, cols.size, step):
                hi = min(cols.size, lo + step)
                product[lo:hi] = np.asarray(X[:, cols[lo:hi]], dtype=np.float64).T @ u
        if self.mean is not None:
            product -= self.mean[cols] * u.sum()
        if self.factor is not None:
            product *= self.factor[cols]
        return product

    def _whole_rmatvec(self, u):
        """X^T u over every column of dense X, without the scaling; float32 data are
        upcast in contiguous column slices."""
        X = self.X
        if X.dtype == np.float64:
            return X.T @ u
        product = np.empty(X.shape[1])
        step = max(1, _CHUNK_ELEMENTS // max(X.shape[0], 1))
        for lo in range(0, X.shape[1], step):
            product[lo:lo + step] = np.asarray(X[:, lo:lo + step], dtype=np.float64).T @ u
        return product

    def _rows_rmatvec(self, rows, u):
        """X[rows][:, columns]^T u without the scaling, rows gathered chunk by chunk."""
        X, cols = self.X, self.columns
        if self.is_sparse:
            return np.asarray(X[rows].T @ u).ravel()[cols]
        product = np.zeros(cols.size)
        whole = cols.size == X.shape[1]
        step = max(1, _CHUNK_ELEMENTS // max(cols.size, 1))
        for lo in range(0, rows.size, step):
            hi = min(rows.size, lo + step)
            part = X[rows[lo:hi]] if whole else X[np.ix_(rows[lo:hi], cols)]
            product += np.asarray(part, dtype=np.float64).T @ u[lo:hi]
        return product

    def offset_error(self, u, rows=None):
        """Per column, a bound on the rounding error :meth:`rmatvec` adds to Z^T u by
        multiplying uncentred data: (k + 2) eps f_j |m_j| ||u||_1 with k the rows summed
        (the standard dot-product bound applied to the offset part of every x_ij); zero
        for uncentred data. The error of the centred part is that of any dot product,
        eps-relative to sum_i |z_ij u_i|, and is covered by the tolerances themselves."""
        if self.mean is None:
            return np.zeros(self.shape[1])
        cols = self.columns
        k = self.shape[0] if rows is None else np.asarray(rows).size
        bound = (k + 2) * np.finfo(np.float64).eps * np.abs(self.mean[cols]) * np.abs(u).sum()
        return bound * (1.0 if self.factor is None else np.abs(self.factor[cols]))

    def exact_rmatvec(self, u, positions, rows=None):
        """(Z^T u) on ``positions`` from the centred block: no offset cancellation."""
        positions = np.asarray(positions, dtype=np.intp)
        out = np.empty(positions.size)
        n_rows = self.shape[0] if rows is None else np.asarray(rows).size
        step = max(1, _CHUNK_ELEMENTS // max(n_rows, 1))
        u = np.asarray(u, dtype=np.float64)
        for lo in range(0, positions.size, step):
            hi = min(positions.size, lo + step)
            out[lo:hi] = np.asarray(self.block(positions[lo:hi], rows).T @ u).ravel()
        return out

    def abs_rmatvec(self, u, positions=None, rows=None):
        """|Z|^T |u| on the given positions (all by default), over ``rows`` (``u``
        indexed like them) or all samples: for each column, the sum of the magnitudes
        of the terms of (Z^T u)_j, the scale its rounding error and any tolerance on it
        are relative to. Dense data are materialised chunk by chunk."""
        u = np.abs(np.asarray(u, dtype=np.float64))
        positions = np.arange(self.shape[1]) if positions is None else np.asarray(positions)
        if self.is_sparse:
            return np.asarray(abs(self.block(positions, rows)).T @ u).ravel()
        out = np.empty(positions.size)
        n_rows = self.shape[0] if rows is None else np.asarray(rows).size
        step = max(1, _CHUNK_ELEMENTS // max(n_rows, 1))
        for lo in range(0, positions.size, step):
            hi = min(positions.size, lo + step)
            out[lo:hi] = np.abs(self.block(positions[lo:hi], rows)).T @ u
        return out

    def max_abs(self):
        """max_ij |Z_ij| (0 for an empty matrix), one chunked pass."""
        if self.is_sparse:
            # scipy's sparse max() has no ``initial``: take the stored values directly.
            return float(np.abs(self.block().data).max(initial=0.0)) if self.shape[1] else 0.0
        m = self.shape[1]
        step = max(1, _CHUNK_ELEMENTS // max(self.shape[0], 1))
        largest = 0.0
        for lo in range(0, m, step):
            chunk = self.block(np.arange(lo, min(m, lo + step)))
            largest = max(largest, float(np.abs(chunk).max(initial=0.0)))
        return largest


def as_scaled_matrix(X):
    """Wrap a raw array/sparse matrix (unscaled, uncentred), checked first
    (:func:`~.inputs.check_lp_data`: 2-D, numeric, finite); pass a ScaledMatrix through
    (the package builds those from checked data, and their views are made in hot loops)."""
    return X if isinstance(X, ScaledMatrix) else ScaledMatrix(check_lp_data(X))
