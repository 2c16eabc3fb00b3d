"""The hard-margin linear SVM, exactly: Wolfe's nearest points of the two class hulls.

    minimise 1/2 ||w||^2   s.t.   y_i (w . x_i + b) >= 1

has solutions with ||w|| of 1e5-1e6 at unit data scale when the margin is thin, where
an interior point (:mod:`.qp`) cannot certify its answer (it fails on 4-10 % of the
SFM refits of repetitive-SFM runs, ``benchmarks/bench_refit_fallbacks.py``). Its
dual is, up to a scale factor, the nearest-point problem of the two class hulls
(Bennett & Bredensteiner 2000; Keerthi et al. 2000): with z_i = y_i x_i,

    min ||sum_i beta_i z_i||   s.t.  beta >= 0,  sum_{y_i > 0} beta_i = sum_{y_i < 0} beta_i = 1,

whose optimum x gives w = 2 x / ||x||^2 and whose support is the SVM's. Its variables
stay bounded however thin the margin. Wolfe's (1976) nearest-point algorithm solves
it exactly by a finite sequence of small least-squares problems on a set S of
affinely independent points (the "corral"), which ends as the support vectors.

Precision: x is ~1e-6 of the data in norm on thin margins, so its products z_i . x
lose digits (rounding eps |z|^2 against |x|^2). The choice of the sample that
enters S is therefore made on the margins of the SVM hyperplane of S, solved from
the margin equations of S in the SVM's own scale, whose rounding is eps |z| ||w||.
The weights of S, which decide which samples leave it, come from the affine
least-norm problem, a well-conditioned least-squares problem in any case.

**Two phases.** Wolfe's loop adds one sample per major step and solves two small
least-squares problems (QR) per step: about 50 steps per refit of the repetitive SFM at
88 x 6362 (a median of 27 support vectors), most of them far from the optimum. The same loop
on the Gram matrix G = Z Z^T (each step a bordered (|S| + 2)-square solve on G_SS)
squares the rounding but finds the corral cheaply; the loop above then starts from it
and usually ends after one step, which decides, in the SVM's own scale, whether the
corral is optimal. A corral that rounding spoiled only makes that second phase longer:
the answer is the same exact loop's. On the 215 refits of a repetitive-SFM run at
88 x 6362: CPU 1.9-3.2 s instead of 5.8-9.2 s for the exact phase alone (2.8-3.2x in
five runs), one exact step after the Gram phase in every refit, hyperplanes equal to
6.5e-10 relative (``benchmarks/bench_repetitive.py --part refit``, which also prints the
steps of both loops and the support sizes).

**Start.** A caller that knows likely support vectors passes them (``start``): the SFM
passes the samples its last LP left on the margin, and the Gram phase then only adds
the few that are missing (:func:`_start_corral`, which has the numbers).

**Units.** The loop runs on data without offset (:mod:`.conditioning`: data far from
the origin compared with their spread are centred; the bias takes the shift back) and,
when their magnitude is beyond 2^+-20, multiplied by the power of two that brings it
near 1, which is exact: the SVM of f X is (w / f, b) with multipliers alpha / f^2. The
affine systems mix the data with the unit labels and margins, and at 1e-15 the
multipliers were lost to the rank cut of the least-squares solve. Other data are solved
as given.

The answer is certified before it is returned: every margin row, and the relative
duality gap to :data:`~.qp.KKT_TOL`.
"""

import numpy as np
import scipy.linalg as sla
from scipy.linalg.lapack import dgesv

from ..exceptions import SolverError
from ..lp.problems import HyperplaneLP, LPSolution, check_solution
from ._checks import check_svm_data
from ._threads import single_blas_thread
from .conditioning import bias_with_offset, remove_offset
from .qp import KKT_TOL, project_multipliers

__all__ = ["hard_margin_svm"]

#: Wolfe's algorithm ends when no sample has a margin below 1 - _MARGIN_TOL.
_MARGIN_TOL = 1e-9
#: Data of largest magnitude in [1 / _UNIT_RANGE, _UNIT_RANGE] are solved as given.
_UNIT_RANGE = 2.0**20


