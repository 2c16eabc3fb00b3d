"""The critical penalty of the hinge-loss selectors: the data's own unit of weight.

For the one-norm penalised hinge loss of ML05 (eq. 4, written with t = lambda/(1 - lambda))

    (1/n) sum_i C_i (1 - y_i (w . x_i + b))_+  +  t ||w||_1

w = 0 is optimal exactly when t >= t*, the **critical slope** (the KKT conditions at w = 0,
the idea of glmnet's lambda_max):

    t* = min_alpha || (1/n) sum_i alpha_i C_i y_i x_i ||_inf

over the hinge subgradients alpha at the best constant classifier. With W_+- the summed
costs C_i of each class:

* W_+ = W_-: every sample is a margin error (|b| < 1), alpha = 1 and
  t* = || (1/n) X^T (C * y) ||_inf  (for class_weight="balanced": ||mu_+ - mu_-||_inf / 2);
* W_+ > W_-: b = 1 puts the positives on the margin, alpha_i = 1 on the negatives,
  alpha_i in [0, 1] on the positives with sum_i alpha_i C_i = W_- (so that the bias is
  stationary): a small LP, min s s.t. -s <= g_j(alpha) <= s; symmetric for W_- > W_+.

t* has the unit 1 / (unit of x): dividing the features by t* makes it 1, whatever the
data's scale, dimension, sample size and effect size. That is how the ML05 selectors
express their penalties "in the data's units" with ``scale=True``
(:class:`~sfmlearn.selection.competitors.hinge_lp.HingeLossSelector`): there a one-norm weight t = 1
(lambda = 1/2) is exactly where the model becomes empty.

The LP is solved on a working set of features (the 2n + 10 with the largest |g_j| at
the balanced start), adding every feature whose |g_j| exceeds the current optimum until
none does: the result is the optimum over all features, at the cost of a few products
X^T u even for d = 10^5.
"""

import numpy as np
from scipy.optimize import linprog

from ...exceptions import SolverError
from ...lp.operators import as_scaled_matrix

__all__ = ["critical_slope"]

_RTOL = 1e-9


def critical_slope(X, y_signed, sample_cost):
    """t* of the module docstring for data X (array, sparse or ScaledMatrix) and -1/+1 labels.

    ``sample_cost`` holds the per-sample hinge weights C_i (class weights). Returns 0.0
    when no feature correlates with the labels at all (then w = 0 is optimal for every
    penalty).
    """
    Z = as_scaled_matrix(X)
    y = np.asarray(y_signed, dtype=np.float64)
    cost = np.asarray(sample_cost, dtype=np.float64)
    n = y.size
    coef = cost * y / n
    w_pos, w_neg = cost[y > 0].sum(), cost[y < 0].sum()
    if abs(w_pos - w_neg) <= _RTOL * (w_pos + w_neg):
        return float(np.abs(Z.rmatvec(coef)).max(initial=0.0))
    free = (y > 0) if w_pos > w_neg else (y < 0)
    small = min(w_pos, w_neg)
    alpha = np.where(free, small / max(w_pos, w_neg), 1.0)
    gradient = Z.rmatvec(coef * alpha)
    working = np.argsort(-np.abs(gradient), kind="stable")[: 2 * n + 10]
    while True:
        value, alpha_free = _solve_on(Z, working, coef, free, cost[free], small)
        alpha = np.ones(n)
        alpha[free] = alpha_free
        gradient = Z.rmatvec(coef * alpha)
        violators = np.flatnonzero(np.abs(gradient) > value * (1 + 1e-7) + 1e-300)
        violators = np.setdiff1d(violators, working)
        if violators.size == 0:
            return float(max(value, 0.0))
        worst = violators[np.argsort(-np.abs(gradient[violators]), kind="stable")[: 2 * n + 10]]
        working = np.union1d(working, worst)


def _solve_on(Z, working, coef, free, free_cost, total):
    """min s over the working features: -s <= base_j + G_j alpha_free <= s (module docstring)."""
    block = Z.dense_block(working)  # (n, |J|)
    base = block[~free].T @ coef[~free]
    G = block[free].T * coef[free]  # (|J|, k)
    k = G.shape[1]
    ones = np.ones((G.shape[0], 1))
    result = linprog(
        np.r_[np.zeros(k), 1.0],
        A_ub=np.block([[G, -ones], [-G, -ones]]), b_ub=np.r_[-base, base],
        A_eq=np.r_[free_cost, 0.0][None, :], b_eq=[total],
        bounds=[(0.0, 1.0)] * k + [(0.0, None)], method="highs",
    )
    if result.status != 0:
        raise SolverError(f"The critical-penalty LP failed ({result.message}).", status=result.status)
    return float(result.x[-1]), result.x[:k]
