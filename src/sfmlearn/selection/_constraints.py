"""Declarative parameter constraints shared by the estimators.

Every estimator lists its parameters in scikit-learn's ``_parameter_constraints`` and
checks them with ``self._validate_params()`` at the start of ``fit``, so a bad parameter
raises the same :class:`~sklearn.utils._param_validation.InvalidParameterError` (a
``ValueError`` and ``TypeError``) everywhere, with a message naming the parameter, what
it must be and what was given. Checks that relate several parameters or the data stay
in the estimators.
"""

from numbers import Integral, Real

from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from ..lp.engines import ENGINES
from ..lp.problems import FORMULATIONS
from ..utils.parameters import N_JOBS

__all__ = [
    "CLASS_WEIGHT", "FRACTION", "LOOP", "N_JOBS", "NON_NEGATIVE", "POSITIVE", "POSITIVE_INT", "REFIT",
    "SOLVER", "FORMULATION", "UNIT_INTERVAL",
]

POSITIVE = Interval(Real, 0, None, closed="neither")
NON_NEGATIVE = Interval(Real, 0, None, closed="left")
POSITIVE_INT = Interval(Integral, 1, None, closed="left")
#: A trade-off weight lambda in [0, 1).
FRACTION = Interval(Real, 0, 1, closed="left")
#: (0, 1].
UNIT_INTERVAL = Interval(Real, 0, 1, closed="right")

CLASS_WEIGHT = [StrOptions({"balanced"}), dict, None]
REFIT = [StrOptions({"svm", "center", "logistic"}), None, HasMethods(["fit"])]
SOLVER = [StrOptions(set(ENGINES)), HasMethods(["solve"])]
FORMULATION = [StrOptions(set(FORMULATIONS))]
#: The reweighting / DCA loop of every iterative selector.
LOOP = {"max_iter": [POSITIVE_INT], "tol": [NON_NEGATIVE]}
