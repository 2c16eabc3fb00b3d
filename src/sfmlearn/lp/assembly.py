"""The matrix form of a :class:`~sfmlearn.lp.problems.HyperplaneLP`, for engines that
take a whole LP in one call (HiGHS, SciPy, GLPK) and for column generation.

Two matrix formulations are built (thesis 3.5, NC A.2):

* ``"standard"``: w = w+ - w-, both >= 0; the data enter the matrix twice
  (n(2d+1) non-zeros in the hard case).
* ``"sparse"``: free w and s >= |w| through rows s - w >= 0 and s + w >= 0; the data enter
  once but 2d rows are added (n(d+1) + 4d non-zeros).

The arrays are preallocated and filled in place (column-wise CSC, what HiGHS takes
without conversion); dense data are materialised chunk by chunk.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..exceptions import SolverError
from .operators import as_scaled_matrix

__all__ = ["FORMULATIONS", "MatrixLP", "build_matrix_lp", "data_columns"]

FORMULATIONS = ("standard", "sparse")


@dataclass
class MatrixLP:
    """``min c.x  s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper``.

    ``A`` is stored column-wise as CSC arrays (``start``, ``index``, ``value``) so that
    HiGHS can take them without conversion. ``w_plus``/``w_minus`` (standard) or
    ``w_free`` (sparse) and ``bias``/``slack`` are the column positions of each variable.
    """

    cost: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    start: np.ndarray
    index: np.ndarray
    value: np.ndarray
    formulation: str
    n_columns: int
    n_samples: int
    has_equality: bool
    bias: int = 0
    slack: slice = field(default_factory=lambda: slice(0, 0))
    slack_rows: np.ndarray | None = None  # margin rows that own a slack column (soft LPs)

    @property
    def shape(self):
        return self.row_lower.size, self.cost.size

    def to_scipy(self):
        return sp.csc_array((self.value, self.index, self.start), shape=self.shape)

    def split(self, x):
        """Map a primal vector to (w, b, xi)."""
        m = self.n_columns
        if self.formulation == "standard":
            w = x[:m] - x[m:2 * m]
        else:
            w = x[:m].copy()
        xi = None
        if self.slack_rows is not None:
            xi = np.zeros(self.n_samples)
            xi[self.slack_rows] = x[self.slack]
        return w, float(x[self.bias]), xi


def _sparse_data(X):
    """The data part of the LP matrix, materialised once: the canonical CSC block of a
    sparse :class:`ScaledMatrix` (no stored zeros), or None for dense data (filled chunk
    by chunk by :func:`_fill_data_columns`). Array sizes are taken from it, so stored
    zeros in the user's matrix cannot make the count and the entries disagree."""
    return X.block() if X.is_sparse else None


def _n_data_entries(X, block):
    return X.shape[0] * X.shape[1] if block is None else block.nnz


