"""The check every engine runs on an "optimal" answer before returning it.

:func:`check_solution` verifies a solution against the rows of its
:class:`~sfmlearn.lp.problems.HyperplaneLP` (margin rows, equality row, slacks) and
recomputes its objective; an "infeasible" answer is checked by its certificate instead
(:mod:`sfmlearn.lp.certificates`).
"""

import numpy as np

from ..exceptions import ConstraintViolationError

__all__ = ["FEASIBILITY_TOL", "check_solution"]

#: Constraint violations up to this multiple of the row's activity scale
#: ``1 + |b| + max_{j in support} |x_ij| * ||w||_1`` are accepted (HiGHS' own primal feasibility
#: tolerance is 1e-7 on its internally scaled model).
FEASIBILITY_TOL = 1e-6


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