def hard_margin_svm(X, y, *, start=None):
    """The hard-margin linear SVM of linearly separable ``(X, y)``, certified.

    The multipliers are alpha; ``info["duality_gap"]`` is the relative gap
    (P - D) / P of P = 1/2 ||w||^2 and D = sum_i alpha_i - 1/2 ||sum_i alpha_i y_i x_i||^2
    with every margin y_i (w . x_i + b) >= 1 (checked) and alpha >= 0,
    sum_i alpha_i y_i = 0. A gap above :data:`KKT_TOL` raises :class:`SolverError`
    (the margin is then too thin for double precision: ||w|| max_i |x_i| beyond ~1e9;
    the SFM refits that defeated the interior point reached 3e6); so do data that are
    not linearly separable or whose hulls are not apart by more than rounding.
    Separability is the caller's to check (:func:`~.svm.linear_svm` asks the LP).
    Non-finite X, labels other than -1 and +1 or one class only raise
    :class:`~sfmlearn.exceptions.DataValidationError`.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Linearly separable samples (sparse X is densified).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, both present.
    start : ndarray of bool of shape (n_samples,) or None, default=None
        Samples likely to be support vectors, e.g. those a sparse LP on the same
        features left on its margin: Wolfe's loop starts from them (weights uniform in
        each class) instead of from one sample per class (:func:`_start_corral`). Only
        the number of steps depends on it, not the answer.

    Returns
    -------
    LPSolution
        ``w``, ``b``, ``margin_duals`` and ``info["duality_gap"]``; ``info["steps"]``
        counts the major steps of the Gram phase and of the exact phase.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> from sfmlearn.optim import hard_margin_svm
    >>> solution = hard_margin_svm(X, y)
    >>> solution.w, round(solution.b, 6), solution.margin_duals
    (array([0.8, 0.4]), -1.8, array([0. , 0.4, 0.4, 0. ]))
    """
    X, y = check_svm_data(X, y, "hard_margin_svm")
    X, centre = remove_offset(X)
    factor = _unit_factor(X)
    solution = _nearest_points_svm(X * factor, y, start)
    solution.w *= factor
    solution.b = bias_with_offset(solution.w, solution.b, centre)
    solution.margin_duals *= factor**2
    solution.objective *= factor**2
    return solution


def _unit_factor(X):
    """1, or for X of largest magnitude beyond 2^+-20 the power of two that brings it
    to [0.5, 1) (module docstring, "Units")."""
    largest = float(np.abs(X).max())
    if largest == 0.0 or 1.0 / _UNIT_RANGE <= largest <= _UNIT_RANGE:
        return 1.0
    return 2.0 ** -np.frexp(largest)[1]


def _nearest_points_svm(X, y, start):
    """The certified hard-margin SVM of checked (X, y) by Wolfe's two phases."""
    positive = y > 0
    Z = X * y[:, None]
    n, k = Z.shape
    max_iter = 10 * (n + k) + 100
    with single_blas_thread():
        gram = _GramGeometry(Z, y)
        (S, beta, _), gram_steps = _wolfe(gram, positive, _start_corral(gram, positive, start),
                                          max_iter)
        (S, _, (w, b)), exact_steps = _wolfe(_ExactGeometry(Z, y), positive, (S, beta), max_iter)
        alpha_S = _least_squares(np.vstack([Z[S].T, y[S]]), np.r_[w, 0.0])
    alpha = np.zeros(n)
    alpha[S] = alpha_S
    solution = _certify_hard_margin(X, y, w, b, alpha)
    solution.info["steps"] = {"gram": gram_steps, "exact": exact_steps}
    return solution


def _argmin_in(values, mask):
    return int(np.flatnonzero(mask)[np.argmin(values[mask])])


def _start_corral(gram, positive, start):
    """The corral (S, beta) Wolfe's loop starts from: the ``start`` samples with weights
    uniform in each class, when they hold both classes and their affine system is
    regular; else :func:`_first_corral`.

    The SFM's refit passes the samples its last LP left on the margin (positive margin
    multipliers). On the 215 refits of a repetitive-SFM run at 88 x 6362 (a median of
    26 such samples, and of 27 support vectors) the Gram phase took 14.2 major steps on
    average instead of 50.5, with the same single exact step after it, and CPU
    0.92-1.25 s instead of 2.01-2.68 s in two runs; the hyperplanes agreed to 3.2e-10
    (``benchmarks/bench_repetitive.py --part refit``)."""
    if start is not None:
        S = np.flatnonzero(start)
        in_class = positive[S]
        if in_class.any() and not in_class.all():
            beta = np.where(in_class, 1.0 / in_class.sum(), 1.0 / (~in_class).sum())
            if gram.affine_weights(S, positive) is not None:
                return S, beta
    return _first_corral(gram.Z, positive)


def _first_corral(Z, positive):
    """Wolfe's start (S, beta): in each class the sample least along z-bar_+ + z-bar_-
    (the sum of the class means of z_i = y_i x_i), weight 1."""
    projection = Z @ (Z[positive].mean(axis=0) + Z[~positive].mean(axis=0))
    return np.array([_argmin_in(projection, positive), _argmin_in(projection, ~positive)]), np.ones(2)


