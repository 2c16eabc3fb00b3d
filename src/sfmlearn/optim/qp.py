"""Convex hyperplane QPs: soft-margin SVMs and the steps of ML05's l2-l1 / l2-l0 SVMs.

Every QP here is a :class:`~sfmlearn.lp.problems.HyperplaneLP` with finite slack costs
and no equality row, plus a ridge term (the ``ridge_qp`` problems of
:mod:`sfmlearn.lp.protocol`):

    minimise    (ridge / 2) ||w||^2  +  sum_j c_j |w_j|  +  sum_i C_i xi_i
    subject to  y_i (x_i . w + b) + xi_i >= margin,   xi >= 0

=====================  =====================================  ======================
model                  data of the problem                    entry point
=====================  =====================================  ======================
soft-margin SVM        c = 0, margin 1, C_i                   :func:`~.svm.linear_svm`
ML05 l2-l1-SVM (7)     c_j = nu, C_i = mu / n                 :class:`QPEngine`
ML05 l2-l0-SVM step    c_j = nu alpha exp(-alpha v_j^k)       :class:`QPEngine` in the
(ML05 4.2.2)                                                  reweighting loop
=====================  =====================================  ======================

Hard rows (an infinite C_i) are refused: the hard-margin SVM has its own exact solver,
:func:`~.hard_margin.hard_margin_svm` (Wolfe's nearest points of the class hulls), since
this interior point cannot certify the thin hard margins of SFM refits, and no other
model builds a QP with hard rows.

**Solver.** HiGHS' active-set QP solver (1.15) is not used: on these QPs it reported
"Unbounded" for free columns, "Not Set"/"Non-convex" for the split form w = w+ - w-
(whose Hessian [[I, -I], [-I, I]] is singular), and ran for minutes without finishing
at 215 x 166 with mu = e^10 (ML05's grid); docs/guide/competing.md has the measurements.
Instead a primal-dual interior-point method (Mehrotra predictor-corrector) solves the
split form with the *diagonal* Hessian ridge * diag(I, I) on (w+, w-): with c >= 0 an
optimum has min(w+_j, w-_j) = 0, where (w+)^2 + (w-)^2 = w^2, so the two QPs have the
same solutions, and this one is strictly convex in w. Each iteration solves the n x n
dual or the (d + 1) x (d + 1) primal normal equations, whichever is smaller, on a copy
scaled to unit data and cost magnitude; 10-40 iterations reach a relative gap of 1e-10.

**Exact zeros.** An interior point never has exact zeros. The returned weights are
recomputed from the dual multipliers lambda by the stationarity condition of the QP,

    g = X^T (lambda * y),    w_j = sign(g_j) max(|g_j| - c_j, 0) / ridge,

which is the exact minimiser of the Lagrangian for those multipliers: features with
|g_j| <= c_j get w_j = 0 exactly, as in the papers' solutions.

The bias is then the exact minimiser of the hinge loss for those weights
(:func:`best_bias`), and an active-set polish solves the KKT equations on the sets the
interior point identified, iterated with the semismooth-Newton set update.

**Verification.** Before returning: the rows (with
:func:`~sfmlearn.lp.problems.check_solution`) and the duality gap P - D, where
D = margin sum_i lambda_i - (1 / (2 ridge)) sum_j max(|g_j| - c_j, 0)^2 is the dual
objective of lambda projected onto 0 <= lambda <= C, sum_i lambda_i y_i = 0. A relative
gap above :data:`KKT_TOL` raises :class:`~sfmlearn.exceptions.SolverError`. Soft
problems are always feasible, so the status is always "optimal".
"""

import warnings

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp

from ..exceptions import SolverError
from ..lp.operators import ScaledMatrix
from ..lp.problems import LPSolution, check_solution
from ..lp.protocol import RIDGE_QP, Engine
from ._threads import single_blas_thread
from .conditioning import bias_with_offset, remove_offset
from .problem import MAX_SOFTNESS

__all__ = ["KKT_TOL", "QPEngine", "best_bias", "project_multipliers", "solve_hyperplane_qp"]

