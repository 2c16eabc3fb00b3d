"""Small logistic regressions by Newton's method: the soft refit on a few selected features
and Platt's sigmoid on decision values.

Minimise over (v, c), with p_i = 1 / (1 + exp(-(v . z_i + c))),

    L(v, c) = sum_i a_i [ -t_i log p_i - (1 - t_i) log(1 - p_i) ] + (penalty / 2) ||v||^2,

for sample weights a_i > 0 and targets t_i in [0, 1] (labels: t_i = 1 for the positive
class; Platt's smoothed targets, Platt 1999, keep the minimum finite on separable data).
The intercept c is not penalised. L is convex; Newton's steps on (v, c) with
backtracking on L converge quadratically (stopped when the Newton decrement
g^T H^-1 g, twice the remaining decrease, is at rounding level), and with a handful of columns each step is one
(p+1) x (p+1) Cholesky solve -- far cheaper than a general solver's set-up, which dominates
scikit-learn's lbfgs on the hundreds of tiny refits of a cross-validated path. The
result is checked: the Newton decrement at the returned point (an estimate of how far L
is above its minimum) must be negligible, else :class:`~sfmlearn.exceptions.SolverError`.
BLAS runs on one thread inside (:func:`~sfmlearn.optim.single_blas_thread`, whose
docstring has the measurement: OpenBLAS' threads slow such small factorisations down
many times on a busy machine).
"""

import numpy as np
from scipy.linalg import get_lapack_funcs

from ..exceptions import SolverError
from ._threads import single_blas_thread

__all__ = ["logistic_newton"]

#: Newton's method stops when the squared Newton decrement g^T H^-1 g (twice the
#: decrease still possible, to second order) is below this fraction of L: rounding level.
DECREMENT_TOL = 1e-14
#: The result is refused when the decrement at the end is above this fraction of L.
CERTIFIED_DECREMENT = 1e-8
#: Newton steps before giving up (quadratic convergence needs a few dozen at most).
MAX_NEWTON_STEPS = 100
# LAPACK's Cholesky factorisation and solve, called directly: what scipy's cho_factor and
# cho_solve call, without their checks, which cost more than the factorisation itself
# on the few columns here.
_POTRF, _POTRS = get_lapack_funcs(("potrf", "potrs"), (np.zeros(1),))


def _loss(margin, targets, weights):
    """sum_i a_i [-t_i log p_i - (1 - t_i) log(1 - p_i)] for p_i = sigmoid(margin_i), stably."""
    return float(weights @ (np.logaddexp(0.0, margin) - targets * margin))


def _newton_step(hessian, grad):
    """H^-1 g: by Cholesky where H is positive definite (always with a penalty: the
    ridge on v, the curvature on c), by least squares where it is singular (Platt's
    unpenalised fit on constant decision values). A Cholesky factorisation takes far
    fewer operations than the singular value decomposition behind ``lstsq``, which
    counts once the columns number dozens (the unions of the repetitive SFM's subsets)."""
    factor, info = _POTRF(hessian, lower=False, overwrite_a=False, clean=False)
    if info != 0:
        return np.linalg.lstsq(hessian, grad, rcond=None)[0]
    return _POTRS(factor, grad, lower=False)[0]


def logistic_newton(Z, targets, sample_weight=None, *, penalty=0.0, fit_intercept=True):
    """(v, c) minimising the module docstring's L on the rows of ``Z``.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_columns)
    targets : ndarray of shape (n_samples,), values in [0, 1]
    sample_weight : ndarray of shape (n_samples,) or None
    penalty : float, default=0.0
        The L2 weight on v (scikit-learn's ``1 / C``); 0 for Platt's unpenalised fit.
    fit_intercept : bool, default=True
        False fixes c = 0.

    Returns
    -------
    coef : ndarray of shape (n_columns,)
    intercept : float

    Examples
    --------
    >>> import numpy as np
    >>> z = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    >>> coef, intercept = logistic_newton(z, np.array([0, 1, 0, 1]), penalty=1.0)
    >>> round(float(coef[0]), 4), abs(round(intercept, 4))
    (0.2905, 0.0)
    """
    with single_blas_thread():
        return _newton(Z, targets, sample_weight, penalty, fit_intercept)


def _newton(Z, targets, sample_weight, penalty, fit_intercept):
    """:func:`logistic_newton`'s iterations."""
    Z = np.asarray(Z, dtype=np.float64)
    targets = np.asarray(targets, dtype=np.float64)
    weights = np.ones(targets.size) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    design = np.column_stack([Z, np.ones(targets.size)]) if fit_intercept else Z
    ridge = np.r_[np.full(Z.shape[1], penalty), 0.0][:design.shape[1]]
    theta = np.zeros(design.shape[1])

    def objective(theta):
        return _loss(design @ theta, targets, weights) + 0.5 * float(ridge @ theta ** 2)

    def gradient(theta):
        p = 0.5 * (1.0 + np.tanh(0.5 * (design @ theta)))
        return design.T @ (weights * (p - targets)) + ridge * theta, p

    value = objective(theta)
    grad, p = gradient(theta)
    decrement = np.inf
    for _ in range(MAX_NEWTON_STEPS):
        curvature = weights * p * (1.0 - p)
        hessian = design.T @ (design * curvature[:, None]) + np.diag(ridge)
        step = _newton_step(hessian, grad)
        decrement = float(grad @ step)  # Newton decrement squared: L - min L ~ decrement / 2
        if decrement <= DECREMENT_TOL * max(1.0, abs(value)):
            theta = theta - step  # the last, tiny step: L is flat to rounding here
            break
        size = 1.0
        while size > 1e-12:
            trial = theta - size * step
            trial_value = objective(trial)
            if trial_value <= value - 1e-4 * size * decrement:
                break
            size *= 0.5
        else:  # no decrease along the Newton direction: at the minimum to rounding
            break
        theta, value = trial, trial_value
        grad, p = gradient(theta)
    if decrement > CERTIFIED_DECREMENT * max(1.0, abs(value)):
        raise SolverError(f"logistic regression did not converge: L is {decrement / 2:.3g} above its minimum "
                          f"after {MAX_NEWTON_STEPS} Newton steps")
    return (theta[:-1], float(theta[-1])) if fit_intercept else (theta, 0.0)
