"""The linear SVM the refits use: hard margin exactly, soft margin by the interior point.

minimise 1/2 ||w||^2 (+ sum_i C_i xi_i)  s.t.  y_i (w . x_i + b) >= 1 (- xi_i): the
hard margin by :func:`~.hard_margin.hard_margin_svm` after the separability LP, the
soft margin by :func:`~.qp.solve_hyperplane_qp`, both certified.
"""

import numpy as np

from ..exceptions import NotSeparableError, SolverError
from ..lp.problems import HyperplaneLP
from ._checks import check_svm_data
from .conditioning import separable
from .hard_margin import hard_margin_svm
from .qp import solve_hyperplane_qp

__all__ = ["SVM_GAP_TOL", "linear_svm"]

#: Largest accepted relative duality gap of :func:`linear_svm`'s soft-margin solutions.
SVM_GAP_TOL = 1e-4


def linear_svm(X, y, slack_cost=None):
    """Solve the (hard or soft) linear SVM primal.

    minimise 1/2 ||w||^2 (+ sum_i C_i xi_i)  s.t.  y_i (w . x_i + b) >= 1 (- xi_i).
    ``slack_cost`` is None for the hard margin or an array of finite per-sample C_i.
    Raises :class:`NotSeparableError` when the hard-margin problem is infeasible
    (decided by the simplex method on the separability LP).

    The hard margin is solved by :func:`~.hard_margin.hard_margin_svm` (nearest points
    of the class hulls, then the margin equations of the support vectors) and certified
    to a relative duality gap of :data:`~.qp.KKT_TOL`, however thin the margin. The soft
    margin is the interior point's (:func:`~.qp.solve_hyperplane_qp`), certified to
    :data:`SVM_GAP_TOL`; where that fails (C of 1e9 on a thin margin), the hard-margin
    solution is returned if its multipliers are all <= C_i: it then satisfies the soft
    problem's KKT conditions with xi = 0, and its certificate carries over. Otherwise
    :class:`SolverError`. Non-finite X, labels other than -1 and +1, one class only or
    slack costs of the wrong shape raise :class:`~sfmlearn.exceptions.DataValidationError`.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The samples (sparse X is densified).
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}, both present.
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        Per-sample C_i, not negative; None for the hard margin.

    Returns
    -------
    w : ndarray of shape (n_features,)
        The weights.
    b : float
        The bias.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import linear_svm
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([-1.0, 1.0, -1.0, 1.0])   # no threshold separates the classes
    >>> linear_svm(X, y)   # hard margin
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.NotSeparableError: The selected features do not separate the training data, so a hard-margin SVM has no solution. Use a soft margin (pass C).
    >>> w, b = linear_svm(X, y, slack_cost=np.full(4, 1.0))   # soft margin, C_i = 1
    >>> w.round(4), round(b, 4)
    (array([0.6667]), -1.0)
    """
    X, y = check_svm_data(X, y, "linear_svm")
    if slack_cost is None:
        solution = _separable_hard_margin(X, y)
        return solution.w, solution.b
    problem = HyperplaneLP(X, y, np.zeros(X.shape[1]), 1.0, slack_cost=slack_cost)
    try:
        solution = solve_hyperplane_qp(problem, gap_tol=SVM_GAP_TOL)
    except SolverError:
        try:
            solution = _separable_hard_margin(X, y)
        except NotSeparableError:
            solution = None
        if solution is None or np.any(solution.margin_duals > problem.slack_cost):
            raise
    return solution.w, solution.b


def _separable_hard_margin(X, y):
    """:func:`hard_margin_svm` after the separability LP (NotSeparableError if it fails;
    :func:`.conditioning.separable`)."""
    if not separable(X, y):
        raise NotSeparableError(
            "The selected features do not separate the training data, so a hard-margin "
            "SVM has no solution. Use a soft margin (pass C)."
        )
    return hard_margin_svm(X, y)
