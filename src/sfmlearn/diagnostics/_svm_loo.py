"""Exact leave-one-out decisions of linear SVMs, computed from the Gram matrix.

The SVM dual  min_a 1/2 a'Qa - 1'a  s.t.  y'a = 0, 0 <= a <= C,  Q = diag(y) K diag(y),
depends on the data only through the Gram matrix K, so n samples in d = 10^5 dimensions
cost no more than n samples in n dimensions once K (or any E with E E' = K) is known.

Given the partition of the samples into free support vectors F (0 < a < C, margin 1),
bound ones B (a = C) and the rest Z (a = 0), the optimum solves the linear system

    [Q_FF  y_F] [a_F]   [1 - C Q_FB 1]
    [y_F'   0 ] [ b ] = [  -C y_B' 1 ]

(b is the bias). Leave-one-out then needs no new QP when the partition survives the
removal of sample i (what almost always happens when d >> n):

* i in Z: the full solution stays optimal (an inactive constraint was dropped);
* i in F: delete row/column i of the system: with G = M^-1 and v = M^-1 r,
  the reduced solution is v - G[:, i] v_i / G_ii (bordering identity);
* i in B: the right-hand side loses i's term: v + C G [Q_Fi; y_i].

A partition is only accepted if its solution satisfies the KKT conditions of its own
problem (box, balance, margins of all samples), which proves optimality of the convex
QP. When the shortcut's partition is wrong, primal-dual active-set steps from it
usually find the right one in a few linear solves; when they do not, LIBSVM's SMO
proposes a partition, and as the last resort sfmlearn's own certified SVM solver
(:func:`sfmlearn.optim.linear_svm`: the exact hard-margin solver, or the interior
point for the soft margin) solves the primal on the coordinates E. Every answer passes
the same KKT check, except on degenerate problems (no unique multipliers, e.g. w = 0),
where that solver's certified primal solution is used as it is.
The squared-hinge (2-norm) soft margin is the hard margin on the kernel K + I/C
(thesis eq. 2.5).
"""

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from ..optim import linear_svm

__all__ = ["svm_loo_decisions", "LOSSES"]

LOSSES = ("hinge", "squared_hinge")

#: Relative tolerance of the KKT checks (margins are O(1); multipliers are compared
#: with their largest value).
KKT_TOL = 1e-7
#: Margin distance within which a sample of an approximate solution counts as on the margin.
_ON_MARGIN = 1e-5
_MAX_COND = 1e12
_MAX_ACTIVE_SET_ITER = 25
#: LIBSVM needs a finite C; a hard margin is a soft one whose multipliers never reach it.
_HARD_C = 1e10
_LIBSVM_MAX_ITER = 100_000


@dataclass
class _Solution:
    """A verified SVM optimum on a sample subset: partition, multipliers, bias, inverse."""

    free: np.ndarray
    bound: np.ndarray
    a: np.ndarray
    b: float
    G: np.ndarray
    v: np.ndarray


def _kkt_ok(Kt, y, box, A, b, exclude=None):
    """Which columns (a, b) of ``A``/``b`` satisfy the SVM's KKT conditions.

    ``exclude[c]`` is the left-out sample of column c (its row is ignored and must hold 0).
    """
    scale = max(float(np.max(A, initial=0.0)), np.finfo(float).tiny)
    a_tol = KKT_TOL * scale
    with np.errstate(invalid="ignore", over="ignore"):
        margins = y[:, None] * (Kt @ (A * y[:, None]) + b[None, :])
        low = A <= a_tol
        high = A >= box - a_tol if np.isfinite(box) else np.zeros_like(low)
        violated = (
            (A < -a_tol) | (A > box + a_tol)
            | (low & (margins < 1 - KKT_TOL))
            | (high & (margins > 1 + KKT_TOL))
            | (~low & ~high & (np.abs(margins - 1) > KKT_TOL))
        )
    if exclude is not None:
        cols = np.arange(A.shape[1])
        violated[exclude, cols] = A[exclude, cols] != 0
    balance = np.abs(y @ A) > KKT_TOL * scale * y.size
    ok = ~(violated.any(axis=0) | balance)
    return ok & np.isfinite(A).all(axis=0) & np.isfinite(b)