def _fill_data_columns(X, block, y, eq_coef, value, index, start, offset, extra):
    """Write the columns of diag(y) Z (plus the equality row) into preallocated CSC arrays.

    ``X`` is a :class:`ScaledMatrix`, ``block`` its :func:`_sparse_data`. ``extra``
    entries per column are reserved after the data entries (the sparse formulation's
    linking rows); the caller fills them. Dense data are materialised chunk by chunk
    straight into ``value``.
    """
    n, m = X.shape
    has_eq = eq_coef is not None
    if block is not None:
        Xc = block
        counts = np.diff(Xc.indptr) + has_eq + extra
        col_start = offset + np.concatenate(([0], np.cumsum(counts)))
        start[: m + 1] = col_start
        # Positions of the data entries inside each column.
        data_pos = np.repeat(col_start[:-1], np.diff(Xc.indptr)) + (
            np.arange(Xc.nnz) - np.repeat(Xc.indptr[:-1], np.diff(Xc.indptr))
        )
        value[data_pos] = Xc.data * y[Xc.indices]
        index[data_pos] = Xc.indices
        if has_eq:
            eq_pos = col_start[:-1] + np.diff(Xc.indptr)
            value[eq_pos] = eq_coef
            index[eq_pos] = n
        return col_start
    per_col = n + has_eq + extra
    col_start = offset + per_col * np.arange(m + 1)
    start[: m + 1] = col_start
    block_v = value[offset: offset + per_col * m].reshape(m, per_col)
    block_i = index[offset: offset + per_col * m].reshape(m, per_col)
    chunk = max(1, 2_000_000 // max(n, 1))  # bounded temporaries for huge d
    for lo in range(0, m, chunk):
        hi = min(m, lo + chunk)
        np.multiply(X.block(np.arange(lo, hi)).T, y, out=block_v[lo:hi, :n])
    block_i[:, :n] = np.arange(n, dtype=np.int32)
    if has_eq:
        block_v[:, n] = eq_coef
        block_i[:, n] = n
    return col_start


def data_columns(X, y, eq_coef=None):
    """CSC arrays (start, index, value) of the columns of diag(y) X, plus the equality row.

    Rows 0..n-1 are the margin rows; row n holds ``eq_coef`` when given. Used by
    column generation to add the w+ columns of new features (w- is the negation).
    """
    X = as_scaled_matrix(X)
    n, m = X.shape
    if eq_coef is not None:
        eq_coef = np.asarray(eq_coef, dtype=np.float64)
    block = _sparse_data(X)
    nnz = _n_data_entries(X, block) + (0 if eq_coef is None else m)
    value = np.empty(nnz, dtype=np.float64)
    index = np.empty(nnz, dtype=np.int32)
    start = np.empty(m + 1, dtype=np.int64)
    col_start = _fill_data_columns(X, block, y, eq_coef, value, index, start, 0, 0)
    _check_filled(int(col_start[-1]), nnz)
    return start, index, value


def _check_filled(written, allocated):
    """The builders preallocate their arrays; every slot must have been written."""
    if written != allocated:
        raise SolverError(
            f"Internal error in the LP builder: {written} matrix entries written into "
            f"{allocated} allocated slots. Please report this with the input's shape, "
            "type and sparsity; solver='scipy' will not help.",
            status="internal error",
        )


def build_matrix_lp(problem, formulation="standard"):
    """Assemble the matrix form of ``problem`` (see the module docstring)."""
    if formulation not in FORMULATIONS:
        raise ValueError(f"formulation must be one of {FORMULATIONS}; got {formulation!r}.")
    X, y = problem.X, problem.y
    n, m = X.shape
    eq = problem.equality
    has_eq = eq is not None
    eq_coef = eq.coef if has_eq else None
    soft = problem.is_soft
    n_data_rows = n + has_eq
    block = _sparse_data(X)
    nnz_data = _n_data_entries(X, block) + has_eq * m
    # Rows with an infinite slack price are hard: they get no slack column.
    slack_rows = np.flatnonzero(np.isfinite(problem.slack_cost)) if soft else np.zeros(0, int)
    n_slack = slack_rows.size
    bias_nnz = n + (has_eq and eq.bias_coef != 0.0)

    if formulation == "standard":
        n_cols = 2 * m + 1 + n_slack
        n_rows = n_data_rows
        nnz = 2 * nnz_data + bias_nnz + n_slack
    else:
        n_cols = 2 * m + 1 + n_slack
        n_rows = n_data_rows + 2 * m
        nnz = nnz_data + 2 * m + 2 * m + bias_nnz + n_slack

    value = np.empty(nnz, dtype=np.float64)
    index = np.empty(nnz, dtype=np.int32)
    start = np.empty(n_cols + 1, dtype=np.int64)

    if formulation == "standard":
        col_start = _fill_data_columns(X, block, y, eq_coef, value, index, start, 0, 0)
        half = col_start[-1]
        np.negative(value[:half], out=value[half: 2 * half])
        index[half: 2 * half] = index[:half]
        start[m: 2 * m + 1] = col_start + half
        pos = 2 * half
    else:
        col_start = _fill_data_columns(X, block, y, eq_coef, value, index, start, 0, 2)
        # Linking rows: s_j - w_j >= 0 (row n_data_rows + 2j), s_j + w_j >= 0 (row ... + 1).
        link_rows = n_data_rows + 2 * np.arange(m)
        end = col_start[1:]
        value[end - 2], index[end - 2] = -1.0, link_rows
        value[end - 1], index[end - 1] = 1.0, link_rows + 1
        pos = int(col_start[-1])
        s_pos = pos + 2 * np.arange(m)
        value[s_pos], index[s_pos] = 1.0, link_rows
        value[s_pos + 1], index[s_pos + 1] = 1.0, link_rows + 1
        start[m: 2 * m + 1] = pos + 2 * np.arange(m + 1)
        pos += 2 * m

    # Bias column.
    bias_col = 2 * m
    value[pos: pos + n], index[pos: pos + n] = y, np.arange(n)
    pos += n
    if bias_nnz > n:
        value[pos], index[pos] = eq.bias_coef, n
        pos += 1
    start[bias_col + 1] = pos
    # Slack columns: one entry each, in its own margin row.
    value[pos: pos + n_slack], index[pos: pos + n_slack] = 1.0, slack_rows
    start[bias_col + 2: bias_col + 2 + n_slack] = pos + 1 + np.arange(n_slack)
    pos += n_slack
    _check_filled(pos, nnz)

    cost = np.zeros(n_cols)
    col_lower = np.zeros(n_cols)
    col_upper = np.full(n_cols, np.inf)
    if formulation == "standard":
        cost[:m] = cost[m: 2 * m] = problem.feature_cost
    else:
        cost[m: 2 * m] = problem.feature_cost
        col_lower[:m] = -np.inf
    if problem.fit_intercept:
        col_lower[bias_col] = -np.inf
    else:
        col_upper[bias_col] = 0.0
    slack = slice(bias_col + 1, bias_col + 1 + n_slack)
    cost[slack] = problem.slack_cost[slack_rows] if soft else 0.0

    row_lower = np.zeros(n_rows)
    row_upper = np.full(n_rows, np.inf)
    row_lower[:n] = problem.margin
    if has_eq:
        row_lower[n] = row_upper[n] = eq.rhs
    return MatrixLP(
        cost=cost, col_lower=col_lower, col_upper=col_upper,
        row_lower=row_lower, row_upper=row_upper,
        start=start, index=index, value=value,
        formulation=formulation, n_columns=m, n_samples=n, has_equality=has_eq,
        bias=bias_col, slack=slack, slack_rows=slack_rows if soft else None,
    )