#: Largest accepted relative duality gap (P - D) / (1 + |P|) of a returned solution.
KKT_TOL = 1e-6

# Residuals stop improving near 1e-9 (rounding in the normal equations) while the
# complementarity gap keeps shrinking. The interior point is first run to a relative
# gap of 1e-10 and polished; only if that candidate certifies worse than _GOOD_GAP
# (wrong active sets near weights just above their threshold) is it rerun to 1e-14.
_IPM_TOL = 1e-9
_GAP_TOLS = (1e-10, 1e-14)
_GOOD_GAP = 1e-9
_POLISH_ROUNDS = 5
_STALL = 10
_IPM_MAX_ITER = 200
_STEP_TO_BOUNDARY = 0.995


def _spd_factor(M):
    """A solver for the symmetric positive (semi)definite M.

    Near the end of an interior-point run the scalings span many orders of magnitude
    and rounding can spoil Cholesky; LU still gives a usable Newton direction.
    """
    try:
        factor = sla.cho_factor(M)
        return lambda rhs: sla.cho_solve(factor, rhs)
    except np.linalg.LinAlgError:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sla.LinAlgWarning)  # the result is certified
            lu = sla.lu_factor(M)
        return lambda rhs: sla.lu_solve(lu, rhs)


def _newton_solver(Z, y, row_diag, col_diag, fit_intercept):
    """Solve the reduced Newton system for (d_lambda, d_b), factorised once.

    The system (R = diag(row_diag), W = diag(col_diag), r_b the bias residual):
        d_w = a + W Z^T d_lambda,   Z d_w + y d_b + R d_lambda = h,   y^T d_lambda = -r_b.
    With n <= m rows it is solved as the n x n dual normal equations
    (R + Z W Z^T) d_lambda + y d_b = h - Z a; otherwise as the (m + 1) x (m + 1) primal
    normal equations [Z y]^T R^-1 [Z y] + diag(W^-1, 0) for (d_w, d_b), then
    d_lambda = R^-1 (h - Z d_w - y d_b). Neither form subtracts large terms (a Woodbury
    update of the first would, and loses all accuracy once R spans 1e15).
    """
    n, m = Z.shape
    if n <= m:
        M = (Z * col_diag) @ Z.T
        M[np.diag_indices(n)] += row_diag
        solve = _spd_factor(M)

        def solver(a, h, r_b):
            if not fit_intercept:
                return solve(h - Z @ a), 0.0
            u, v = solve(np.column_stack([h - Z @ a, y])).T
            d_b = (float(y @ u) + r_b) / float(y @ v)
            return u - v * d_b, d_b
        return solver
    Zy = np.column_stack([Z, y]) if fit_intercept else Z
    inv_r = 1.0 / row_diag
    P = Zy.T @ (Zy * inv_r[:, None])
    P[np.arange(m), np.arange(m)] += 1.0 / col_diag
    solve = _spd_factor(P)

    def solver(a, h, r_b):
        rhs = Zy.T @ (inv_r * h)
        rhs[:m] += a / col_diag
        if fit_intercept:
            rhs[m] += r_b
        step = solve(rhs)
        d_w, d_b = step[:m], (step[m] if fit_intercept else 0.0)
        return inv_r * (h - Z @ d_w - y * d_b), float(d_b)
    return solver


