"""Exact minimum-feature separation: the hard SFM's l0 problem as a MILP (HiGHS).

    minimise   sum_j u_j
    subject to y_i (z_i . w + b) >= 0           i = 1..n
               (mu_+ - mu_-) . w = 1
               -M u_j <= w_j <= M u_j,  u_j in {0, 1}

on the scaled data (the SFM's NC eq. 2.6 with its l0 objective, not the l1
approximation). HiGHS' branch and bound returns the best support found, a proven lower
bound on the minimum support size (its dual bound) and the gap. The MILP is
warm-started with the iterated-l1 SFM solution, so the answer is never worse than the
SFM's.

The bound M. Supports are scale-invariant but the equality fixes the scale, so a
support whose separating hyperplanes all need |w_j| > M is invisible to the MILP. M is
set to ``m_factor`` times the largest |w_j| of the l1 solution and, whenever a weight of
the MILP optimum reaches M, doubled and the MILP solved again (up to ``max_doublings``).
The certificate therefore reads: "no hyperplane with |w_j| <= M (scaled space) uses
fewer features", with M reported; this is the "bound verified not to bind" guarantee,
not a proof over unbounded weights (no finite M is valid for arbitrary real data).

Every MILP answer is checked before use (:func:`_verify`: integrality, bounds, linking
rows, every margin row, the equality, and the objective HiGHS reports). The soft problem
is solved once per sign of the equality (NC eq. 2.9); the reported lower bound is the
smaller of the two signs' proven bounds and the status is "optimal" only if the winner
reaches it (:func:`combine_signs`). An infeasible hard MILP is either not separable -
decided by the certified LP (:mod:`.certificates`) - or needs |w_j| > M, and M grows.
:func:`minimum_support_brute_force` enumerates supports by size with the LP feasibility
test and is exact without any bound, for small d.
"""

import itertools
import time
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from ..exceptions import NotSeparableError, SolverError
from .highs import HighsEngine
from .highs_model import new_highs
from .inputs import check_costs, check_lp_data, check_signed_labels, require_both_classes
from .problems import sfm_lp

__all__ = ["MinimumSupport", "combine_signs", "minimum_support_milp", "minimum_support_brute_force",
           "proven_lower_bound"]

#: Every MILP gets at least this many seconds, so a solve that starts with the time
#: limit nearly spent still verifies its starting solution.
MIN_SOLVE_SECONDS = 1e-3

_STATUS = highspy.HighsModelStatus


@dataclass
class MinimumSupport:
    """Result of an exact minimum-support search.

    ``support`` are column positions of the scaled data; ``objective`` is ||w||_0
    (plus sum_i C_i over misclassified samples for soft problems); ``lower_bound`` is a
    proven lower bound on the minimum objective (for |w_j| <= ``weight_bound``);
    ``gap = objective - lower_bound``; ``status`` is "optimal" or "time limit".
    """

    support: np.ndarray
    w: np.ndarray
    b: float
    lower_bound: int
    status: str
    seconds: float
    weight_bound: float = np.inf
    nodes: int = 0
    objective: float = np.nan  # ||w||_0 (+ sum of C_i over errors for soft problems)

    def __post_init__(self):
        if np.isnan(self.objective):
            self.objective = float(self.support.size)

    @property
    def support_positions(self):
        """Positions of the support among the MILP's columns (``w`` is indexed by them)."""
        return np.flatnonzero(self.w)

    @property
    def gap(self):
        return self.objective - self.lower_bound

    @property
    def is_optimal(self):
        return self.gap <= 1e-6


@dataclass
class _MilpResult:
    """One MILP solve. ``w`` is zero where the MILP's indicator u_j is 0; ``objective`` is
    None when no feasible point was found."""

    status: str  # "optimal", "time limit" or "infeasible"
    w: np.ndarray | None
    b: float
    bound: float
    objective: float | None
    nodes: int
    weight_bound: float


