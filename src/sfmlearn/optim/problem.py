r"""The problems of the reweighting loop: rows, slack costs and the equality, as objects.

A fit of the SFM family is ``iterated_l1(problem, penalty, engine)``: the *problem*
holds what never changes during the loop, the *penalty* (:mod:`.penalties`) how the
feature costs change, the *engine* (:func:`sfmlearn.lp.make_engine`) how each LP is
solved. Every problem here is the one-norm LP of :mod:`sfmlearn.lp.problems`,

.. math::

    \min_{w, b, \xi} \; & \sum_j c_j |w_j| + \sum_i C_i \xi_i \\
    \text{s.t.} \;\; & y_i (w \cdot x_i + b) + \xi_i \ge \text{margin}, \;\; \xi_i \ge 0
    \quad (\xi \text{ only if soft}) \\
    & a \cdot w + a_b b = \text{sign} \quad (\text{SFM only})

and a problem object builds it (:meth:`HyperplaneProblem.lp`) for any subset of its
columns with any costs :math:`c_j` and :math:`C_i`: the loop changes nothing else.

* :class:`SFMProblem`: margin 0 and the equality :math:`(\mu_+ - \mu_-) \cdot w = \pm 1`
  of NC eq. 2.6 (thesis eq. 3.1; ``equality="mean_margin"``: the thesis'
  :math:`\frac{1}{n} \sum_i y_i (w \cdot x_i + b) = \pm 1`), soft with :math:`C_i`
  (NC eq. 2.9-2.10, thesis 3.2), solved for sign +1 and -1;
* :class:`WestonProblem`: margin 1, no equality (NC eq. 2.4, Weston's l1-AROM step,
  thesis 2.6.5); with slack costs C_i it is also the LP of ML05's hinge-loss models;
* :class:`BuilderProblem`: any other problem, given a function that builds it (e.g. the
  monomial LPs of quadratic FSV).

Examples
--------
>>> import numpy as np
>>> from sfmlearn.optim.problem import SFMProblem
>>> y = np.array([1.0, 1.0, -1.0, -1.0])
>>> X = np.array([[2.0, 0.5], [1.0, -0.5], [-1.0, 0.5], [-2.0, -0.5]])
>>> problem = SFMProblem(X, y)
>>> problem.X.shape, [p.sign for p in problem.per_sign()]
((4, 2), [1.0])
>>> lp = problem.lp(np.array([0]), np.ones(1), None)
>>> lp.n_columns, lp.margin, lp.equality.rhs
(1, 0.0, 1.0)
>>> [p.sign for p in problem.with_slack_cost(np.ones(4)).per_sign()]   # soft: both signs
[1.0, -1.0]
"""

from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from sklearn.utils._param_validation import InvalidParameterError

from ..exceptions import DataValidationError
from ..lp import HyperplaneLP, sfm_lp
from ..lp.inputs import check_costs, check_signed_labels, require_both_classes
from ..lp.operators import as_scaled_matrix
from ..lp.problems import class_mean_weights

__all__ = ["BuilderProblem", "HyperplaneProblem", "MAX_SOFTNESS", "MEANS_TOL", "SFMProblem", "WestonProblem",
           "equal_means_error", "sample_costs"]


#: Largest softness C: slack costs up to 1e10 times the feature costs. Beyond it the LP's
#: costs span more than a double-precision simplex resolves (HiGHS stops with status
#: "Not Set" or "Unknown" from about 1e12 on), and nothing is gained: above the hard
#: problem's threshold (the largest multiplier of the hard LP, the hard end of
#: :func:`sfmlearn.selection.default_Cs`) the soft solution is the hard one.
MAX_SOFTNESS = 1e10


#: Class means closer than this on every column (in the LP's units: standard deviations
#: with ``scale=True``) leave the SFM's equality (mu_+ - mu_-) . w = +-1 without a
#: coefficient: HiGHS drops matrix entries below 1e-9 (its ``small_matrix_value``).
MEANS_TOL = 1e-9


