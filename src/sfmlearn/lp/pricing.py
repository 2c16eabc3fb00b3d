"""Pricing: which columns and rows of a hyperplane LP a restricted master is missing.

Both generation schemes (:mod:`.rowgen`) read the full data only here, once per round:

* **columns** (features): with row multipliers lambda >= 0 (margin rows) and mu
  (equality row), the reduced costs of w+_j and w-_j are c_j - g_j and c_j + g_j,

      g = Z^T (lambda * y) + mu a,

  one product over the rows with lambda_i != 0 (:func:`price_columns`); feature j can
  improve the master only if |g_j| > c_j.
* **rows** (samples): with the master's (w, b), the activity of sample i is
  t_i = y_i (z_i . w + b), one product over the support of w (:func:`activities`);
  a row with t_i < margin is violated.

**Numerical safety.** Activities come from the centred block of the support columns
(:meth:`~sfmlearn.lp.operators.ScaledMatrix.matvec`: centring before the product), so
they are as accurate as the data. The column product is computed as X^T u - m sum(u)
(no centred copy of X), which loses digits on columns whose offset |m_j| is large
against their spread; :meth:`~sfmlearn.lp.operators.ScaledMatrix.offset_error` bounds
that error, and :func:`column_certificate` recomputes every column the bound leaves in
doubt from its centred block before it accepts a solution. The tolerance accepted is
:data:`MAX_DUAL_VIOLATION`, measured against the magnitude of the terms of g_j.
"""

import numpy as np

__all__ = ["MAX_DUAL_VIOLATION", "ROW_TOL", "activities", "column_certificate",
           "max_dual_violation", "price_columns"]

#: Largest accepted relative dual violation max_j (|g_j| - c_j)_+ / (c_j + s_j + f) of a
#: returned solution, s_j = sum_i lambda_i |z_ij| + |mu a_j| the magnitude of the terms of
#: g_j (so that zero-cost columns are measured too), f = :data:`DUAL_FLOOR`. Above it
#: the master is re-solved once with HiGHS' tolerances tightened and re-priced; if it
#: is still above,
#: :class:`~sfmlearn.exceptions.SolverError`.
MAX_DUAL_VIOLATION = 1e-6

#: Absolute floor of the scale a dual violation is measured against (HiGHS' default
#: dual feasibility tolerance): the reweighting loops drive some costs to 1e-35 (FSV's
#: exponential penalty), where c_j + s_j says nothing about what the solver can resolve.
DUAL_FLOOR = 1e-7

#: A row outside the master counts as violated when t_i < margin - ROW_TOL * scale_i,
#: scale_i = 1 + |b| + max_{j in support} |z_ij| ||w||_1 + margin (the activity scale of
#: :func:`~sfmlearn.lp.checks.check_solution`, which accepts 1e-6 of it): rows left out
#: are held to a thousand times the accuracy the final check asks of every row.
ROW_TOL = 1e-9


def price_columns(problem, lam, mu, rows=None):
    """g = Z^T (lambda * y) + mu a on every column of ``problem``.

    ``lam`` holds the margin-row multipliers, indexed like ``rows`` (a subset of the
    samples, where every other multiplier is zero) or over all samples.
    """
    y = problem.y if rows is None else problem.y[rows]
    g = problem.X.rmatvec(np.asarray(lam, dtype=np.float64) * y, rows=rows)
    if problem.equality is not None and mu != 0.0:
        g += mu * problem.equality.coef
    return g


def column_certificate(problem, lam, mu, g, rows=None, tol=MAX_DUAL_VIOLATION):
    """(max relative dual violation, positions violating it) of multipliers on every column.

    ``g`` is :func:`price_columns` of the same multipliers. Columns the fast product
    could misjudge - excess |g_j| - c_j above ``tol`` c_j once the offset error bound is
    added - are recomputed from their centred block, and their violation is measured
    against the magnitude s_j of the terms of g_j (:data:`MAX_DUAL_VIOLATION`).
    """
    cost = problem.feature_cost
    u = np.asarray(lam, dtype=np.float64) * (problem.y if rows is None else problem.y[rows])
    doubt = problem.X.offset_error(u, rows)
    excess = np.abs(g) - cost
    suspects = np.flatnonzero(excess + doubt > tol * (cost + DUAL_FLOOR))
    plain = excess / (cost + DUAL_FLOOR)
    plain[suspects] = -np.inf
    worst = float(max(np.max(plain, initial=0.0), 0.0))
    if suspects.size == 0:
        return worst, suspects
    exact = problem.X.exact_rmatvec(u, suspects, rows)
    terms = cost[suspects] + problem.X.abs_rmatvec(u, suspects, rows)
    if problem.equality is not None:
        exact += mu * problem.equality.coef[suspects]
        terms += abs(mu) * np.abs(problem.equality.coef[suspects])
    relative = (np.abs(exact) - cost[suspects]) / (terms + DUAL_FLOOR)
    return max(worst, float(relative.max())), suspects[relative > tol]


def max_dual_violation(problem, duals, g):
    """max_j (|g_j| - c_j)_+ / (c_j + s_j + f) over the problem's columns for the row duals
    ``duals`` (n margin rows, then the equality row if any) and their priced ``g``."""
    n = problem.n_samples
    mu = float(duals[n]) if problem.equality is not None else 0.0
    return column_certificate(problem, duals[:n], mu, g)[0]


def activities(problem, positions, w, b):
    """(t, scale): t_i = y_i (z_i . w + b) for every sample, with ``w`` on the column
    ``positions``, and the activity scale of each row (:data:`ROW_TOL`)."""
    positions = np.asarray(positions, dtype=np.intp)
    w = np.asarray(w, dtype=np.float64)
    keep = w != 0
    positions, w = positions[keep], w[keep]
    n = problem.n_samples
    if positions.size == 0:
        return problem.y * b, np.full(n, 1.0 + abs(b) + problem.margin)
    block = problem.X.block(positions, keep=True)
    t = problem.y * (np.asarray(block @ w).ravel() + b)
    if hasattr(block, "toarray"):
        row_max = np.asarray(abs(block).max(axis=1).toarray()).ravel()
    else:
        row_max = np.abs(block).max(axis=1)
    scale = 1.0 + abs(b) + row_max * np.abs(w).sum() + problem.margin
    return t, scale
