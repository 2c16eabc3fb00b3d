r"""The linear Potential SVM: PotentialSVM and PotentialSVR (Hochreiter & Obermayer; PSVM 2-3).

Linear P-SVM feature selection (PSVM 2, eq. 8) with redundancy control (PSVM 3.2,
eq. 12). With F the standardised data matrix (variable selection, Z = I):

.. math::

    \min_\alpha \; \tfrac{1}{2} \alpha^\top F^\top F \alpha - y^\top F \alpha
    + \epsilon \|\alpha\|_1 \quad \text{s.t.} \quad -C \le \alpha_j \le C

(:math:`C = \infty`: the original P-SVM) and the predictor
:math:`g(x) = w \cdot f(x) + b` with :math:`w = \alpha`, :math:`b = \operatorname{mean}(y)`
(PSVM eq. 9-10). :math:`|\alpha_j|` is the relevance of feature j and
:math:`\operatorname{sign}(\alpha_j)` its class indication. :math:`\epsilon` tolerates
spurious directional derivatives :math:`|f_j^\top (F w - y)| \le \epsilon` (PSVM eq. 6),
so a larger epsilon keeps fewer features; a smaller C lets redundant
(correlated) relevant features in together (PSVM 3.2, Table 1).

Standardisation. Every feature column is centred and scaled to unit Euclidean length,
so :math:`F^\top F` is the correlation matrix of the features. Then :math:`|f_j^\top y|`
of a pure-noise feature has standard deviation :math:`\approx \operatorname{std}(y)`
(= 1 for balanced +-1 labels), so epsilon reads as a
threshold in noise standard deviations. This is the scale on which the chapter's epsilon
values live (0.65-3 for 100 to 2000 samples, Table 1 and Table 5); with unit-variance
columns they would have to grow with the number of samples. The standardisation is
implicit (column means and norms inside the solver), so sparse input stays sparse.

The QP is set up by :class:`.problem.LinearPSVMProblem` and solved by
:func:`sfmlearn.optim.cd.solve_box_l1_qp` (coordinate descent that keeps F alpha, never
forms F'F, verifies its KKT conditions on return).
"""

import warnings
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ...._validation import check_binary_problem, check_features, check_fit_params, check_labels, check_xy
from ....exceptions import DataValidationError
from ....preprocessing import warn_constant_features
from ..._checked import (FIT_CALLER, CheckedDecisionMixin, CheckedTransformMixin, SupportMaskMixin,
                         fit_from_scratch)
from ..._probability import PlattProbabilityMixin
from ..._constraints import NON_NEGATIVE, POSITIVE, POSITIVE_INT
from ..._lpdata import check_not_all_constant
from .._params import Param, declare_parameters
from .problem import LinearPSVMProblem, check_count

__all__ = ["PSVM_PARAMETERS", "PotentialSVM", "PotentialSVR"]

#: The parameters of the linear P-SVMs, declared once (:mod:`.._params`); the
#: nonlinear P-SVM shares ``C`` and ``tol``.
PSVM_PARAMETERS = {
    "epsilon": Param(2.0, [NON_NEGATIVE], r"""float, default=2.0
        Tolerance of the constraints :math:`|f_j^\top (F \alpha - y)| \le \epsilon` (PSVM eq. 6): larger
        keeps fewer features. With the unit-length standardisation and +-1 labels it is
        about a z-score for a pure-noise feature. Ignored when ``n_features_to_select``
        is given."""),
    "C": Param(None, [Interval(Real, 0, np.inf, closed="right"), None], r"""float or None, default=None
        Box bound :math:`|\alpha_j| \le C` (redundancy control, PSVM eq. 12). None (or np.inf) is
        the original P-SVM, which avoids redundant features; smaller C admits more
        correlated relevant features (and fewer random probes)."""),
    "n_features_to_select": Param(None, [POSITIVE_INT, None], """int or None, default=None
        Search epsilon so that exactly this many coefficients are non-zero: epsilon is
        halved from epsilon_max = max_j |f_j'y| (where alpha = 0) until at least k are
        non-zero, then bisected geometrically, warm-starting each solve from the last.
        In general position the count changes by one at a time, and an epsilon with
        exactly k is found. If none is found (duplicate or tied columns make the count
        jump, or k exceeds the largest count reachable, at most n - 1 for C = None) a
        UserWarning says so, ``support_`` holds the k largest |alpha| of the solution
        with the next larger count, and the P-SVM is solved again at that epsilon on
        these features alone: ``alpha_`` and ``coef_`` are zero outside ``support_``."""),
    "tol": Param(1e-6, [POSITIVE], """float, default=1e-6
        KKT tolerance of the QP solver, relative to sqrt(n_samples) (the largest
        possible |f_j'y| for +-1 labels)."""),
    "max_iter": Param(10_000, [POSITIVE_INT], """int, default=10000
        Maximum coordinate sweeps of the solver per QP."""),
}
_declared = declare_parameters(positional={"epsilon": PSVM_PARAMETERS["epsilon"]},
                               keyword={name: param for name, param in PSVM_PARAMETERS.items()
                                        if name != "epsilon"})


