"""The reweighting loop: DCA on the hyperplane problems, shared by every sparse selector.

Weston et al. (2003) and the SFM (NC 2.2, thesis Fig. 3.2) approximate the zero-norm by

    z <- 1;  repeat { v <- argmin sum_j |v_j|  s.t. rows(v * z);  z <- z * |v| }

With w = v * z this is the same as minimising the weighted one-norm
sum_j |w_j| / z_j over the unscaled rows, and z <- z * |v| = |w|: the loop only changes
the feature costs, never the constraint matrix. Columns whose weight became exactly
zero (cost infinite) leave the LP for good, so after the first LP only the support (at
most n + 1 columns, NC appendix A.1) is ever solved again.

The cost update is a *penalty* (:mod:`.penalties`, as in skglm's reweighted solvers),
so every concave penalty reuses this loop: ML05's successive linearisation for FSV is
the same loop with costs lambda alpha exp(-alpha |w_j|), and with a ``ridge_qp`` engine
it is the DCA of ML05's l2-l0-SVM (:mod:`sfmlearn.selection.competitors.hinge_qp`). A penalty with
``convex = True`` (constant multipliers: RLP, l1-SVM, l2-l1-SVM) needs one solve only.
The problems and engines are those of :mod:`sfmlearn.lp.protocol`.

:class:`~.penalties.ZeroNorm` steps are majorise-minimise steps for sum_j log |w_j|:
the previous solution stays feasible and costs exactly ||w_prev||_0 in the new LP, so
``lp_objective[t] <= n_features[t-1]`` (plus the slack term of soft problems) and the
support can only shrink. ``history`` records both; the tests assert them.

The slack can be reweighted the same way (``reweight_slack``): C_i / zeta_i with
zeta <- |xi| approximates C ||xi||_0; a sample whose slack reached zero then keeps a
hard constraint.

This is DCA (:func:`~.dca.dca`) with h the negated penalty and g the problem's convex
part, and ``tests/optim/test_dca.py`` checks that both give the same iterates on FSV.
It is a loop of its own because the hyperplane problems need what the generic
x^{k+1} = argmin g - <grad h(x^k), .> does not have: the subproblem shrinks (columns
with an infinite multiplier leave it), the engine's model is re-solved warm (the loop
is given an engine *session*, :mod:`sfmlearn.lp.protocol`), the start v^0 = 1 is not a
point of the feasible set (so there is no f(x^0) to record), the stopping rule also
asks for an unchanged support and error set (ML05's rule alone accepts a weight moving
from 0 to 1e-7), and each step records the support size, training errors and solver
iterations.
"""

import functools
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_count
from ..exceptions import SolverError
from .dca import stopped_moving
from ..utils.deprecation import REMOVED_IN
from .penalties import ZeroNorm

__all__ = ["ITERATED_L1_TOL", "IteratedL1Result", "flipped_start", "iterated_l1", "SUPPORT_RTOL"]

#: The loop's default convergence threshold (the SFM and Weston's method; ML05 uses 1e-5).
ITERATED_L1_TOL = 1e-6

#: Weights with |w_j| <= SUPPORT_RTOL * max|w| are exact zeros of the vertex solution
#: up to rounding (any threshold in [1e-8, 1e-5] gave identical supports, DESIGN 6).
SUPPORT_RTOL = 1e-7
#: A weight that moves no training decision value by more than this is rounding noise
#: too, whatever the other weights: every LP here fixes the scale of the decision (margin
#: 1, or class means 1 apart). Without it a degenerate optimum that is really w = 0 (e.g.
#: an l1-SVM just above its critical penalty) came back with weights of 1e-14 "selected".
DECISION_ATOL = 1e-8


@dataclass
class IteratedL1Result:
    """Outcome of :func:`iterated_l1`. ``w`` is indexed like the candidate columns."""

    status: str  # "optimal" or "infeasible" (first LP infeasible)
    w: np.ndarray | None = None
    # The candidate positions of the last problem's columns (``solution`` is indexed by them).
    columns: np.ndarray | None = None
    b: float = 0.0
    xi: np.ndarray | None = None
    n_iter: int = 0
    converged: bool = False
    # The engine's last solution as returned (engines may carry more in ``info``).
    solution: object = None
    history: dict = field(default_factory=lambda: {
        "n_features": [], "n_errors": [], "lp_objective": [], "objective": [],
        "lp_iterations": [], "seconds": [],
    })

    @property
    def support(self):
        return np.flatnonzero(self.w)

    @property
    def objective(self):
        return self.history["objective"][-1]


