r"""Quadratic FSV (ML05 3.2.1, eq. 9, 4.2.3): FSV on the explicit monomials of degree <= 2.

:math:`\phi(x) = (x_j, x_j^2, x_j x_k : j < k)`, :math:`d' = d (d + 3) / 2` monomials,
with every monomial bounded by the :math:`v_j` of each original feature it contains,

.. math::

    \min_{w, b, v, \xi} \; & (1 - \lambda) \frac{1}{n} \sum_i C_i \xi_i
    + \lambda \sum_j \big(1 - e^{-\alpha v_j}\big) \\
    \text{s.t.} \;\; & y_i (w \cdot \phi(x_i) + b) \ge 1 - \xi_i, \;\; \xi \ge 0, \\
    & -v_j \le w_m \le v_j \;\; \text{for every monomial } m \text{ and every feature } j \in m,

so v lives in the original space: a feature is selected iff some monomial containing
it has a non-zero weight. Each DCA step is an LP in (w, b, xi, v) (ML05 4.2.3), a
``monomial_lp`` problem (:mod:`sfmlearn.lp.monomial`) in the shared reweighting loop;
the estimator is the skeleton of :mod:`._base` with ML05's hinge loss
(:class:`~.hinge_lp.HingeLoss`), and its classifier is :math:`w \cdot \phi(x) + b`.
"""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..._validation import check_features
from ...lp.engines import make_engine
from ...lp.monomial import MonomialEngine, MonomialLP, monomial_values, quadratic_monomials
from ...lp.protocol import MONOMIAL_LP
from ...optim.penalties import ExponentialPenalty
from ...optim.reweighting import SUPPORT_RTOL
from .._base import ReweightedSelector
from .._constraints import FRACTION
from ._params import Param, declare_parameters
from .hinge_lp import ALPHA, HINGE_PARAMETERS, HingeLoss

__all__ = ["QuadraticFSV"]


@declare_parameters(
    positional={"lam": Param(0.1, [FRACTION], """float in [0, 1), default=0.1
        Weight of the feature penalty (ML05 Fig. 1 uses 0.1)."""), "alpha": ALPHA},
    keyword={"class_weight": HINGE_PARAMETERS["class_weight"],
             "scale": Param(True, ["boolean"], """bool, default=True
                 Apply :class:`~sfmlearn.SFMScaler` to the original features first."""),
             "max_iter": HINGE_PARAMETERS["max_iter"], "tol": HINGE_PARAMETERS["tol"]})
class QuadraticFSV(HingeLoss, ReweightedSelector):
    r"""Quadratic FSV (ML05 3.2.1, eq. 9): FSV on explicit degree-2 monomials:

    .. math::

        \min_{w, b, v} \; & (1 - \lambda) \frac{1}{n} \sum_i C_i \big(1 - y_i (w \cdot \phi(x_i) + b)\big)_+
        + \lambda \sum_j \big(1 - e^{-\alpha v_j}\big) \\
        \text{s.t.} \;\; & -v_j \le w_m \le v_j \;\; \text{for every monomial } m
        \text{ and every feature } j \in m

    with :math:`\phi(x) = (x_j, x_j^2, x_j x_k : j < k)`. Because v is indexed by the
    original features, the penalty selects original features (ML05 3.2.1), not monomials:
    a circle :math:`x_1^2 + x_2^2 = 1` is found as the two features :math:`x_1, x_2`
    (ML05 Fig. 1). Solved by DCA (ML05 4.2.3), a sequence of LPs with costs
    :math:`\lambda \alpha e^{-\alpha v_j^k}` from :math:`v^0 = 1`, in the shared
    reweighting loop (the ``monomial_lp`` problems of :mod:`sfmlearn.lp.monomial`).

    The LP has :math:`d (d + 3) / 2` monomial weights and :math:`d (d + 1)` bound rows, so it is meant
    for tens of features (ML05 skips it for the 166 features of musk).

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
        Original features used by a monomial with non-zero weight.
    monomials_ : ndarray of int, shape (n_monomials, 2)
        Input feature indices of each monomial: (j, -1) is x_j, (j, k) is x_j x_k.
    monomial_coef_ : ndarray of shape (n_monomials,)
        Weights of the monomials of the scaled features.
    intercept_ : float
    %(probability_attributes)s
    classes_, n_iter_, converged_, history_, scaler_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import QuadraticFSV
    >>> from sfmlearn.datasets import make_quadratic_circle
    >>> X, y = make_quadratic_circle(random_state=0)   # the circle lives in x1, x2 (ML05 Fig. 1)
    >>> np.flatnonzero(QuadraticFSV().fit(X, y).get_support())
    array([0, 1])
    """

    _sparse_input = False
    _empty_support_hint = (
        "the feature penalty outweighs every monomial's reduction of the hinge loss, so the "
        "model predicts one class. Lower lam."
    )

    def _loss_weight(self):
        return 1.0 - float(self.lam)

    def _penalty(self):
        return ExponentialPenalty(float(self.lam), self.alpha)

    def _engine(self):
        return make_engine(MonomialEngine(), kind=MONOMIAL_LP)

    def _build_lp(self, X, y, feature_cost, slack_cost, sign):
        pairs = quadratic_monomials(X.shape[1])
        return MonomialLP(monomial_values(X.dense_block(), pairs), y, pairs, feature_cost, slack_cost)

    def _store_run(self, prepared, positions, run, sign):
        data = prepared.data
        pairs = quadratic_monomials(data.candidates.size)
        # The last LP's monomials, as candidate positions, and their weights.
        columns = positions[run.columns]
        local = run.solution.info["pairs"]
        used = np.where(local >= 0, columns[np.maximum(local, 0)], -1)
        index = {tuple(p): i for i, p in enumerate(pairs)}
        coef = np.zeros(pairs.shape[0])
        coef[[index[tuple(p)] for p in used]] = run.solution.info["monomial_weights"]
        peak = np.abs(coef).max(initial=0.0)
        selected = np.zeros(data.candidates.size, dtype=bool)
        selected[positions[run.w > 0]] = True
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

    def decision_function(self, X):
        """w . phi(x) + b on the (scaled) features; positive means ``classes_[1]``."""
        check_is_fitted(self)
        return self._monomial_decision(check_features(self, X, accept_sparse=False))

    def _training_decision(self, prepared):
        return self._monomial_decision(prepared.training.X)

    def _monomial_decision(self, X):
        """w . phi(x) + b of validated X."""
        if self.scaler_ is not None:
            X = self.scaler_.transform(X)
        local = quadratic_monomials(self.candidates_.size)
        return monomial_values(np.asarray(X, dtype=np.float64)[:, self.candidates_], local) \
            @ self.monomial_coef_ + self.intercept_
