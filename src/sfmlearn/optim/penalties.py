"""The feature penalties of the reweighting loop, as cost multipliers of the next LP/QP.

A penalty rho(v) of the scaled weight magnitudes v = |w| enters the loop of
:mod:`.reweighting` only through its linearisation: the next problem prices feature j
at multiplier_j = rho'(v_j^k), the (super)gradient at the previous solution, which for a
concave rho is the DCA step of ML05 4.2 (SLA for LPs). Every penalty starts from
v^0 = 1 (ML05 5.2.2; z = 1 in Weston's scheme) and provides

* ``update(v)``: the multipliers of the next problem (``inf`` removes a column for good);
* ``value(v)``: rho(v), recorded in the loop's ``history["objective"]``;
* ``convex``: True when the multipliers never change, so the first solve is final.

The penalties:

* :class:`ZeroNorm`: ||v||_0, multipliers 1 / v_j (the SFM and Weston's l1-AROM, NC 2.1-2.2);
* :class:`L1Penalty`: weight sum_j v_j (+ ridge/2 ||v||^2), constant multipliers
  (RLP, l1-SVM, l2-l1-SVM);
* :class:`ExponentialPenalty`: weight sum_j (1 - exp(-alpha v_j)) (+ ridge/2 ||v||^2),
  ML05 eq. 5 (FSV, l2-l0-SVM, quadratic FSV).

The ridge term of the l2 models is solved by their QP engine; it is part of ``value`` so
that the recorded objective is the model's full objective.
"""

from abc import ABC, abstractmethod

import numpy as np

__all__ = ["ExponentialPenalty", "L1Penalty", "Penalty", "ZeroNorm"]


class Penalty(ABC):
    """A penalty of the reweighting loop (module docstring).

    Examples
    --------
    A new penalty is its linearisation and its value; the loop does the rest. The log
    penalty sum_j log(1 + v_j / eps) (Candes, Wakin & Boyd's reweighted l1):

    >>> import numpy as np
    >>> from sfmlearn.optim import Penalty
    >>> class LogPenalty(Penalty):
    ...     eps = 1e-3
    ...     def update(self, w_abs):
    ...         return 1.0 / (self.eps + w_abs)
    ...     def value(self, w_abs):
    ...         return float(np.log1p(w_abs / self.eps).sum())
    >>> LogPenalty().update(np.array([0.0, 1.0])).round(3).tolist()
    [1000.0, 0.999]
    """

    convex = False

    @abstractmethod
    def update(self, w_abs):
        """Cost multipliers of the next problem, given the scaled |w| of the last one."""

    @abstractmethod
    def value(self, w_abs):
        """The penalty's value at the scaled |w|."""


class ZeroNorm(Penalty):
    """The zero norm ``||w||_0`` by reweighting: multipliers ``1/|w_j|`` (removed at ``w_j = 0``).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([0.0, 0.5, 2.0])   # |w| after a solve
    >>> from sfmlearn.optim import ZeroNorm
    >>> ZeroNorm().update(v)   # the next LP prices feature j at 1/|w_j|; inf drops it
    array([inf, 2. , 0.5])
    """

    def update(self, w_abs):
        with np.errstate(divide="ignore"):
            return np.where(w_abs > 0, 1.0 / np.where(w_abs > 0, w_abs, 1.0), np.inf)

    def value(self, w_abs):
        return float(np.count_nonzero(w_abs))


class L1Penalty(Penalty):
    """weight * sum_j v_j (+ ridge/2 * sum_j v_j^2): constant multipliers, one solve.

    Parameters
    ----------
    weight : float
        Multiplier of the one-norm.
    ridge : float, default=0.0
        Coefficient of the ridge term (l2 models).

    Examples
    --------
    >>> from sfmlearn.optim import L1Penalty
    >>> import numpy as np
    >>> penalty = L1Penalty(2.0, ridge=1.0)
    >>> penalty.update(np.array([0.0, 1.0, 2.0])), penalty.value(np.array([1.0, 2.0]))
    (array([2., 2., 2.]), 8.5)
    """

    convex = True

    def __init__(self, weight, ridge=0.0):
        self.weight = weight
        self.ridge = ridge

    def update(self, w_abs):
        return np.full(w_abs.size, float(self.weight))

    def value(self, w_abs):
        return float(self.weight * w_abs.sum() + 0.5 * self.ridge * w_abs @ w_abs)


class ExponentialPenalty(Penalty):
    """Bradley & Mangasarian's concave l0 approximation (ML05 eq. 5), linearised.

    value:        weight * sum_j (1 - exp(-alpha v_j))  (+ ridge/2 * sum_j v_j^2)
    multipliers:  weight * alpha * exp(-alpha v_j^k)    (the gradient at the last v)

    Parameters
    ----------
    weight : float
        Multiplier of the penalty (lambda or nu of ML05).
    alpha : float, default=5.0
        Steepness of the exponential (ML05: 5).
    ridge : float, default=0.0
        Coefficient of the ridge term (l2 models).

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([0.0, 0.5, 2.0])   # |w| after a solve
    >>> from sfmlearn.optim import ExponentialPenalty
    >>> ExponentialPenalty(1.0).update(v).round(3).tolist()   # alpha exp(-alpha v)
    [5.0, 0.41, 0.0]
    """

    def __init__(self, weight, alpha=5.0, ridge=0.0):
        self.weight = weight
        self.alpha = alpha
        self.ridge = ridge

    def update(self, w_abs):
        return self.weight * self.alpha * np.exp(-self.alpha * w_abs)

    def value(self, w_abs):
        return float(self.weight * np.sum(-np.expm1(-self.alpha * w_abs))
                     + 0.5 * self.ridge * w_abs @ w_abs)
