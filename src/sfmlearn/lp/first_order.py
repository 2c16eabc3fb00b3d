"""A first-order start for row generation on the soft LPs.

Row generation's first LP is only as cheap as the hyperplane its partition of the
samples is made from (:mod:`.rowgen`, "Starts"). This one comes from a few iterations
of FISTA (Beck & Teboulle, SIAM J. Imaging Sci. 2009) on l1-``LinearSVC``'s objective,
the l1-regularised squared hinge with the LP's own costs,

    minimise  sum_j c_j |v_j|  +  KAPPA sum_i C_i (1 - y_i (z_i . v + b))_+^2,

whose solutions lie close to the soft LP's (the same l1 penalty against the same
per-sample costs; Dedieu, Mazumder & Wang, JMLR 2022, start their column and constraint
generation from first-order solutions of the same kind). Each iteration is one product
Z v and one Z^T u over the scaled data, neither materialised
(:meth:`~.operators.ScaledMatrix.uncentred_matvec`, :meth:`~.operators.ScaledMatrix.rmatvec`):
no copy of X at any size.

Only the largest weights are kept (the master starts with their columns) and the
hyperplane is scaled onto the LP's equality. The result is a start, not an answer: row
generation certifies whatever it reaches from it.
"""

import numpy as np

__all__ = ["serves", "squared_hinge_start", "ITERATIONS", "KAPPA", "POWER_ITERATIONS"]

#: FISTA iterations (each one product with Z and one with Z^T).
ITERATIONS = 50
#: Weight of the squared hinge against the LP's slack costs (l1-``LinearSVC``'s C for
#: C_i = 1).
KAPPA = 0.5
#: Power iterations for the step size 1 / L, L = 2 KAPPA max C_i ||[Z 1]||_2^2.
POWER_ITERATIONS = 15


def serves(problem):
    """Whether :func:`squared_hinge_start` can run on ``problem``: an equality row to
    scale onto and finite slack costs (a hard row has no squared hinge)."""
    C = problem.slack_cost
    return problem.equality is not None and C is not None and bool(np.all(np.isfinite(C)))


def squared_hinge_start(problem, keep):
    """(column positions, w, b) on ``problem``'s equality from FISTA (module docstring),
    with the ``keep`` largest weights of ``ITERATIONS`` iterations; None if it has no
    equality row, an infinite slack cost, or a hyperplane the equality cannot scale.

    Parameters
    ----------
    problem : HyperplaneLP
        A soft problem with an equality row (the SFM's).
    keep : int
        Columns to keep (the largest |w_j|).
    """
    if not serves(problem):
        return None
    eq, C = problem.equality, problem.slack_cost
    Z, y, cost = problem.X, problem.y, np.asarray(problem.feature_cost, dtype=np.float64)
    m = Z.shape[1]
    weight = KAPPA * C
    step = 1.0 / (2.0 * float(weight.max()) * _squared_norm(Z) * 1.05)
    x, x_prev, t_prev = np.zeros(m + 1), np.zeros(m + 1), 1.0
    point = x.copy()
    for _ in range(ITERATIONS):
        residual = np.maximum(1.0 - y * (Z.uncentred_matvec(point[:m]) + point[m]), 0.0)
        u = -2.0 * weight * y * residual
        x = point - step * np.r_[Z.rmatvec(u), u.sum()]
        x[:m] = np.sign(x[:m]) * np.maximum(np.abs(x[:m]) - step * cost, 0.0)
        t = (1.0 + np.sqrt(1.0 + 4.0 * t_prev * t_prev)) / 2.0
        point = x + (t_prev - 1.0) / t * (x - x_prev)
        x_prev, t_prev = x, t
    w, b = x[:m], float(x[m])
    positions = np.flatnonzero(w)
    if positions.size > keep:
        positions = np.sort(positions[np.argpartition(-np.abs(w[positions]), keep - 1)[:keep]])
    w = w[positions]
    scale_row = float(eq.coef[positions] @ w) + eq.bias_coef * b
    if positions.size == 0 or abs(scale_row) <= 1e-12 * (np.abs(eq.coef[positions]) @ np.abs(w)):
        return None
    scale = eq.rhs / scale_row
    return positions, scale * w, scale * b


def _squared_norm(Z):
    """||[Z 1]||_2^2 by power iteration (from a fixed start: the fit is reproducible)."""
    m = Z.shape[1]
    v = np.random.default_rng(0).standard_normal(m + 1)
    v /= np.linalg.norm(v)
    value = 1.0
    for _ in range(POWER_ITERATIONS):
        u = Z.uncentred_matvec(v[:m]) + v[m]
        v = np.r_[Z.rmatvec(u), u.sum()]
        value = float(np.linalg.norm(v))
        if value == 0.0:
            return 1.0
        v /= value
    return value
