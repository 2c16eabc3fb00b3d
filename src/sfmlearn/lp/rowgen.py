"""Row and column generation: the SFM-family LPs cheap in samples *and* features.

An LP of :mod:`.problems` has n margin rows (+ the equality) and 2d + 1 (+ n) columns.
At an optimum only a few of each matter: at most n + 1 weights are non-zero (NC
appendix A.1), and only the samples on the hyperplane's margin (t_i = margin, with
t_i = y_i (z_i . w + b)) carry the basis; every other sample is either satisfied
(t_i > margin, multiplier 0) or, in a soft problem, a margin error whose slack is
basic (t_i < margin, multiplier C_i). Column generation (the features) and constraint
generation (the samples) solve a *restricted master* on working sets of both and price
the rest with one product each (:mod:`.pricing`); Dedieu, Mazumder & Wang (JMLR 2022,
arXiv 1901.01585) showed how effective the combination is for l1-SVMs.

**The sample partition.** Every sample is in one of three states:

* ``ROW``: its margin row (and slack) is in the master;
* ``OUT``: assumed satisfied; no row, multiplier 0;
* ``ERR`` (soft rows only): assumed a margin error. Its hinge C_i (margin - t_i)_+ is
  linear where it is an error, so the errors of class k are summed into one
  *aggregated row*  sum_{E_k} C_i (t_i - margin) + eta_k >= 0  with eta_k >= 0 priced
  at 1 (:mod:`.master`). Since (sum_i a_i)_+ <= sum_i (a_i)_+ the master stays a
  relaxation of the full LP, and it stays bounded (eta >= 0). This is what keeps the
  soft SFM with the "wrong" sign of its equality cheap: there almost every sample is an
  error, and a plain working set would have to hold them all.

The master's optimum is optimal for the full LP when the partition is *consistent* -
no ``OUT`` sample violated, no ``ERR`` sample above the margin - and no column prices
out: then (lambda_ROW, C_ERR scaled by the aggregated rows' duals, 0_OUT, mu) is feasible
for the full dual with the master's objective. Each round solves the master, computes
every sample's activity (one product over the support of w), moves inconsistent
samples - violated ``OUT`` ones (hard: the most violated first, ``row_batch`` per
round) and ``ERR`` ones above the margin - to ``ROW``, and prices every column with the
multipliers of ``ROW`` and ``ERR`` samples (one product over those rows); it adds the
most violated columns, ``column_batch`` per round. Samples only enter ``ROW`` during a
solve, so the loop ends.

**Starts.** The partition is only as good as the hyperplane it is made from:

* a *cold* solve (the first of a session) of a soft problem starts from a few FISTA
  iterations on l1-``LinearSVC``'s objective with the LP's costs (:mod:`.first_order`,
  copy-free, the n / 20 largest weights kept); a hard one, or a soft one that start
  cannot serve, from the LP on :data:`SUBSAMPLE` samples evenly spaced within each
  class (slack costs scaled by n / k, every row in its master). Either gives rows to
  the samples nearest its margin and to every sample it violates (aggregated errors of
  a rough start let the master move the hyperplane far for free, and samples then flip
  between ``OUT`` and ``ERR`` for many rounds: measured 9 - 12k simplex iterations
  instead of 3.8k at n = 4000, d = 2000). At n = 4000, d = 2000 (soft SFM, C = 1, class
  means +-0.25) the first LP took 3098 simplex iterations from the FISTA start and 4163
  from the subsample LP (``bench_samples.py --part start --offset 0.25``);
* a *warm* solve starts from the previous solution or, in a new run of the
  reweighting loop (a problem with more columns than the last one: the other sign,
  the next repetition), from the solution of the same step of the last run (the
  first: always; later ones: when the problem has all their columns), scaled to the
  new right-hand side. Samples within :data:`ON_MARGIN` of its margin get rows, and
  so do the :data:`WARM_BAND` times as many samples nearest it (the partition of a
  reweighting step moves little, and a master without them moves the hyperplane past
  samples that then need rows: 1.5x fewer simplex iterations in whole soft-SFM fits);
  violated ones are ``ERR``; for the soft SFM with balanced class weights the mirrored
  solution (w, b) -> (-w, -b) is exactly the optimum of the other sign, and its
  errors are the first sign's satisfied samples.

**Certificate.** At return every sample's row is checked with the solution
(:func:`~sfmlearn.lp.problems.check_solution`: relative violation at most 1e-6; rows
left out were held to :data:`~sfmlearn.lp.pricing.ROW_TOL`), every column's reduced
cost with the extended multipliers (:func:`~sfmlearn.lp.pricing.column_certificate`,
recomputing from centred data every column the fast product leaves in doubt; at most
:data:`~sfmlearn.lp.pricing.MAX_DUAL_VIOLATION`), and the duality gap between the
recomputed primal objective and the dual objective margin sum(lambda) + mu rhs (at most
:data:`GAP_TOL` relative). A violation left after a re-solve with tight tolerances
raises :class:`~sfmlearn.exceptions.SolverError`. An infeasible master is infeasible
on a subset of the rows - and extra rows only add constraints - so its Farkas ray,
priced over every column (a column that breaks it enters) and verified on the full
data with zero multipliers on the rows left out
(:func:`~sfmlearn.lp.certificates.check_ray`), proves the full LP infeasible. A ray
that does not verify hands the problem to a full-LP engine, which certifies its own
answer.

**Warm state (sessions).** :meth:`GenerationEngine.session` returns a
:class:`GenerationSession` that owns one HiGHS model (:class:`~.master.Master`) and the
partition, and solves a *sequence* of problems on the same data (the same X, column
scaling and centring objects, y, margin, kind of equality, intercept and softness):
each problem may have any subset of the columns (``problem.X.columns``), new feature
costs, new slack costs (finite or infinite: hard rows) and a new right-hand side of the
equality. The session deletes the master's columns the problem does not have, changes
costs, bounds and the right-hand side in place, re-partitions the samples from the
previous solution (scaled to the new right-hand side: w -> -w for the other sign of
the SFM), keeps the previous rows, and starts HiGHS from the previous basis. Rows that
stayed inactive for :data:`DROP_AFTER` solves leave the master. That serves, with one
session each:

* the reweighting loop (:func:`~sfmlearn.optim.reweighting.iterated_l1`): new costs,
  fewer columns, hard rows where a slack reached zero;
* both signs of the soft SFM and every repetition of the repetitive SFM (features
  removed): one session per fit or per repetitive run
  (:class:`~sfmlearn.selection._base.PreparedFit`);
* a regularisation path of soft SFMs that differ only in their slack costs C: create
  one session per sign of the equality and call ``session.solve(sfm_lp(..., sign=s,
  slack_cost=C_k * weights))`` for C_1, C_2, ... in order; a change of slack costs
  keeps the basis primal feasible, so each solve continues from the previous optimum.

A problem on other data resets the session (a new model). A session is not thread-safe
and not picklable; create it inside the fit that uses it.

**Modes.** ``rows`` and ``columns`` ("auto", True or False) say whether the samples
and the features are restricted. "auto" restricts the samples from
:data:`ROWS_FROM` samples on and the features when the problem has more than
:data:`COLUMN_RATIO` times as many columns as the master is expected to have rows (the
switch points measured by ``benchmarks/bench_switch_point.py``). With neither
restricted the session is a full LP kept warm in HiGHS.
"""