def _interior_point(Z, y, cost, slack_cost, margin, ridge, fit_intercept, gap_tol):
    """Mehrotra predictor-corrector for the split-form QP.

    Returns ``(lambda, iterations, active, at_upper)`` of the best iterate (smallest
    complementarity gap among those with residuals below _IPM_TOL): the row multipliers
    and the guesses of which rows hold with equality (surplus below multiplier) and
    which have positive slack (lambda_i = C_i). Every row is soft. Runs until the relative gap is below
    ``gap_tol`` or the best gap has not improved tenfold in _STALL iterations (late
    iterations can lose feasibility to rounding or crawl on degenerate problems).

    Variables z = (w+, w-, xi) >= 0, free b, row surpluses s >= 0:
        min (ridge/2)(|w+|^2 + |w-|^2) + c.(w+ + w-) + C.xi
        s.t. Z (w+ - w-) + xi + y b - s = margin      (Z = diag(y) X)
    """
    n, m = Z.shape
    f = np.r_[cost, cost, slack_cost]
    q = np.r_[np.full(2 * m, ridge), np.zeros(n)]

    def A_dot(v):
        return Z @ (v[:m] - v[m:2 * m]) + v[2 * m:]

    def At_dot(u):
        g = Z.T @ u
        return np.r_[g, -g, u]

    # Start dual feasible where that is cheap: lambda = min(1, C/2) and mu equal to the
    # dual residual q z + f - A^T lambda where that is positive (zero on the slack
    # columns), else a small positive floor.
    z = np.ones(2 * m + n)
    s = np.ones(n)
    lam = np.minimum(1.0, 0.5 * slack_cost)
    mu_z = np.maximum(q * z + f - At_dot(lam), np.minimum(1.0, 0.5 * f.min(initial=1.0)) + 1e-8)
    b = 0.0
    scale_p = 1.0 + margin
    scale_d = 1.0 + np.abs(f).max(initial=0.0)
    best, best_gap, gaps = None, np.inf, []
    for iteration in range(1, _IPM_MAX_ITER + 1):
        r_d = q * z + f - At_dot(lam) - mu_z
        r_b = float(y @ lam) if fit_intercept else 0.0
        r_p = A_dot(z) + y * b - s - margin
        gap = float(z @ mu_z + s @ lam)
        relative_gap = gap / (1.0 + abs(0.5 * float(q @ z**2) + float(f @ z)))
        feasible = (np.abs(r_p).max() <= _IPM_TOL * scale_p
                    and max(np.abs(r_d).max(), abs(r_b)) <= _IPM_TOL * scale_d)
        if feasible and relative_gap < best_gap:
            at_upper = z[2 * m:] > mu_z[2 * m:]
            best, best_gap = (lam.copy(), iteration, s < lam, at_upper), relative_gap
        gaps.append(best_gap)
        stalled = len(gaps) > _STALL and np.isfinite(best_gap) and best_gap > 0.1 * gaps[-_STALL - 1]
        if best_gap <= gap_tol or stalled:
            return best
        with np.errstate(all="ignore"):
            inv_H = 1.0 / (q + mu_z / z)
            row_diag = s / lam
        row_diag += inv_H[2 * m:]
        try:
            solver = _newton_solver(Z, y, row_diag, inv_H[:m] + inv_H[m:2 * m], fit_intercept)
        except (ValueError, np.linalg.LinAlgError):
            break  # non-finite or singular scalings: keep the best iterate
        avg = gap / (2 * m + 2 * n)

        def direction(r_zmu, r_slam):
            h1 = -r_d + r_zmu / z
            a = inv_H[:m] * h1[:m] - inv_H[m:2 * m] * h1[m:2 * m]
            h = -r_p + r_slam / lam - inv_H[2 * m:] * h1[2 * m:]
            d_lam, d_b = solver(a, h, r_b)
            d_z = inv_H * (h1 + At_dot(d_lam))
            d_mu = (r_zmu - mu_z * d_z) / z
            # d_s from the (linear) primal rows rather than from the complementarity
            # row: rounding in d_lambda, amplified by 1/R near the optimum, then only
            # perturbs the centring, never primal feasibility.
            d_s = A_dot(d_z) + y * d_b + r_p
            return d_z, d_b, d_s, d_lam, d_mu

        def step_length(d_z, d_s, d_lam, d_mu):
            ratios = [1.0]
            for value, delta in ((z, d_z), (mu_z, d_mu), (s, d_s), (lam, d_lam)):
                neg = delta < 0
                if neg.any():
                    ratios.append(float(np.min(-value[neg] / delta[neg])))
            return min(ratios)

        # Predictor (affine scaling), then Mehrotra's corrector with centring.
        with np.errstate(all="ignore"):
            aff = direction(-z * mu_z, -s * lam)
        if not all(np.all(np.isfinite(part)) for part in aff):
            break  # the scalings left floating-point range; keep the best iterate
        alpha = step_length(aff[0], aff[2], aff[3], aff[4])
        gap_aff = float((z + alpha * aff[0]) @ (mu_z + alpha * aff[4])
                        + (s + alpha * aff[2]) @ (lam + alpha * aff[3]))
        sigma = (gap_aff / gap) ** 3
        d_z, d_b, d_s, d_lam, d_mu = direction(
            sigma * avg - z * mu_z - aff[0] * aff[4], sigma * avg - s * lam - aff[2] * aff[3]
        )
        alpha = min(1.0, _STEP_TO_BOUNDARY * step_length(d_z, d_s, d_lam, d_mu))
        z += alpha * d_z
        b += alpha * d_b
        s += alpha * d_s
        lam += alpha * d_lam
        mu_z += alpha * d_mu
    if best is not None:
        return best
    raise SolverError(
        f"The interior-point QP solver did not converge in {_IPM_MAX_ITER} iterations "
        f"(primal residual {np.abs(r_p).max():.2g}, complementarity {gap:.2g}).",
        status="iteration limit",
    )