def _solve_milp(Z, y, a, sign, M, incumbent, time_limit, error_cost=None):
    """One MILP solve with weight bound M, its solution verified (:func:`_verify`).

    Hard (``error_cost`` None): margin rows y_i (z_i . w + b) >= 0. Soft: binaries e_i
    with y_i (z_i . w + b) + K_i e_i >= 0 and cost C_i e_i, where K_i = M ||z_i||_1 +
    M_b bounds any violation once |w_j| <= M and |b| <= M_b = M max_i ||z_i||_1
    (derived, so valid given M).
    """
    n, d = Z.shape
    soft = error_cost is not None
    inf = highspy.kHighsInf
    row_l1 = np.abs(Z).sum(axis=1)
    M_b = M * row_l1.max() if soft else inf
    # Columns: w (d, within +-M), b, u (d, binary), e (n, binary; soft only).
    n_cols = 2 * d + 1 + (n if soft else 0)
    h = new_highs() if time_limit is None else new_highs(time_limit=float(time_limit))
    lower = np.r_[np.full(d, -M), -M_b, np.zeros(n_cols - d - 1)]
    upper = np.r_[np.full(d, M), M_b, np.ones(n_cols - d - 1)]
    cost = np.r_[np.zeros(d + 1), np.ones(d), error_cost if soft else []]
    h.addVars(n_cols, lower, upper)
    h.changeColsCost(n_cols, np.arange(n_cols, dtype=np.int32), cost)
    binaries = np.arange(d + 1, n_cols, dtype=np.int32)
    h.changeColsIntegrality(binaries.size, binaries,
                            np.full(binaries.size, highspy.HighsVarType.kInteger, dtype=np.uint8))
    # Margin rows (with K_i e_i in the soft case) and the equality a . w = sign.
    rows = np.hstack([Z * y[:, None], y[:, None]])
    width = d + 1 + (1 if soft else 0)
    index = np.tile(np.arange(d + 1, dtype=np.int32), (n, 1))
    values = rows
    if soft:
        index = np.hstack([index, (2 * d + 1 + np.arange(n, dtype=np.int32))[:, None]])
        values = np.hstack([rows, (M * row_l1 + M_b)[:, None]])
    h.addRows(n, np.zeros(n), np.full(n, inf), n * width, np.arange(0, n * width, width, dtype=np.int32),
              index.ravel(), values.ravel())
    h.addRows(1, np.array([sign]), np.array([sign]), d, np.zeros(1, np.int32),
              np.arange(d, dtype=np.int32), a)
    # Linking rows: w_j - M u_j <= 0 and w_j + M u_j >= 0.
    j = np.arange(d, dtype=np.int32)
    link_index = np.column_stack([j, d + 1 + j]).ravel()
    starts = np.arange(0, 2 * d, 2, dtype=np.int32)
    h.addRows(d, np.full(d, -inf), np.zeros(d), 2 * d, starts, link_index, np.tile([1.0, -M], d))
    h.addRows(d, np.zeros(d), np.full(d, inf), 2 * d, starts, link_index, np.tile([1.0, M], d))
    if incumbent is not None:
        w0, b0 = incumbent
        start = np.r_[w0, b0, (w0 != 0).astype(float)]
        if soft:
            start = np.r_[start, (y * (Z @ w0 + b0) < 0).astype(float)]
        h.setSolution(n_cols, np.arange(n_cols, dtype=np.int32), start)
    h.run()
    status = h.getModelStatus()
    info = h.getInfo()
    if status == _STATUS.kInfeasible:
        return _MilpResult("infeasible", None, 0.0, np.inf, None, int(info.mip_node_count), M)
    if status not in (_STATUS.kOptimal, _STATUS.kTimeLimit, _STATUS.kInterrupt):
        raise SolverError(f"HiGHS MIP stopped with '{h.modelStatusToString(status)}'.",
                          status=h.modelStatusToString(status))
    label = "optimal" if status == _STATUS.kOptimal else "time limit"
    if info.primal_solution_status != 2:  # kSolutionStatusFeasible: no point found in time
        return _MilpResult(label, None, 0.0, float(info.mip_dual_bound), None,
                           int(info.mip_node_count), M)
    x = np.asarray(h.getSolution().col_value, dtype=np.float64)
    w, b, objective = _verify(Z, y, a, sign, M, M_b, error_cost, x, info.objective_function_value)
    return _MilpResult(label, w, b, float(info.mip_dual_bound), objective,
                       int(info.mip_node_count), M)


#: Relative tolerance of the MILP solution check (HiGHS' own feasibility tolerances are
#: 1e-6 for integrality and 1e-7 for rows).
_MILP_TOL = 1e-6


