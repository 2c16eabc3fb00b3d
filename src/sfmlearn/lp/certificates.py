"""Certificates of infeasibility (Farkas' lemma) for the hyperplane LPs.

An engine's "optimal" is checked by :func:`~sfmlearn.lp.checks.check_solution`. Its
"infeasible" - which the hard SFM turns into :class:`~sfmlearn.exceptions.NotSeparableError`
("the classes are not linearly separable") - is checked here: it is accepted only with
row multipliers u = (lambda, mu) that *prove* it on the full problem data.

For the LP of :mod:`.problems` (rows y_i (z_i . w + b) + xi_i >= margin, the optional
equality a . w + a_b b = rhs, w and b free, xi >= 0 on the priced rows), multiply every
row by its multiplier and add. If

    lambda >= 0,
    g    = Z^T (lambda * y) + mu a  = 0         (every feature column: w is free)
    beta = y . lambda + mu a_b       = 0         (the bias column, when it is free)
    lambda_i = 0 on rows with a slack            (xi_i >= 0 is unbounded above)
    gamma = margin sum_i lambda_i + mu rhs > 0

then any feasible point would satisfy 0 = g . w + beta b + ... >= gamma > 0: there is
none. Numerically the zeros hold up to :data:`FARKAS_TOL`, measured normwise (the usual
backward-error measure: the proof holds exactly for data perturbed by about that much):

* the feature columns relative to (||lambda||_1 + |mu|) max_ij |z_ij| + |mu| max_j |a_j|,
  the magnitude of the data - the SFM's equality rows are averages of data rows, so a
  class-mean difference of 1e-17, rounding noise HiGHS drops from its model, is judged
  against the data and not against itself, while data of magnitude 1e-12 (which HiGHS
  also drops) cannot hide behind the bias column's entries of 1;
* the bias column relative to ||lambda||_1 + |mu a_b|, the slack columns and the sign
  of lambda relative to max |u|.

What the certificate proves outright is that no feasible point has ||w||_1, |b| and
||xi||_1 all below ``radius = gamma / (max_j |g_j| + |beta| + max lambda_slack)``; it is
reported with it.

Where u comes from: HiGHS' Farkas ray (``getDualRay``) after an infeasible simplex
solve, column generation's priced ray, or - for engines without one (scipy, GLPK) or a
ray that fails the check - the row duals of a *phase-1 LP*: minimise the total violation
t of the rows (margin rows + t_i >= margin, equality + t+ - t- = rhs, t >= 0). The
phase-1 LP is always feasible; its optimal duals satisfy the conditions above with gamma
equal to its optimum, so the LP is infeasible exactly when they verify. When nothing
verifies, :func:`certify_infeasible` raises :class:`~sfmlearn.exceptions.SolverError`:
an unproved "infeasible" never becomes a silent NotSeparableError.
"""

from dataclasses import replace

import numpy as np

from ..exceptions import SolverError
from .assembly import build_matrix_lp
from .highs_model import solve_matrix_lp_highs

__all__ = ["FARKAS_TOL", "farkas_check", "check_ray", "certify_infeasible"]

#: Largest accepted relative residual of a Farkas certificate (see the module docstring).
FARKAS_TOL = 1e-6


# Data whose largest magnitude is below this are mostly invisible to HiGHS (it drops
# matrix entries below 1e-9); an uncertifiable answer on them gets that hint.
_SMALL_DATA = 1e-7


def farkas_check(problem, u, tol=FARKAS_TOL):
    """Check multipliers ``u`` (n margin rows, then the equality row if any) as a proof
    that ``problem`` is infeasible. Returns ``(ok, details)``; ``details`` holds the
    relative residual of each condition, gamma and the radius (module docstring)."""
    n = problem.n_samples
    eq = problem.equality
    u = np.asarray(u, dtype=np.float64)
    if u.shape != (n + (eq is not None),) or not np.all(np.isfinite(u)) or not u.any():
        return False, {"residual": np.inf, "gamma": 0.0, "radius": 0.0,
                       "reason": "multipliers of the wrong shape, not finite or zero"}
    lam = u[:n]
    mu = float(u[n]) if eq is not None else 0.0
    # Normwise scales (see the module docstring): the feature columns' at the data's
    # magnitude, the bias and slack columns' at their own entries (+-1, a_b, 1).
    z_max = problem.X.max_abs()
    u_size = float(np.abs(u).max())
    feature_scale = float(np.abs(lam).sum() + abs(mu)) * z_max
    bias_scale = float(np.abs(lam).sum())
    if eq is not None:
        feature_scale += abs(mu) * float(np.abs(eq.coef).max(initial=0.0))
        bias_scale += abs(mu * eq.bias_coef)
    # Feature columns (w free): g = Z^T (lambda y) + mu a = 0.
    g = problem.X.rmatvec(lam * problem.y)
    if eq is not None:
        g += mu * eq.coef
    g_max = float(np.abs(g).max(initial=0.0))
    # Bias column (free when fitted): beta = y . lambda + mu a_b = 0.
    beta = 0.0
    if problem.fit_intercept:
        beta = float(lam @ problem.y) + (mu * eq.bias_coef if eq is not None else 0.0)
    # Slack columns (coefficient 1 in their row, xi >= 0 unbounded above): lambda_i <= 0.
    slack = 0.0
    if problem.is_soft:
        slack = float(np.maximum(lam[np.isfinite(problem.slack_cost)], 0.0).max(initial=0.0))
    details = {
        "negative_row_multiplier": float(max(-lam.min(initial=0.0), 0.0)) / u_size,
        "feature_columns": _ratio(g_max, feature_scale),
        "bias_column": _ratio(abs(beta), bias_scale),
        "slack_columns": slack / u_size,
    }
    residual = float(np.max(list(details.values())))  # a NaN stays NaN and fails below
    gamma = problem.margin * float(lam.sum()) + (mu * eq.rhs if eq is not None else 0.0)
    gamma_terms = problem.margin * float(np.abs(lam).sum()) + (abs(mu * eq.rhs) if eq is not None else 0.0)
    leak = g_max + abs(beta) + slack
    details.update(residual=residual, gamma=gamma,
                   radius=0.0 if gamma <= 0 else (gamma / leak if leak > 0 else np.inf))
    ok = residual <= tol and gamma > tol * gamma_terms and gamma > 0
    return ok, details


