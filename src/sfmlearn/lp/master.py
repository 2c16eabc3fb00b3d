"""The restricted master of row and column generation: one live HiGHS model.

The master is the LP of :mod:`.problems` (standard form, w = w+ - w-) restricted to a
working set of samples (rows) and of features (column pairs), plus, for soft problems,
one *aggregated error row* per class (:mod:`.rowgen` explains why it is valid):

    sum_{i in E_k} C_i y_i (z_i . w + b) + eta_k >= margin sum_{i in E_k} C_i,   eta_k >= 0

with eta_k priced at 1. The model is changed in place - rows and columns added and
deleted, costs, bounds and the equality's right-hand side changed - and HiGHS keeps
the basic/non-basic status of what remains (highspy >= 1.10), so every solve starts
from the previous basis.

**Which simplex.** The model runs with HiGHS' ``simplex_strategy = 0`` ("choose",
:data:`SIMPLEX_STRATEGY`): each solve uses the primal simplex when the basis it starts
from is primal feasible and the dual simplex otherwise (``HEkk::chooseSimplexStrategyThreads``;
HiGHS' default, 1, is always the dual). Changing costs and adding columns - the steps of
the reweighting loop, the rounds of column generation - keep the last basis primal
feasible, so the primal simplex continues from it; added rows, a new right-hand side or
removed basic columns leave it dual feasible or neither, and the dual simplex runs as
before (the measurement: see the guide's row-generation page).

HiGHS orders rows and columns by entry and compacts them on deletion; this class keeps
what each one is (``row_ref``, ``col_kind``, ``col_ref``) in the same order and
answers the lookups the generation needs (the row and slack column of a sample, the
column pair of a feature). Samples and features are named by their ids: sample
positions 0..n-1 and raw column indices of the data.
"""

import highspy
import numpy as np
import scipy.sparse as sp

from ..exceptions import SolverError
from .highs_model import dual_ray, new_highs

__all__ = ["Master"]

_INF = highspy.kHighsInf
_STATUS = highspy.HighsModelStatus

# row_ref of the non-sample rows; sample rows hold the sample id (>= 0).
EQUALITY = -1
AGGREGATE = (-2, -3)  # aggregated error rows of the classes y = +1, y = -1
#: HiGHS ``simplex_strategy`` of the master: 0 = choose primal or dual per solve
#: (module docstring, "Which simplex").
SIMPLEX_STRATEGY = 0
# col_kind values.
BIAS, SLACK, ETA, PLUS, MINUS = range(5)


def _i32(values):
    return np.ascontiguousarray(values, dtype=np.int32)


def _f64(values):
    return np.ascontiguousarray(values, dtype=np.float64)


def _signed_entries(block, y, axis):
    """The non-zeros of diag(y) @ block, compressed along ``axis`` (0: by row, 1: by
    column): (indptr, minor indices sorted within each major slice, values).

    The entries are scaled directly, without the scipy product ``diag(y) @ block``
    (see the guide's row-generation page)."""
    y = np.asarray(y, dtype=np.float64)
    if sp.issparse(block):
        block = (sp.csr_array if axis == 0 else sp.csc_array)(block, dtype=np.float64, copy=True)
        block.sort_indices()
        block.data *= y[block.indices] if axis == 1 else np.repeat(y, np.diff(block.indptr))
        block.eliminate_zeros()
        return block.indptr, block.indices, block.data
    signed = np.asarray(block, dtype=np.float64) * y[:, None]
    major = signed if axis == 0 else signed.T
    nonzero = major != 0
    indptr = np.r_[0, np.cumsum(nonzero.sum(axis=1))]
    return indptr, np.nonzero(nonzero)[1], major[nonzero]


