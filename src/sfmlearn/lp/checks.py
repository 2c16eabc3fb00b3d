"""The check every engine runs on an "optimal" answer before returning it.

:func:`check_solution` verifies a solution against the rows of its
:class:`~sfmlearn.lp.problems.HyperplaneLP` (margin rows, equality row, slacks) and
recomputes its objective; an "infeasible" answer is checked by its certificate instead
(:mod:`sfmlearn.lp.certificates`). :func:`check_optimality` certifies that a feasible
answer is also optimal: its row multipliers are dual feasible on every column and the
duality gap is closed, as the generation engines certify theirs.
"""

import numpy as np

from ..exceptions import ConstraintViolationError, SolverError
from .pricing import MAX_DUAL_VIOLATION, column_certificate, price_columns

__all__ = ["FEASIBILITY_TOL", "GAP_TOL", "check_optimality", "check_solution", "duality_gap"]

#: Constraint violations up to this multiple of the row's activity scale
#: ``1 + |b| + max_{j in support} |x_ij| * ||w||_1`` are accepted (HiGHS' own primal feasibility
#: tolerance is 1e-7 on its internally scaled model).
FEASIBILITY_TOL = 1e-6

#: Largest accepted relative duality gap |P - D| / (1 + |P|) of a returned optimum.
GAP_TOL = 1e-6


