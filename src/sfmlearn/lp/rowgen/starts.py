"""Start points of a solve: the hyperplane (problem positions, w, b) whose activities
partition the samples (:mod:`.partition`).

* warm: the previous solution, or the same step's solution of the last run of the
  reweighting loop, scaled to the problem's right-hand side (:func:`warm_point`);
* cold, soft problems: a few FISTA iterations on l1-``LinearSVC``'s objective
  (:func:`first_order_point`, :mod:`sfmlearn.lp.first_order`);
* cold, hard problems and soft ones FISTA cannot serve: the LP on a subsample of the
  samples (:func:`subsample_point`);
* otherwise: the class-mean hyperplane on the best-ranked columns
  (:func:`class_mean_point`).

:func:`crossover_start` starts HiGHS from a warm point itself when it is a whole
solution of the last run (the other sign of the soft SFM).
"""

import numpy as np

from ..first_order import ITERATIONS as FIRST_ORDER_ITERATIONS
from ..first_order import POWER_ITERATIONS, serves, squared_hinge_start
from ..operators import ScaledMatrix
from ..problems import HyperplaneLP
from . import tuning
from .state import locate

__all__ = ["ColumnRanking", "class_mean_point", "crossover_start", "first_order_point",
           "subsample_point", "warm_point"]


class ColumnRanking:
    """Columns ranked for the first master: |a_j| / c_j, or |Z^T (C y)|_j / c_j without
    an equality row (zero costs rank first). ``products`` counts the data passes."""

    def __init__(self, problem):
        self.problem = problem
        self.products = 0
        self.scores = None

    def signed_scores(self):
        """(Z^T (C y))_j, hard rows weighing 1."""
        problem = self.problem
        C = problem.slack_cost
        weight = np.ones(problem.n_samples) if C is None else np.where(np.isfinite(C), C, 1.0)
        self.products += 1
        return problem.X.rmatvec(weight * problem.y)

    def best(self, size):
        """Positions of the ``size`` best-ranked columns."""
        m = self.problem.n_columns
        if size >= m:
            return np.arange(m)
        if self.scores is None:
            eq = self.problem.equality
            raw = np.abs(eq.coef) if eq is not None else np.abs(self.signed_scores())
            with np.errstate(divide="ignore", invalid="ignore"):
                self.scores = np.nan_to_num(raw / self.problem.feature_cost, nan=0.0, posinf=np.inf)
        return np.argpartition(-self.scores, size - 1)[:size]


def warm_point(state, problem, step, new_run):
    """(start or None, whether it is a whole solution of the last run): the previous
    solution or, in a new run, the same step's of the last run (the first step: always;
    later ones: when the problem has all its columns), scaled to the right-hand side."""
    solved, whole = state.last, False
    if step < len(state.last_run):
        found = locate(problem.X.columns, state.last_run[step].ids)[1]
        if found.all() or new_run:
            solved, whole = state.last_run[step], bool(found.all())
    if solved is None:
        return None, False
    positions, found = locate(problem.X.columns, solved.ids)
    scale = 1.0
    if problem.equality is not None and solved.rhs != 0.0:
        scale = problem.equality.rhs / solved.rhs
    return (positions, solved.w[found] * scale, solved.b * scale), whole


def first_order_point(problem, keep):
    """(FISTA's hyperplane on its ``keep`` largest weights or None, data passes) for soft
    problems with n >= :data:`~.tuning.FIRST_ORDER_FROM` x columns that
    :func:`~sfmlearn.lp.first_order.serves`; (None, 0) for the others."""
    if (not problem.is_soft or problem.n_samples < tuning.FIRST_ORDER_FROM * problem.n_columns
            or not serves(problem)):
        return None, 0
    return squared_hinge_start(problem, keep), 2 * (FIRST_ORDER_ITERATIONS + POWER_ITERATIONS)


def subsample_point(problem, engine):
    """(the solution of ``problem`` on :data:`~.tuning.SUBSAMPLE` samples or None, data
    passes). The samples are evenly spaced within each class, their slack costs scaled
    by n / k so that errors weigh as much as in the full problem, and ``engine`` solves
    the LP with every sample's row. None without fewer samples or when it is infeasible."""
    n = problem.n_samples
    k = min(n, tuning.SUBSAMPLE)
    if k >= n:
        return None, 0
    picked = []
    for label in (1.0, -1.0):
        members = np.flatnonzero(problem.y == label)
        share = max(1, round(k * members.size / n))
        picked.append(members[np.unique(np.linspace(0, members.size - 1, share).round().astype(int))])
    rows = np.sort(np.concatenate(picked))
    X = problem.X
    slack = None if not problem.is_soft else problem.slack_cost[rows] * (n / rows.size)
    sub = HyperplaneLP(ScaledMatrix(X.X[rows], X.factor, X.mean, X.columns), problem.y[rows],
                       problem.feature_cost, problem.margin, problem.equality, slack,
                       problem.fit_intercept)
    solution = engine.solve(sub)
    products = solution.info.get("pricing_products", 0)
    if solution.status != "optimal":
        return None, products
    support = np.flatnonzero(solution.w)
    return (support, solution.w[support], solution.b), products


def class_mean_point(problem, ranking, size):
    """The hyperplane through the midpoint of the class means along the ``size``
    best-ranked columns, scaled onto the equality row (if any)."""
    top = ranking.best(min(problem.n_columns, max(1, size)))
    eq = problem.equality
    if eq is not None:
        a = eq.coef[top]
        direction = a / max(float(a @ a), np.finfo(float).tiny)  # a . direction = 1
    else:
        direction = ranking.signed_scores()[top]
    projection = problem.X.matvec(direction, top)
    y = problem.y
    centres = [projection[y == label].mean() for label in (1.0, -1.0) if np.any(y == label)]
    offset = -float(np.mean(centres))
    if eq is None:
        return top, direction, offset
    # w = alpha direction, b = alpha offset on the equality: alpha (1 + a_b offset) = rhs.
    denominator = 1.0 + eq.bias_coef * offset
    if abs(denominator) <= 1e-12:
        return top, eq.rhs * direction, 0.0
    alpha = eq.rhs / denominator
    return top, alpha * direction, alpha * offset


def crossover_start(working, start, activity):
    """Start HiGHS from ``start`` itself rather than the last basis (every slack finite).

    For the other sign of the soft SFM the mirrored first solution is the optimum with
    balanced classes and a feasible point otherwise: xi_i = (margin - t_i)_+ and
    eta_k = (sum_{E_k} C_i (margin - t_i))_+ satisfy every row. From the last basis the
    dual simplex would find the mirrored optimum anew; crossover from the point needs no
    simplex iteration (:meth:`~sfmlearn.lp.master.Master.start_from`)."""
    positions, w, b = start
    master = working.master
    at, found = locate(working.positions, positions)
    if not found.all():
        return
    w_master = np.zeros(master.n_features)
    w_master[at] = w
    margin, C = float(working.problem.margin), working.problem.slack_cost
    xi = np.maximum(margin - activity[master.samples], 0.0)
    eta = [max(0.0, float(C[members] @ (margin - activity[members])))
           for members in working.error_classes()]
    master.start_from(w_master, b, xi, eta)