class _PotentialSVMBase(SupportMaskMixin, CheckedTransformMixin, SelectorMixin, BaseEstimator):
    """The fit shared by :class:`PotentialSVM` and :class:`PotentialSVR`."""

    def _fit_linear(self, X, target):
        epsilon = float(self.epsilon)
        C = np.inf if self.C is None else float(self.C)
        k = check_count(self.n_features_to_select, X.shape[1])
        problem = LinearPSVMProblem(X, C, self.tol, self.max_iter)
        constant = np.ones(X.shape[1], dtype=bool)
        constant[problem.kept] = False
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, getattr(self, "feature_names_in_", None))
        if k is None:
            alpha = problem.solve(target, epsilon)
            exact = True
        else:
            epsilon, alpha, exact = problem.solve_count(target, k)
        alpha_full = problem.expand(alpha, target, epsilon)
        n_iter = problem.n_sweeps
        if not alpha_full.any():
            warnings.warn(
                f"{type(self).__name__} selected no feature (alpha = 0): epsilon={epsilon:.4g} "
                f"is at least max_j |f_j' y| = {problem.epsilon_max(target):.4g}, where every "
                "feature's correlation with the target is tolerated. Lower epsilon or pass "
                "n_features_to_select.", UserWarning, stacklevel=FIT_CALLER + 1)
        if not exact:
            warnings.warn(
                f"No epsilon gives exactly n_features_to_select={k} non-zero P-SVM "
                f"coefficients ({np.count_nonzero(alpha_full)} at epsilon={epsilon:.4g}); "
                f"support_ keeps the {k} largest |alpha| (fewer if fewer are non-zero), and the "
                "classifier is the P-SVM refitted on them. Features entering together (ties) "
                "or k beyond the reachable count cause this.", UserWarning, stacklevel=FIT_CALLER + 1,
            )
            alpha_full, n_refit = self._refit_on_largest(X, target, alpha_full, k, epsilon, C)
            n_iter += n_refit
        self.alpha_ = alpha_full
        self.relevance_ = np.abs(alpha_full)
        self.support_ = alpha_full != 0
        self.epsilon_ = epsilon
        self.n_iter_ = n_iter
        # g(x) = sum_j alpha_j (x_j - mean_j) / scale_j + mean(y)  in input units.
        coef = alpha_full / problem.scale
        intercept = float(target.mean() - problem.mean @ coef)
        return coef, intercept

    def _refit_on_largest(self, X, target, alpha, k, epsilon, C):
        """The P-SVM solution at ``epsilon`` on the ``k`` features of largest |alpha| only
        (zero elsewhere), and its coordinate sweeps: the model of a count search that
        found no epsilon with exactly k features, so that the predictor uses no feature
        outside ``support_``. It starts from the truncated solution, often optimal already."""
        largest = np.sort(np.argsort(-np.abs(alpha), kind="stable")[:k])
        largest = largest[alpha[largest] != 0]
        problem = LinearPSVMProblem(X[:, largest], C, self.tol, self.max_iter)
        solution = problem.solve(target, epsilon, problem.merge(alpha[largest]))
        refitted = np.zeros(alpha.size)
        refitted[largest] = problem.expand(solution, target, epsilon)
        return refitted, problem.n_sweeps

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