def _zero_small(values, rtol):
    """Copy of ``values`` with entries below ``rtol * max|values|`` set to exactly 0."""
    out = np.asarray(values, dtype=np.float64).copy()
    peak = np.abs(out).max(initial=0.0)
    out[np.abs(out) <= rtol * peak] = 0.0
    return out


def _zero_negligible(lp, w):
    """Zero the weights whose largest contribution |w_j z_ij| to a decision is negligible."""
    X = getattr(lp, "X", None)
    nonzero = np.flatnonzero(w)
    if X is None or nonzero.size == 0:
        return w
    contribution = np.abs(X.dense_block(nonzero, keep=True)).max(axis=0) * np.abs(w[nonzero])
    out = w.copy()
    out[nonzero[contribution <= DECISION_ATOL]] = 0.0
    return out


class _BuildLPProblem:
    """The problem of the former call form ``iterated_l1(build_lp, base_cost, engine)``."""

    def __init__(self, build_lp, base_cost, slack_cost):
        self.lp, self.base_cost, self.slack_cost = build_lp, np.asarray(base_cost), slack_cost


def _accepts_build_lp_form(loop):
    """Let ``loop`` also take the former form ``(build_lp, base_cost, engine, *, penalty,
    slack_cost, ...)`` for one release, with a FutureWarning."""

    @functools.wraps(loop)
    def wrapper(problem, *args, **kwargs):
        if callable(problem):
            warnings.warn(
                "iterated_l1(build_lp, base_cost, engine, slack_cost=...) is replaced by "
                "iterated_l1(problem, penalty, engine) with a problem object of "
                "sfmlearn.optim.problem (e.g. SFMProblem(X, y, base_cost, slack_cost)); the "
                f"old form stops working in sfmlearn {REMOVED_IN}", FutureWarning, stacklevel=2)
            return _legacy(loop, problem, *args, **kwargs)
        return loop(problem, *args, **kwargs)

    return wrapper


def _legacy(loop, build_lp, base_cost, engine, *, penalty=None, slack_cost=None, **options):
    return loop(_BuildLPProblem(build_lp, base_cost, slack_cost), penalty, engine, **options)