def _dense(X):
    """The problem's data as a dense float64 array (QPs have few columns)."""
    if isinstance(X, ScaledMatrix):
        return X.dense_block()
    return X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)


def project_multipliers(lam, y, upper, fit_intercept):
    """lambda clipped to [0, upper] and, with a bias, rescaled to sum_i lambda_i y_i = 0."""
    lam = np.clip(lam, 0.0, upper)
    if fit_intercept:
        pos, neg = lam[y > 0].sum(), lam[y < 0].sum()
        if pos > 0 and neg > 0:
            lam = np.where(y > 0, lam * min(1.0, neg / pos), lam * min(1.0, pos / neg))
    return lam


def best_bias(t, y, slack_cost, margin):
    """The b minimising sum_i C_i (margin - y_i (t_i + b))_+ (finite C_i).

    ``t = X w``. The sum is convex and piecewise linear in b, with slope -C_i below the
    breakpoint margin - t_i of a positive sample and +C_i above the breakpoint
    -margin - t_i of a negative one; the minimiser is where the slope changes sign.
    """
    is_pos = y > 0
    breaks = np.where(is_pos, margin - t, -margin - t)
    weight = slack_cost
    order = np.argsort(breaks, kind="stable")
    breaks, weight, is_pos = breaks[order], weight[order], is_pos[order]
    # Slope just right of breakpoint k: -(positive weight beyond k) + (negative weight up to k).
    pos_right = np.r_[np.cumsum((weight * is_pos)[::-1])[::-1][1:], 0.0]
    neg_left = np.cumsum(weight * ~is_pos)
    slope_right = neg_left - pos_right
    k = np.searchsorted(slope_right, 0.0)  # first breakpoint with slope >= 0 to its right
    return float(breaks[k] if k < breaks.size else (breaks[-1] if breaks.size else 0.0))