def _row_entries(block, y, plus, minus):
    """CSR arrays (start, index, value) of new sample rows with labels ``y``: each row's
    w+ entries (columns ``plus``), w- entries (``minus``, negated), then the bias (y_i)."""
    k = y.size
    indptr, indices, data = _signed_entries(block, y, axis=0)
    per_row = np.diff(indptr)
    counts = 2 * per_row + 1
    start = np.r_[0, np.cumsum(counts)[:-1]]
    nnz = int(counts.sum())
    index = np.empty(nnz, dtype=np.int32)
    value = np.empty(nnz)
    entry_row = np.repeat(np.arange(k), per_row)
    within = np.arange(indices.size) - np.repeat(indptr[:-1], per_row)
    plus_pos = start[entry_row] + within
    minus_pos = plus_pos + per_row[entry_row]
    index[plus_pos], value[plus_pos] = plus[indices], data
    index[minus_pos], value[minus_pos] = minus[indices], -data
    bias_pos = start + 2 * per_row
    index[bias_pos], value[bias_pos] = 0, y
    return start, index, value


def _column_entries(block, y, sample_rows, extra_rows, extra_vals):
    """CSC arrays (start, index, value) of the w+ columns of new features: their data on
    the master's ``sample_rows`` (labels ``y``), then their non-zero coefficients
    ``extra_vals`` (one array per row) in the ``extra_rows`` (equality, aggregated rows)."""
    if not sp.issparse(block):
        return _dense_column_entries(block, y, sample_rows, extra_rows, extra_vals)
    indptr, indices, data = _signed_entries(block, y, axis=1)
    per_col = np.diff(indptr)
    k = per_col.size
    extra = np.array(extra_rows, dtype=np.int64)
    extra_vals = np.array(extra_vals).reshape(extra.size, k)
    keep_extra = extra_vals != 0
    counts = per_col + keep_extra.sum(axis=0)
    start = np.r_[0, np.cumsum(counts)]
    index = np.empty(int(start[-1]), dtype=np.int64)
    value = np.empty(int(start[-1]))
    entry_col = np.repeat(np.arange(k), per_col)
    within = np.arange(indices.size) - np.repeat(indptr[:-1], per_col)
    pos = start[entry_col] + within
    index[pos], value[pos] = sample_rows[indices], data
    filled = start[:-1] + per_col
    for r, vals, keep in zip(extra, extra_vals, keep_extra):
        at = filled[keep]
        index[at], value[at] = r, vals[keep]
        filled = filled + keep
    return start, index, value


def _dense_column_entries(block, y, sample_rows, extra_rows, extra_vals):
    """:func:`_column_entries` of a dense block, the same arrays in one pass: every
    column's signed data and extra coefficients side by side, their zeros dropped only
    when there are any (where the features are not restricted, every reweighting loop
    of a path adds all of them again; guide: row generation)."""
    block = np.asarray(block, dtype=np.float64)
    n_rows, k = block.shape
    entries = np.empty((k, n_rows + len(extra_rows)))
    np.multiply(block.T, y, out=entries[:, :n_rows])
    entries[:, n_rows:] = np.array(extra_vals, dtype=np.float64).reshape(len(extra_rows), k).T
    rows = np.concatenate([np.asarray(sample_rows, dtype=np.int32), np.array(extra_rows, dtype=np.int32)])
    keep = entries != 0
    if keep.all():
        return np.arange(k + 1, dtype=np.int64) * rows.size, np.tile(rows, k), entries.ravel()
    start = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(np.count_nonzero(keep, axis=1), out=start[1:])
    return start, np.broadcast_to(rows, entries.shape)[keep], entries[keep]


