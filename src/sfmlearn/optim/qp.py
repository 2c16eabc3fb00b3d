"""Linear support vector machines as convex QPs solved by HiGHS.

Hard margin (Vapnik):   minimise 1/2 ||w||^2                   s.t. y_i (w . x_i + b) >= 1
Soft margin:            minimise 1/2 ||w||^2 + sum_i C_i xi_i  s.t. y_i (w . x_i + b) >= 1 - xi_i

Used to refit the hyperplane on the features an SFM selected (``refit="svm"``); those
problems have k <= n + 1 columns, so a dense primal QP is the simplest exact route.

Every variable is non-negative in the model (w = w+ - w-, b = b+ - b-, Hessian
[[I, -I], [-I, I]] on w+- ): HiGHS 1.15's active-set QP solver reported "Unbounded" on
bounded convex SVM QPs whose w and b were free columns, and solves the split form to
libsvm's objective within 1e-8. If HiGHS still fails (it returned "Solve error" on a
well-posed 14 x 15 hard margin), LIBSVM is the fallback. Solutions are verified against
the margin rows before they are returned.
"""

import highspy
import numpy as np
import scipy.sparse as sp

from ..exceptions import NotSeparableError, SolverError
from ..lp.problems import HyperplaneLP, LPSolution, check_solution

__all__ = ["linear_svm"]

_STATUS = highspy.HighsModelStatus

#: HiGHS 1.15's active-set QP solver can cycle without end on nearly degenerate SVMs
#: (a hard margin of ~4e-5 on 80 x 51, a soft SVM on 200 x 150 random data: still
#: running after 10^5 iterations). Well-posed refits need ~1000 iterations at n + k = 175;
#: beyond this limit the solve stops with a SolverError instead of hanging.
QP_ITERATION_LIMIT = 20_000


def linear_svm(X, y, slack_cost=None):
    """Solve the (hard or soft) linear SVM primal; returns ``(w, b)``.

    ``slack_cost`` is None for the hard margin or an array of per-sample C_i.
    Raises :class:`NotSeparableError` when the hard-margin problem is infeasible.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n, k = X.shape
    soft = slack_cost is not None
    Z = X * y[:, None]
    blocks = [Z, -Z, y[:, None], -y[:, None]] + ([np.eye(n)] if soft else [])
    A = sp.csc_array(np.hstack(blocks))
    n_cols = A.shape[1]
    cost = np.zeros(n_cols)
    if soft:
        cost[2 * k + 2:] = slack_cost
    # Lower triangle of [[I, -I], [-I, I]] on (w+, w-), column-wise.
    diag = np.arange(k)
    rows = np.r_[diag, k + diag, k + diag]
    cols = np.r_[diag, diag, k + diag]
    vals = np.r_[np.ones(k), -np.ones(k), np.ones(k)]
    H = sp.csc_array((vals, (rows, cols)), shape=(n_cols, n_cols))
    H.sort_indices()

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("qp_iteration_limit", QP_ITERATION_LIMIT)
    h.passModel(n_cols, n, A.nnz, 1, 1, 0.0, cost, np.zeros(n_cols), np.full(n_cols, np.inf),
                np.ones(n), np.full(n, np.inf), A.indptr.astype(np.int32),
                A.indices.astype(np.int32), A.data, np.zeros(n_cols, dtype=np.int32))
    h.passHessian(n_cols, H.nnz, 1, H.indptr.astype(np.int32), H.indices.astype(np.int32), H.data)
    h.run()
    status = h.getModelStatus()
    if status in (_STATUS.kInfeasible, _STATUS.kUnboundedOrInfeasible):
        raise NotSeparableError(
            "The data do not separate linearly, so a hard-margin SVM has no solution. "
            "Use a soft margin (pass slack costs / C)."
        )
    if status != _STATUS.kOptimal:
        return _libsvm(X, y, slack_cost)
    x = np.asarray(h.getSolution().col_value)
    w = x[:k] - x[k:2 * k]
    b = float(x[2 * k] - x[2 * k + 1])
    xi = x[2 * k + 2:] if soft else None
    # Verify the margin rows (the quadratic objective is not re-checked).
    check_solution(
        HyperplaneLP(X, y, np.zeros(k), 1.0, slack_cost=slack_cost),
        LPSolution("optimal", w=w, b=b, xi=xi),
    )
    return w, b


#: LIBSVM stops at a KKT tolerance of 1e-3 (its default), so its margins are checked
#: to that tolerance, and a hard margin is emulated with this C.
_LIBSVM_TOL = 1e-3
_HARD_C = 1e8


def _libsvm(X, y, slack_cost):
    """Fallback when HiGHS' QP solver fails (seen with 'Solve error' on well-posed hard
    margins): LIBSVM through scikit-learn, its margins verified before returning."""
    from sklearn.svm import SVC

    soft = slack_cost is not None
    weights = np.asarray(slack_cost, dtype=np.float64) if soft else np.ones(y.size)
    scale = weights.max()
    model = SVC(kernel="linear", C=scale if soft else _HARD_C, tol=_LIBSVM_TOL / 10)
    model.fit(X, y, sample_weight=weights / scale)
    w, b = model.coef_.ravel(), float(model.intercept_[0])
    margins = y * (X @ w + b)
    if not soft and margins.min() < 1 - _LIBSVM_TOL * (1 + np.abs(w).sum()):
        raise SolverError(
            "Neither HiGHS nor LIBSVM produced a verified hard-margin SVM "
            f"(smallest margin {margins.min():.3g} < 1).", status="qp failure",
        )
    return w, b