def check_solution(problem, solution, tol=FEASIBILITY_TOL):
    """Raise :class:`ConstraintViolationError` unless ``solution`` satisfies ``problem``.

    Checks that w, b (and xi) have the problem's shapes and finite values, b = 0 when
    the problem has no intercept, every margin row, the equality row, xi >= 0 (and
    xi = 0 in the hard rows of a soft problem), and that the reported objective equals
    ``sum_j c_j |w_j| + sum_i C_i xi_i``. Every comparison fails on NaN, so a NaN
    anywhere is a violation, never a pass. Violations are measured relative to the
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
        Values missing, of the wrong shape or not finite, a row violated, or the reported
        objective different from the recomputed one.

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
    w, b, xi = _finite_values(problem, solution, tol)
    # Only the support enters the rows: touch those columns alone (d may be huge).
    support = np.flatnonzero(w)
    X_support = X.dense_block(support, keep=True)
    activity = y * (X_support @ w[support] + b) + xi
    w1 = np.abs(w).sum()
    row_max = np.abs(X_support).max(axis=1, initial=0.0)
    scale = 1.0 + abs(b) + row_max * w1 + problem.margin
    violation = (problem.margin - activity) / scale
    worst = int(np.argmax(violation)) if violation.size else 0  # argmax finds a NaN first
    if violation.size and not violation[worst] <= tol:
        raise ConstraintViolationError(
            f"LP solution violates margin row {worst}: y(x.w+b)+xi = {activity[worst]:.3g} "
            f"< {problem.margin:g} (relative violation {violation[worst]:.2g} > {tol:g}). "
            "The engine's answer is not trustworthy; try solver='scipy' or report a bug.",
            status="constraint violation",
        )
    if problem.is_soft and not xi.min(initial=0.0) >= -tol:
        raise ConstraintViolationError(
            f"LP solution has a negative slack ({xi.min():.3g}).", status="constraint violation"
        )
    eq = problem.equality
    if eq is not None:
        lhs = float(eq.coef @ w + eq.bias_coef * b)
        eq_scale = 1.0 + np.abs(eq.coef).max(initial=0.0) * w1 + abs(eq.bias_coef * b)
        if not abs(lhs - eq.rhs) <= tol * eq_scale:
            raise ConstraintViolationError(
                f"LP solution violates the equality row: {lhs:.6g} != {eq.rhs:g}.",
                status="constraint violation",
            )
    objective = float(problem.feature_cost @ np.abs(w))
    if problem.is_soft:
        priced = np.isfinite(problem.slack_cost)
        if not np.all(xi[~priced] <= tol):
            raise ConstraintViolationError(
                "LP solution uses the slack of a hard row.", status="constraint violation"
            )
        objective += float(problem.slack_cost[priced] @ xi[priced])
    reported = float(solution.objective)  # NaN: not reported
    if not np.isfinite(objective) or (
            not np.isnan(reported) and not abs(objective - reported) <= 1e-6 * (1 + abs(objective))):
        raise ConstraintViolationError(
            f"Reported objective {solution.objective:.9g} differs from the recomputed "
            f"{objective:.9g}.", status="objective mismatch",
        )
    solution.objective = objective
    return solution


def _finite_values(problem, solution, tol):
    """(w, b, xi) of ``solution`` as float64 of the problem's shapes (xi zero for a hard
    problem), or :class:`ConstraintViolationError`: values missing, misshapen or not
    finite (``np.isfinite``: every later comparison would be False for a NaN), or a bias
    on a problem whose b is fixed at 0."""
    n, m = problem.n_samples, problem.n_columns
    w = None if solution.w is None else np.asarray(solution.w, dtype=np.float64)
    xi = solution.xi if problem.is_soft else np.zeros(n)
    xi = None if xi is None else np.asarray(xi, dtype=np.float64)
    if w is None or w.shape != (m,) or xi is None or xi.shape != (n,):
        raise ConstraintViolationError(
            f"LP solution has w of shape {None if w is None else w.shape} and xi of shape "
            f"{None if xi is None else xi.shape}; the problem has {m} columns and {n} samples"
            f"{' (and slacks)' if problem.is_soft else ''}. The engine's answer is not usable.",
            status="constraint violation")
    b = float(solution.b)
    if not (np.isfinite(b) and np.isfinite(w).all() and np.isfinite(xi).all()):
        raise ConstraintViolationError(
            "LP solution has values that are not finite (NaN or inf) in w, b or xi. The "
            "engine's answer is not trustworthy; try solver='scipy' or report a bug.",
            status="constraint violation")
    if not problem.fit_intercept and not abs(b) <= tol:
        raise ConstraintViolationError(
            f"LP solution has the bias b = {b:.3g}, but the problem fixes b = 0 "
            "(fit_intercept=False). The engine's answer is not trustworthy.",
            status="constraint violation")
    return w, b, xi


def duality_gap(problem, positions, w, xi, lam, mu):
    """|P - D| / (1 + |P|): the recomputed primal objective (weights ``w`` at problem
    ``positions``) against the dual objective margin sum(lambda) + mu rhs."""
    primal = float(problem.feature_cost[positions] @ np.abs(w))
    if problem.is_soft:
        finite = np.isfinite(problem.slack_cost)
        primal += float(problem.slack_cost[finite] @ xi[finite])
    dual = float(problem.margin) * float(lam.sum())
    if problem.equality is not None:
        dual += mu * problem.equality.rhs
    return abs(primal - dual) / (1.0 + abs(primal))


def check_optimality(problem, solution, engine="the engine"):
    """Raise :class:`SolverError` unless the multipliers of ``solution`` certify its optimum.

    LP duality: with the margin-row multipliers lambda >= 0 and the equality's mu, every
    column's reduced cost must hold, |g_j| <= c_j for g = Z^T (lambda * y) + mu a
    (:func:`~sfmlearn.lp.pricing.column_certificate`, relative violation at most
    :data:`~sfmlearn.lp.pricing.MAX_DUAL_VIOLATION`), and the primal objective must equal
    the dual one, margin sum(lambda) + mu rhs (:func:`duality_gap`, at most
    :data:`GAP_TOL`). A feasible point that passes is optimal; a suboptimal one cannot
    pass, whatever status the solver reported.

    Parameters
    ----------
    problem : HyperplaneLP
        The problem that was solved.
    solution : LPSolution
        A feasible "optimal" answer with ``margin_duals`` and ``equality_dual``.
    engine : str, default="the engine"
        The solver's name, for the message.

    Returns
    -------
    LPSolution
        ``solution``, with ``info["max_dual_violation"]`` and ``info["duality_gap"]``.

    Raises
    ------
    sfmlearn.exceptions.SolverError
        The multipliers violate a column's reduced cost or leave a duality gap.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, weston_lp
    >>> from sfmlearn.lp.checks import check_optimality
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> solution = HighsEngine().solve(weston_lp(X, y, np.ones(2)))
    >>> float(check_optimality(weston_lp(X, y, np.ones(2)), solution).info["duality_gap"]) < 1e-9
    True
    """
    lam = np.maximum(np.asarray(solution.margin_duals, dtype=np.float64), 0.0)
    mu = float(solution.equality_dual)
    violation, _ = column_certificate(problem, lam, mu, price_columns(problem, lam, mu))
    positions = np.arange(problem.n_columns)
    gap = duality_gap(problem, positions, solution.w, solution.xi, lam, mu)
    if not (violation <= MAX_DUAL_VIOLATION and gap <= GAP_TOL):  # NaN fails too
        raise SolverError(
            f"{engine} reported an optimum its multipliers do not certify: relative dual "
            f"violation {violation:.2g}, duality gap {gap:.2g} (accepted: {MAX_DUAL_VIOLATION:g} "
            f"and {GAP_TOL:g}). The LP is numerically difficult; try another solver "
            "(solver='auto' or 'scipy') or rescale the data.", status="not certified")
    solution.info.update(max_dual_violation=violation, duality_gap=gap)
    return solution