def _partition_solution(Kt, y, box, free, bound):
    """Solve the partition's KKT system; a :class:`_Solution` (unverified) or None if singular."""
    yf = y[free]
    p = yf.size
    if p == 0:
        return _no_free_solution(Kt, y, box, bound)
    M = np.zeros((p + 1, p + 1))
    M[:p, :p] = (yf[:, None] * yf[None, :]) * Kt[np.ix_(free, free)]
    M[:p, p] = yf
    M[p, :p] = yf
    r = np.zeros(p + 1)
    r[:p] = 1.0
    if bound.size:
        r[:p] -= box * yf * (Kt[np.ix_(free, bound)] @ y[bound])
        r[p] = -box * y[bound].sum()
    if np.linalg.cond(M) > _MAX_COND:
        return None
    G = np.linalg.inv(M)
    v = G @ r
    a = np.zeros(y.size)
    a[free] = v[:-1]
    a[bound] = box
    return _Solution(free, bound, a, float(v[-1]), G, v)


def _no_free_solution(Kt, y, box, bound):
    """Every support vector at the bound: a is fixed, b is any value in the KKT interval.

    Then the optimal bias is not unique; like LIBSVM we take the middle of the
    interval allowed by the margins (bound samples inside, the others outside).
    """
    if bound.size == 0 or abs(y[bound].sum()) > 0:  # sum_i y_i a_i = 0 needs balanced bounds
        return None
    a = np.zeros(y.size)
    a[bound] = box
    g = Kt @ (a * y)
    at_bound = np.zeros(y.size, dtype=bool)
    at_bound[bound] = True
    # y_j (g_j + b) <= 1 on B and >= 1 elsewhere, as bounds on b.
    upper_side = (y > 0) == at_bound
    limits = y - g  # the b at which sample j's margin is exactly 1
    lo = np.max(limits[~upper_side], initial=-np.inf)
    hi = np.min(limits[upper_side], initial=np.inf)
    if lo > hi or not np.isfinite(lo + hi):
        return None
    return _Solution(np.array([], dtype=int), bound, a, 0.5 * (lo + hi), None, None)


def _active_set(Kt, y, box, status, max_iter=_MAX_ACTIVE_SET_ITER):
    """Primal-dual active-set steps from a guessed partition; a verified solution or None.

    ``status`` holds 0 (Z), 1 (F) or 2 (B) per sample. Each step solves the partition's
    KKT system, then moves every violator: negative multipliers to Z, multipliers
    above C to B, samples of Z inside the margin and of B outside it to F.
    """
    status = status.copy()
    for _ in range(max_iter):
        sol = _partition_solution(Kt, y, box, np.flatnonzero(status == 1), np.flatnonzero(status == 2))
        if sol is None:
            return None
        if _kkt_ok(Kt, y, box, sol.a[:, None], np.array([sol.b]))[0]:
            return sol
        margins = y * (Kt @ (sol.a * y) + sol.b)
        new = status.copy()
        new[(status == 1) & (sol.a < 0)] = 0
        new[(status == 1) & (sol.a > box)] = 2
        new[(status == 0) & (margins < 1)] = 1
        new[(status == 2) & (margins > 1)] = 1
        if np.array_equal(new, status):
            return None
        status = new
    return None


def _status_from_margins(margins, box):
    status = np.zeros(margins.size, dtype=np.int8)
    status[np.abs(margins - 1) <= _ON_MARGIN] = 1
    if np.isfinite(box):
        status[margins < 1 - _ON_MARGIN] = 2
    return status