class Master:
    """The live restricted master (module docstring).

    Parameters
    ----------
    y : ndarray of shape (n,)
        Labels of all samples (+-1).
    margin : float
    bias_coef : float or None
        The bias' coefficient in the equality row; None for problems without one.
    fit_intercept : bool
    soft : bool
        Whether sample rows get a slack column.
    tight : dict
        HiGHS options for a re-solve with tightened tolerances (:meth:`tighten`).
    """

    def __init__(self, y, margin, bias_coef, fit_intercept, soft, tight):
        self.h = new_highs(presolve="off", simplex_strategy=SIMPLEX_STRATEGY)
        self.y = np.asarray(y, dtype=np.float64)
        self.n = self.y.size
        self.margin = float(margin)
        self.soft = soft
        self.has_equality = bias_coef is not None
        self._tight = tight
        self.tightened = False
        self.row_ref = np.zeros(0, dtype=np.int64)
        self.col_kind = np.zeros(0, dtype=np.int8)
        self.col_ref = np.zeros(0, dtype=np.int64)
        self.iterations = 0
        self.runs = 0
        self._objective = float("nan")  # of the last solve
        if self.has_equality:
            self.h.addRows(1, _f64([0.0]), _f64([0.0]), 0, _i32([0]), _i32([]), _f64([]))
            self.row_ref = np.array([EQUALITY])
        rows = [0] if self.has_equality and bias_coef != 0.0 else []
        lo, hi = (-_INF, _INF) if fit_intercept else (0.0, 0.0)
        self.h.addCols(1, _f64([0.0]), _f64([lo]), _f64([hi]), len(rows), _i32([0]), _i32(rows),
                       _f64([bias_coef] if rows else []))
        self.col_kind = np.array([BIAS], dtype=np.int8)
        self.col_ref = np.array([-1])
        self.aggregate_cost = [None, None]  # the C_i of E_k behind each aggregated row
        self._index()

    # -- lookups ----------------------------------------------------------------------
    def _index(self):
        n = self.n
        self.sample_row = np.full(n, -1, dtype=np.int64)
        sample = np.flatnonzero(self.row_ref >= 0)
        self.sample_row[self.row_ref[sample]] = sample
        self.sample_slack = np.full(n, -1, dtype=np.int64)
        slack = np.flatnonzero(self.col_kind == SLACK)
        self.sample_slack[self.col_ref[slack]] = slack
        self.plus = np.flatnonzero(self.col_kind == PLUS)
        self.minus = np.flatnonzero(self.col_kind == MINUS)
        self.features = self.col_ref[self.plus]
        # At most one aggregated row and one eta column per class: looked up among the few.
        rows = {int(self.row_ref[i]): int(i) for i in np.flatnonzero(self.row_ref < EQUALITY)}
        self.aggregate_row = [rows.get(r, -1) for r in AGGREGATE]
        etas = {int(self.col_ref[j]): int(j) for j in np.flatnonzero(self.col_kind == ETA)}
        self.eta = [etas.get(r, -1) for r in AGGREGATE]

    @property
    def samples(self):
        """Sample ids of the sample rows, in HiGHS row order."""
        return self.row_ref[self.row_ref >= 0]

    @property
    def n_features(self):
        return self.plus.size

    def feature_positions(self, ids):
        """Master positions (0..n_features-1) of feature ``ids``; -1 where absent."""
        ids = np.asarray(ids)
        if self.features.size == 0:
            return np.full(ids.size, -1, dtype=np.int64)
        order = np.argsort(self.features, kind="stable")
        at = np.minimum(np.searchsorted(self.features, ids, sorter=order), order.size - 1)
        found = order[at]
        return np.where(self.features[found] == ids, found, -1)

    # -- rows -------------------------------------------------------------------------
    def add_samples(self, samples, block, slack_cost=None):
        """Add the margin rows of ``samples``; ``block`` (k x n_features, dense or sparse)
        holds their data on the master's features, in master order. Soft masters give
        each a slack column priced ``slack_cost`` (infinite: a hard row, slack fixed at 0)."""
        samples = np.asarray(samples, dtype=np.int64)
        k = samples.size
        if k == 0:
            return
        start, index, value = _row_entries(block, self.y[samples], self.plus, self.minus)
        self.h.addRows(k, np.full(k, self.margin), np.full(k, _INF), index.size, _i32(start),
                       index, value)
        first = self.row_ref.size
        self.row_ref = np.r_[self.row_ref, samples]
        if self.soft:
            self._add_columns(SLACK, samples, np.zeros(k), np.full(k, _INF),
                              np.arange(k + 1), first + np.arange(k), np.ones(k))
            self._index()
            self.set_slack_costs(samples, slack_cost)
        self._index()

    def delete_samples(self, samples):
        """Delete the rows (and slack columns) of ``samples``."""
        samples = np.asarray(samples, dtype=np.int64)
        if samples.size == 0:
            return
        rows = self.sample_row[samples]
        self._delete_rows(rows[rows >= 0])
        cols = self.sample_slack[samples]
        self._delete_columns(cols[cols >= 0])
        self._index()

    def set_slack_costs(self, samples, cost):
        """Price the slacks of ``samples`` (rows in the master); infinite cost fixes them at 0."""
        cols = _i32(self.sample_slack[samples])
        cost = _f64(cost)
        finite = np.isfinite(cost)
        k = cols.size
        self.h.changeColsCost(k, cols, np.where(finite, cost, 0.0))
        self.h.changeColsBounds(k, cols, np.zeros(k), np.where(finite, _INF, 0.0))

    def set_aggregate(self, k, coef, bias_coef, lower, cost):
        """Replace class k's aggregated error row: ``coef`` on the master features (in
        master order), ``bias_coef`` on b, right-hand side ``lower``; ``cost`` (the C_i
        of E_k, kept for the caller) None removes the row."""
        if self.aggregate_row[k] >= 0:
            self._delete_rows(np.array([self.aggregate_row[k]]))
            self._delete_columns(np.array([self.eta[k]]))
            self._index()
        self.aggregate_cost[k] = cost
        if cost is None:
            return
        coef = np.asarray(coef, dtype=np.float64)
        nz = np.flatnonzero(coef)
        index = np.r_[self.plus[nz], self.minus[nz], 0]
        value = np.r_[coef[nz], -coef[nz], bias_coef]
        self.h.addRows(1, _f64([lower]), _f64([_INF]), index.size, _i32([0]), _i32(index), _f64(value))
        row = self.row_ref.size
        self.row_ref = np.r_[self.row_ref, AGGREGATE[k]]
        self._add_columns(ETA, np.array([AGGREGATE[k]]), np.ones(1), np.full(1, _INF),
                          np.array([0, 1]), np.array([row]), np.ones(1))
        self._index()

    # -- columns ----------------------------------------------------------------------
    def add_features(self, ids, block, cost, eq_coef=None, aggregate_coef=None):
        """Add the column pairs w+, w- of features ``ids``: ``block`` (sample rows x k,
        dense or sparse) holds their data on the master's sample rows in row order,
        ``eq_coef`` their equality coefficients, ``aggregate_coef`` (2 x k) their
        coefficients in the aggregated rows."""
        ids = np.asarray(ids, dtype=np.int64)
        k = ids.size
        if k == 0:
            return
        sample_rows = np.flatnonzero(self.row_ref >= 0)
        extra_rows, extra_vals = [], []
        if self.has_equality and eq_coef is not None:
            extra_rows.append(0)
            extra_vals.append(np.asarray(eq_coef, dtype=np.float64))
        for kk in (0, 1):
            if self.aggregate_row[kk] >= 0:
                extra_rows.append(self.aggregate_row[kk])
                extra_vals.append(np.asarray(aggregate_coef[kk], dtype=np.float64))
        start, index, value = _column_entries(block, self.y[self.row_ref[sample_rows]], sample_rows,
                                              extra_rows, extra_vals)
        cost = np.asarray(cost, dtype=np.float64)
        nnz = int(start[-1])
        self._add_columns(PLUS, ids, cost, np.full(k, _INF), start, index, value)
        self._add_columns(MINUS, ids, cost, np.full(k, _INF), start, index, -value)
        self._index()
        return nnz

    def delete_features(self, ids):
        at = self.feature_positions(ids)
        at = at[at >= 0]
        if at.size:
            self._delete_columns(np.concatenate([self.plus[at], self.minus[at]]))
            self._index()

    def set_feature_costs(self, costs):
        """Costs of all master features (in master order)."""
        cols = _i32(np.concatenate([self.plus, self.minus]))
        cost = np.concatenate([_f64(costs), _f64(costs)])
        self.h.changeColsCost(cols.size, cols, cost)

    def set_rhs(self, rhs):
        self.h.changeRowsBounds(1, _i32([0]), _f64([rhs]), _f64([rhs]))

    # -- low level --------------------------------------------------------------------
    def _add_columns(self, kind, refs, cost, upper, start, index, value):
        k = refs.size
        self.h.addCols(k, _f64(cost), np.zeros(k), _f64(upper), int(start[-1]),
                       _i32(start[:-1]), _i32(index), _f64(value))
        self.col_kind = np.concatenate([self.col_kind, np.full(k, kind, dtype=np.int8)])
        self.col_ref = np.concatenate([self.col_ref, refs])

    def _delete_rows(self, rows):
        rows = np.unique(rows)
        if rows.size:
            self.h.deleteRows(rows.size, _i32(rows))
            self.row_ref = np.delete(self.row_ref, rows)

    def _delete_columns(self, cols):
        cols = np.unique(cols)
        if cols.size:
            self.h.deleteCols(cols.size, _i32(cols))
            self.col_kind = np.delete(self.col_kind, cols)
            self.col_ref = np.delete(self.col_ref, cols)

    # -- solving ----------------------------------------------------------------------
    def start_from(self, w, b, xi, eta):
        """Replace the basis by a primal point for the next :meth:`run`: ``w`` on the
        master features (master order), ``b``, ``xi`` on the sample rows (row order) and
        ``eta`` per aggregated row (ignored where there is none). HiGHS builds its first
        basis from the point by crossover (a valid solution without a basis, ``Highs::run``)
        and the simplex continues from there: a vertex costs no simplex iteration."""
        x = np.zeros(self.col_kind.size)
        x[self.plus], x[self.minus] = np.maximum(w, 0.0), np.maximum(-w, 0.0)
        x[0] = b
        if self.soft:
            x[self.sample_slack[self.samples]] = xi
        for k, column in enumerate(self.eta):
            if column >= 0:
                x[column] = eta[k]
        self.h.clearSolver()
        solution = highspy.HighsSolution()
        solution.col_value = x
        solution.value_valid = True
        self.h.setSolution(solution)

    def run(self):
        """Solve; returns "optimal" or "infeasible" (anything else raises SolverError).

        A solve that ends in neither (HiGHS can return an error with status "Not Set"
        from the basis or start point it was given; seen in a long run of the repetitive
        SFM on DEXTER) is repeated once from scratch, without basis or start point; only
        a second failure raises.
        """
        status = self._solve()
        if status is None:
            self.h.clearSolver()
            status = self._solve()
        if status is not None:
            return status
        name = self.h.modelStatusToString(self.h.getModelStatus())
        raise SolverError(f"HiGHS stopped with model status '{name}' in a restricted master.",
                          status=name)

    def _solve(self):
        """One HiGHS run: "optimal", "infeasible", or None for any other end."""
        self.h.run()
        self.runs += 1
        info = self.h.getInfo()
        self.iterations += max(0, int(info.simplex_iteration_count))
        self._objective = float(info.objective_function_value)
        status = self.h.getModelStatus()
        if status == _STATUS.kOptimal:
            return "optimal"
        # Objectives here are sums of non-negative terms (eta >= 0 too): never unbounded.
        if status in (_STATUS.kInfeasible, _STATUS.kUnboundedOrInfeasible):
            return "infeasible"
        return None

    def tighten(self):
        """Tighten HiGHS' tolerances for the next solves (once); False if already done."""
        if self.tightened:
            return False
        self.tightened = True
        for name, value in self._tight.items():
            self.h.setOptionValue(name, value)
        return True

    def objective(self):
        """The objective value of the last solve."""
        return self._objective

    def primal_dual(self):
        """The last solve's primal (w on the master features, b, xi on the sample rows in
        row order) and duals (:meth:`_split_rows`), from one copy of HiGHS' solution."""
        solution = self.h.getSolution()
        x = np.asarray(solution.col_value, dtype=np.float64)
        w = x[self.plus] - x[self.minus]
        xi = None
        if self.soft:
            xi = x[self.sample_slack[self.samples]]
        return (w, float(x[0]), xi), self._split_rows(solution.row_dual)

    def _split_rows(self, values):
        """Row values -> (per sample row, equality, per aggregated row)."""
        values = np.asarray(values, dtype=np.float64)
        lam = values[self.row_ref >= 0]
        mu = float(values[0]) if self.has_equality else 0.0
        nu = [float(values[r]) if r >= 0 else 0.0 for r in self.aggregate_row]
        return lam, mu, nu

    def ray(self):
        """HiGHS' Farkas ray split like the duals of :meth:`primal_dual`, or None."""
        ray = dual_ray(self.h)
        return None if ray is None else self._split_rows(ray)