def equal_means_error(owner, largest):
    """The error of data on which the soft SFM has no solution: the class means agree on
    every column (the largest difference ``largest`` is at most :data:`MEANS_TOL`)."""
    return DataValidationError(
        f"The two classes have the same mean on every feature (largest difference {largest:.2g}), so the "
        f"soft {owner}'s equality (mu+ - mu-) . w = +-1 (NC eq. 2.6) cannot hold and it has no solution. "
        "The classes differ in other ways than their means (such as XOR patterns, or samples repeated "
        "with both labels), which no hyperplane of this kind separates; with scale=False, data below "
        "1e-9 in magnitude look the same to the solver: rescale them.")


def sample_costs(C, weights):
    """The slack costs C_i = C * a_i of a softness C and per-sample (class) weights a_i;
    None for a hard problem (``C=None``).

    Raises scikit-learn's ``InvalidParameterError`` (a ``ValueError``) for C above
    :data:`MAX_SOFTNESS`, naming the hard problem instead.
    """
    if C is None:
        return None
    if float(C) > MAX_SOFTNESS:
        raise InvalidParameterError(
            f"C={float(C):g} is above {MAX_SOFTNESS:g}: slack costs that large are beyond what "
            "the linear programs resolve, and above the hard problem's threshold a larger C "
            f"changes nothing. Pass C=None for the hard problem (separable data) or C <= {MAX_SOFTNESS:g}.")
    return float(C) * np.asarray(weights, dtype=np.float64)


_PARAMETERS = """
    Parameters
    ----------
    X : array-like, sparse matrix or ScaledMatrix of shape (n_samples, n_columns)
        The candidate columns in the LP's space (scaled data, never a copy).
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}, both present.
    base_cost : ndarray of shape (n_columns,) or None, default=None
        c0_j, the unweighted cost of every column, finite and not negative (None: 1);
        the loop multiplies it by the penalty's multipliers.
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        C_i of a soft problem, not negative (inf: a hard row); None for a hard one.
    sign : {1, -1} or None, default=None
        Right-hand side of the equality row (problems with one; the SFM's default 1).
"""
_RAISES = """
    Raises
    ------
    DataValidationError
        Wrong shapes, labels other than -1 and +1, one class only, or invalid costs.
    InvalidParameterError
        A sign other than 1 or -1 (scikit-learn's).
"""


@dataclass(frozen=True, eq=False)
class HyperplaneProblem:
    __doc__ = """The rows of a one-norm hyperplane LP (module docstring) over candidate columns.
""" + _PARAMETERS + _RAISES + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import HyperplaneProblem
    >>> X = np.array([[2.0, 0.5], [1.0, -0.5], [-1.0, 0.5], [-2.0, -0.5]])
    >>> problem = HyperplaneProblem(X, np.array([1.0, 1.0, -1.0, -1.0]))
    >>> problem.soft, problem.restrict(np.array([1])).X.shape
    (False, (4, 1))
    """

    X: object
    y: np.ndarray
    base_cost: np.ndarray = None
    slack_cost: np.ndarray = None
    sign: float = None
    #: Right-hand side of the margin rows.
    margin = 1.0

    def __post_init__(self):
        X = as_scaled_matrix(self.X)
        n_samples, n_columns = X.shape
        y = check_signed_labels(self.y, n_samples)
        require_both_classes(y, type(self).__name__)
        base_cost = np.ones(n_columns) if self.base_cost is None else \
            check_costs(self.base_cost, n_columns, "base_cost", "column of X")
        for name, value in (("X", X), ("y", y), ("base_cost", base_cost)):
            object.__setattr__(self, name, value)
        if self.slack_cost is not None:
            slack_cost = check_costs(self.slack_cost, n_samples, "slack_cost", "sample",
                                     infinite_means="keeps a row hard")
            object.__setattr__(self, "slack_cost", slack_cost)
        if self.sign is not None and self.sign not in (1, -1):
            raise InvalidParameterError(
                "sign must be 1 or -1 (the right-hand side of the equality row, which a "
                f"soft problem is solved for with both signs); got {self.sign!r}.")

    @property
    def soft(self):
        """True when the rows have slack variables (``slack_cost`` is given)."""
        return self.slack_cost is not None

    def per_sign(self):
        """The problems to solve, one per sign of the equality (this one if it has none)."""
        return (self,)

    def columns(self, columns):
        """The data of the given column positions (all of them for None)."""
        if columns is None or len(columns) == self.X.shape[1]:
            return self.X
        return self.X.subset(columns)

    def lp(self, columns, feature_cost, slack_cost):
        """The LP on ``columns`` (positions; None: all) with costs c_j and C_i."""
        return HyperplaneLP(self.columns(columns), self.y, feature_cost, self.margin,
                            slack_cost=slack_cost)

    def restrict(self, positions):
        """The same problem on fewer candidate columns (their positions)."""
        return replace(self, X=self.X.subset(positions), base_cost=self.base_cost[positions])

    def with_slack_cost(self, slack_cost):
        """The same rows with other slack costs C_i (None: the hard problem)."""
        return replace(self, slack_cost=slack_cost)

    def equal_means(self):
        """The largest class-mean difference of the columns when it is too small for an
        equality on the class means (:data:`MEANS_TOL`), else None; None for problems
        without that equality."""
        return None


@dataclass(frozen=True, eq=False)
class WestonProblem(HyperplaneProblem):
    __doc__ = r"""Weston's l1-AROM step (NC eq. 2.4, thesis 2.6.5): margin 1, no equality,

    .. math::

        \min_{w, b, \xi} \sum_j c_j |w_j| + \sum_i C_i \xi_i \quad \text{s.t.} \quad
        y_i (w \cdot x_i + b) \ge 1 - \xi_i.

    With :math:`C_i = (1 - \lambda) a_i / n` it is also the LP of ML05's hinge-loss models.