import time

import numpy as np

from ..exceptions import SolverError
from .certificates import check_ray
from .first_order import ITERATIONS as FIRST_ORDER_ITERATIONS
from .first_order import POWER_ITERATIONS, serves, squared_hinge_start
from .highs import HighsEngine
from .master import Master
from .pricing import MAX_DUAL_VIOLATION, ROW_TOL, activities, column_certificate, price_columns
from .operators import ScaledMatrix
from .problems import HyperplaneLP, LPSolution, check_solution
from .protocol import LP, Engine

__all__ = ["GenerationEngine", "GenerationSession", "GAP_TOL", "ROWS_FROM", "COLUMN_RATIO"]

#: "auto" restricts the samples of problems with at least this many: whole soft-SFM fits
#: were 2.0-6.9x faster with the samples restricted at n = 500 (d = 200, 2000), 1.2-2.4x
#: at n = 250 (``bench_switch_point.py --part rows``, two runs) and 0.70-1.03x at n = 100,
#: 150 (one run); below 500 a fit takes a tenth of a second either way.
ROWS_FROM = 500
#: "auto" restricts the features when m > COLUMN_RATIO (expected master rows + 1).
COLUMN_RATIO = 4
#: Largest accepted relative duality gap |P - D| / (1 + |P|) of a returned solution.
GAP_TOL = 1e-6
#: A master row inactive (satisfied with multiplier 0, or an error at its full price)
#: in this many consecutive solves of a session leaves the master.
DROP_AFTER = 1
#: A sample leaves the master at most this many times in a session (no cycling).
MAX_DROPS = 2
#: Samples within ON_MARGIN (relative to the activity scale) of the margin under the
#: start point of a solve (the previous solution) enter the master as rows.
ON_MARGIN = 1e-7
#: Samples of the LP whose solution is the cold start of row generation (hard problems,
#: and soft ones the first-order start cannot serve).
SUBSAMPLE = 400
#: The first-order cold start of soft problems keeps n / this many columns (at least the
#: master's initial columns).
FIRST_ORDER_SAMPLES_PER_COLUMN = 20
#: ... and serves problems with n >= FIRST_ORDER_FROM x columns (:meth:`_Solve._first_order_start`).
FIRST_ORDER_FROM = 1.0
#: Whether the margin errors of a cold start (FISTA's or the subsample LP's hyperplane)
#: get master rows rather than joining the aggregated error rows as a warm start's do
#: (module docstring, "Starts"). Aggregating them pays only from a start whose errors
#: are the optimum's. The soft SFM's first LP (d = 2000, C = 1, ``bench_samples.py
#: --part start --offset 0.25``): from its own optimum 148 rows, 347 simplex iterations,
#: 0.07 s with the errors aggregated against 556, 1158, 0.32 s with rows (n = 4000;
#: n = 8000: 338, 1124, 0.82 s against 1110, 3274, 4.25 s); from the FISTA start 1516
#: rows, 4775 iterations, 5.33 s against 730, 3098, 1.69 s (n = 8000: 143.9 s against
#: 29.4 s).
COLD_ERRORS_GET_ROWS = True
#: A warm solve gives master rows to the WARM_BAND x (samples on its start's margin)
#: samples nearest that margin (module docstring, "Starts"): the partition of a
#: reweighting step moves little, and without them the first master moves the hyperplane
#: far, past samples that then need rows. Whole soft-SFM fits (C = 1, d = 2000, class
#: means +-0.25: ``bench_samples.py --part band --offset 0.25``, medians of 3 interleaved
#: runs): 2894 instead of 4356 simplex iterations at n = 2000, 8171 instead of 12929 at
#: 4000, 28110 instead of 42415 at 8000; CPU 1.47x, 1.47x and 1.37x less; the same
#: features. At n = 4000 a band of 2, 4 and 6 took 9425, 8309 and 8802 iterations
#: (``--bands 3,2,4,6,0``).
WARM_BAND = 3
# Default initial rows when the samples are restricted.
_INITIAL_ROWS = 100
_TIGHT_TOLERANCES = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