def _libsvm_status(Kt, y, box):
    """Partition proposed by LIBSVM's SMO on the precomputed kernel."""
    model = SVC(kernel="precomputed", C=box if np.isfinite(box) else _HARD_C, tol=1e-10,
                max_iter=_LIBSVM_MAX_ITER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a guess only; verified after
        decision = model.fit(Kt, y).decision_function(Kt)
    return _status_from_margins(y * decision, box)


def _solve(Kt, Et, y, box, start):
    """The SVM optimum on (Kt, y), searching from partition ``start``.

    Order: active-set steps from ``start``; from LIBSVM's partition; from the partition
    of the primal solution of :func:`~sfmlearn.optim.linear_svm`. These return a
    KKT-verified :class:`_Solution`. On degenerate problems (singular systems, e.g.
    w = 0 or several optimal multiplier vectors) none of them verifies, and that primal
    solution (w, b), which ``linear_svm`` certifies, is returned as a tuple.
    Raises NotSeparableError for an infeasible hard margin.
    """
    sol = _active_set(Kt, y, box, start)
    if sol is None:
        sol = _active_set(Kt, y, box, _libsvm_status(Kt, y, box))
    if sol is None:
        slack = None if not np.isfinite(box) else np.full(y.size, box)
        w, b = linear_svm(Et, y, slack_cost=slack)
        sol = _active_set(Kt, y, box, _status_from_margins(y * (Et @ w + b), box)) or (w, b)
    return sol


def _shortcut(Kt, y, box, full):
    """Leave-one-out candidates (columns of A, biases) for every support vector."""
    free, bound, G, v = full.free, full.bound, full.G, full.v
    if G is None:  # no free support vector: no system to update
        return np.array([], dtype=int), np.zeros((y.size, 0)), np.zeros(0)
    p = free.size
    with np.errstate(divide="ignore", invalid="ignore"):
        U_free = (v[:, None] - G * (v / np.diag(G))[None, :])[:, :p]  # column t: drop free[t]
    if bound.size:
        rhs = np.vstack([(y[free][:, None] * y[bound][None, :]) * Kt[np.ix_(free, bound)], y[bound]])
        U_bound = v[:, None] + box * (G @ rhs)
    else:
        U_bound = np.zeros((p + 1, 0))
    U = np.hstack([U_free, U_bound])
    candidates = np.concatenate([free, bound])
    A = np.zeros((y.size, candidates.size))
    A[free] = U[:p]
    A[bound] = box
    A[candidates, np.arange(candidates.size)] = 0.0
    return candidates, A, U[p]


def svm_loo_decisions(E, y, *, C=None, loss="hinge"):
    """Decision value f_{-i}(x_i) of the linear SVM trained without sample i, for every i.

    Parameters
    ----------
    E : ndarray (n, r)
        Coordinates of the samples in any basis preserving inner products (the data
        itself, or a factor of its Gram matrix).
    y : ndarray (n,) of -1/+1
    C : float or None
        None for the hard margin, else the softness.
    loss : {"hinge", "squared_hinge"}
        One-norm (box 0 <= a <= C) or two-norm (kernel K + I/C) soft margin.

    Returns
    -------
    decisions : ndarray (n,)
    n_solved : int
        How many leave-one-out problems needed their own solve (the rest used the
        exact shortcut).

    Raises :class:`~sfmlearn.exceptions.NotSeparableError` when a hard-margin training
    set is not linearly separable.
    """
    n = y.size
    # Rescale to mean squared norm 1: the kernel K/s has multipliers s a, box s C, the
    # same bias and the same decision values, and keeps the KKT systems well conditioned
    # at any d.
    s = float(np.mean(np.einsum("ij,ij->i", E, E)))
    E = E / np.sqrt(s)
    K = E @ E.T
    if C is not None and loss == "squared_hinge":
        Kt, Et, box = K + np.eye(n) / (C * s), np.hstack([E, np.eye(n) / np.sqrt(C * s)]), np.inf
    else:
        Kt, Et, box = K, E, (np.inf if C is None else float(C) * s)

    decisions = np.full(n, np.nan)
    status = np.ones(n, dtype=np.int8)
    pending = np.arange(n)
    full = _solve(Kt, Et, y, box, status)
    if isinstance(full, _Solution):
        zero = np.setdiff1d(np.arange(n), np.concatenate([full.free, full.bound]))
        decisions[zero] = K[zero] @ (full.a * y) + full.b
        candidates, A, bias = _shortcut(Kt, y, box, full)
        ok = _kkt_ok(Kt, y, box, A, bias, exclude=candidates)
        decisions[candidates[ok]] = np.einsum("cl,lc->c", K[candidates[ok]] * y, A[:, ok]) + bias[ok]
        pending = np.setdiff1d(np.arange(n), np.concatenate([zero, candidates[ok]]))
        status[:] = 0
        status[full.free] = 1
        status[full.bound] = 2
    for i in pending:
        keep = np.arange(n) != i
        sol = _solve(Kt[np.ix_(keep, keep)], Et[keep], y[keep], box, status[keep])
        if isinstance(sol, _Solution):
            decisions[i] = K[i, keep] @ (sol.a * y[keep]) + sol.b
        else:
            w, b = sol
            decisions[i] = E[i] @ w[:E.shape[1]] + b
    return decisions, int(pending.size)
