r"""ML05's hinge-loss QP selectors: l2-l1-SVM and, by DCA, l2-l0-SVM (ML05 3, 4.2.2).

l2-l1-SVM (ML05 eq. 7), one convex QP:

.. math::

    \min_{w, b, v, \xi} \; & \frac{\mu}{n} \sum_i C_i \xi_i + \tfrac{1}{2} w \cdot w + \nu \sum_j v_j \\
    \text{s.t.} \;\; & y_i (w \cdot x_i + b) \ge 1 - \xi_i, \;\; \xi \ge 0, \;\; -v \le w \le v

l2-l0-SVM (ML05 eq. 8), the concave penalty :math:`\nu \sum_j (1 - e^{-\alpha v_j})` in
place of :math:`\nu \sum_j v_j`. ML05 4.2.2 splits it as g - h with g the convex QP part
plus the indicator of :math:`-v \le w \le v` and
:math:`h(v) = -\nu \sum_j (1 - e^{-\alpha v_j})`; each DCA step is the QP

.. math::

    \min_{w, b, v, \xi} \; \frac{\mu}{n} \sum_i C_i \xi_i + \tfrac{1}{2} w \cdot w
    + \nu \alpha \sum_j e^{-\alpha v_j^k} v_j

from :math:`v^0 = 1` (ML05 5.2.2): the reweighting loop of :mod:`sfmlearn.optim.reweighting` with the QP
engine :class:`~sfmlearn.optim.qp.QPEngine`, the same loop that runs FSV's SLA. DCA
never increases :math:`f = g - h` (ML05 Theorem 1); ``history_["objective"]`` records it.
Quadratic FSV, DCA on an LP, is in :mod:`.quadratic_fsv`.
"""

import scipy.sparse as sp

from ...lp.engines import make_engine
from ...lp.protocol import RIDGE_QP
from ...optim.penalties import ExponentialPenalty, L1Penalty
from ...optim.qp import QPEngine
from .._constraints import NON_NEGATIVE, POSITIVE
from ._params import Param, declare_parameters
from .hinge_lp import ALPHA, HINGE_PARAMETERS, HingeLossSelector, model_docstring

__all__ = ["L2L1SVM", "L2L0SVM"]


class _QPHingeSelector(HingeLossSelector):
    """The l2 models: a ridge 1/2 w.w solved as a QP (sparse input is densified)."""

    def _engine(self):
        return make_engine(QPEngine(ridge=1.0), kind=RIDGE_QP)

    def _lp_data(self, X, y_signed, weights, feature_names):
        dense = X.toarray() if sp.issparse(X) else X
        return super()._lp_data(dense, y_signed, weights, feature_names)

    def _loss_weight(self):
        return float(self.mu)


#: The hinge-loss parameters of the l2 models: those of the LP models but the engine.
L2_PARAMETERS = {name: param for name, param in HINGE_PARAMETERS.items()
                 if name not in ("solver", "formulation")}
#: The weight mu of the mean hinge loss of both l2 models.
MU = Param(10.0, [POSITIVE], """float, default=10.0
    Weight of the mean hinge loss (ML05's grid: ln mu in {0, ..., 10}). With
    ``scale=True`` it is relative to the ridge in the data's unit of weight.""")

_L2_ATTRIBUTES_DOC = """
    Attributes
    ----------
    support_, coef_, intercept_, scaled_coef_, classes_, n_iter_, converged_, history_,
    n_training_errors_, n_margin_violations_, scaler_, n_features_in_, feature_names_in_
        As for :class:`~sfmlearn.selection.FSV` (``n_training_errors_`` counts the
        misclassified training samples, ``n_margin_violations_`` those with positive
        slack); ``history_["objective"]`` is the full objective including 1/2 w.w.
"""


@declare_parameters(positional={"mu": MU, "nu": Param(5.0, [NON_NEGATIVE], r"""float, default=5.0
    Weight of the one-norm (ML05's grid: ln nu in {-5, ..., 5}). With ``scale=True``
    the model is empty exactly for :math:`\nu \ge \mu`; the default is half that.""")},
    keyword=L2_PARAMETERS)
class L2L1SVM(_QPHingeSelector):
    __doc__ = model_docstring(r"""The l2-l1-SVM of ML05 (eq. 7): an SVM with an added one-norm feature penalty.

    .. math::

        \min_{w, b} \; \frac{\mu}{n} \sum_i C_i \big(1 - y_i (w \cdot x_i + b)\big)_+
        + \tfrac{1}{2} w \cdot w + \nu \|w\|_1

    One convex QP, solved by an interior-point method with an optimality certificate
    (:func:`~sfmlearn.optim.qp.solve_hyperplane_qp`); weights are exactly zero where
    the soft-threshold condition holds. Sparse input is densified.
    """, """
    >>> from sfmlearn import L2L1SVM
    >>> L2L1SVM().fit(X, y).get_support(indices=True).tolist()   # relevant features: 0-5
    [1, 2, 4, 5]
    """, _L2_ATTRIBUTES_DOC)

    def _penalty(self):
        return L1Penalty(self.nu, ridge=1.0)


@declare_parameters(positional={"mu": MU, "nu": Param(1.0, [NON_NEGATIVE], r"""float, default=1.0
    Weight of the concave feature penalty (ML05's grid: ln nu in {-5, ..., 5}). With
    ``scale=True`` w = 0 is a local minimum for :math:`\nu \alpha \ge \mu`; the default is half
    that slope."""), "alpha": ALPHA}, keyword=L2_PARAMETERS)
class L2L0SVM(_QPHingeSelector):
    __doc__ = model_docstring(r"""The l2-l0-SVM of ML05 (eq. 8), solved by DCA as a sequence of QPs (ML05 4.2.2).

    .. math::

        \min_{w, b} \; \frac{\mu}{n} \sum_i C_i \big(1 - y_i (w \cdot x_i + b)\big)_+
        + \tfrac{1}{2} w \cdot w + \nu \sum_j \big(1 - e^{-\alpha |w_j|}\big)

    Sparse input is densified.
    """, """
    >>> from sfmlearn import L2L0SVM
    >>> model = L2L0SVM().fit(X, y)
    >>> model.get_support(indices=True).tolist()   # relevant features: 0-5
    [2, 5]
    >>> model.history_["objective"].round(2).tolist()   # DCA never increases it
    [11.66, 4.29, 3.62, 3.46, 3.46, 3.46]
    """, _L2_ATTRIBUTES_DOC)

    def _penalty(self):
        return ExponentialPenalty(self.nu, self.alpha, ridge=1.0)
