"""Coordinate descent for the box-constrained l1-regularised QP of the P-SVM (PSVM 2, 3.2).

    minimise_a   1/2 a' F~' F~ a  -  y' F~ a  +  epsilon ||a||_1      s.t.  -C_j <= a_j <= C_j

with F~ = (F - 1 m') diag(1/s): the columns of F, centred by ``center`` (m) and divided by
``scale`` (s), never formed explicitly. This is the dual of the P-SVM feature selection
(PSVM eq. 8, C = inf) and of the P-SVM with redundancy control (PSVM eq. 12, finite C).
Up to the constant 1/2 ||y||^2 the objective is 1/2 ||y - F~ a||^2 + epsilon ||a||_1, so
for C = inf the problem is the Lasso on the columns of F~.

Optimality (KKT) with the gradient g = F~'(F~ a - y):

    a_j = 0        |g_j| <= epsilon        0 < a_j < C     g_j = -epsilon
    a_j = C        g_j  <= -epsilon        -C < a_j < 0    g_j = +epsilon
    a_j = -C       g_j  >= +epsilon

The solver is the SMO of the P-SVM without its equality constraint, i.e. exact
minimisation over one coordinate at a time (PSVM 2: "the SMO is faster than for SVMs"
because there is no equality constraint). It keeps the residual r = F~ a as
r - y = w + c 1 with w = F (a / s) - y and a scalar offset c = -m . (a / s), so a
coordinate step touches only the stored entries of its column: O(n) for dense F,
O(nnz of the column) for sparse F, and a sparse F is never densified by the centring.
F~'F~ is never formed. Around the coordinate sweeps:

* working sets: each outer iteration computes the full gradient with one product F'w,
  and sweeps only over the non-zero coefficients plus the worst KKT violators (at least
  10, at most as many as there are non-zeros), doubling as the support grows;
* face Newton steps: whenever a sweep leaves the sign/bound pattern of the working set
  unchanged, the QP restricted to that face is solved exactly (a small linear system on
  the free coefficients) and the iterate moves towards that solution up to the first
  coefficient that would change sign or cross a bound; this removes the slow tail of
  coordinate descent on correlated or duplicated columns.

The outer loop stops when the largest KKT violation is at most ``tol``; the returned
solution is then re-verified from a residual recomputed from scratch (:func:`check_kkt`),
which raises :class:`~sfmlearn.exceptions.SolverError` naming the worst coordinate.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..exceptions import SolverError

__all__ = ["BoxL1QPResult", "ImplicitDesign", "check_kkt", "kkt_violation", "solve_box_l1_qp"]

_MIN_WORKING_SET = 10


@dataclass(frozen=True)
class BoxL1QPResult:
    """Solution of :func:`solve_box_l1_qp`.

    ``alpha`` the coefficients, ``gradient`` F~'(F~ alpha - y) at the solution,
    ``max_violation`` the largest KKT violation (<= tol), ``n_sweeps`` coordinate sweeps
    over working sets, ``n_outer`` full-gradient evaluations, ``n_newton`` accepted
    face Newton steps.
    """

    alpha: np.ndarray
    gradient: np.ndarray
    max_violation: float
    n_sweeps: int
    n_outer: int
    n_newton: int


# Columns per chunk of the dense squared norms (bounded temporaries).
_CHUNK_ELEMENTS = 2_000_000


class ImplicitDesign:
    """The matrix F~ = (F - 1 center') / scale, represented by F, center and scale.

    ``F`` is a dense array or a scipy.sparse matrix (kept sparse, stored as CSC);
    ``center`` and ``scale`` are length-d arrays (default 0 and 1). Columns whose
    squared norm ||F~_j||^2 is not positive are never moved from 0 by the solver.
    """

    def __init__(self, F, center=None, scale=None):
        if sp.issparse(F):
            F = sp.csc_matrix(F, dtype=np.float64, copy=False)
            F.sum_duplicates()
            F.sort_indices()
            self.sparse = True
        else:
            F = np.asfortranarray(F, dtype=np.float64)
            if F.ndim != 2:
                raise ValueError(f"F must be a 2-D matrix; got shape {F.shape}.")
            self.sparse = False
        self.F = F
        self.n, self.d = F.shape
        self.center = np.zeros(self.d) if center is None else np.asarray(center, dtype=np.float64)
        self.scale = np.ones(self.d) if scale is None else np.asarray(scale, dtype=np.float64)
        if self.center.shape != (self.d,) or self.scale.shape != (self.d,):
            raise ValueError(
                f"center and scale need one entry per column of F ({self.d}); got shapes "
                f"{self.center.shape} and {self.scale.shape}."
            )
        if not (np.isfinite(self.scale).all() and (self.scale > 0).all()):
            raise ValueError("scale must be finite and positive for every column of F.")
        self.colsum = np.asarray(F.sum(axis=0)).ravel()
        self.sq_norm = self._squared_norms()

    def _squared_norms(self):
        """||F_j - m_j 1||^2 / s_j^2 per column, formed from F_j / s_j so that it cannot
        overflow for large entries (x ~ 1e160 has x^2 = inf); clipped at 0 against rounding."""
        if self.sparse:
            scaled = self.F @ sp.diags_array(1.0 / self.scale)
            sumsq = np.asarray(scaled.multiply(scaled).sum(axis=0)).ravel()
            shift = self.center / self.scale
            return np.maximum(
                sumsq - 2.0 * shift * self.colsum / self.scale + self.n * shift ** 2, 0.0)
        out = np.empty(self.d)
        step = max(1, _CHUNK_ELEMENTS // max(self.n, 1))
        for lo in range(0, self.d, step):
            block = (self.F[:, lo:lo + step] - self.center[lo:lo + step]) / self.scale[lo:lo + step]
            out[lo:lo + step] = np.einsum("ij,ij->j", block, block)
        return out

    def column(self, j):
        """Stored entries of column j of F: (row index, values); a slice for dense F."""
        if self.sparse:
            lo, hi = self.F.indptr[j], self.F.indptr[j + 1]
            return self.F.indices[lo:hi], self.F.data[lo:hi]
        return slice(None), self.F[:, j]

    def residual(self, alpha, y):
        """(w, c) with F~ alpha - y = w + c 1, computed from scratch."""
        v = alpha / self.scale
        return np.asarray(self.F @ v).ravel() - y, -float(self.center @ v)

    def gradient(self, w, c, columns=None):
        """F~'(w + c 1) for all columns or the given column indices."""
        total = w.sum() + self.n * c
        if columns is None:
            Ftw = np.asarray(self.F.T @ w).ravel()
            return (Ftw + c * self.colsum - self.center * total) / self.scale
        Ftw = np.asarray(self.F[:, columns].T @ w).ravel()
        return (Ftw + c * self.colsum[columns] - self.center[columns] * total) / self.scale[columns]

    def dense_columns(self, columns):
        """F~[:, columns] as a dense array (for the small face systems only)."""
        block = self.F[:, columns]
        block = block.toarray() if self.sparse else np.asarray(block)
        return (block - self.center[columns]) / self.scale[columns]


def kkt_violation(alpha, gradient, epsilon, C):
    """Per-coordinate violation of the KKT conditions (see the module docstring); 0 iff optimal."""
    a, g = alpha, gradient
    at_upper = a >= C
    at_lower = a <= -C
    free_pos = (a > 0) & ~at_upper
    free_neg = (a < 0) & ~at_lower
    viol = np.maximum(np.abs(g) - epsilon, 0.0)  # a_j = 0
    viol = np.where(free_pos, np.abs(g + epsilon), viol)
    viol = np.where(free_neg, np.abs(g - epsilon), viol)
    viol = np.where(at_upper, np.maximum(g + epsilon, 0.0), viol)
    return np.where(at_lower, np.maximum(epsilon - g, 0.0), viol)


def check_kkt(design, y, alpha, epsilon, C, tol):
    """Verify a solution from a freshly computed residual; return (gradient, max violation).

    ``C`` is a number or one bound per coordinate. Also checks the box. Raises
    :class:`SolverError` naming the worst coordinate when a condition is violated by
    more than ``tol``.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    if alpha.shape != (design.d,) or not np.isfinite(alpha).all():
        raise SolverError(f"P-SVM QP solution has shape {alpha.shape} or non-finite entries.")
    C = np.broadcast_to(np.asarray(C, dtype=np.float64), (design.d,))
    outside = np.abs(alpha) - C
    if outside.max(initial=-np.inf) > 0:
        j = int(np.argmax(outside))
        raise SolverError(
            f"P-SVM QP solution leaves the box |alpha_j| <= C_j: alpha_{j} = {alpha[j]:.6g}, "
            f"C_{j} = {C[j]:g}."
        )
    w, c = design.residual(alpha, y)
    gradient = design.gradient(w, c)
    viol = kkt_violation(alpha, gradient, epsilon, C)
    viol[design.sq_norm <= 0] = 0.0  # zero columns: any alpha_j is optimal, solver keeps 0
    j = int(np.argmax(viol)) if viol.size else 0
    worst = float(viol[j]) if viol.size else 0.0
    if worst > tol:
        raise SolverError(
            f"P-SVM QP solution violates its KKT conditions: coordinate {j} has "
            f"alpha = {alpha[j]:.6g} and gradient F~'(F~ alpha - y) = {gradient[j]:.6g} "
            f"(epsilon = {epsilon:g}, C_j = {C[j]:g}); violation {worst:.3g} > tol {tol:.3g}. "
            "Increase max_iter or loosen tol."
        )
    return gradient, worst


def _validate(design, y, epsilon, C, alpha0):
    y = np.asarray(y, dtype=np.float64).ravel()
    if y.shape != (design.n,):
        raise ValueError(f"y has {y.size} entries but F has {design.n} rows.")
    if not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinite values.")
    if not (np.isfinite(epsilon) and epsilon >= 0):
        raise ValueError(f"epsilon must be a finite number >= 0; got {epsilon!r}.")
    C = np.broadcast_to(np.asarray(C, dtype=np.float64), (design.d,))
    if C.size and not (C > 0).all():
        raise ValueError("C must be positive (np.inf for no box), one number or one per column.")
    if alpha0 is None:
        alpha = np.zeros(design.d)
    else:
        alpha = np.clip(np.asarray(alpha0, dtype=np.float64).copy(), -C, C)
        if alpha.shape != (design.d,):
            raise ValueError(f"alpha0 must have one entry per column ({design.d}).")
        alpha[design.sq_norm <= 0] = 0.0
    return y, alpha, C


def _pattern(alpha, C):
    """Sign/bound pattern of coefficients: -2 at -C, -1 free negative, 0, 1, 2 at C."""
    return np.sign(alpha).astype(np.int8) * (1 + (np.abs(alpha) >= C))


class _Sweeper:
    """Coordinate sweeps over one working set, keeping w, c and sum(w) up to date."""

    def __init__(self, design, alpha, w, c, columns, epsilon, C):
        self.design, self.alpha, self.w, self.c = design, alpha, w, c
        self.sum_w = float(w.sum())
        self.columns = columns[design.sq_norm[columns] > 0]
        self.entries = [design.column(j) for j in self.columns]
        self.epsilon, self.C = epsilon, C

    def sweep(self):
        des, a, w, eps, C, n = self.design, self.alpha, self.w, self.epsilon, self.C, self.design.n
        for j, (rows, vals) in zip(self.columns, self.entries):
            m_j, s_j, q_j, C_j = des.center[j], des.scale[j], des.sq_norm[j], C[j]
            g = (vals @ w[rows] + self.c * des.colsum[j] - m_j * (self.sum_w + n * self.c)) / s_j
            z = a[j] - g / q_j
            new = min(max(np.sign(z) * max(abs(z) - eps / q_j, 0.0), -C_j), C_j)
            delta = new - a[j]
            if delta != 0.0:
                step = delta / s_j
                w[rows] += step * vals
                self.sum_w += step * des.colsum[j]
                self.c -= step * m_j
                a[j] = new

    def violation(self):
        g = self.design.gradient(self.w, self.c, self.columns)
        return g, kkt_violation(self.alpha[self.columns], g, self.epsilon, self.C[self.columns])

    def newton(self, gradient, y):
        """Step towards the exact minimiser of the QP on the current face; True if moved.

        The face fixes the zero and bound coefficients and the signs of the free ones;
        there the objective is the quadratic 1/2 a'Ga + (rhs - G a)'a with
        G = F~_free' F~_free and rhs = g_free + epsilon sign(a_free). If G is singular
        (collinear or linearly dependent columns) and rhs has a component p in its null
        space, the objective decreases linearly along -p without bound on the face, so
        the step follows -p to the first coefficient that reaches 0 or +-C. Otherwise
        the Newton step -G^+ rhs is taken, cut at the first such coefficient. A cut
        coefficient is set exactly to 0 or +-C. Either way the objective decreases and
        the iterate stays feasible, as in active-set methods.
        """
        a = self.alpha
        a_ws = a[self.columns]
        free = (a_ws != 0) & (np.abs(a_ws) < self.C[self.columns])
        if not free.any():
            return False
        cols = self.columns[free]
        a_free = a_ws[free]
        C = self.C[cols]
        sign = np.sign(a_free)
        A = self.design.dense_columns(cols)
        eigenvalues, U = np.linalg.eigh(A.T @ A)
        coords = U.T @ (gradient[free] + self.epsilon * sign)
        curved = eigenvalues > 1e-10 * max(eigenvalues.max(), 1.0)
        null_part = U[:, ~curved] @ coords[~curved]
        if np.abs(null_part).max(initial=0.0) > 1e-9 * max(1.0, np.abs(coords).max()):
            direction, full_step = -null_part, np.inf
        else:
            direction, full_step = -U[:, curved] @ (coords[curved] / eigenvalues[curved]), 1.0
        towards = sign * direction
        with np.errstate(divide="ignore", invalid="ignore"):
            to_zero = np.where(towards < 0, -a_free / direction, np.inf)
            to_bound = np.where(towards > 0, (sign * C - a_free) / direction, np.inf)
        limits = np.minimum(to_zero, to_bound)
        t = min(full_step, limits.min())
        if not (np.isfinite(t) and t > 0):
            return False
        candidate = a_free + t * direction
        if t < full_step:
            k = int(np.argmin(limits))
            candidate[k] = 0.0 if to_zero[k] <= to_bound[k] else sign[k] * C[k]
        a[cols] = np.clip(candidate, -C, C)
        self.w[:], self.c = self.design.residual(a, y)
        self.sum_w = float(self.w.sum())
        return True


def solve_box_l1_qp(F, y, epsilon, C=np.inf, *, center=None, scale=None, alpha0=None,
                    tol=1e-7, max_iter=10_000):
    """Solve  min 1/2 a'F~'F~a - y'F~a + epsilon ||a||_1  s.t. -C <= a <= C  (PSVM eq. 8/12).

    Parameters
    ----------
    F : ndarray or scipy.sparse matrix, shape (n, d)
        Feature values; sparse input is never densified.
    y : ndarray, shape (n,)
        Target (labels +-1 or a regression target).
    epsilon : float >= 0
        The l1 weight: constraint violations |g_j| <= epsilon are tolerated (PSVM eq. 6).
    C : float or ndarray of shape (d,), default=inf
        Box bound |a_j| <= C_j (redundancy control, PSVM eq. 12); ``np.inf`` for none.
    center, scale : ndarray of shape (d,), optional
        Implicit standardisation F~ = (F - 1 center') / scale.
    alpha0 : ndarray of shape (d,), optional
        Warm start (clipped to the box).
    tol : float, default=1e-7
        Stop when every KKT violation is at most ``tol`` (in the units of the gradient
        F~'(F~a - y), i.e. of epsilon).
    max_iter : int, default=10000
        Maximum number of coordinate sweeps (over working sets).

    Returns
    -------
    BoxL1QPResult

    Raises
    ------
    SolverError
        If the returned solution fails the KKT verification (e.g. max_iter too small).
    """
    design = F if isinstance(F, ImplicitDesign) else ImplicitDesign(F, center, scale)
    epsilon = float(epsilon)
    y, alpha, C = _validate(design, y, epsilon, C, alpha0)
    movable = design.sq_norm > 0
    n_sweeps = n_outer = n_newton = 0
    ws_size = _MIN_WORKING_SET
    while n_sweeps < max_iter:
        n_outer += 1
        w, c = design.residual(alpha, y)
        viol = kkt_violation(alpha, design.gradient(w, c), epsilon, C)
        viol[~movable] = 0.0
        worst = viol.max(initial=0.0)
        if worst <= tol:
            break
        nonzero = np.flatnonzero(alpha)
        ws_size = max(ws_size, 2 * nonzero.size, _MIN_WORKING_SET)
        violators = np.flatnonzero((viol > tol) & (alpha == 0))
        if violators.size > ws_size - nonzero.size:
            keep = max(ws_size - nonzero.size, 1)
            violators = violators[np.argpartition(-viol[violators], keep - 1)[:keep]]
        columns = np.union1d(nonzero, violators)
        sweeper = _Sweeper(design, alpha, w, c, columns, epsilon, C)
        inner_tol = max(tol, 0.3 * worst)
        C_ws = C[sweeper.columns]
        previous = _pattern(alpha[sweeper.columns], C_ws)
        while n_sweeps < max_iter:
            sweeper.sweep()
            n_sweeps += 1
            gradient, inner = sweeper.violation()
            if inner.max(initial=0.0) <= inner_tol:
                break
            pattern = _pattern(alpha[sweeper.columns], C_ws)
            if np.array_equal(pattern, previous) and sweeper.newton(gradient, y):
                n_newton += 1
                if sweeper.violation()[1].max(initial=0.0) <= inner_tol:
                    break
            previous = pattern
        ws_size *= 2
    gradient, worst = check_kkt(design, y, alpha, epsilon, C, tol)
    return BoxL1QPResult(alpha, gradient, worst, n_sweeps, n_outer, n_newton)