""" + _PARAMETERS + _RAISES + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import WestonProblem
    >>> X = np.array([[2.0, 0.5], [1.0, -0.5], [-1.0, 0.5], [-2.0, -0.5]])
    >>> lp = WestonProblem(X, np.array([1.0, 1.0, -1.0, -1.0])).lp(None, np.ones(2), None)
    >>> lp.n_columns, lp.margin, lp.equality is None
    (2, 1.0, True)
    """


@dataclass(frozen=True, eq=False)
class SFMProblem(HyperplaneProblem):
    __doc__ = r"""The (soft) SFM step (NC eq. 2.6 and 2.9-2.10, thesis 3.1-3.2): margin 0 and

    .. math::

        (\mu_+ - \mu_-) \cdot w = \text{sign}

    (``equality="class_means"``), or

    .. math::

        \frac{1}{n} \sum_i y_i (w \cdot x_i + b) = \text{sign}

    (``"mean_margin"``, thesis eq. 3.1).

    A soft problem may make the left-hand side negative, so it is solved for sign = +1
    and sign = -1 (:meth:`per_sign`) and the lower objective kept; a hard one for +1.
""" + _PARAMETERS + """    equality : {"class_means", "mean_margin"}, default="class_means"
        The equality row that excludes w = 0.
""" + _RAISES + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import SFMProblem
    >>> X = np.array([[2.0, 0.5], [1.0, -0.5], [-1.0, 0.5], [-2.0, -0.5]])
    >>> problem = SFMProblem(X, np.array([1.0, 1.0, -1.0, -1.0]))
    >>> [p.sign for p in problem.per_sign()], [p.sign for p in problem.with_slack_cost(np.ones(4)).per_sign()]
    ([1.0], [1.0, -1.0])
    """

    equality: str = "class_means"
    margin = 0.0

    def __post_init__(self):
        super().__post_init__()
        if self.sign is None:
            object.__setattr__(self, "sign", 1.0)

    def per_sign(self):
        if not self.soft:
            return (replace(self, sign=1.0),)
        return replace(self, sign=1.0), replace(self, sign=-1.0)

    def lp(self, columns, feature_cost, slack_cost):
        return sfm_lp(self.columns(columns), self.y, feature_cost, equality=self.equality,
                      sign=self.sign, slack_cost=slack_cost)

    def equal_means(self):
        if self.equality != "class_means":
            return None
        largest = float(np.abs(self.X.rmatvec(class_mean_weights(self.y))).max(initial=0.0))
        return largest if largest <= MEANS_TOL else None


@dataclass(frozen=True, eq=False)
class BuilderProblem(HyperplaneProblem):
    """A problem built by ``build(X, y, feature_cost, slack_cost, sign)`` (any kind an
    engine solves: a monomial LP, a ridge QP ...), for estimators whose rows are not a
    :class:`~sfmlearn.lp.HyperplaneLP` of their own class here."""

    build: Callable = None

    def lp(self, columns, feature_cost, slack_cost):
        return self.build(self.columns(columns), self.y, feature_cost, slack_cost, self.sign)