def _wolfe(geometry, positive, corral, max_iter):
    """Wolfe's algorithm on conv{z_i : y_i > 0} + conv{z_i : y_i < 0} from ``corral``
    (S, beta); ``((S, beta, plane), major steps)`` of the best corral found, ``plane``
    the exact geometry's (w, b) (None for the Gram geometry's).

    The corral S carries weights beta > 0 summing to 1 in each class. Minor cycles:
    move beta towards the affine least-norm weights mu of S until a weight reaches 0,
    drop that sample, repeat until mu > 0 (then beta = mu). Major step: the hyperplane
    of S (``geometry.plane``: its ||w||^2 and every sample's margin); the sample of
    least margin joins S unless its margin is >= 1 - _MARGIN_TOL (then S is optimal).
    ||w|| grows strictly in exact arithmetic; when it stops growing, or the geometry
    cannot solve for S, rounding has the last word and the loop ends with the best
    corral found (the exact phase continues from it; the certificate judges the end).
    """
    S, beta = corral
    best, steps = None, 0
    for steps in range(1, max_iter + 1):
        while True:
            mu = geometry.affine_weights(S, positive)
            if mu is None:  # the Gram phase only: rounding decides
                return (best or (S, beta, None, None))[:3], steps
            if np.all(mu > 0):
                beta = mu
                break
            shrink = mu <= 0
            ratios = beta[shrink] / np.maximum(beta[shrink] - mu[shrink], np.finfo(float).tiny)
            beta = beta + ratios.min() * (mu - beta)
            keep = beta > 0
            keep[np.flatnonzero(shrink)[np.argmin(ratios)]] = False
            S, beta = S[keep], beta[keep]
        norm, margins, plane = geometry.plane(S, beta)
        if best is not None and not norm > best[3]:
            break
        best = (S, beta, plane, norm)
        lowest = int(np.argmin(margins))
        if margins[lowest] >= 1 - _MARGIN_TOL or lowest in S:
            break
        S, beta = np.append(S, lowest), np.append(beta, 0.0)
    return best[:3], steps


class _ExactGeometry:
    """The loop in the data's own coordinates (module docstring, "Precision")."""

    def __init__(self, Z, y):
        self.Z, self.y = Z, y

    def affine_weights(self, S, positive):
        return _affine_weights(self.Z, S, positive)

    def plane(self, S, beta):
        w, b = _margin_plane(self.Z, self.y, S, S[np.argmax(beta)])
        return float(w @ w), self.Z @ w + self.y * b, (w, b)


class _GramGeometry:
    """The loop on G = Z Z^T: x = sum_S beta_s z_s, z_i . x = (G_S beta)_i; the SVM
    plane is w = 2 x / ||x||^2 (so ||w||^2 = 4 / ||x||^2) with b from the margin of the
    heaviest member of S. Cheap, but its rounding is eps |z|^2 against ||x||^2.

    Only the rows of G of samples that have been in S are formed (one product Z z_s
    each, kept): a refit of 10^4 samples never holds the 10^4 x 10^4 matrix."""

    def __init__(self, Z, y):
        self.Z, self.y = Z, y
        self.slot = np.full(Z.shape[0], -1)
        self.rows = np.empty((0, Z.shape[0]))

    def _rows(self, S):
        """G_S (rows of G for the samples S), computing the rows not formed yet."""
        new = S[self.slot[S] < 0]
        if new.size:
            start = self.rows.shape[0]
            self.slot[new] = start + np.arange(new.size)
            self.rows = np.vstack([self.rows, self.Z[new] @ self.Z.T])
        return self.rows[self.slot[S]]

    def affine_weights(self, S, positive):
        """mu of the least-norm point of the affine hull of S: the bordered system
        [G_SS E; E^T 0] [mu; nu] = [0; 1] with E the class indicators of S; None if singular."""
        k = S.size
        kkt = np.zeros((k + 2, k + 2))
        kkt[:k, :k] = self._rows(S)[:, S]
        kkt[:k, k] = positive[S]
        kkt[:k, k + 1] = ~positive[S]
        kkt[k:, :k] = kkt[:k, k:].T
        rhs = np.zeros(k + 2)
        rhs[k:] = 1.0
        *_, solution, info = dgesv(kkt, rhs)  # LAPACK directly: these systems are tiny
        mu = solution[:k]
        return mu if info == 0 and np.isfinite(mu).all() else None

    def plane(self, S, beta):
        along = beta @ self._rows(S)  # G is symmetric: (G_S)^T beta
        squared = float(beta @ along[S])
        if not squared > 0:  # the hulls touch to rounding: the Gram phase ends here
            return -np.inf, np.full(along.size, np.inf), None
        anchor = S[np.argmax(beta)]
        b = self.y[anchor] * (1.0 - 2.0 * along[anchor] / squared)
        return 4.0 / squared, 2.0 * along / squared + self.y * b, None


