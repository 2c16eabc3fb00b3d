"""Column generation: the fast path for SFM-family LPs with d >> n.

An SFM LP has n + 1 rows and 2d + 1 (+ n) columns, and an optimal basis holds at most
n + 1 non-zero weights (NC appendix A.1, Lemma 1): almost every column is irrelevant.
Column generation solves a *restricted master* on a working set W of features and
prices the rest with one product per round. With row duals lambda >= 0 (margin rows)
and mu (equality row), the reduced costs of w+_j and w-_j are c_j - g_j and c_j + g_j,

    g = Z^T (lambda * y) + mu a            (a: the equality row's coefficients)

so feature j can improve the master only if |g_j| > c_j. Features with the largest
violations |g_j| - c_j are added in batches until none is left beyond ``pricing_tol``;
the master's solution is then optimal for the full LP (its duals are feasible for every
column). That certificate is enforced, not just recorded: ``info["max_dual_violation"]``
over *all* columns must be at most :data:`MAX_DUAL_VIOLATION`, else the master is
re-solved with tight tolerances and re-priced, and :class:`SolverError` is raised if it
stays above.

A master without slack can be infeasible while the full LP is feasible. Then HiGHS'
Farkas ray u (row multipliers proving the master infeasible) is priced the same way:
a column with g_j(u) != 0 could break the proof and is added; if none exists, u is
checked as a proof for the full LP (every column, the bias and the slacks:
:func:`~sfmlearn.lp.certificates.check_ray`) and the LP reported infeasible (the
classes are not linearly separable). A ray that does not verify, or no ray, hands the
problem to the full-LP engine, which certifies its own answer.

The master is always the standard formulation (w = w+ - w-): ``formulation`` applies
to the full-LP engine only (see :mod:`.engines`).

The HiGHS model is kept across rounds (columns are appended, the basis is kept). With
``warm_start=True`` the engine remembers the working set of its last solve by feature
id (``HyperplaneLP.column_ids``) and starts the next solve from it: the repetitive SFM
removes the selected features and refits, and the previous working set, minus the
removed features, is an excellent start.
"""

import time

import highspy
import numpy as np

from ..exceptions import SolverError
from .certificates import check_ray
from .highs import HighsEngine, dual_ray, new_highs
from .problems import LPSolution, check_solution, data_columns
from .protocol import LP, Engine

__all__ = ["ColumnGenerationEngine", "MAX_DUAL_VIOLATION", "max_dual_violation"]

#: Largest accepted relative dual violation max_j (|g_j| - c_j)_+ / (c_j + s_j) of a
#: returned solution, s_j = sum_i lambda_i |z_ij| + |mu a_j| the magnitude of the terms of
#: g_j (so that zero-cost columns are measured too). Above it the master is re-solved
#: once with HiGHS' tolerances tightened and re-priced; if it is still above,
#: :class:`SolverError`.
MAX_DUAL_VIOLATION = 1e-6
_TIGHT_TOLERANCES = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

_STATUS = highspy.HighsModelStatus
_INF = highspy.kHighsInf


class ColumnGenerationEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances by column generation.

    Parameters
    ----------
    initial_size : int or None
        Features in the first master (default 2n: the features with the largest
        |a_j| / c_j, i.e. class-mean difference per unit cost, or |Z^T y|_j / c_j for
        LPs without an equality row).
    batch_size : int or None
        Features added per pricing round (default n + 1, one basis' worth).
    full_lp_below : int or None
        Problems with at most this many columns go to the plain full LP, which is
        faster there (default ``4 * (n + 1)``; see ``benchmarks/bench_solvers.py``).
    pricing_tol : float
        A feature enters when |g_j| > c_j (1 + pricing_tol).
    warm_start : bool
        Start each solve from the previous working set (by ``column_ids``).
    max_rounds : int
    full_lp : engine
        Used below ``full_lp_below`` and when HiGHS gives no Farkas ray
        (default :class:`~sfmlearn.lp.highs.HighsEngine`).
    """

    name = "colgen"
    kinds = frozenset({LP})

    def __init__(self, *, initial_size=None, batch_size=None, full_lp_below=None,
                 pricing_tol=1e-7, warm_start=False, max_rounds=10_000, full_lp=None):
        self.initial_size = initial_size
        self.batch_size = batch_size
        self.full_lp_below = full_lp_below
        self.pricing_tol = pricing_tol
        self.warm_start = warm_start
        self.max_rounds = max_rounds
        self.full_lp = HighsEngine() if full_lp is None else full_lp
        self.working_ids_ = None

    def solve(self, problem):
        n, m = problem.n_samples, problem.n_columns
        threshold = 4 * (n + 1) if self.full_lp_below is None else self.full_lp_below
        if m <= threshold:
            return self.full_lp.solve(problem)
        return _Master(problem, self).run()


class _Master:
    """One column-generation solve: the restricted master and its pricing."""

    def __init__(self, problem, engine):
        self.problem = problem
        self.engine = engine
        self.n = problem.n_samples
        self.m = problem.n_columns
        self.eq = problem.equality
        self.in_master = np.zeros(self.m, dtype=bool)
        self.master_features = []  # feature positions in the master, in order of entry
        self.plus_columns = []  # HiGHS column of w+ for each of them (w- is at + batch size)
        self.minus_columns = []
        self.h = new_highs(presolve="off")
        self.rounds = 0
        self.priced = 0
        self.tightened = False

    # -- model building -------------------------------------------------------------
    def _build_rows_bias_slack(self):
        p, n, h = self.problem, self.n, self.h
        n_rows = n + (self.eq is not None)
        lower = np.full(n_rows, p.margin)
        upper = np.full(n_rows, _INF)
        if self.eq is not None:
            lower[n] = upper[n] = self.eq.rhs
        h.addRows(n_rows, lower, upper, 0, np.zeros(n_rows, np.int32), np.zeros(0, np.int32), np.zeros(0))
        # Bias column (always column 0).
        bias_rows = np.arange(n, dtype=np.int32)
        bias_vals = p.y.astype(np.float64)
        if self.eq is not None and self.eq.bias_coef != 0.0:
            bias_rows = np.r_[bias_rows, n].astype(np.int32)
            bias_vals = np.r_[bias_vals, self.eq.bias_coef]
        lo, hi = (-_INF, _INF) if p.fit_intercept else (0.0, 0.0)
        h.addCols(1, np.zeros(1), np.array([lo]), np.array([hi]), bias_rows.size,
                  np.zeros(1, np.int32), bias_rows, bias_vals)
        # Slack columns of the priced (soft) rows: columns 1..n_slack.
        self.slack_rows = np.zeros(0, dtype=np.intp)
        if p.is_soft:
            self.slack_rows = np.flatnonzero(np.isfinite(p.slack_cost))
            k = self.slack_rows.size
            h.addCols(k, p.slack_cost[self.slack_rows], np.zeros(k), np.full(k, _INF), k,
                      np.arange(k, dtype=np.int32), self.slack_rows.astype(np.int32), np.ones(k))

    def _add_features(self, positions):
        positions = np.asarray(positions, dtype=np.intp)
        positions = positions[~self.in_master[positions]]
        if positions.size == 0:
            return 0
        p = self.problem
        block = p.X.subset(positions)
        eq_coef = None if self.eq is None else self.eq.coef[positions]
        start, index, value = data_columns(block, p.y, eq_coef)
        k = positions.size
        cost = p.feature_cost[positions]
        nnz = value.size
        # w+ then w- of the same features (the w- block is the negation).
        both_start = np.r_[start[:-1], nnz + start[:-1]].astype(np.int32)
        self.h.addCols(2 * k, np.r_[cost, cost], np.zeros(2 * k), np.full(2 * k, _INF), 2 * nnz,
                       both_start, np.r_[index, index], np.r_[value, -value])
        first = self.h.getNumCol() - 2 * k
        self.plus_columns.extend(range(first, first + k))
        self.minus_columns.extend(range(first + k, first + 2 * k))
        self.in_master[positions] = True
        self.master_features.extend(positions.tolist())
        return k

    # -- pricing --------------------------------------------------------------------
    def _price(self, row_multipliers, problem=None):
        """g = Z^T (u_margin * y) + u_eq * a for row multipliers u (duals or a ray), on
        the columns of ``problem`` (default: the problem being solved)."""
        problem = self.problem if problem is None else problem
        g = problem.X.rmatvec(row_multipliers[: self.n] * problem.y)
        if problem.equality is not None:
            g += row_multipliers[self.n] * problem.equality.coef
        self.priced += 1
        return g

    def _initial_positions(self):
        p, n, m = self.problem, self.n, self.m
        size = min(m, 2 * n if self.engine.initial_size is None else self.engine.initial_size)
        if self.eq is not None:
            score = np.abs(self.eq.coef)
        else:
            score = np.abs(p.X.rmatvec(p.y.astype(np.float64)))
        with np.errstate(divide="ignore", invalid="ignore"):  # zero costs rank first
            score = np.nan_to_num(score / p.feature_cost, nan=0.0, posinf=np.inf)
        chosen = np.argpartition(-score, size - 1)[:size] if size < m else np.arange(m)
        if self.engine.warm_start and self.engine.working_ids_ is not None:
            ids = _column_ids(p)
            warm = np.flatnonzero(np.isin(ids, self.engine.working_ids_))
            chosen = np.union1d(chosen, warm)
        return chosen

    def _batch(self):
        return self.n + 1 if self.engine.batch_size is None else self.engine.batch_size

    # -- the loop -------------------------------------------------------------------
    def run(self):
        started = time.perf_counter()
        p, h = self.problem, self.h
        self._build_rows_bias_slack()
        self._add_features(self._initial_positions())
        iterations = 0
        while True:
            self.rounds += 1
            if self.rounds > self.engine.max_rounds:
                raise SolverError(
                    f"column generation did not converge in {self.engine.max_rounds} rounds",
                    status="round limit",
                )
            h.run()
            iterations += int(h.getInfo().simplex_iteration_count)
            status = h.getModelStatus()
            if status == _STATUS.kOptimal:
                duals = np.asarray(h.getSolution().row_dual, dtype=np.float64)
                g = self._price(duals)
                violation = np.abs(g) - p.feature_cost * (1.0 + self.engine.pricing_tol)
                violation[self.in_master] = -np.inf
                entering = np.flatnonzero(violation > 0)
                if entering.size == 0:
                    dual_violation = max_dual_violation(p, duals, g)
                    if dual_violation <= MAX_DUAL_VIOLATION:
                        return self._solution(duals, dual_violation, iterations, started)
                    self._tighten(dual_violation)
                    continue
                top = entering[np.argsort(-violation[entering])[: self._batch()]]
                self._add_features(top)
            elif status in (_STATUS.kInfeasible, _STATUS.kUnboundedOrInfeasible):
                ray = dual_ray(h)
                if ray is None:
                    # No certificate available: fall back to the full LP, which decides.
                    return self.engine.full_lp.solve(p)
                g = self._price(ray)
                scale = np.abs(g).max(initial=0.0)
                g[self.in_master] = 0.0
                candidates = np.flatnonzero(np.abs(g) > 1e-9 * max(scale, 1.0))
                if candidates.size == 0:
                    return self._infeasible(ray[: self.n + (self.eq is not None)], iterations, started)
                top = candidates[np.argsort(-np.abs(g[candidates]))[: self._batch()]]
                self._add_features(top)
            else:
                raise SolverError(
                    f"HiGHS stopped with model status '{h.modelStatusToString(status)}' in a "
                    "column-generation master.", status=h.modelStatusToString(status),
                )

    def _tighten(self, dual_violation):
        """Re-solve the master once with tight tolerances (the loop re-prices after)."""
        if self.tightened:
            raise SolverError(
                f"Column generation could not certify optimality: a reduced cost is "
                f"violated by {dual_violation:.2g} (relative) after re-solving the master "
                f"with tight tolerances (accepted: {MAX_DUAL_VIOLATION:g}). The LP is "
                "numerically difficult; try solver='highs' (the full LP).",
                status="dual infeasible",
            )
        self.tightened = True
        for name, value in _TIGHT_TOLERANCES.items():
            self.h.setOptionValue(name, value)

    def _infeasible(self, ray, iterations, started):
        """The priced ray leaves no column to add: verify it as a proof for the full LP."""
        ok, details = check_ray(self.problem, ray)
        if not ok:  # numerically weak: the full LP engine decides (and certifies)
            return self.engine.full_lp.solve(self.problem)
        info = self._info(iterations, started, certificate={"source": "priced farkas ray", **details})
        return LPSolution("infeasible", iterations=iterations, engine="colgen", info=info)

    def _info(self, iterations, started, **extra):
        return {"iterations": iterations, "rounds": self.rounds, "pricing_products": self.priced,
                "working_set": int(self.in_master.sum()),
                "solve_seconds": time.perf_counter() - started, **extra}

    def _solution(self, duals, dual_violation, iterations, started):
        p, n = self.problem, self.n
        x = np.asarray(self.h.getSolution().col_value, dtype=np.float64)
        w = np.zeros(self.m)
        features = np.asarray(self.master_features, dtype=np.intp)
        w[features] = x[self.plus_columns] - x[self.minus_columns]
        xi = None
        if p.is_soft:
            xi = np.zeros(n)
            xi[self.slack_rows] = x[1: 1 + self.slack_rows.size]
        if self.engine.warm_start:
            self.engine.working_ids_ = _column_ids(p)[features]
        info = self._info(iterations, started, max_dual_violation=dual_violation,
                          tightened=self.tightened,
                          objective=self.h.getInfo().objective_function_value)
        result = LPSolution(
            "optimal", w=w, b=float(x[0]), xi=xi, objective=info["objective"],
            margin_duals=duals[:n], equality_dual=float(duals[n]) if self.eq is not None else 0.0,
            iterations=iterations, engine="colgen", info=info, handle=self,
        )
        return check_solution(p, result)

    def _delete_features(self, indices):
        """Delete master features (indices into ``master_features``); their w are 0, so
        their columns are non-basic and the basis stays valid for what remains."""
        if indices.size == 0:
            return
        plus = np.asarray(self.plus_columns)
        minus = np.asarray(self.minus_columns)
        gone = np.sort(np.r_[plus[indices], minus[indices]]).astype(np.int32)
        self.h.deleteCols(gone.size, gone)
        keep = np.setdiff1d(np.arange(plus.size), indices)
        shift = lambda cols: cols - np.searchsorted(gone, cols)  # noqa: E731
        self.plus_columns = shift(plus[keep]).tolist()
        self.minus_columns = shift(minus[keep]).tolist()
        self.in_master[np.asarray(self.master_features)[indices]] = False
        self.master_features = np.asarray(self.master_features)[keep].tolist()

    # -- warm re-solves (the reweighting loop) --------------------------------------
    def resolve(self, problem):
        """Re-solve the same rows with new costs on a subset of the master's features.

        ``problem`` must have the rows of the original problem and columns whose
        ``column_ids`` are all in the master (the reweighting loop only ever drops
        columns). Master features outside it are fixed at zero; the basis is kept, so
        the previous solution, feasible for the new costs, is the simplex start.
        """
        h = self.h
        ids = _column_ids(self.problem)[np.asarray(self.master_features, dtype=np.intp)]
        order = np.argsort(ids)
        new_ids = _column_ids(problem)
        where = np.searchsorted(ids, new_ids, sorter=order)
        where = order[np.minimum(where, ids.size - 1)]
        if not np.array_equal(ids[where], new_ids):
            # Not a restriction of this master: a fresh solve by the same engine (its
            # options and warm-start state).
            return self.engine.solve(problem)
        self._delete_features(np.setdiff1d(np.arange(ids.size), where))
        ids = _column_ids(self.problem)[np.asarray(self.master_features, dtype=np.intp)]
        where = np.searchsorted(ids, new_ids, sorter=np.argsort(ids))
        where = np.argsort(ids)[where]
        plus = np.asarray(self.plus_columns)
        minus = np.asarray(self.minus_columns)
        cols = np.r_[plus[where], minus[where]].astype(np.int32)
        h.changeColsCost(cols.size, cols, np.r_[problem.feature_cost, problem.feature_cost])
        if problem.is_soft:
            priced = np.isfinite(problem.slack_cost[self.slack_rows])
            slack_cols = np.arange(1, 1 + self.slack_rows.size, dtype=np.int32)
            if priced.any():
                h.changeColsCost(int(priced.sum()), slack_cols[priced],
                                 problem.slack_cost[self.slack_rows[priced]])
            if (~priced).any():
                k = int((~priced).sum())
                h.changeColsBounds(k, slack_cols[~priced], np.zeros(k), np.zeros(k))
        started = time.perf_counter()
        iterations = 0
        while True:  # every column of ``problem`` is in the master: no pricing to do,
            h.run()  # but its reduced costs are checked like a full solve's
            iterations += int(h.getInfo().simplex_iteration_count)
            status = h.getModelStatus()
            if status != _STATUS.kOptimal:
                raise SolverError(
                    f"HiGHS stopped with model status '{h.modelStatusToString(status)}' when "
                    "re-solving a reweighted master (the previous solution is feasible for it).",
                    status=h.modelStatusToString(status),
                )
            duals = np.asarray(h.getSolution().row_dual, dtype=np.float64)
            dual_violation = max_dual_violation(problem, duals, self._price(duals, problem))
            if dual_violation <= MAX_DUAL_VIOLATION:
                break
            self._tighten(dual_violation)
        x = np.asarray(h.getSolution().col_value, dtype=np.float64)
        n = self.n
        xi = None
        if problem.is_soft:
            xi = np.zeros(n)
            xi[self.slack_rows] = x[1: 1 + self.slack_rows.size]
        result = LPSolution(
            "optimal", w=x[plus[where]] - x[minus[where]], b=float(x[0]), xi=xi,
            objective=h.getInfo().objective_function_value, margin_duals=duals[:n],
            equality_dual=float(duals[n]) if self.eq is not None else 0.0,
            iterations=iterations, engine="colgen",
            info={"iterations": iterations, "warm": True, "max_dual_violation": dual_violation,
                  "tightened": self.tightened, "solve_seconds": time.perf_counter() - started},
            handle=self,
        )
        return check_solution(problem, result)


def max_dual_violation(problem, duals, g):
    """max_j (|g_j| - c_j)_+ / (c_j + s_j) over the problem's columns (see
    :data:`MAX_DUAL_VIOLATION`); ``g`` are the priced duals of every column.

    Only columns with |g_j| - c_j > MAX_DUAL_VIOLATION c_j can exceed the tolerance;
    their term magnitudes s_j are computed on those columns alone (usually none)."""
    n = problem.n_samples
    cost = problem.feature_cost
    excess = np.abs(g) - cost
    suspects = np.flatnonzero(excess > MAX_DUAL_VIOLATION * cost)
    if suspects.size == 0:
        return float(max(np.max(excess / np.where(cost > 0, cost, 1.0), initial=0.0), 0.0))
    terms = cost[suspects] + problem.X.abs_rmatvec(duals[:n] * problem.y, suspects)
    if problem.equality is not None:
        terms += abs(duals[n]) * np.abs(problem.equality.coef[suspects])
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(terms > 0, excess[suspects] / terms, 0.0)
    return float(relative.max())


def _column_ids(problem):
    ids = getattr(problem, "column_ids", None)
    return np.arange(problem.n_columns) if ids is None else np.asarray(ids)