def _verify(Z, y, a, sign, M, M_b, error_cost, x, claimed):
    """Check every row of a MILP solution ``x`` and its objective; returns
    (w, b, objective) with w zero where u_j = 0 and the objective recomputed.

    Checked: integrality of u (and e), the bounds |w_j| <= M (|b| <= M_b), the linking
    rows |w_j| <= M u_j, every margin row (hard, or with e_i = 0; rows with e_i = 1 must
    stay within their big-M relaxation K_i), the equality a . w = sign, and that the
    objective sum_j u_j + sum_i C_i e_i equals what HiGHS reports.
    """
    n, d = Z.shape
    soft = error_cost is not None
    tol = _MILP_TOL

    def fail(what):
        raise SolverError(f"The MILP solution violates {what}; it is not returned.",
                          status="constraint violation")

    if not np.isfinite(x).all():
        fail("finiteness (NaN or inf in its values)")
    w_raw, b, u = x[:d], float(x[d]), x[d + 1: 2 * d + 1]
    e = x[2 * d + 1:] if soft else np.zeros(n)
    u_int, e_int = np.round(u), np.round(e)
    if np.abs(u - u_int).max(initial=0.0) > tol or np.abs(e - e_int).max(initial=0.0) > tol:
        fail("integrality of its indicators")
    if np.abs(w_raw).max(initial=0.0) > M * (1 + tol) or (soft and abs(b) > M_b * (1 + tol)):
        fail("the weight bounds")
    if np.any(np.abs(w_raw) > M * u_int + tol * M):
        fail("a linking row |w_j| <= M u_j")
    w = np.where(u_int > 0, w_raw, 0.0)
    activity = y * (Z @ w + b)
    scale = 1.0 + abs(b) + np.abs(Z).max(axis=1, initial=0.0) * np.abs(w).sum()
    relaxation = (M * np.abs(Z).sum(axis=1) + M_b) if soft else 0.0
    # Every test is written to fail on NaN (a comparison with NaN is False).
    if not np.all(activity + relaxation * e_int >= -tol * (scale + relaxation * e_int)):
        fail("a margin row")
    if not abs(a @ w - sign) <= tol * (1 + np.abs(a).max(initial=0.0) * np.abs(w).sum()):
        fail("the equality row (mu_+ - mu_-) . w = +-1")
    objective = float(u_int.sum() + (error_cost @ e_int if soft else 0.0))
    if not abs(objective - claimed) <= tol * (1 + abs(claimed)):
        fail(f"its reported objective ({claimed:.9g} != {objective:.9g} recomputed)")
    # The returned hyperplane's own objective: unused indicators (u_j = 1, w_j = 0) drop.
    own = float(np.count_nonzero(w) + (error_cost @ e_int if soft else 0.0))
    return w, b, own


def _lp_feasible_weights(Z, y):
    """A hard SFM hyperplane from the (certified) LP, or NotSeparableError."""
    solution = HighsEngine().solve(sfm_lp(Z, y, np.ones(Z.shape[1])))
    if solution.status == "infeasible":  # certified by a Farkas ray or a phase-1 LP
        raise NotSeparableError("The classes are not linearly separable: no support exists.")
    return solution.w


def _solve_sign(Z, y, a, sign, M, incumbent, error_cost, started, time_limit, max_doublings):
    """The MILP for one sign of the equality, doubling M while a weight reaches it."""
    soft = error_cost is not None
    bound_m = M
    result = None
    for _ in range(max_doublings + 1):
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if remaining is not None and remaining <= 0 and result is not None:
            return result  # out of time: the last MILP's answer and bound stand
        if remaining is not None:
            remaining = max(remaining, MIN_SOLVE_SECONDS)
        start = None if incumbent is None else (np.clip(incumbent[0], -bound_m, bound_m), incumbent[1])
        result = _solve_milp(Z, y, a, sign, bound_m, start, remaining, error_cost)
        if result.status == "infeasible":
            if soft:  # no hyperplane meets a . w = sign within the bounds (a = 0)
                return result
            # Either not separable at all (certified by the LP) or only with |w_j| > M.
            bound_m = max(2.0 * bound_m, 2.0 * np.abs(_lp_feasible_weights(Z, y)).max())
            continue
        if result.status != "optimal" or not np.any(np.abs(result.w) >= bound_m * (1 - 1e-6)):
            return result
        bound_m *= 2.0
    return result


def proven_lower_bound(bound, objective, soft):
    """The MILP's dual bound as a lower bound on the minimum, never below the trivial one.

    The equality (mu_+ - mu_-) . w = +-1 excludes w = 0, so every support has at least
    one feature and every (soft) objective is at least 1, also when HiGHS stopped before
    it had a dual bound (-inf); a hard support's size is an integer (rounded up). The
    bound is capped by ``objective``, the verified incumbent's (:func:`_verify` checks its
    equality row, so it is at least 1 too).
    """
    bound = max(float(bound), 1.0) if np.isfinite(bound) else 1.0
    if soft:
        return min(bound, objective)
    return min(int(np.ceil(bound - 1e-6)), int(round(objective)))