@_accepts_build_lp_form
def iterated_l1(problem, penalty, engine, *, reweight_slack=False, max_iter=50,
                tol=ITERATED_L1_TOL, support_rtol=SUPPORT_RTOL, start=None):
    """Run the reweighting loop on the candidate columns of ``problem``.

    The iterated one-norm of Weston et al. (2003, l1-AROM) and of the SFM (NC 2.2,
    thesis Fig. 3.2), written as LPs over the unscaled rows with reweighted costs
    (module docstring): starting from v^0 = 1,

        w^t = argmin sum_j c0_j m_j(v^(t-1)) |w_j|  (+ sum_i C_i xi_i)  s.t. the rows,
        v^t = c0 * |w^t|,

    where m = ``penalty.update`` (1 / v_j for the zero-norm, so the cost of column j
    becomes c0_j / v_j). Stops when the support and the error set are unchanged and no
    scaled weight moved by more than ``tol``, after ``max_iter`` LPs, or at once for a
    convex penalty.

    Parameters
    ----------
    problem : :class:`~.problem.HyperplaneProblem`
        The rows, the unweighted column costs c0_j (``problem.base_cost``: 1 for scaled
        data, 1/f_j for raw sparse columns) and the slack costs C_i (``slack_cost``,
        None for hard problems) of one sign of the equality; ``problem.lp(columns,
        feature_cost, slack_cost)`` builds each LP. The penalty sees scaled weights
        c0_j |w_j|.
    penalty : :class:`~.penalties.Penalty` or None
        Cost multipliers per iteration, from v^0 = 1 (None:
        :class:`~.penalties.ZeroNorm`); an infinite multiplier removes the column for
        good.
    engine : engine or engine session
        Solves the problems ``problem.lp`` makes (:mod:`sfmlearn.lp.protocol`); a
        session re-solves each LP warm from the previous one (same rows, new costs,
        fewer columns), and may carry its state on to the caller's next run (the
        other sign of the equality, the next repetition).
    reweight_slack : bool, default=False
        Reweight the slack like w: C_i / zeta_i with zeta <- |xi|, a faithful
        C ||xi||_0 (a sample whose slack reached zero keeps a hard row).
    max_iter : int, default=50
        At most this many LPs (at least 1).
    tol : float, default=ITERATED_L1_TOL
        Convergence threshold on every scaled weight (and slack, with
        ``reweight_slack``), ML05's absolute-or-relative rule
        (:func:`~.dca.stopped_moving`).
    support_rtol : float, default=SUPPORT_RTOL
        Weights with |w_j| <= support_rtol * max |w| count as exact zeros.
    start : tuple (w_scaled, xi) or None, default=None
        Continue from this point instead of v^0 = 1: the first LP's multipliers come
        from its scaled weights c0_j |w_j| (columns with w_j = 0 leave) and, with
        ``reweight_slack``, its slack weights from xi (rows with xi_i = 0 are hard). The
        point must be feasible for the problem (:func:`flipped_start` gives one).

    Returns
    -------
    IteratedL1Result
        ``status`` "optimal", or "infeasible" when the first LP is; the last ``w``,
        ``b``, ``xi``, the number of LPs ``n_iter``, ``converged``, and ``history``
        per LP (``n_features``, ``n_errors``, ``lp_objective``, ``objective``,
        ``lp_iterations``, ``seconds``). ``history["objective"]`` is
        ``penalty.value(|w|)`` plus the slack term: the sum of C_i over training
        errors with ``reweight_slack``, C . xi otherwise.

    Raises
    ------
    sfmlearn.exceptions.SolverError
        A later LP is reported infeasible although the previous solution is feasible
        for it.
    sfmlearn.exceptions.DataValidationError
        ``max_iter`` is not an integer >= 1.

    Examples
    --------
    The hard SFM on data where the first of five features separates the classes:

    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine
    >>> from sfmlearn.optim import SFMProblem, ZeroNorm, iterated_l1
    >>> rng = np.random.default_rng(0)
    >>> y = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    >>> X = rng.standard_normal((20, 5))
    >>> X[:, 0] = y * rng.uniform(1.0, 2.0, 20)
    >>> result = iterated_l1(SFMProblem(X, y), ZeroNorm(), HighsEngine())
    >>> result.status, result.support, result.converged
    ('optimal', array([0]), True)
    >>> result.history["n_features"][-1]
    1
    """
    max_iter = check_count("max_iter", max_iter, 1)
    penalty = ZeroNorm() if penalty is None else penalty
    base_cost, slack_cost = problem.base_cost, problem.slack_cost
    m = base_cost.size
    multiplier = penalty.update(np.ones(m) if start is None else start[0])
    w_scaled_prev = np.full(m, np.nan)
    soft = slack_cost is not None
    zeta = None
    if soft:
        zeta = start[1] if start is not None and reweight_slack else np.ones(slack_cost.size)
    result = IteratedL1Result("optimal")
    history = result.history
    for iteration in range(1, max_iter + 1):
        started = time.perf_counter()
        active = np.flatnonzero(np.isfinite(multiplier))
        row_cost = None
        if soft:
            with np.errstate(divide="ignore"):
                row_cost = np.where(zeta > 0, slack_cost / np.where(zeta > 0, zeta, 1.0), np.inf) \
                    if reweight_slack else slack_cost
        lp = problem.lp(active, base_cost[active] * multiplier[active], row_cost)
        solution = engine.solve(lp)
        if solution.status == "infeasible":
            if iteration == 1:
                return IteratedL1Result("infeasible")
            raise SolverError(
                "A reweighted LP was reported infeasible although the previous solution "
                "is feasible for it: the engine is unreliable on this problem.",
                status="infeasible after reweighting",
            )
        w_full = np.zeros(m)
        w_full[active] = _zero_negligible(lp, _zero_small(solution.w, support_rtol))
        w_scaled = base_cost * np.abs(w_full)
        converged = penalty.convex or (
            iteration > 1 and np.array_equal(w_scaled > 0, w_scaled_prev > 0)
            and stopped_moving(w_scaled, w_scaled_prev, tol)
        )
        converged = converged or not w_scaled.any()  # w = 0: no column left to reweight

        xi, n_errors, slack_term = None, 0, 0.0
        if soft:
            xi = _zero_small(np.maximum(solution.xi, 0.0), support_rtol)
            errors = xi > 0
            n_errors = int(errors.sum())
            slack_term = _slack_term(slack_cost, xi, reweight_slack)
            if reweight_slack:
                converged = converged and np.array_equal(errors, zeta > 0) \
                    and stopped_moving(xi, zeta, tol)
                zeta = xi.copy()
        history["n_features"].append(int(np.count_nonzero(w_full)))
        history["n_errors"].append(n_errors)
        history["lp_objective"].append(float(solution.objective))
        history["objective"].append(penalty.value(w_scaled) + slack_term)
        history["lp_iterations"].append(int(solution.iterations))
        history["seconds"].append(time.perf_counter() - started)

        result.w, result.b, result.xi = w_full, float(solution.b), xi
        result.columns = active
        result.solution = solution
        result.n_iter = iteration
        multiplier = penalty.update(w_scaled)
        w_scaled_prev = w_scaled
        if converged:
            result.converged = True
            break
    return result


