"""The LP test of linear separability (thesis 2.5.4, Fig. 2.8).

    minimise sum_i xi_i   s.t.   y_i (w . x_i + b) + xi_i >= 1,   xi >= 0

The data are linearly separable if and only if the optimum is 0 (any strictly separating
hyperplane can be scaled to margin 1). Points with xi_i > 0 are the ones no hyperplane
of the minimum-slack solution puts on the correct side; the synthetic generators
resample them to make training sets separable within their relevant features.
"""

import numpy as np

from .engines import make_engine
from .problems import HyperplaneLP

__all__ = ["is_separable", "minimum_slack_hyperplane"]

#: Slack below this is numerically zero (the margin is 1, so this is relative).
SEPARABLE_TOL = 1e-7
#: :func:`is_separable` first tries at least this many samples.
SUBSAMPLE = 400


def minimum_slack_hyperplane(X, y, *, fit_intercept=True, solver="auto"):
    """Solve the separability LP; returns ``(w, b, xi)`` with ``xi.sum() == 0`` iff separable."""
    y = np.asarray(y, dtype=np.float64)
    n, d = X.shape
    problem = HyperplaneLP(
        X, y, np.zeros(d), margin=1.0, slack_cost=np.ones(n), fit_intercept=fit_intercept
    )
    solution = make_engine(solver).solve(problem)
    xi = np.where(solution.xi > SEPARABLE_TOL, solution.xi, 0.0)
    return solution.w, solution.b, xi


def is_separable(X, y, *, fit_intercept=True, solver="auto"):
    """Whether the separability LP's optimum is 0, deciding "no" early when it can.

    Rows only add constraints: a subset of the samples that is not separable proves
    that the whole is not. The LP is solved on growing subsets (evenly spaced within each
    class; max(:data:`SUBSAMPLE`, 4 (d + 1)) samples, then twice as many ...) and on
    all samples only when every subset was separable. The overlapping selections of a
    soft SFM with thousands of samples are decided by a small LP.
    """
    y = np.asarray(y, dtype=np.float64)
    n, d = X.shape
    size = max(SUBSAMPLE, 4 * (d + 1))
    while size < n:
        rows = np.unique(np.concatenate([
            members[np.linspace(0, members.size - 1, max(1, round(size * members.size / n)))
                    .round().astype(int)]
            for members in (np.flatnonzero(y > 0), np.flatnonzero(y <= 0)) if members.size]))
        if minimum_slack_hyperplane(X[rows], y[rows], fit_intercept=fit_intercept,
                                    solver=solver)[2].any():
            return False
        size *= 2
    return not minimum_slack_hyperplane(X, y, fit_intercept=fit_intercept, solver=solver)[2].any()