def combine_signs(results):
    """The soft SFM's answer from the MILPs of both equality signs (NC eq. 2.9).

    The winner is the sign with the lower objective; the lower bound on the minimum is
    the *smaller* of the two proven bounds (the optimum can be either sign's); the
    result is optimal only if the winner's objective reaches that combined bound, i.e.
    both signs are proven or the loser's proven bound is no lower than the winner.
    """
    found = [r for r in results if r.objective is not None]
    if not found:
        return None, min(r.bound for r in results), "time limit"
    best = min(found, key=lambda r: r.objective)
    lower = min(r.bound for r in results)
    status = "optimal" if best.objective <= lower + 1e-6 * (1 + abs(lower)) else "time limit"
    return best, lower, status


def _checked_data(Z, y):
    """Z as a dense float array (the MILP's rows are dense) and y as -1/+1 labels of
    both classes, or :class:`~sfmlearn.exceptions.DataValidationError`
    (:mod:`.inputs`): the class means, and with them the equality row, need both."""
    Z = check_lp_data(Z)
    Z = np.asarray(Z.toarray() if sp.issparse(Z) else Z, dtype=np.float64)
    y = check_signed_labels(y, Z.shape[0])
    require_both_classes(y, "The minimum-support problem")
    return Z, y


def minimum_support_milp(Z, y, incumbent=None, *, error_cost=None, time_limit=60.0,
                         m_factor=10.0, max_doublings=6):
    """Exact minimum (soft) SFM objective on scaled data ``Z`` (see the module docstring).

    ``incumbent`` is a feasible (w, b), e.g. the iterated-l1 SFM solution, used as the
    MILP's starting solution and to derive M. ``error_cost`` (per-sample C_i) makes the
    problem the soft SFM's ||w||_0 + sum_i C_i [sample i misclassified], solved with both
    signs of the equality (:func:`combine_signs`). ``Z`` (dense or sparse, finite),
    ``y`` (labels -1 and +1, both present) and ``error_cost`` (finite, >= 0) are checked
    first: :class:`~sfmlearn.exceptions.DataValidationError`.
    """
    started = time.perf_counter()
    Z, y = _checked_data(Z, y)
    soft = error_cost is not None
    if soft:
        error_cost = check_costs(error_cost, y.size, "error_cost", "sample")
    a = Z[y > 0].mean(axis=0) - Z[y < 0].mean(axis=0)
    if incumbent is None:
        incumbent = (np.zeros(Z.shape[1]), 0.0)
    w0, b0 = incumbent
    M = m_factor * max(np.abs(w0).max(initial=0.0), 1.0 / max(np.abs(a).max(), 1e-12))
    results = []
    for sign in ((1.0, -1.0) if soft else (1.0,)):
        start = incumbent if (np.any(w0) and np.sign(a @ w0) == sign) else None
        results.append(_solve_sign(Z, y, a, sign, M, start, error_cost, started, time_limit,
                                   max_doublings))
    best, bound, status = combine_signs(results)
    if best is None:
        if all(r.status == "infeasible" for r in results):
            raise NotSeparableError(
                "No hyperplane satisfies the SFM equality (mu_+ - mu_-) . w = +-1: the two "
                "class means coincide in every feature.")
        raise SolverError(
            f"The exact method found no feasible support within time_limit={time_limit}; "
            "increase it.", status="time limit")
    support = np.flatnonzero(best.w)
    nodes = sum(r.nodes for r in results)
    lower = proven_lower_bound(bound, best.objective, soft)
    return MinimumSupport(support, best.w, best.b, lower, status, time.perf_counter() - started,
                          best.weight_bound, nodes, best.objective)


def minimum_support_brute_force(Z, y, *, max_size=None):
    """Smallest support by enumerating subsets by size with the LP feasibility test.

    Exact without any weight bound; cost C(d, k) small LPs, so only for small d.
    """
    started = time.perf_counter()
    Z, y = _checked_data(Z, y)
    n, d = Z.shape
    engine = HighsEngine()
    for k in range(1, (d if max_size is None else max_size) + 1):
        for subset in itertools.combinations(range(d), k):
            cols = np.array(subset)
            solution = engine.solve(sfm_lp(Z[:, cols], y, np.ones(k)))
            if solution.status == "optimal" and np.count_nonzero(solution.w) == k:
                w = np.zeros(d)
                w[cols] = solution.w
                return MinimumSupport(cols, w, solution.b, k, "optimal", time.perf_counter() - started)
    raise NotSeparableError("No support up to the requested size separates the classes.")
