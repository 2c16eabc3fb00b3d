"""One problem solved by row and column generation on a session's state.

:class:`GenerationLoop` synchronises the master with the problem (:mod:`.working`),
partitions the samples from a start point (:mod:`.starts`, :mod:`.partition`), then
runs rounds: solve the master, move the samples whose assumption fails into it, price
every column with the extended multipliers and add the most violated ones, until
nothing moves and the answer is certified (:mod:`.certificates`).
"""

import time

import numpy as np

from ...exceptions import SolverError
from ..certificates import check_ray
from ..checks import check_solution
from ..pricing import activities, column_certificate, price_columns
from ..problems import LPSolution
from . import tuning
from ..checks import duality_gap
from .certificates import full_ray, require_certified, slacks, spread
from .partition import idle_rows, inconsistent_samples, start_partition
from .starts import (ColumnRanking, class_mean_point, crossover_start, first_order_point,
                     subsample_point, warm_point)
from .state import ERR, ROW, Solved
from .working import WorkingSet

__all__ = ["GenerationLoop", "mode_label"]


def mode_label(rows, columns):
    """The engine label of a restriction: "rowcolgen", "rowgen", "colgen" or "highs"."""
    return {(True, True): "rowcolgen", (True, False): "rowgen",
            (False, True): "colgen", (False, False): "highs"}[(rows, columns)]


