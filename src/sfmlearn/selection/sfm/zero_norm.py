"""Weston et al.'s zero-norm SVM, l1-AROM (thesis 2.6.5, NC 2.1)."""

from ...optim.problem import WestonProblem
from ...optim.reweighting import ITERATED_L1_TOL
from .._base import IteratedL1Classifier
from ...utils.parameters import set_parameters

__all__ = ["WestonZeroNormSVM"]


class WestonZeroNormSVM(IteratedL1Classifier):
    r"""Weston, Elisseeff, Schoelkopf & Tipping (2003): zero-norm SVM by l1-AROM.

    Approximates (NC eq. 2.3)

    .. math::

        \min_{w, b} \|w\|_0 \quad \text{s.t.} \quad y_i (w \cdot x_i + b) \ge 1 \;\; \forall i

    by the same iterated one-norm scheme as the SFM (NC eq. 2.4): :math:`z \leftarrow 1`;
    repeat

    .. math::

        \min_{v, b} \sum_j |v_j| \quad \text{s.t.} \quad
        y_i \Big(\sum_j v_j z_j x_{ij} + b\Big) \ge 1, \qquad z \leftarrow z \odot |v|.

    The margin constraint makes the method mix feature selection with margin
    maximisation, the reason it keeps more features than the SFM (NC Table 1).

    With ``C`` the margin is soft, :math:`y_i (w \cdot x_i + b) \ge 1 - \xi_i`, and
    :math:`C \sum_i \xi_i` (or :math:`C \|\xi\|_0` with ``reweight_slack=True``) is added
    to the objective, for data that are not linearly separable.

    Parameters
    ----------
    C : float or None, default=None
    class_weight : None, "balanced" or dict, default=None
    reweight_slack : bool, default=True
        As for :class:`~sfmlearn.SupportFeatureMachine`.
    refit : {"svm", "center", "logistic", None} or classifier, default=None
        The LP hyperplane already has margin 1, so by default it is kept (as in the
        papers' comparisons).
    scale, solver, formulation, max_iter, tol
        As for :class:`~sfmlearn.SupportFeatureMachine`.

    Attributes
    ----------
    As for :class:`~sfmlearn.SupportFeatureMachine` (``equality_sign_`` is None). With
    Weston's margin of 1, ``n_training_errors_`` (samples with positive slack) counts the
    margin violations: the misclassified samples and the correct ones inside the margin.

    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachine, WestonZeroNormSVM
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> WestonZeroNormSVM().fit(X, y).get_support(indices=True).tolist()
    [2, 5, 105]
    >>> SupportFeatureMachine().fit(X, y).get_support(indices=True).tolist()
    [2, 4, 5]
    """

    def __init__(self, C=None, *, class_weight=None, reweight_slack=True, refit=None,
                 scale=True, solver="auto", formulation="standard", max_iter=50, tol=ITERATED_L1_TOL):
        set_parameters(self, locals())

    def _problem(self, data, y_signed, slack_cost):
        return WestonProblem(data.X, y_signed, data.base_cost, slack_cost)