def flipped_start(problem, run, penalty, *, reweight_slack=False, support_rtol=SUPPORT_RTOL):
    """The solution of a soft run negated, as a start of the other sign's loop.

    The rows y_i (w . x_i + b) + xi_i >= 0 and the equality a . w = sign are homogeneous
    in (w, b): the negation (-w, -b) satisfies the equality of the opposite sign, with
    slack xi'_i = max(0, y_i (w . x_i + b)), so the run's training errors and correct
    samples swap. Its objective is the loop's: ``penalty.value`` of the scaled weights
    plus the sum of C_i over the errors (``reweight_slack``) or C . xi'.

    Parameters
    ----------
    problem : :class:`~.problem.SFMProblem`
        The soft problem with the other sign of the equality than ``run``'s.
    run : :class:`IteratedL1Result`
        A run of :func:`iterated_l1` on the same rows.
    penalty : :class:`~.penalties.Penalty`
        The run's penalty.
    reweight_slack : bool, default=False
        As the run's: count the slack as sum of C_i over errors.
    support_rtol : float, default=SUPPORT_RTOL
        Slacks below ``support_rtol`` times the largest count as zero.

    Returns
    -------
    start : tuple (w_scaled, xi)
        The ``start`` of :func:`iterated_l1` on ``problem``.
    objective : float
        The negated solution's objective on ``problem``.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine
    >>> from sfmlearn.optim import SFMProblem, ZeroNorm, iterated_l1, flipped_start
    >>> X = np.array([[2.0], [1.0], [-1.0], [-2.0], [1.5]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    >>> minus, plus = (SFMProblem(X, y, slack_cost=np.full(5, 0.1), sign=s) for s in (-1.0, 1.0))
    >>> run = iterated_l1(minus, ZeroNorm(), HighsEngine(), reweight_slack=True)
    >>> (w_scaled, xi), objective = flipped_start(plus, run, ZeroNorm(), reweight_slack=True)
    >>> np.flatnonzero(run.xi), np.flatnonzero(xi)     # errors of the run and of its negation
    (array([0, 1]), array([2, 4]))
    >>> objective, run.objective                        # one feature + 0.1 per error
    (1.2, 1.2)
    """
    support = np.flatnonzero(run.w)
    margins = problem.y * (problem.X.matvec(run.w[support], support) + run.b)
    xi = _zero_small(np.maximum(margins, 0.0), support_rtol)
    w_scaled = problem.base_cost * np.abs(run.w)
    return (w_scaled, xi), penalty.value(w_scaled) + _slack_term(problem.slack_cost, xi, reweight_slack)


def _slack_term(slack_cost, xi, reweight_slack):
    """The slack part of the objective: the sum of C_i over the errors (xi_i > 0) with
    ``reweight_slack`` (C ||xi||_0), else C . xi."""
    return float(slack_cost[xi > 0].sum()) if reweight_slack else float(slack_cost @ xi)
