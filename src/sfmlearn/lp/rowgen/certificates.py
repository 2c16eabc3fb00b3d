"""Checks of a restricted master's answer on the full problem.

An optimum is returned only when every column's reduced cost with the extended
multipliers holds (:func:`~sfmlearn.lp.pricing.column_certificate`, at most
:data:`~sfmlearn.lp.pricing.MAX_DUAL_VIOLATION`), the duality gap between the
recomputed primal objective and margin sum(lambda) + mu rhs is at most
:data:`~.tuning.GAP_TOL` (:func:`~sfmlearn.lp.checks.duality_gap`) and every sample's row holds
(:func:`~sfmlearn.lp.checks.check_solution`). An infeasible master is infeasible on a
subset of the rows, so its Farkas ray, extended with zero multipliers on the rows left
out and verified on the full data (:func:`~sfmlearn.lp.certificates.check_ray`), proves
the full LP infeasible (:func:`full_ray`).
"""

import numpy as np

from ...exceptions import SolverError
from ..pricing import MAX_DUAL_VIOLATION
from . import tuning
from .state import ERR

__all__ = ["full_ray", "require_certified", "slacks"]


def slacks(problem, partition, activity, xi_rows, master_rows):
    """The slack of every sample (None for hard problems): the master's for its rows,
    the margin error (margin - t_i) of ``ERR`` samples, 0 for ``OUT`` samples (held to
    :data:`~sfmlearn.lp.pricing.ROW_TOL`) and hard rows. Recomputing every slack from t
    would multiply rounding errors of t by the slack costs, which the reweighting loop
    drives to 1e16 for samples whose slack reached zero."""
    if not problem.is_soft:
        return None
    margin = float(problem.margin)
    xi = np.zeros(problem.n_samples)
    err = partition == ERR
    xi[err] = np.maximum(margin - activity[err], 0.0)
    xi[master_rows] = np.maximum(xi_rows, 0.0)
    xi[~np.isfinite(problem.slack_cost)] = 0.0
    return xi


def require_certified(master, dual_violation, gap):
    """True when the certificate holds; False after tightening the master's tolerances
    for another round; :class:`SolverError` when it fails with tight tolerances."""
    if dual_violation <= MAX_DUAL_VIOLATION and gap <= tuning.GAP_TOL:  # NaN fails
        return True
    if master.tighten():
        return False
    raise SolverError(
        f"Row/column generation could not certify optimality: relative dual "
        f"violation {dual_violation:.2g}, duality gap {gap:.2g} after re-solving "
        f"the master with tight tolerances (accepted: {MAX_DUAL_VIOLATION:g} and "
        f"{tuning.GAP_TOL:g}). The LP is numerically difficult; try solver='highs' "
        "(the full LP).", status="dual infeasible")


def spread(n, rows, values):
    """``values`` on ``rows`` of a length-``n`` vector (rows None: ``values`` is it)."""
    if rows is None:
        return values
    full = np.zeros(n)
    full[rows] = values
    return full


def full_ray(problem, rows, lam, mu):
    """The master's ray as multipliers of every margin row (0 on the rows left out),
    then the equality row's."""
    n = problem.n_samples
    if problem.equality is None:
        return spread(n, rows, lam)
    return np.r_[spread(n, rows, lam), mu]