def solve_hyperplane_qp(problem, ridge=1.0, gap_tol=KKT_TOL):
    """Solve ``problem`` plus (ridge/2)||w||^2; returns a verified :class:`LPSolution`.

    ``objective`` is the full QP objective and ``margin_duals`` the multipliers lambda.
    Sparse ``X`` is densified (these QPs have few columns). Every row must have a
    finite slack cost (for the hard-margin SVM see :func:`~.hard_margin.hard_margin_svm`)
    and there must be no equality row (with the SFM's margin 0 the ridge term would
    shrink w to 0). A relative duality gap above ``gap_tol`` raises
    :class:`~sfmlearn.exceptions.SolverError`. With a bias, data far from the origin are
    solved centred (:mod:`.conditioning`); the returned bias is for ``problem``'s data.

    Parameters
    ----------
    problem : HyperplaneLP
        The LP part (feature costs, slack costs, margin 1).
    ridge : float, default=1.0
        Coefficient of (ridge/2)||w||^2.
    gap_tol : float, default=1e-6
        Largest accepted relative duality gap.

    Returns
    -------
    LPSolution
        ``w``, ``b``, ``objective``, ``margin_duals``, checked against the constraints.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import weston_lp
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = weston_lp(X, y, np.zeros(2), slack_cost=np.full(4, 10.0))   # a soft-margin SVM
    >>> from sfmlearn.optim import solve_hyperplane_qp
    >>> solution = solve_hyperplane_qp(problem)
    >>> solution.w.round(4), round(solution.b, 4), round(solution.objective, 4)
    (array([0.8, 0.4]), -1.8, 0.4)
    """
    if problem.equality is not None:
        raise ValueError("solve_hyperplane_qp handles margin rows only, not an equality row.")
    if not (problem.is_soft and np.all(np.isfinite(problem.slack_cost))):
        raise ValueError(
            "solve_hyperplane_qp needs a finite slack cost on every row; for the hard-margin "
            "SVM use sfmlearn.optim.linear_svm(X, y) (or hard_margin_svm).")
    if not ridge > 0:
        raise ValueError(f"ridge must be positive; got {ridge!r}.")
    X, centre = _dense(problem.X), None
    if problem.fit_intercept:  # the bias absorbs a shift of the data
        X, centre = remove_offset(X)
    y = problem.y
    slack_cost = problem.slack_cost
    # Solve a scaled copy: X / sigma (weights sigma w) and the objective divided by
    # kappa, so that data and costs are of order one; lambda scales with kappa.
    sigma = float(np.abs(X).max()) or 1.0
    ridge_scaled = ridge / sigma**2
    kappa = max(ridge_scaled, float(slack_cost.max(initial=0.0)))
    advice = _scale_advice(kappa / ridge_scaled)
    for target_gap in _GAP_TOLS:
        with single_blas_thread():
            try:
                lam, iterations, active, at_upper = _interior_point(
                    X * (y / sigma)[:, None], y, problem.feature_cost / (sigma * kappa),
                    slack_cost / kappa, problem.margin, ridge_scaled / kappa,
                    problem.fit_intercept, target_gap,
                )
            except SolverError as exc:
                raise SolverError(f"{exc}{advice}", status=exc.status) from exc
        w, b, lam, gap = _best_candidate(problem, X, kappa * lam, active, at_upper, ridge)
        if gap <= _GOOD_GAP:
            break
    xi = np.maximum(problem.margin - y * (X @ w + b), 0.0)
    result = check_solution(problem, LPSolution(
        "optimal", w=w, b=bias_with_offset(w, b, centre), xi=xi, margin_duals=lam,
        iterations=iterations, engine="ipm-qp", info={"duality_gap": gap},
    ))
    result.objective += 0.5 * ridge * float(w @ w)
    if gap > gap_tol:
        raise SolverError(
            f"The QP solution fails its optimality certificate: relative duality gap "
            f"{gap:.2g} > {gap_tol:g}.{advice}", status="not optimal",
        )
    return result


def _scale_advice(softness):
    """The fix to name when the QP fails with slack costs of ``softness`` times the
    ridge term on data of unit scale (max C_i max|X|^2 / ridge): none up to
    :data:`~.problem.MAX_SOFTNESS`, which double precision resolves."""
    if not softness > MAX_SOFTNESS:
        return ""
    return (f" On data of unit scale the slack costs weigh {softness:.2g} times the ridge term "
            f"(max C_i * max|X|^2 / ridge), beyond the {MAX_SOFTNESS:g} that double precision "
            "resolves: standardise the columns of X (data X * s act as slack costs C * s^2) "
            "or lower the slack costs.")


def _best_candidate(problem, X, lam, active, at_upper, ridge):
    """The best-certified primal point from the interior point and its polished versions.

    Returns ``(w, b, lambda, relative duality gap)``.
    """
    y = problem.y
    Z = X * y[:, None]
    candidates = [_primal_from_dual(problem, X, lam, ridge)]
    for _ in range(_POLISH_ROUNDS):
        lam = _polish(problem, Z, candidates[-1][2], active, at_upper, ridge)
        if lam is None:
            break
        candidates.append(_primal_from_dual(problem, X, lam, ridge))
        if candidates[-1][-1] <= 1e-14:
            break
        # Next sets (semismooth-Newton rule): lambda_i - (y_i(x_i.w + b) - margin)
        # beyond C_i means lambda_i = C_i, below 0 means lambda_i = 0.
        w, b, lam, _ = candidates[-1]
        shifted = lam - (y * (X @ w + b) - problem.margin)
        at_upper = shifted >= problem.slack_cost
        active = shifted > 0
    return min(candidates, key=lambda c: c[-1])


