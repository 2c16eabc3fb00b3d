"""ML05's hinge-loss QP selectors: l2-l1-SVM and, by DCA, l2-l0-SVM (ML05 3, 4.2.2).

l2-l1-SVM (ML05 eq. 7), one convex QP:

    minimise  (mu/n) sum_i C_i xi_i + 1/2 w.w + nu sum_j v_j
    s.t.      y_i (w . x_i + b) >= 1 - xi_i,  xi >= 0,  -v <= w <= v

l2-l0-SVM (ML05 eq. 8), the concave penalty nu sum_j (1 - exp(-alpha v_j)) in place of
nu sum_j v_j. ML05 4.2.2 splits it as g - h with g the convex QP part plus the indicator
of -v <= w <= v and h(v) = -nu sum_j (1 - exp(-alpha v_j)); each DCA step is the QP

    minimise  (mu/n) sum_i C_i xi_i + 1/2 w.w + nu alpha sum_j exp(-alpha v_j^k) v_j

from v^0 = 1 (ML05 5.2.2): the reweighting loop of :mod:`sfmlearn.optim.reweighting` with the QP
engine :class:`~sfmlearn.optim.qp.QPEngine`, the same loop that runs FSV's SLA. DCA
never increases f = g - h (ML05 Theorem 1); ``history_["objective"]`` records it.
Quadratic FSV, DCA on an LP, is in :mod:`.quadratic_fsv`.
"""

import scipy.sparse as sp

from ...lp.engines import make_engine
from ...lp.protocol import RIDGE_QP
from ...optim.penalties import ExponentialPenalty, L1Penalty
from ...optim.qp import QPEngine
from .._constraints import NON_NEGATIVE, POSITIVE
from .hinge_lp import HingeLossSelector

__all__ = ["L2L1SVM", "L2L0SVM"]


class _QPHingeSelector(HingeLossSelector):
    """The l2 models: a ridge 1/2 w.w solved as a QP (sparse input is densified)."""

    _parameter_constraints = {
        **HingeLossSelector._parameter_constraints, "mu": [POSITIVE], "nu": [NON_NEGATIVE],
    }

    def _engine(self):
        return make_engine(QPEngine(ridge=1.0), kind=RIDGE_QP)

    def _lp_data(self, X, y_signed, weights, feature_names):
        dense = X.toarray() if sp.issparse(X) else X
        return super()._lp_data(dense, y_signed, weights, feature_names)

    def _loss_weight(self):
        return float(self.mu)


_L2_PARAMS_DOC = """
    class_weight : None, "balanced" or dict, default=None
        Per-class multipliers C_i of the hinge loss.
    refit : {"svm", "center", None} or classifier, default=None
        None keeps the QP's hyperplane, as in ML05.
    scale : bool, default=True
        Apply :class:`~sfmlearn.SFMScaler` first and measure weights in the data's unit
        (the critical slope t*, :mod:`sfmlearn.selection.competitors.hinge_lp`, "Units"); ML05
        standardises only (see :class:`~sfmlearn.selection.FSV`). Sparse input is
        densified.
    max_iter : int, default=50
    tol : float, default=1e-5
        ML05's stopping rule on v (tol = 1e-5 in ML05 5.2.2).

    Attributes
    ----------
    support_, coef_, intercept_, scaled_coef_, classes_, n_iter_, converged_, history_,
    n_training_errors_, scaler_, n_features_in_, feature_names_in_
        As for :class:`~sfmlearn.selection.FSV`; ``history_["objective"]`` is the full
        objective including 1/2 w.w.
"""


class L2L1SVM(_QPHingeSelector):
    __doc__ = """The l2-l1-SVM of ML05 (eq. 7): an SVM with an added one-norm feature penalty.

        minimise  (mu/n) sum_i C_i (1 - y_i (w . x_i + b))_+ + 1/2 w.w + nu ||w||_1

    One convex QP, solved by an interior-point method with an optimality certificate
    (:func:`~sfmlearn.optim.qp.solve_hyperplane_qp`); weights are exactly zero where
    the soft-threshold condition holds.

    Parameters
    ----------
    mu : float, default=10.0
        Weight of the mean hinge loss (ML05's grid: ln mu in {0, ..., 10}). With
        ``scale=True`` it is relative to the ridge in the data's unit of weight.
    nu : float, default=5.0
        Weight of the one-norm (ML05's grid: ln nu in {-5, ..., 5}). With ``scale=True``
        the model is empty exactly for nu >= mu; the default is half that.""" + _L2_PARAMS_DOC + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import L2L1SVM
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=20, random_state=0)   # features 0-5 relevant
    >>> np.flatnonzero(L2L1SVM().fit(X, y).get_support())
    array([2, 5])
    """

    def __init__(self, mu=10.0, nu=5.0, *, class_weight=None, refit=None, scale=True,
                 max_iter=50, tol=1e-5):
        self.mu = mu
        self.nu = nu
        self.class_weight = class_weight
        self.refit = refit
        self.scale = scale
        self.max_iter = max_iter
        self.tol = tol

    def _penalty(self):
        return L1Penalty(self.nu, ridge=1.0)


class L2L0SVM(_QPHingeSelector):
    __doc__ = """The l2-l0-SVM of ML05 (eq. 8), solved by DCA as a sequence of QPs (ML05 4.2.2).

        minimise  (mu/n) sum_i C_i (1 - y_i (w . x_i + b))_+ + 1/2 w.w
                  + nu sum_j (1 - exp(-alpha |w_j|))

    Parameters
    ----------
    mu : float, default=10.0
        Weight of the mean hinge loss (ML05's grid: ln mu in {0, ..., 10}).
    nu : float, default=1.0
        Weight of the concave feature penalty (ML05's grid: ln nu in {-5, ..., 5}). With
        ``scale=True`` w = 0 is a local minimum for nu alpha >= mu; the default is half
        that slope.
    alpha : float, default=5.0
        Steepness of the exponential (ML05: 5), in the data's unit of weight with
        ``scale=True``.""" + _L2_PARAMS_DOC + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import L2L0SVM
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=20, random_state=0)   # features 0-5 relevant
    >>> np.flatnonzero(L2L0SVM().fit(X, y).get_support())
    array([2, 5])
    """

    _parameter_constraints = {**_QPHingeSelector._parameter_constraints, "alpha": [POSITIVE]}

    def __init__(self, mu=10.0, nu=1.0, alpha=5.0, *, class_weight=None, refit=None,
                 scale=True, max_iter=50, tol=1e-5):
        self.mu = mu
        self.nu = nu
        self.alpha = alpha
        self.class_weight = class_weight
        self.refit = refit
        self.scale = scale
        self.max_iter = max_iter
        self.tol = tol

    def _penalty(self):
        return ExponentialPenalty(self.nu, self.alpha, ridge=1.0)