def _affine_weights(Z, S, positive):
    """Weights mu (summing to 1 in each class) of the least-norm point of the affine hull.

    With anchors p, q (the first member of each class) the points of the affine hull
    are z_p + z_q + sum_t tau_t (z_t - z_anchor(t)): a least-squares problem in tau.
    """
    in_class = positive[S]
    p, q = int(np.argmax(in_class)), int(np.argmax(~in_class))
    rest = np.ones(S.size, dtype=bool)
    rest[[p, q]] = False
    mu = np.ones(S.size)
    if rest.any():
        D = (Z[S[rest]] - Z[np.where(in_class[rest], S[p], S[q])]).T
        tau = _least_squares(D, -(Z[S[p]] + Z[S[q]]))
        mu[rest] = tau
        mu[p] -= tau[in_class[rest]].sum()
        mu[q] -= tau[~in_class[rest]].sum()
    return mu


def _margin_plane(Z, y, S, anchor):
    """The least-norm w, and b, with y_s (w . x_s + b) = 1 for every s in S.

    The anchor's row gives b = y_a (1 - z_a . w); the others become
    (z_s - y_s y_a z_a) . w = 1 - y_s y_a, solved for the least-norm w (backward
    stable: the margins hold to rounding eps |z| ||w||).
    """
    others = S[S != anchor]
    sign = y[others] * y[anchor]
    w = _least_squares(Z[others] - sign[:, None] * Z[anchor], 1.0 - sign)
    return w, float(y[anchor] * (1.0 - Z[anchor] @ w))


def _least_squares(A, rhs):
    """Least-squares (tall A) or least-norm (wide A) solution of A u = rhs, refined once;
    by Householder QR when A has full rank, else by the SVD."""
    m, r = A.shape
    wide = r > m
    Q, R = np.linalg.qr(A.T if wide else A)
    diagonal = np.abs(np.diag(R))
    if diagonal.size == 0 or diagonal.min() <= 1e-13 * diagonal.max():
        u = np.linalg.lstsq(A, rhs, rcond=None)[0]
        return u + np.linalg.lstsq(A, rhs - A @ u, rcond=None)[0]

    def solve(v):
        if wide:  # least norm: u = Q R^-T v
            return Q @ sla.solve_triangular(R, v, trans="T", check_finite=False)
        return sla.solve_triangular(R, Q.T @ v, check_finite=False)

    u = solve(rhs)
    return u + solve(rhs - A @ u)


def _certify_hard_margin(X, y, w, b, alpha):
    """Scale (w, b) onto the feasible side, check every row and the duality gap."""
    margins = y * (X @ w + b)
    lowest = float(margins.min())
    if not lowest > 0.5:
        raise SolverError(
            f"The hard-margin SVM solution violates a margin row (y (w.x + b) = {lowest:.3g} "
            "< 1): the classes are not linearly separable, or their hulls are not apart by "
            "more than rounding. hard_margin_svm needs separable data: linear_svm(X, y) tests "
            "separability first (NotSeparableError if there is none), and "
            "linear_svm(X, y, slack_cost=np.full(len(y), C)) fits a soft margin.",
            status="not optimal",
        )
    w, b = w / min(1.0, lowest), b / min(1.0, lowest)
    alpha = project_multipliers(alpha, y, np.inf, True)
    primal = 0.5 * float(w @ w)
    g = X.T @ (alpha * y)
    dual = float(alpha.sum()) - 0.5 * float(g @ g)
    gap = (primal - dual) / primal
    problem = HyperplaneLP(X, y, np.zeros(X.shape[1]), 1.0)
    solution = check_solution(problem, LPSolution(
        "optimal", w=w, b=float(b), margin_duals=alpha, engine="hull-svm",
        info={"duality_gap": gap},
    ))
    solution.objective = primal
    if not gap <= KKT_TOL:
        raise SolverError(
            f"The hard-margin SVM solution fails its optimality certificate: relative "
            f"duality gap {gap:.2g} > {KKT_TOL:g}.", status="not optimal",
        )
    return solution