class GenerationLoop:
    """``problem`` solved on the session ``state`` by ``engine``'s rules, restricting
    the samples (``rows``) and/or the features (``columns``)."""

    def __init__(self, engine, state, problem, rows, columns):
        self.engine = engine
        self.state = state
        self.problem = problem
        self.restrict_rows = rows
        self.restrict_columns = columns
        self.label = mode_label(rows, columns)
        self.started = time.perf_counter()
        self.iterations_before = state.master.iterations
        self.rounds = 0
        self.priced = 0
        self.new_run, self.step = state.begin(problem.n_columns)
        self.working = WorkingSet(state, problem)
        self.ranking = ColumnRanking(problem)

    def initial_columns(self):
        return self.engine.initial_column_count(self.problem.n_samples, self.restrict_rows)

    # -- before the first round ---------------------------------------------------------
    def start_point(self):
        """(problem positions, w, b) to partition the samples with, and whether it is a
        whole solution of the last run (:mod:`.starts`)."""
        point, whole = warm_point(self.state, self.problem, self.step, self.new_run)
        if point is not None:
            return point, whole
        if self.restrict_rows:
            point = self.cold_point()
            if point is not None:
                return point, False
        return class_mean_point(self.problem, self.ranking, self.initial_columns()), False

    def cold_point(self):
        """FISTA's start, else the subsample LP's (None if neither serves)."""
        problem = self.problem
        keep = min(problem.n_columns, max(self.initial_columns(),
                                          problem.n_samples // tuning.FIRST_ORDER_SAMPLES_PER_COLUMN))
        point, products = first_order_point(problem, keep)
        self.priced += products
        if point is None:
            point, products = subsample_point(problem, self.engine.subsample_engine(self.restrict_columns))
            self.priced += products
        return point

    def sync_rows(self, start):
        """The partition of the samples and the master rows that follow from it; returns
        the start's activities (None when every sample has a row)."""
        problem, state, working = self.problem, self.state, self.working
        activity = None
        if not self.restrict_rows:
            working.add_rows(state.repartition(np.full(problem.n_samples, ROW, dtype=np.int8))[1])
        else:
            activity, scale = activities(problem, *start)
            self.priced += 1
            partition = start_partition(
                state, activity, scale, float(problem.margin), problem.slack_cost,
                self.engine.initial_row_count(problem.n_samples), self.row_batch())
            leaving, entering = state.repartition(partition)
            state.master.delete_samples(leaving)
            working.add_rows(entering)
        working.set_slack_costs()
        working.sync_aggregates()
        return activity

    def add_first_columns(self, start):
        """The start's columns, and while the master is small the last working set and
        the best-ranked columns (every column when the features are not restricted)."""
        problem = self.problem
        if not self.restrict_columns:
            self.working.add_columns(np.arange(problem.n_columns))
            return
        size = min(problem.n_columns, self.initial_columns())
        if self.state.master.n_features < size:
            pool = np.flatnonzero(np.isin(problem.X.columns, self.state.pool))
            self.working.add_columns(np.unique(np.r_[start[0], pool, self.ranking.best(size)]))
        else:
            self.working.add_columns(start[0])

    def row_batch(self):
        return self.engine.row_batch_size(self.problem.n_samples)

    def column_batch(self):
        return self.engine.column_batch_size(self.state.master.samples.size)

    # -- the rounds ---------------------------------------------------------------------
    def run(self):
        """The start, the first master, then rounds until a certified answer; a master
        HiGHS fails on (:meth:`~sfmlearn.lp.master.Master.run`) hands the problem to the
        engine's full-LP fallback."""
        start, whole = self.start_point()
        activity = self.sync_rows(start)
        self.add_first_columns(start)
        slack_cost = self.problem.slack_cost
        if (self.new_run and whole and self.restrict_rows and slack_cost is not None
                and np.isfinite(slack_cost).all()):
            crossover_start(self.working, start, activity)
        while True:
            self.rounds += 1
            if self.rounds > self.engine.max_rounds:
                raise SolverError(
                    f"row/column generation did not converge in {self.engine.max_rounds} "
                    "rounds (max_rounds). Raise max_rounds (default 10000), or solve the "
                    "full LP with solver='highs'.", status="round limit")
            try:
                status = self.state.master.run()
            except SolverError:  # HiGHS failed on the restricted master, warm and cold: the full LP decides
                return self.engine.fallback().solve(self.problem)
            if status == "infeasible":
                answer = self.infeasible_round()
            else:
                answer = self.optimal_round()
            if answer is not None:
                return answer

    def optimal_round(self):
        """Samples and columns that must enter, or the certified answer."""
        problem, state, working = self.problem, self.state, self.working
        master = state.master
        (w, b, xi_rows), (lam_rows, mu, nu) = master.primal_dual()
        lam_rows = np.maximum(lam_rows, 0.0)
        activity, scale = activities(problem, working.positions, w, b)
        rows, lam = working.multipliers(lam_rows, nu)
        g = price_columns(problem, lam, mu, rows)
        self.priced += 2
        violation = np.abs(g) - problem.feature_cost * (1.0 + self.engine.pricing_tol)
        violation[working.in_master] = -np.inf
        entering = np.flatnonzero(violation > 0)
        if (self.restrict_rows and self.move_samples(activity, scale)) or entering.size:
            top = entering[np.argsort(-violation[entering], kind="stable")[: self.column_batch()]]
            working.add_columns(top)
            return None
        dual_violation, bad = column_certificate(problem, lam, mu, g, rows)
        bad = bad[~working.in_master[bad]]
        if bad.size:  # misjudged by the fast product: they enter now
            working.add_columns(bad)
            return None
        xi = slacks(problem, state.partition, activity, xi_rows, master.samples)
        gap = duality_gap(problem, working.positions, w, xi, lam, mu)
        if not require_certified(master, dual_violation, gap):
            return None
        info = self.info(max_dual_violation=dual_violation, duality_gap=gap,
                         objective=master.objective())
        result = LPSolution(
            "optimal", w=working.weights(w), b=b, xi=xi, objective=info["objective"],
            margin_duals=spread(problem.n_samples, rows, lam), equality_dual=mu,
            iterations=info["iterations"], engine=self.label, info=info,
        )
        check_solution(problem, result)
        self.remember(activity, w, b, lam_rows)
        return result

    def move_samples(self, activity, scale):
        """Give rows to the samples whose assumption fails (:mod:`.partition`); True if
        any moved."""
        problem, state, working = self.problem, self.state, self.working
        to_row = inconsistent_samples(state.partition, activity, scale, float(problem.margin),
                                      problem.slack_cost, self.row_batch())
        if to_row.size == 0:
            return False
        state.admit(to_row)
        working.add_rows(to_row)
        working.sync_aggregates()
        return True

    def remember(self, activity, w, b, lam_rows):
        """Warm state for the next problem of the session."""
        problem, state, positions = self.problem, self.state, self.working.positions
        master, columns = state.master, problem.X.columns
        pool = None
        if self.restrict_columns and problem.n_columns > master.n_features:
            pool = columns[positions]
        support = np.flatnonzero(w)
        rhs = problem.equality.rhs if problem.equality is not None else 0.0
        state.record(Solved(columns[positions[support]], w[support], b, rhs),
                     problem.n_columns, pool)
        if self.restrict_rows:
            rows = master.samples
            state.count_idle(rows, idle_rows(rows, activity, float(problem.margin), lam_rows,
                                             problem.slack_cost))

    def infeasible_round(self):
        """The master is infeasible: price its Farkas ray, or prove the full LP infeasible."""
        problem, working = self.problem, self.working
        ray = self.state.master.ray()
        if ray is None:
            return self.engine.fallback().solve(problem)
        lam_rows, mu, nu = ray
        rows, lam = working.multipliers(lam_rows, nu)
        g = price_columns(problem, lam, mu, rows)
        self.priced += 1
        scale = np.abs(g).max(initial=0.0)
        g[working.in_master] = 0.0
        candidates = np.flatnonzero(np.abs(g) > 1e-9 * max(scale, 1.0))
        if candidates.size:
            working.add_columns(candidates[np.argsort(-np.abs(g[candidates]))[: self.column_batch()]])
            return None
        ok, details = check_ray(problem, full_ray(problem, rows, lam, mu))
        if not ok:  # numerically weak: a full-LP engine decides (and certifies)
            return self.engine.fallback().solve(problem)
        info = self.info(certificate={"source": "priced farkas ray", **details})
        return LPSolution("infeasible", iterations=info["iterations"], engine=self.label, info=info)

    def info(self, **extra):
        master = self.state.master
        return {"iterations": master.iterations - self.iterations_before, "rounds": self.rounds,
                "pricing_products": self.priced + self.ranking.products,
                "working_set": int(master.n_features), "working_rows": int(master.samples.size),
                "error_samples": int(np.count_nonzero(self.state.partition == ERR)),
                "tightened": master.tightened, "mode": self.label,
                "solve_seconds": time.perf_counter() - self.started, **extra}
