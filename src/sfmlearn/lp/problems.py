"""The linear programs of the SFM family, in one solver-neutral form.

Every LP this package solves for a sparse separating hyperplane is an instance of

    minimise    sum_j c_j |w_j|  +  sum_i C_i xi_i
    subject to  y_i (x_i . w + b) + xi_i >= margin          i = 1..n
                a . w + a_b b = rhs                           (optional)
                xi_i >= 0                                    (soft problems only)

with a free bias b. The members differ only in their data:

==========================  ======  ==========================================  ==========
problem                     margin  equality                                    reference
==========================  ======  ==========================================  ==========
SFM, class means (default)  0       (mu_+ - mu_-) . w = +-1                     NC eq. 2.6
SFM, mean margin            0       (1/n) sum_i y_i (x_i . w + b) = +-1          thesis 3.1
Weston l1-AROM / l1-SVM     1       none                                        NC eq. 2.4
==========================  ======  ==========================================  ==========

The iterated reweighting of the SFM and of Weston's method only changes the feature
costs ``c`` (see :mod:`sfmlearn.optim.reweighting`); the rows never change.

Two matrix formulations are built (thesis 3.5, NC A.2):

* ``"standard"``: w = w+ - w-, both >= 0; the data enter the matrix twice
  (n(2d+1) non-zeros in the hard case).
* ``"sparse"``: free w and s >= |w| through rows s - w >= 0 and s + w >= 0; the data enter
  once but 2d rows are added (n(d+1) + 4d non-zeros).

:func:`check_solution` verifies any returned solution against the rows above.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..exceptions import ConstraintViolationError, SolverError
from .operators import as_scaled_matrix

__all__ = [
    "Equality",
    "HyperplaneLP",
    "LPSolution",
    "MatrixLP",
    "sfm_lp",
    "weston_lp",
    "build_matrix_lp",
    "data_columns",
    "check_solution",
    "FORMULATIONS",
    "FEASIBILITY_TOL",
]

FORMULATIONS = ("standard", "sparse")

#: Constraint violations up to this multiple of the row's activity scale
#: ``1 + |b| + max_{j in support} |x_ij| * ||w||_1`` are accepted (HiGHS' own primal feasibility
#: tolerance is 1e-7 on its internally scaled model).
FEASIBILITY_TOL = 1e-6


@dataclass(frozen=True)
class Equality:
    """The row ``coef . w + bias_coef * b = rhs`` that excludes the trivial w = 0."""

    coef: np.ndarray
    bias_coef: float
    rhs: float


@dataclass(frozen=True)
class HyperplaneLP:
    """One weighted one-norm LP for a separating hyperplane (see the module docstring).

    The problem is::

        minimise    sum_j c_j |w_j|  +  sum_i C_i xi_i
        subject to  y_i (x_i . w + b) + xi_i >= margin          i = 1..n
                    a . w + a_b b = rhs                           (if ``equality``)
                    xi_i >= 0                                    (if ``slack_cost``)

    with a free bias b (NC eq. 2.6 for the SFM, 2.9-2.10 for the soft SFM, 2.4 for
    Weston's l1-AROM step). Build it with :func:`sfm_lp` or :func:`weston_lp` rather
    than by hand; any engine of :mod:`sfmlearn.lp.engines` solves it.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The columns still active in the reweighting loop; stored as a
        :class:`~sfmlearn.lp.operators.ScaledMatrix`, whose ``columns`` name them (raw
        column indices of the data), which is how a warm session (:mod:`.rowgen`)
        recognises the columns of the next problem.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    feature_cost : ndarray of shape (n_columns,)
        c_j > 0, the price of |w_j| (the reweighting loop changes only these).
    margin : float
        Right-hand side of the margin rows: 0 for the SFM, 1 for Weston's LP.
    equality : Equality or None, default=None
        The row ``coef . w + bias_coef * b = rhs`` that excludes w = 0 (SFM only).
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        C_i for a soft problem; ``np.inf`` keeps row i hard. None: every row is hard
        and there is no xi.
    fit_intercept : bool, default=True
        False fixes b = 0.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HyperplaneLP
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> problem = HyperplaneLP(X, y, feature_cost=np.ones(2), margin=1.0)
    >>> problem.n_samples, problem.n_columns, problem.is_soft
    (4, 2, False)
    """

    X: object
    y: np.ndarray
    feature_cost: np.ndarray
    margin: float
    equality: Equality | None = None
    slack_cost: np.ndarray | None = None
    fit_intercept: bool = True

    def __post_init__(self):
        object.__setattr__(self, "X", as_scaled_matrix(self.X))

    @property
    def n_samples(self):
        """n, the number of margin rows."""
        return self.X.shape[0]

    @property
    def n_columns(self):
        """The number of weight columns w_j."""
        return self.X.shape[1]

    @property
    def is_soft(self):
        """True when the rows have slack variables (``slack_cost`` is given)."""
        return self.slack_cost is not None


@dataclass
class LPSolution:
    """What an engine returns for one :class:`HyperplaneLP`.

    Engines fill it and verify it (:func:`check_solution`, or an infeasibility
    certificate, :mod:`sfmlearn.lp.certificates`) before returning it.

    Parameters
    ----------
    status : {"optimal", "infeasible"}
        Any other outcome makes the engine raise instead.
    w : ndarray of shape (n_columns,) or None, default=None
        The weights (None when infeasible).
    b : float, default=0.0
        The bias.
    xi : ndarray of shape (n_samples,) or None, default=None
        The slacks of a soft problem (0 in hard rows); None for hard problems.
    objective : float, default=nan
        sum_j c_j |w_j| + sum_i C_i xi_i; :func:`check_solution` recomputes it.
    margin_duals : ndarray of shape (n_samples,) or None, default=None
        Row duals (Lagrange multipliers) of the margin rows, with the sign convention
        of a minimisation (>= 0); None if the engine has none.
    equality_dual : float, default=0.0
        Dual of the equality row (0 without one).
    iterations : int, default=0
        Simplex iterations (or the engine's own count).
    engine : str, default=""
        ``Engine.name`` of the engine that solved it.
    info : dict, default={}
        Engine-specific details, e.g. ``info["certificate"]`` of an infeasible answer.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import LPSolution
    >>> solution = LPSolution("optimal", w=np.array([0.5, 0.0]), b=0.0, objective=0.5)
    >>> solution.status, float(solution.objective)
    ('optimal', 0.5)
    """

    status: str
    w: np.ndarray | None = None
    b: float = 0.0
    xi: np.ndarray | None = None
    objective: float = np.nan
    margin_duals: np.ndarray | None = None
    equality_dual: float = 0.0
    iterations: int = 0
    engine: str = ""
    info: dict = field(default_factory=dict)


def class_mean_weights(y):
    """v with X^T v = mu_+ - mu_- : 1/n_+ on positives, -1/n_- on negatives."""
    pos = y > 0
    return np.where(pos, 1.0 / np.count_nonzero(pos), -1.0 / np.count_nonzero(~pos))


def sfm_lp(X, y, feature_cost, *, equality="class_means", sign=1.0, slack_cost=None):
    """The (soft) SFM LP: margin 0 and an equality that excludes w = 0.

    One step of the SFM's reweighting loop (NC 2.2, thesis 3.1)::

        minimise    sum_j c_j |w_j|  +  sum_i C_i xi_i
        subject to  y_i (x_i . w + b) + xi_i >= 0,   xi_i >= 0
                    (mu_+ - mu_-) . w = sign                     (NC eq. 2.6)

    without the xi for the hard SFM. ``equality="mean_margin"`` replaces the last row by
    the thesis' older (1/n) sum_i y_i (x_i . w + b) = sign (thesis eq. 3.1). The soft
    SFM (NC eq. 2.9; per-class C_+ and C_-, NC eq. 2.10) may make the left-hand side
    of the equality negative, so it must be solved with sign = +1 and sign = -1 and
    the lower objective kept.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The (active columns of the) training data.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}; both classes must be present.
    feature_cost : array-like of shape (n_columns,)
        c_j, the price of |w_j|.
    equality : {"class_means", "mean_margin"}, default="class_means"
        Which row excludes w = 0 (see above).
    sign : float, default=1.0
        Right-hand side of the equality row, +1 or -1.
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        C_i per sample for the soft SFM (``np.inf`` keeps a row hard); None for the
        hard SFM.

    Returns
    -------
    HyperplaneLP
        The problem, margin 0, with its :class:`Equality` row.

    Examples
    --------
    Two classes separated by the first feature: (mu_+ - mu_-) = (3, 0), so the LP
    puts w_1 = 1/3 and nothing on the second feature.

    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, sfm_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> problem = sfm_lp(X, y, np.ones(2))
    >>> problem.equality.coef
    array([3., 0.])
    >>> solution = HighsEngine().solve(problem)
    >>> solution.w.round(6), round(solution.objective, 6)
    (array([0.333333, 0.      ]), 0.333333)

    The hard SFM with sign = -1 asks for the wrong orientation and is infeasible:

    >>> HighsEngine().solve(sfm_lp(X, y, np.ones(2), sign=-1.0)).status
    'infeasible'
    """
    X = as_scaled_matrix(X)
    if equality == "class_means":
        row = Equality(X.rmatvec(class_mean_weights(y)), 0.0, float(sign))
    elif equality == "mean_margin":
        row = Equality(X.rmatvec(y) / y.size, float(np.mean(y)), float(sign))
    else:
        raise ValueError(
            f"equality must be 'class_means' or 'mean_margin'; got {equality!r}."
        )
    return HyperplaneLP(X, y, np.asarray(feature_cost, dtype=np.float64), 0.0, row, slack_cost)


def weston_lp(X, y, feature_cost, *, slack_cost=None):
    """Weston's LP: one step of l1-AROM (Weston et al. 2003; NC eq. 2.4, thesis 2.6.5).

        minimise    sum_j c_j |w_j|  +  sum_i C_i xi_i
        subject to  y_i (x_i . w + b) + xi_i >= 1,   xi_i >= 0

    (without the xi for the hard problem). The margin 1 fixes the scale, so no
    equality row is needed; reweighting the costs c_j (:mod:`sfmlearn.optim.reweighting`)
    turns the sequence of these LPs into Weston's approximation of the zero-norm.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The (active columns of the) training data.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    feature_cost : array-like of shape (n_columns,)
        c_j, the price of |w_j|.
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        C_i per sample for the soft problem (``np.inf`` keeps a row hard); None for
        the hard one.

    Returns
    -------
    HyperplaneLP
        The problem, margin 1, no equality row.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, weston_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> solution = HighsEngine().solve(weston_lp(X, y, np.ones(2)))
    >>> solution.w.round(6), round(solution.objective, 6)
    (array([1., 0.]), 1.0)
    """
    return HyperplaneLP(X, y, np.asarray(feature_cost, dtype=np.float64), 1.0, None, slack_cost)


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


def _fill_data_columns(X, block, y, eq, value, index, start, offset, extra):
    """Write the columns of diag(y) Z (plus the equality row) into preallocated CSC arrays.

    ``X`` is a :class:`ScaledMatrix`, ``block`` its :func:`_sparse_data`. ``extra``
    entries per column are reserved after the data entries (the sparse formulation's
    linking rows); the caller fills them. Dense data are materialised chunk by chunk
    straight into ``value``.
    """
    n, m = X.shape
    has_eq = eq is not None
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
            value[eq_pos] = eq.coef
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
        block_v[:, n] = eq.coef
        block_i[:, n] = n
    return col_start


def data_columns(X, y, eq_coef=None):
    """CSC arrays (start, index, value) of the columns of diag(y) X, plus the equality row.

    Rows 0..n-1 are the margin rows; row n holds ``eq_coef`` when given. Used by
    column generation to add the w+ columns of new features (w- is the negation).
    """
    X = as_scaled_matrix(X)
    n, m = X.shape
    eq = None if eq_coef is None else Equality(np.asarray(eq_coef, dtype=np.float64), 0.0, 0.0)
    block = _sparse_data(X)
    nnz = _n_data_entries(X, block) + (0 if eq is None else m)
    value = np.empty(nnz, dtype=np.float64)
    index = np.empty(nnz, dtype=np.int32)
    start = np.empty(m + 1, dtype=np.int64)
    col_start = _fill_data_columns(X, block, y, eq, value, index, start, 0, 0)
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
        col_start = _fill_data_columns(X, block, y, eq, value, index, start, 0, 0)
        half = col_start[-1]
        np.negative(value[:half], out=value[half: 2 * half])
        index[half: 2 * half] = index[:half]
        start[m: 2 * m + 1] = col_start + half
        pos = 2 * half
    else:
        col_start = _fill_data_columns(X, block, y, eq, value, index, start, 0, 2)
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


def check_solution(problem, solution, tol=FEASIBILITY_TOL):
    """Raise :class:`ConstraintViolationError` unless ``solution`` satisfies ``problem``.

    Checks every margin row, the equality row, xi >= 0 (and xi = 0 in the hard rows of
    a soft problem), and that the reported objective equals
    ``sum_j c_j |w_j| + sum_i C_i xi_i``. Violations are measured relative to the
    activity scale of each row (see :data:`FEASIBILITY_TOL`). Every built-in engine
    calls it on an "optimal" answer before returning it.

    Parameters
    ----------
    problem : HyperplaneLP
        The problem that was solved.
    solution : LPSolution
        An "optimal" solution of it.
    tol : float, default=FEASIBILITY_TOL
        Accepted relative violation of a row.

    Returns
    -------
    LPSolution
        ``solution`` itself, its ``objective`` replaced by the recomputed value.

    Raises
    ------
    sfmlearn.exceptions.ConstraintViolationError
        A row is violated or the reported objective differs from the recomputed one.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import LPSolution, check_solution, weston_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> problem = weston_lp(X, y, np.ones(2))
    >>> good = LPSolution("optimal", w=np.array([1.0, 0.0]), b=0.0, objective=1.0)
    >>> check_solution(problem, good).objective
    1.0
    >>> bad = LPSolution("optimal", w=np.array([0.5, 0.0]), b=0.0, objective=0.5)
    >>> check_solution(problem, bad)
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.ConstraintViolationError: LP solution violates margin row 0: ...
    """
    X, y = problem.X, problem.y
    w, b = solution.w, solution.b
    xi = solution.xi if problem.is_soft else np.zeros(problem.n_samples)
    # Only the support enters the rows: touch those columns alone (d may be huge).
    support = np.flatnonzero(w)
    X_support = X.dense_block(support, keep=True)
    activity = y * (X_support @ w[support] + b) + xi
    w1 = np.abs(w).sum()
    row_max = np.abs(X_support).max(axis=1, initial=0.0)
    scale = 1.0 + abs(b) + row_max * w1 + problem.margin
    violation = (problem.margin - activity) / scale
    worst = int(np.argmax(violation))
    if violation[worst] > tol:
        raise ConstraintViolationError(
            f"LP solution violates margin row {worst}: y(x.w+b)+xi = {activity[worst]:.3g} "
            f"< {problem.margin:g} (relative violation {violation[worst]:.2g} > {tol:g}). "
            "The engine's answer is not trustworthy; try solver='scipy' or report a bug.",
            status="constraint violation",
        )
    if problem.is_soft and xi.min() < -tol:
        raise ConstraintViolationError(
            f"LP solution has a negative slack ({xi.min():.3g}).", status="constraint violation"
        )
    eq = problem.equality
    if eq is not None:
        lhs = float(eq.coef @ w + eq.bias_coef * b)
        eq_scale = 1.0 + np.abs(eq.coef).max(initial=0.0) * w1 + abs(eq.bias_coef * b)
        if abs(lhs - eq.rhs) > tol * eq_scale:
            raise ConstraintViolationError(
                f"LP solution violates the equality row: {lhs:.6g} != {eq.rhs:g}.",
                status="constraint violation",
            )
    objective = float(problem.feature_cost @ np.abs(w))
    if problem.is_soft:
        priced = np.isfinite(problem.slack_cost)
        if np.any(xi[~priced] > tol):
            raise ConstraintViolationError(
                "LP solution uses the slack of a hard row.", status="constraint violation"
            )
        objective += float(problem.slack_cost[priced] @ xi[priced])
    if np.isfinite(solution.objective) and abs(objective - solution.objective) > 1e-6 * (1 + abs(objective)):
        raise ConstraintViolationError(
            f"Reported objective {solution.objective:.9g} differs from the recomputed "
            f"{objective:.9g}.", status="objective mismatch",
        )
    solution.objective = objective
    return solution
