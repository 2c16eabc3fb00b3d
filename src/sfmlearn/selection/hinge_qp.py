"""ML05's DC-programming selectors: l2-l1-SVM, l2-l0-SVM and quadratic FSV (ML05 3, 4.2).

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

Quadratic FSV (ML05 eq. 9, 4.2.3): FSV on the explicit monomials of degree <= 2,
phi(x) = (x_j, x_j^2, x_j x_k : j < k), d' = d (d + 3) / 2 of them, with every
monomial bounded by the v_j of each original feature it contains,

    minimise  (1 - lambda) (1/n) sum_i C_i xi_i + lambda sum_j (1 - exp(-alpha v_j))
    s.t.      y_i (w . phi(x_i) + b) >= 1 - xi_i,  xi >= 0,
              -v_j <= w_m <= v_j   for every monomial m and every feature j in m,

so v lives in the original space: a feature is selected iff some monomial containing
it has a non-zero weight. Each DCA step is an LP in (w, b, xi, v) (ML05 4.2.3), solved
by the same loop with a monomial LP engine (:class:`MonomialEngine`).
"""

import warnings
import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import check_binary_problem, check_features, check_fit_params
from ..lp.engines import make_engine
from ..lp.monomial import MonomialEngine, MonomialLP, monomial_values, quadratic_monomials
from ..lp.protocol import MONOMIAL_LP, RIDGE_QP
from ..optim.qp import QPEngine
from ._base import class_sample_weights
from ._checked import CheckedTransformMixin
from ._constraints import CLASS_WEIGHT, FRACTION, LOOP, NON_NEGATIVE, POSITIVE
from ._lpdata import LPData
from ..optim.penalties import ExponentialPenalty, L1Penalty
from ..optim.reweighting import SUPPORT_RTOL, iterated_l1
from .hinge_lp import HingeLossSelector

__all__ = ["L2L1SVM", "L2L0SVM", "QuadraticFSV"]


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

    def _error_weight(self):
        return float(self.mu)