_LINEAR_ATTRS_DOC = """
    alpha_ : ndarray of shape (n_features,)
        The P-SVM solution in the standardised space (w = alpha, PSVM eq. 9). Its sign is
        the class indication: alpha_j > 0 points to ``classes_[1]`` (or to larger
        regression targets).
    relevance_ : ndarray of shape (n_features,)
        |alpha_|, the feature relevance (PSVM 2).
    support_ : ndarray of bool of shape (n_features,)
        Selected features: the non-zero alpha (see ``n_features_to_select``).
    epsilon_ : float
        The epsilon used (the searched one with ``n_features_to_select``).
    n_iter_ : int
        Coordinate sweeps of the QP solver (summed over the epsilon search).
    n_features_in_, feature_names_in_
        As in scikit-learn.
"""


@_declared
class PotentialSVM(CheckedDecisionMixin, PlattProbabilityMixin, LinearClassifierMixin, _PotentialSVMBase):
    __doc__ = r"""P-SVM feature selection and linear classification (PSVM 2, 3.2).

    Solves the dual P-SVM QP (PSVM eq. 8, with the box of eq. 12 when C is given) on
    unit-length standardised feature columns with the labels as +-1 targets, and
    classifies by :math:`\operatorname{sign}(w \cdot f(x) + b)` with :math:`w = \alpha`
    and :math:`b = \operatorname{mean}(y)` (PSVM eq. 9-10).
    Two classes; sparse X is accepted and never densified (DOROTHEA, 350 x 100000,
    fits in seconds). The regression variant is :class:`PotentialSVR`.

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
        w in input units: decision_function(X) = X @ coef_.T + intercept_.
    intercept_ : ndarray of shape (1,)
    %(probability_attributes)s
    """ + _LINEAR_ATTRS_DOC + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import PotentialSVM
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=20, random_state=0)   # features 0-5 relevant
    >>> psvm = PotentialSVM(n_features_to_select=3).fit(X, y)
    >>> np.flatnonzero(psvm.get_support()), psvm.score(X, y)
    (array([1, 2, 5]), 1.0)
    """

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Select features and fit w = alpha, b = mean(y) on labels mapped to -1/+1."""
        check_fit_params(self, fit_params)
        self._validate_params()
        X, y_signed, classes = check_binary_problem(self, X, y)
        self.classes_ = classes
        coef, intercept = self._fit_linear(X, y_signed)
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([intercept])
        self._fit_probability(self._linear_decision(X), y_signed)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


@_declared
class PotentialSVR(RegressorMixin, _PotentialSVMBase):
    __doc__ = """P-SVM feature selection and linear regression (PSVM 2).

    The same QP as :class:`PotentialSVM` with a real-valued target y (PSVM eq. 10 is the
    regression function); epsilon is then in the units of y.

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        w in input units: predict(X) = X @ coef_ + intercept_.
    intercept_ : float
    """ + _LINEAR_ATTRS_DOC + """
    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import PotentialSVR
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 10))
    >>> y = 2 * X[:, 0] - X[:, 3] + 0.1 * rng.normal(size=40)
    >>> np.flatnonzero(PotentialSVR(n_features_to_select=2).fit(X, y).get_support())
    array([0, 3])
    """

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Select features and fit w = alpha, b = mean(y)."""
        check_fit_params(self, fit_params)
        self._validate_params()
        y = check_labels(y)
        try:
            y = y.astype(np.float64)
        except (ValueError, TypeError):
            raise DataValidationError(
                f"PotentialSVR needs a numeric target y (Unknown label type: dtype {y.dtype}, "
                f"e.g. {y[0]!r}). For class labels use PotentialSVM.") from None
        X, y = check_xy(self, X, y)
        self.coef_, self.intercept_ = self._fit_linear(X, np.asarray(y, dtype=np.float64))
        return self

    def predict(self, X):
        """w . x + b."""
        check_is_fitted(self)
        X = check_features(self, X)
        return np.asarray(X @ self.coef_).ravel() + self.intercept_