def check_ray(problem, ray):
    """:func:`farkas_check` of a solver's ray in either orientation (conventions differ
    between solvers and versions; either sign, once verified, is a proof)."""
    ok, details = farkas_check(problem, ray)
    if ok:
        return ok, details
    flipped = farkas_check(problem, -np.asarray(ray, dtype=np.float64))
    return flipped if flipped[0] else (ok, details)


def _ratio(residual, scale):
    return residual / scale if scale > 0 else (0.0 if residual == 0 else np.inf)


def _phase_one_multipliers(problem):
    """Row duals of the phase-1 LP (module docstring) and its optimum (total violation)."""
    lp = build_matrix_lp(problem, "standard")
    n_rows, n_cols = lp.shape
    eq_rows = np.flatnonzero(lp.row_lower == lp.row_upper)
    art_rows = np.r_[np.arange(n_rows), eq_rows].astype(np.int32)
    art_vals = np.r_[np.ones(n_rows), -np.ones(eq_rows.size)]
    k = art_rows.size
    phase = replace(
        lp,
        cost=np.r_[np.zeros(n_cols), np.ones(k)],
        col_lower=np.r_[lp.col_lower, np.zeros(k)],
        col_upper=np.r_[lp.col_upper, np.full(k, np.inf)],
        start=np.r_[lp.start, lp.start[-1] + 1 + np.arange(k)],
        index=np.r_[lp.index, art_rows], value=np.r_[lp.value, art_vals],
    )
    status, _, row_dual, info = solve_matrix_lp_highs(phase)
    if status != "optimal":  # pragma: no cover - the phase-1 LP is always feasible
        raise SolverError("The phase-1 LP (always feasible) was reported infeasible.",
                          status=status)
    return row_dual[: problem.n_samples + lp.has_equality], float(info["objective"])


def certify_infeasible(problem, *, ray=None, engine="the engine"):
    """The certificate (a dict for ``LPSolution.info["certificate"]``) of an engine's
    "infeasible", or :class:`SolverError` if none verifies (module docstring).

    ``ray`` are the engine's Farkas multipliers on the margin rows and the equality row
    (either orientation), or None.
    """
    tried = []
    if ray is not None:
        ok, details = check_ray(problem, ray)
        if ok:
            return {"source": "farkas ray", **details}
        tried.append(f"its Farkas ray does not verify (relative residual {details['residual']:.2g})")
    multipliers, violation = _phase_one_multipliers(problem)
    ok, details = farkas_check(problem, multipliers)
    if ok:
        return {"source": "phase-1 duals", "phase_one_violation": violation, **details}
    if violation <= FARKAS_TOL:
        tried.append(f"a phase-1 LP satisfies every row (total violation {violation:.2g}): "
                     "the LP is feasible")
    else:
        tried.append(f"the duals of a phase-1 LP (total row violation {violation:.3g}) do "
                     f"not verify either (relative residual {details['residual']:.2g})")
    z_max = problem.X.max_abs()
    hint = (f" The data's largest magnitude is {z_max:.2g}: HiGHS ignores matrix entries "
            "below 1e-9, so rescale the data (e.g. scale=True)." if z_max < _SMALL_DATA else
            " Try another solver to cross-check (solver='highs', 'scipy' or 'glpk'), and "
            "please report the data.")
    raise SolverError(
        f"{engine} reported the LP infeasible, but the claim cannot be certified: "
        f"{'; '.join(tried)}. The answer is not trusted (a hard SFM would otherwise report "
        f"'not separable').{hint}",
        status="uncertified infeasible",
    )