OUT, ROW, ERR = 0, 1, 2


class GenerationEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances by row and column
    generation (module docstring), warm across a session.

    Parameters
    ----------
    rows, columns : {"auto", True, False}
        Whether the samples / the features are restricted to working sets.
    initial_rows : int or None
        Samples in the first master when the rows are restricted (default 100: those
        nearest the class-mean hyperplane).
    initial_columns : int or None
        Features in the first master when the columns are restricted (default twice
        the master's rows: the largest |a_j| / c_j, or |Z^T (C y)|_j / c_j without an
        equality row).
    row_batch, column_batch : int or None
        Samples (default: the initial rows) and features (default: master rows + 1)
        added per round.
    pricing_tol : float
        A feature enters when |g_j| > c_j (1 + pricing_tol).
    max_rounds : int
    full_lp : engine or None
        Solves problems where neither side is restricted (None: the warm master does),
        and problems whose master is infeasible without a verifiable Farkas ray
        (None: :class:`~sfmlearn.lp.highs.HighsEngine`).

    Examples
    --------
    A soft SFM LP on 600 samples, solved on a working set of them:

    >>> import numpy as np
    >>> from sfmlearn.lp import GenerationEngine, HighsEngine, sfm_lp
    >>> rng = np.random.default_rng(0)
    >>> y = np.where(np.arange(600) % 2 == 0, 1.0, -1.0)
    >>> X = rng.standard_normal((600, 50))
    >>> X[:, 0] += 0.5 * y
    >>> problem = sfm_lp(X, y, np.ones(50), slack_cost=np.ones(600))
    >>> solution = GenerationEngine(rows=True).solve(problem)
    >>> solution.info["working_rows"] < 600
    True
    >>> bool(np.isclose(solution.objective, HighsEngine().solve(problem).objective))
    True
    """

    name = "auto"
    kinds = frozenset({LP})

    def __init__(self, rows="auto", columns="auto", *, initial_rows=None, initial_columns=None,
                 row_batch=None, column_batch=None, pricing_tol=1e-7, max_rounds=10_000,
                 full_lp=None):
        self.rows = rows
        self.columns = columns
        self.initial_rows = initial_rows
        self.initial_columns = initial_columns
        self.row_batch = row_batch
        self.column_batch = column_batch
        self.pricing_tol = pricing_tol
        self.max_rounds = max_rounds
        self.full_lp = full_lp

    def session(self):
        """A :class:`GenerationSession`: solves problems on the same data warm."""
        return GenerationSession(self)

    def solve(self, problem):
        """One problem, cold. Without a restriction the full LP is passed to HiGHS in one
        call, which is faster than building a master to keep warm (the session does
        that when more problems follow)."""
        if self._restrict(problem) == (False, False):
            return self._fallback().solve(problem)
        return self.session().solve(problem)

    def _restrict(self, problem):
        """(restrict rows, restrict columns) for ``problem``."""
        n, m = problem.n_samples, problem.n_columns
        rows = n >= ROWS_FROM if self.rows == "auto" else bool(self.rows)
        if self.columns != "auto":
            return rows, bool(self.columns)
        expected_rows = min(n, self._initial_rows(n)) if rows else n
        return rows, m > COLUMN_RATIO * (expected_rows + 1)

    def _initial_rows(self, n):
        return min(n, _INITIAL_ROWS if self.initial_rows is None else self.initial_rows)

    def _fallback(self):
        return self.full_lp if self.full_lp is not None else HighsEngine()


def _label(rows, columns):
    return {(True, True): "rowcolgen", (True, False): "rowgen",
            (False, True): "colgen", (False, False): "highs"}[(rows, columns)]


def _locate(haystack, needles):
    """(positions in ``haystack`` of the ``needles`` found there, mask of those found)."""
    needles = np.asarray(needles)
    if haystack.size == 0 or needles.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(needles.size, dtype=bool)
    order = np.argsort(haystack, kind="stable")
    at = order[np.minimum(np.searchsorted(haystack, needles, sorter=order), haystack.size - 1)]
    found = haystack[at] == needles
    return at[found].astype(np.intp), found


class GenerationSession:
    """Warm state of a :class:`GenerationEngine` over a sequence of problems (module
    docstring, "Warm state")."""

    def __init__(self, engine):
        self.engine = engine
        self.master = None
        self._key = None

    # -- the data a master belongs to -------------------------------------------------
    @staticmethod
    def _data_key(problem):
        X, eq = problem.X, problem.equality
        return (id(X.X), id(X.factor), id(X.mean), X.shape[0], float(problem.margin),
                None if eq is None else float(eq.bias_coef), bool(problem.fit_intercept),
                problem.is_soft)

    def _same_data(self, problem):
        return (self.master is not None and self._key == self._data_key(problem)
                and problem.X.X is self._X and np.array_equal(problem.y, self.master.y))

    def _reset(self, problem):
        eq = problem.equality
        self.master = Master(problem.y, problem.margin, None if eq is None else eq.bias_coef,
                             problem.fit_intercept, problem.is_soft, _TIGHT_TOLERANCES)
        self._key = self._data_key(problem)
        self._X = problem.X.X
        n = problem.n_samples
        self.state = np.full(n, OUT, dtype=np.int8)
        self.inactive = np.zeros(n, dtype=np.int64)
        self.drops = np.zeros(n, dtype=np.int64)
        self.last = None  # (raw feature ids, weights, b, rhs) of the last solution
        self.this_run = []  # the same, of every problem of the current run, in order
        self.last_run = []  # ... and of the run before
        self.n_columns = None  # columns of the last problem
        self.pool = np.zeros(0, dtype=np.int64)  # last broad working set of features
        self.master_pos = np.zeros(0, dtype=np.intp)

    # -- one problem ------------------------------------------------------------------
    def solve(self, problem):
        engine = self.engine
        rows, columns = engine._restrict(problem)
        if not rows and not columns and engine.full_lp is not None:
            return engine.full_lp.solve(problem)
        if not self._same_data(problem):
            self._reset(problem)
        return _Solve(self, problem, rows, columns).run()


class _Solve:
    """One problem solved in a session: synchronise the master, then generate."""

    def __init__(self, session, problem, rows, columns):
        self.s = session
        self.p = problem
        self.master = session.master
        self.restrict_rows = rows
        self.restrict_columns = columns
        self.n = problem.n_samples
        self.m = problem.n_columns
        self.cost = problem.feature_cost
        self.soft = problem.is_soft
        self.C = problem.slack_cost if self.soft else None
        self.margin = float(problem.margin)
        self.started = time.perf_counter()
        self.iterations_before = self.master.iterations
        self.rounds = 0
        self.priced = 0
        self.label = _label(rows, columns)
        # A problem with more columns than the last one starts a new run of the
        # reweighting loop (the other sign, the next repetition). Its k-th problem
        # resembles the k-th of the last run (the same costs; for the soft SFM's other
        # sign with balanced classes, the same problem mirrored) more than the last one.
        self.new_run = session.n_columns is None or self.m > session.n_columns
        if self.new_run:
            session.last_run, session.this_run = session.this_run, []
        self.step = len(session.this_run)
        # Whether the start is a whole solution of the last run (:meth:`_start_point`).
        self.start_is_last_run = False

    # -- synchronisation ----------------------------------------------------------------
    def _sync_columns(self):
        """Delete master features the problem lacks; map the rest to problem positions;
        set their costs."""
        master, ids = self.master, self.p.X.columns
        # Deletion keeps the order of the remaining features: ``at`` stays aligned.
        at, found = _locate(ids, master.features)
        master.delete_features(master.features[~found])
        self.s.master_pos = at
        if at.size:
            master.set_feature_costs(self.cost[at])
        self.in_master = np.zeros(self.m, dtype=bool)
        self.in_master[at] = True
        if self.p.equality is not None:
            master.set_rhs(self.p.equality.rhs)

    def _start_point(self):
        """(problem positions, weights, b) to partition the samples with: the previous
        solution on this problem's columns, scaled to its right-hand side, or the
        class-mean hyperplane on the best-scored columns."""
        p, s = self.p, self.s
        last = s.last
        if self.step < len(s.last_run):
            found = _locate(p.X.columns, s.last_run[self.step][0])[1]
            if found.all() or self.new_run:
                last = s.last_run[self.step]
                self.start_is_last_run = bool(found.all())
        if last is not None:
            ids, w, b, rhs = last
            pos, found = _locate(p.X.columns, ids)
            w = w[found]
            scale = 1.0
            if p.equality is not None and rhs != 0.0:
                scale = p.equality.rhs / rhs
            return pos, w * scale, b * scale
        if self.restrict_rows:
            start = self._first_order_start()
            if start is None:
                start = self._subsample_start()
            if start is not None:
                return start
        top = self._best_columns(min(self.m, max(1, self._initial_columns())))
        eq = p.equality
        if eq is not None:
            a = eq.coef[top]
            direction = a / max(float(a @ a), np.finfo(float).tiny)  # a . direction = 1
        else:
            direction = self._column_scores(signed=True)[top]
        projection = p.X.matvec(direction, top)
        centres = [projection[p.y == label].mean() for label in (1.0, -1.0) if np.any(p.y == label)]
        offset = -float(np.mean(centres))
        if eq is None:
            return top, direction, offset
        # w = alpha direction, b = alpha offset on the equality: alpha (1 + a_b offset) = rhs.
        denominator = 1.0 + eq.bias_coef * offset
        alpha = eq.rhs / denominator if abs(denominator) > 1e-12 else eq.rhs
        return top, alpha * direction, alpha * offset if abs(denominator) > 1e-12 else 0.0

    def _first_order_start(self):
        """Soft problems with at least as many samples as columns (and an equality row and
        finite slack costs, :func:`~.first_order.serves`): FISTA's hyperplane
        (:mod:`.first_order`) on its n / 20 largest weights (at least the master's
        initial columns), or None.

        FISTA reads all of X twice per iteration; the LP it saves work on grows with the
        optimum. Whole soft-SFM fits (C = 1, d = 2000, ``bench_samples.py --part fista``,
        medians of 3 interleaved fits) where the optimum grows with n (class means
        +-0.25, ``--offset 0.25``): 0.83 s with it against 0.91 s without at n = 2000,
        4.81 s against 5.50 s at 4000, 78.0 s against 77.0 s at 8000 (one fit); where it
        stays at the 20 informative features (the issue's data, +-0.5): 1.24 s against
        0.63 s at 4000 and 3.85 s against 1.34 s at 16000, FISTA's passes costing more
        than the small LP they shorten. Kept, an open trade-off: it saves 9-13 % of the
        harder fits up to n = 4000 (none at 8000) and costs 0.6-2.5 s of the easy ones.
        At n = 10^4, d = 2 x 10^4 (float32), where column generation keeps the LP small
        and FISTA's 130 passes over X dominate: 55.4 s against 7.2 s. Hence only from
        n >= d on (:data:`FIRST_ORDER_FROM`)."""
        if not self.soft or self.n < FIRST_ORDER_FROM * self.m or not serves(self.p):
            return None
        keep = min(self.m, max(self._initial_columns(), self.n // FIRST_ORDER_SAMPLES_PER_COLUMN))
        self.priced += 2 * (FIRST_ORDER_ITERATIONS + POWER_ITERATIONS)
        return squared_hinge_start(self.p, keep)

    def _subsample_start(self):
        """The solution of the problem on :data:`SUBSAMPLE` samples (evenly spaced within
        each class; slack costs scaled by n / k so that errors weigh as much as in the
        full problem), solved with every sample's row: a cold start that already puts
        most samples on the right side of the margin. None if that LP is infeasible."""
        p, n = self.p, self.n
        k = min(n, SUBSAMPLE)
        if k >= n:
            return None
        picked = []
        for label in (1.0, -1.0):
            members = np.flatnonzero(p.y == label)
            share = max(1, round(k * members.size / n))
            picked.append(members[np.unique(np.linspace(0, members.size - 1, share).round().astype(int))])
        rows = np.sort(np.concatenate(picked))
        X = p.X
        sub_X = ScaledMatrix(X.X[rows], X.factor, X.mean, X.columns)
        slack = None if not self.soft else self.C[rows] * (n / rows.size)
        sub = HyperplaneLP(sub_X, p.y[rows], self.cost, p.margin, p.equality, slack,
                           p.fit_intercept)
        solution = GenerationEngine(rows=False, columns=self.restrict_columns).solve(sub)
        self.priced += solution.info.get("pricing_products", 0)
        if solution.status != "optimal":
            return None
        support = np.flatnonzero(solution.w)
        return support, solution.w[support], solution.b

    def _column_scores(self, signed=False):
        """|a_j| / c_j, or (Z^T (C y))_j (/ c_j) without an equality row."""
        p = self.p
        if p.equality is not None and not signed:
            raw = np.abs(p.equality.coef)
        else:
            weight = np.ones(self.n) if self.C is None else np.where(np.isfinite(self.C), self.C, 1.0)
            raw = p.X.rmatvec(weight * p.y)
            self.priced += 1
            if signed:
                return raw
            raw = np.abs(raw)
        with np.errstate(divide="ignore", invalid="ignore"):  # zero costs rank first
            return np.nan_to_num(raw / self.cost, nan=0.0, posinf=np.inf)

    def _best_columns(self, size):
        if size >= self.m:
            return np.arange(self.m)
        if not hasattr(self, "_scores"):
            self._scores = self._column_scores()
        return np.argpartition(-self._scores, size - 1)[:size]

    def _initial_columns(self):
        e = self.s.engine
        if e.initial_columns is not None:
            return e.initial_columns
        rows = e._initial_rows(self.n) if self.restrict_rows else self.n
        return 2 * rows

    def _sync_rows(self, start):
        """Slack costs of the master rows, drops, and the partition of the other samples."""
        s, master, n = self.s, self.master, self.n
        if not self.restrict_rows:
            missing = np.flatnonzero(s.state != ROW)
            s.state[:] = ROW
            self._add_rows(missing)
        else:
            pos, w, b = start
            t, scale = activities(self.p, pos, w, b)
            self.start_activity = t
            self.priced += 1
            cold = not np.any(s.state == ROW)
            if cold:
                near = np.argsort(np.abs(t - self.margin), kind="stable")[: s.engine._initial_rows(n)]
                new_state = np.full(n, OUT, dtype=np.int8)
                new_state[near] = ROW
            else:
                new_state = s.state.copy()
                drop = (new_state == ROW) & (s.inactive >= DROP_AFTER) & (s.drops < MAX_DROPS)
                new_state[drop] = OUT
            # Samples on the start hyperplane's margin carry its basis: they get rows, and
            # in a warm solve so do the WARM_BAND times as many nearest its margin.
            distance = np.abs(t - self.margin)
            on_margin = distance <= ON_MARGIN * scale
            new_state[on_margin] = ROW
            band = 0 if cold else int(WARM_BAND * np.count_nonzero(on_margin))
            if band:
                new_state[np.argsort(distance, kind="stable")[:band]] = ROW
            free = new_state != ROW
            violated = t < self.margin - ROW_TOL * scale
            if self.soft:
                # A cold start is too rough to trust its errors (COLD_ERRORS_GET_ROWS).
                new_state[free & violated & np.isfinite(self.C)] = \
                    ROW if cold and COLD_ERRORS_GET_ROWS else ERR
                new_state[free & ~violated] = OUT
            hard_bad = free & violated & (np.ones(n, bool) if not self.soft else ~np.isfinite(self.C))
            if hard_bad.any():
                worst = np.flatnonzero(hard_bad)
                worst = worst[np.argsort(t[worst] - self.margin, kind="stable")][: self._row_batch()]
                new_state[worst] = ROW
            leaving = np.flatnonzero((s.state == ROW) & (new_state != ROW))
            s.drops[leaving] += 1
            s.inactive[leaving] = 0
            master.delete_samples(leaving)
            entering = np.flatnonzero((s.state != ROW) & (new_state == ROW))
            s.state[:] = new_state
            self._add_rows(entering)
        if self.soft:
            rows = master.samples
            if rows.size:
                master.set_slack_costs(rows, self.C[rows])
        self._sync_aggregates()

    def _start_master_at(self, start):
        """Start HiGHS from the start point itself rather than the last basis, when it
        is a whole solution of the last run on this problem's columns: the other sign of
        the soft SFM (module docstring, "Starts"), whose mirrored first solution is its
        optimum with balanced classes and a feasible point otherwise (every slack finite:
        xi_i = (margin - t_i)_+ and eta_k = (sum_{E_k} C_i (margin - t_i))_+ satisfy every
        row). The last basis belonged to the other sign's last step, from which the dual
        simplex had to find the mirrored optimum anew; crossover from the point itself
        needs no simplex iteration (:meth:`.Master.start_from`; a test asserts it)."""
        pos, w, b = start
        master = self.master
        at, found = _locate(self.s.master_pos, pos)
        if not found.all():
            return
        w_master = np.zeros(master.n_features)
        w_master[at] = w
        t = self.start_activity
        xi = np.maximum(self.margin - t[master.samples], 0.0)
        eta = [max(0.0, float(self.C[members] @ (self.margin - t[members])))
               for members in self._error_classes()]
        master.start_from(w_master, b, xi, eta)

    def _row_batch(self):
        e = self.s.engine
        return e.row_batch if e.row_batch is not None else max(e._initial_rows(self.n), 1)

    def _column_batch(self):
        e = self.s.engine
        return e.column_batch if e.column_batch is not None else self.master.samples.size + 1

    # -- master changes -----------------------------------------------------------------
    def _add_rows(self, samples):
        samples = np.asarray(samples, dtype=np.intp)
        if samples.size == 0:
            return
        block = self.p.X.block(self.s.master_pos, rows=samples) if self.s.master_pos.size \
            else np.zeros((samples.size, 0))
        self.master.add_samples(samples, block, None if self.C is None else self.C[samples])

    def _add_columns(self, positions):
        positions = np.asarray(positions, dtype=np.intp)
        positions = positions[~self.in_master[positions]]
        if positions.size == 0:
            return 0
        p, master = self.p, self.master
        rows = master.samples
        block = p.X.block(positions, rows=rows) if rows.size else np.zeros((0, positions.size))
        eq_coef = None if p.equality is None else p.equality.coef[positions]
        aggregate = np.zeros((2, positions.size))
        for k, members in enumerate(self._error_classes()):
            if members.size and master.aggregate_row[k] >= 0:
                aggregate[k] = p.X.exact_rmatvec(self.C[members] * p.y[members], positions, members)
        ids = p.X.columns[positions]
        master.add_features(ids, block, self.cost[positions], eq_coef, aggregate)
        self.s.master_pos = np.r_[self.s.master_pos, positions].astype(np.intp)
        self.in_master[positions] = True
        return positions.size

    def _error_classes(self):
        err = self.s.state == ERR
        return (np.flatnonzero(err & (self.p.y > 0)), np.flatnonzero(err & (self.p.y < 0)))

    def _sync_aggregates(self):
        """Make the aggregated rows match the ERR samples and their current costs."""
        if not self.soft:
            return
        p, master = self.p, self.master
        for k, members in enumerate(self._error_classes()):
            cost = self.C[members] if members.size else None
            old = master.aggregate_cost[k]
            same = (old is None and cost is None) or (
                old is not None and cost is not None and old[0].size == members.size
                and np.array_equal(old[0], members) and np.array_equal(old[1], cost))
            if same:
                continue
            if cost is None:
                master.set_aggregate(k, None, 0.0, 0.0, None)
                continue
            u = cost * p.y[members]
            coef = p.X.exact_rmatvec(u, self.s.master_pos, members) if self.s.master_pos.size \
                else np.zeros(0)
            master.set_aggregate(k, coef, float(u.sum()), self.margin * float(cost.sum()),
                                 (members, cost))

    # -- the loop -------------------------------------------------------------------------
    def run(self):
        self._sync_columns()
        start = self._start_point()
        self._sync_rows(start)
        if self.restrict_columns:
            size = min(self.m, self._initial_columns())
            if self.master.n_features < size:
                pool = np.flatnonzero(np.isin(self.p.X.columns, self.s.pool))
                self._add_columns(np.unique(np.r_[start[0], pool, self._best_columns(size)]))
            else:
                self._add_columns(start[0])
        else:
            self._add_columns(np.arange(self.m))
        if self.new_run and self.start_is_last_run and self.restrict_rows and self.soft \
                and np.isfinite(self.C).all():
            self._start_master_at(start)
        while True:
            self.rounds += 1
            if self.rounds > self.s.engine.max_rounds:
                raise SolverError(f"row/column generation did not converge in "
                                  f"{self.s.engine.max_rounds} rounds", status="round limit")
            if self.master.run() == "infeasible":
                answer = self._infeasible_round()
            else:
                answer = self._optimal_round()
            if answer is not None:
                return answer

    def _multipliers(self, lam_rows, nu):
        """(rows, lambda on them) of the extended multipliers: master rows, ERR samples."""
        master = self.master
        parts_rows, parts_lam = [master.samples], [lam_rows]
        for k, members in enumerate(self._error_classes()):
            if members.size and master.aggregate_row[k] >= 0:
                parts_rows.append(members)
                parts_lam.append(nu[k] * self.C[members])
        rows = np.concatenate(parts_rows)
        lam = np.concatenate(parts_lam)
        if rows.size * 2 > self.n:  # a full-length product is faster than a gather
            full = np.zeros(self.n)
            full[rows] = lam
            return None, full
        order = np.argsort(rows, kind="stable")
        return rows[order], lam[order]

    def _optimal_round(self):
        s, master, p = self.s, self.master, self.p
        w, b, xi_rows = master.primal()
        lam_rows, mu, nu = master.duals()
        lam_rows = np.maximum(lam_rows, 0.0)
        t, scale = activities(p, s.master_pos, w, b)
        rows, lam = self._multipliers(lam_rows, nu)
        g = price_columns(p, lam, mu, rows)
        self.priced += 2
        violation = np.abs(g) - self.cost * (1.0 + s.engine.pricing_tol)
        violation[self.in_master] = -np.inf
        entering = np.flatnonzero(violation > 0)
        if self.restrict_rows and self._update_partition(t, scale):
            self._add_columns(self._top(entering, violation))
            return None
        if entering.size:
            self._add_columns(self._top(entering, violation))
            return None
        dual_violation, bad = column_certificate(p, lam, mu, g, rows)
        bad = bad[~self.in_master[bad]]
        if bad.size:  # misjudged by the fast product: they enter now
            self._add_columns(bad)
            return None
        xi = self._slacks(t, xi_rows)
        gap = self._gap(w, xi, lam, mu)
        if dual_violation > MAX_DUAL_VIOLATION or gap > GAP_TOL:
            if not master.tighten():
                raise SolverError(
                    f"Row/column generation could not certify optimality: relative dual "
                    f"violation {dual_violation:.2g}, duality gap {gap:.2g} after re-solving "
                    f"the master with tight tolerances (accepted: {MAX_DUAL_VIOLATION:g} and "
                    f"{GAP_TOL:g}). The LP is numerically difficult; try solver='highs' "
                    "(the full LP).", status="dual infeasible")
            return None
        return self._solution(t, w, b, xi, lam, rows, mu, lam_rows, dual_violation, gap)

    def _top(self, entering, violation):
        return entering[np.argsort(-violation[entering], kind="stable")[: self._column_batch()]]

    def _update_partition(self, t, scale):
        """Move samples by their activity t (module docstring); True if any moved.

        A soft sample whose assumption fails (an error that is now satisfied, a
        satisfied sample that is now an error) gets its row at once; hard violated
        samples too, the most violated first, ``row_batch`` per round. Moving such
        samples between ``OUT`` and ``ERR`` instead (up to twice per solve, then a row)
        cost more simplex iterations in every solve of the soft-SFM fits measured: 24.2k
        vs 16.6k in all at n = 4000, d = 2000 (``bench_samples.py --offset 0.25``'s
        data), 5.1k vs 4.5k at n = 2000, 2.2k vs 1.8k at n = 1000. Samples only enter
        ``ROW``, so the rounds end."""
        s, n = self.s, self.n
        tol = ROW_TOL * scale
        state = s.state
        violated = t < self.margin - tol
        above = t > self.margin + tol
        err_bad = (state == ERR) & above
        out_bad = (state == OUT) & violated
        finite = np.isfinite(self.C) if self.soft else np.zeros(n, dtype=bool)
        to_row = np.flatnonzero(err_bad | (out_bad & finite))
        hard_bad = np.flatnonzero(out_bad & ~finite)
        if hard_bad.size:
            order = np.argsort(t[hard_bad] - self.margin, kind="stable")
            to_row = np.r_[to_row, hard_bad[order[: self._row_batch()]]]
        if to_row.size == 0:
            return False
        state[to_row] = ROW
        self._add_rows(to_row)
        self._sync_aggregates()
        return True

    def _slacks(self, t, xi_rows):
        """The slack of every sample (None for hard problems): the master's for its rows,
        the margin error (margin - t_i) of ``ERR`` samples, 0 for ``OUT`` samples (held
        to :data:`~.pricing.ROW_TOL`) and hard rows. Recomputing every slack from t
        would multiply rounding errors of t by the slack costs, which the reweighting
        loop drives to 1e16 for samples whose slack reached zero."""
        if not self.soft:
            return None
        xi = np.zeros(self.n)
        err = self.s.state == ERR
        xi[err] = np.maximum(self.margin - t[err], 0.0)
        xi[self.master.samples] = np.maximum(xi_rows, 0.0)
        xi[~np.isfinite(self.C)] = 0.0
        return xi

    def _gap(self, w, xi, lam, mu):
        """|P - D| / (1 + |P|): recomputed primal objective vs margin sum(lambda) + mu rhs."""
        p = self.p
        primal = float(self.cost[self.s.master_pos] @ np.abs(w))
        if self.soft:
            finite = np.isfinite(self.C)
            primal += float(self.C[finite] @ xi[finite])
        dual = self.margin * float(lam.sum())
        if p.equality is not None:
            dual += mu * p.equality.rhs
        return abs(primal - dual) / (1.0 + abs(primal))

    # -- answers ------------------------------------------------------------------------
    def _info(self, **extra):
        master = self.master
        return {"iterations": master.iterations - self.iterations_before, "rounds": self.rounds,
                "pricing_products": self.priced, "working_set": int(master.n_features),
                "working_rows": int(master.samples.size),
                "error_samples": int(np.count_nonzero(self.s.state == ERR)),
                "tightened": master.tightened, "mode": self.label,
                "solve_seconds": time.perf_counter() - self.started, **extra}

    def _solution(self, t, w, b, xi, lam, rows, mu, lam_rows, dual_violation, gap):
        s, p, n = self.s, self.p, self.n
        w_full = np.zeros(self.m)
        w_full[s.master_pos] = w
        margin_duals = np.zeros(n)
        if rows is None:
            margin_duals = lam
        else:
            margin_duals[rows] = lam
        info = self._info(max_dual_violation=dual_violation, duality_gap=gap,
                          objective=self.master.objective())
        result = LPSolution(
            "optimal", w=w_full, b=b, xi=xi, objective=info["objective"],
            margin_duals=margin_duals, equality_dual=mu, iterations=info["iterations"],
            engine=self.label, info=info,
        )
        check_solution(p, result)
        # Warm state for the next problem of the session.
        if self.restrict_columns and self.m > self.master.n_features:
            s.pool = p.X.columns[s.master_pos]
        support = np.flatnonzero(w)
        s.last = (p.X.columns[s.master_pos[support]], w[support],
                  b, p.equality.rhs if p.equality is not None else 0.0)
        s.this_run.append(s.last)
        s.n_columns = self.m
        if self.restrict_rows:
            master_rows = self.master.samples
            if self.soft:
                at_price = np.isclose(lam_rows, np.where(np.isfinite(self.C[master_rows]),
                                                         self.C[master_rows], np.inf), rtol=1e-9)
            else:
                at_price = np.zeros(master_rows.size, dtype=bool)
            slack_row = (t[master_rows] > self.margin + 1e-9) & (lam_rows <= 1e-12)
            idle = slack_row | at_price
            s.inactive[master_rows[idle]] += 1
            s.inactive[master_rows[~idle]] = 0
        return result

    def _infeasible_round(self):
        """The master is infeasible: price its Farkas ray, or prove the full LP infeasible."""
        s, p, master = self.s, self.p, self.master
        ray = master.ray()
        if ray is None:
            return s.engine._fallback().solve(p)
        lam_rows, mu, nu = ray
        rows, lam = self._multipliers(lam_rows, nu)
        g = price_columns(p, lam, mu, rows)
        self.priced += 1
        scale = np.abs(g).max(initial=0.0)
        g[self.in_master] = 0.0
        candidates = np.flatnonzero(np.abs(g) > 1e-9 * max(scale, 1.0))
        if candidates.size:
            self._add_columns(candidates[np.argsort(-np.abs(g[candidates]))[: self._column_batch()]])
            return None
        full = np.zeros(self.n + (p.equality is not None))
        if rows is None:
            full[: self.n] = lam
        else:
            full[rows] = lam
        if p.equality is not None:
            full[self.n] = mu
        ok, details = check_ray(p, full)
        if not ok:  # numerically weak: a full-LP engine decides (and certifies)
            return s.engine._fallback().solve(p)
        info = self._info(certificate={"source": "priced farkas ray", **details})
        return LPSolution("infeasible", iterations=info["iterations"], engine=self.label, info=info)