_L2_PARAMS_DOC = """
    class_weight : None, "balanced" or dict, default=None
        Per-class multipliers C_i of the hinge loss.
    refit : {"svm", "center", None} or classifier, default=None
        None keeps the QP's hyperplane, as in ML05.
    scale : bool, default=True
        Apply :class:`~sfmlearn.SFMScaler` first and measure weights in the data's unit
        (the critical slope t*, :mod:`sfmlearn.selection.hinge_lp`, "Units"); ML05
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
    """The l2-l1-SVM of ML05 (eq. 7): an SVM with an added one-norm feature penalty.

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
        the model is empty exactly for nu >= mu; the default is half that.""" + _L2_PARAMS_DOC

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
    """The l2-l0-SVM of ML05 (eq. 8), solved by DCA as a sequence of QPs (ML05 4.2.2).

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
        ``scale=True``.""" + _L2_PARAMS_DOC

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


class QuadraticFSV(CheckedTransformMixin, SelectorMixin, ClassifierMixin, BaseEstimator):
    """Quadratic FSV (ML05 3.2.1, eq. 9): FSV on explicit degree-2 monomials.

        minimise  (1 - lambda) (1/n) sum_i C_i (1 - y_i (w . phi(x_i) + b))_+
                  + lambda sum_j (1 - exp(-alpha v_j))
        s.t.      -v_j <= w_m <= v_j  for every monomial m and every feature j in m

    with phi(x) = (x_j, x_j^2, x_j x_k : j < k). Because v is indexed by the original
    features, the penalty selects original features (ML05 3.2.1), not monomials:
    a circle x_1^2 + x_2^2 = 1 is found as the two features x_1, x_2 (ML05 Fig. 1).
    Solved by DCA (ML05 4.2.3), a sequence of LPs with costs lambda alpha
    exp(-alpha v_j^k) from v^0 = 1, in the shared reweighting loop.

    The LP has d (d + 3) / 2 monomial weights and d (d + 1) bound rows, so it is meant
    for tens of features (ML05 skips it for the 166 features of musk).

    Parameters
    ----------
    lam : float in [0, 1), default=0.1
        Weight of the feature penalty (ML05 Fig. 1 uses 0.1).
    alpha : float, default=5.0
    class_weight : None, "balanced" or dict, default=None
    scale : bool, default=True
        Apply :class:`~sfmlearn.SFMScaler` to the original features first.
    max_iter : int, default=50
    tol : float, default=1e-5

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
        Original features used by a monomial with non-zero weight.
    monomials_ : ndarray of int, shape (n_monomials, 2)
        Input feature indices of each monomial: (j, -1) is x_j, (j, k) is x_j x_k.
    monomial_coef_ : ndarray of shape (n_monomials,)
        Weights of the monomials of the scaled features.
    intercept_ : float
    classes_, n_iter_, converged_, history_, scaler_, n_features_in_, feature_names_in_
    """

    _parameter_constraints = {
        "lam": [FRACTION], "alpha": [POSITIVE], "class_weight": CLASS_WEIGHT,
        "scale": ["boolean"], **LOOP,
    }

    def __init__(self, lam=0.1, alpha=5.0, *, class_weight=None, scale=True, max_iter=50,
                 tol=1e-5):
        self.lam = lam
        self.alpha = alpha
        self.class_weight = class_weight
        self.scale = scale
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y, **fit_params):
        """Select original features through their monomials and fit the classifier."""
        check_fit_params(self, fit_params)
        self._validate_params()
        lam = float(self.lam)
        X, y_signed, classes = check_binary_problem(self, X, y, accept_sparse=False)
        self.classes_ = classes
        weights = class_sample_weights(y_signed, classes, self.class_weight)
        data = LPData(X, self.scale, getattr(self, "feature_names_in_", None))
        pairs = quadratic_monomials(data.candidates.size)

        def build(columns, feature_cost, slack_cost):
            local = quadratic_monomials(columns.size)
            Phi = monomial_values(data.X.dense_block(columns), local)
            return MonomialLP(Phi, y_signed, local, feature_cost, slack_cost)

        run = iterated_l1(
            build, data.base_cost, make_engine(MonomialEngine(), kind=MONOMIAL_LP), penalty=ExponentialPenalty(lam, self.alpha),
            slack_cost=(1.0 - lam) * weights / weights.size, max_iter=self.max_iter, tol=self.tol,
        )
        if not run.converged:
            warnings.warn(
                f"QuadraticFSV did not converge in max_iter={self.max_iter} DCA iterations; "
                "increase max_iter.", ConvergenceWarning,
            )
        coef = np.zeros(pairs.shape[0])
        local = run.solution.info["pairs"]
        used = np.where(local >= 0, run.columns[np.maximum(local, 0)], -1)
        index = {tuple(p): i for i, p in enumerate(pairs)}
        coef[[index[tuple(p)] for p in used]] = run.solution.info["monomial_weights"]
        peak = np.abs(coef).max(initial=0.0)
        selected = run.w > 0
        dropped = ~selected[pairs[:, 0]] | ((pairs[:, 1] >= 0) & ~selected[np.maximum(pairs[:, 1], 0)])
        coef[dropped | (np.abs(coef) <= SUPPORT_RTOL * peak)] = 0.0
        nonzero = coef != 0
        self.support_ = np.zeros(data.n_features, dtype=bool)
        self.support_[data.candidates[pairs[nonzero, 0]]] = True
        second = pairs[nonzero, 1]
        self.support_[data.candidates[second[second >= 0]]] = True
        self.monomials_ = np.column_stack([
            data.candidates[pairs[:, 0]], np.where(pairs[:, 1] >= 0, data.candidates[pairs[:, 1]], -1)
        ])
        self.monomial_coef_ = coef
        self.intercept_ = run.b
        self.candidates_ = data.candidates
        self.scaler_ = data.scaler
        self.n_iter_ = run.n_iter
        self.converged_ = run.converged
        self.history_ = {key: np.asarray(value) for key, value in run.history.items()}
        if not self.support_.any():
            warnings.warn(
                "QuadraticFSV selected no feature (w = 0): the feature penalty outweighs "
                "every monomial's reduction of the hinge loss, so the model predicts one "
                "class. Lower lam.", UserWarning, stacklevel=2)
        return self

    def decision_function(self, X):
        """w . phi(x) + b on the (scaled) features; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = check_features(self, X, accept_sparse=False)
        if self.scaler_ is not None:
            X = self.scaler_.transform(X)
        local = quadratic_monomials(self.candidates_.size)
        return monomial_values(np.asarray(X, dtype=np.float64)[:, self.candidates_], local) \
            @ self.monomial_coef_ + self.intercept_

    def predict(self, X):
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = False
        return tags