def _primal_from_dual(problem, X, lam, ridge):
    """(w, b, lambda, relative duality gap) of the multipliers ``lam`` (module docstring)."""
    y, margin, slack_cost = problem.y, problem.margin, problem.slack_cost
    lam = project_multipliers(lam, y, slack_cost, problem.fit_intercept)
    g = X.T @ (lam * y)
    excess = np.maximum(np.abs(g) - problem.feature_cost, 0.0)
    w = np.sign(g) * excess / ridge
    t = X @ w
    b = best_bias(t, y, slack_cost, margin) if problem.fit_intercept else 0.0
    hinge = np.maximum(margin - y * (t + b), 0.0)
    primal = 0.5 * ridge * float(w @ w) + float(problem.feature_cost @ np.abs(w)) \
        + float(slack_cost @ hinge)
    dual = margin * lam.sum() - 0.5 * float(excess @ excess) / ridge
    return w, float(b), lam, (primal - dual) / (1.0 + abs(primal))


def _polish(problem, Z, lam, active, at_upper, ridge):
    """Multipliers that solve the KKT equations exactly on guessed active sets.

    With F the features where |g_j| > c_j (signs s_F), U the rows at lambda = C and M
    the other active rows, optimality is the linear system
        (1/ridge) Z_MF Z_MF^T lambda_M + y_M b = margin - (1/ridge) Z_MF (Z_UF^T C_U - c_F s_F)
        y_M^T lambda_M = -y_U^T C_U        (only with a bias)
    solved in the least-squares sense (the sets may be degenerate). The caller keeps
    whichever multipliers certify the smaller duality gap. Returns None when M is empty.
    """
    y, margin, cost, slack_cost = problem.y, problem.margin, problem.feature_cost, problem.slack_cost
    g = Z.T @ lam
    features = np.abs(g) > cost
    signs = np.sign(g[features])
    upper = at_upper
    rows = active & ~upper
    if not rows.any():
        return None
    Z_MF = Z[np.ix_(rows, features)]
    C_U = slack_cost[upper]
    shift = (Z[np.ix_(upper, features)].T @ C_U - cost[features] * signs) / ridge
    K = Z_MF @ Z_MF.T / ridge
    rhs = margin - Z_MF @ shift
    if problem.fit_intercept:
        y_M = y[rows]
        K = np.block([[K, y_M[:, None]], [y_M[None, :], np.zeros((1, 1))]])
        rhs = np.r_[rhs, -float(y[upper] @ C_U)]
    solution = np.linalg.lstsq(K, rhs, rcond=None)[0]
    polished = np.zeros_like(lam)
    polished[upper] = C_U
    polished[rows] = solution[: rows.sum()]
    return polished


class QPEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances with a ridge term.

    The engine of the ``ridge_qp`` problems of :mod:`sfmlearn.lp.protocol`, so the
    reweighting loop of :mod:`sfmlearn.optim.reweighting` runs ML05's l2-l0-SVM
    DCA (a sequence of QPs) unchanged.

    Parameters
    ----------
    ridge : float, default=1.0
        Coefficient of (ridge/2)||w||^2.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import SFMScaler
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.lp import weston_lp
    >>> from sfmlearn.optim import QPEngine
    >>> X, y = make_weston(n_samples=30, n_noise=20, random_state=0)   # features 0-5 relevant
    >>> X = SFMScaler().fit_transform(X)
    >>> problem = weston_lp(X, y, np.full(26, 3.0), slack_cost=np.ones(30))   # an l2-l1-SVM
    >>> np.flatnonzero(QPEngine(ridge=1.0).solve(problem).w)
    array([1, 2, 5])
    """

    name = "ipm-qp"
    kinds = frozenset({RIDGE_QP})

    def __init__(self, ridge=1.0):
        self.ridge = ridge

    def solve(self, problem):
        return solve_hyperplane_qp(problem, self.ridge)
