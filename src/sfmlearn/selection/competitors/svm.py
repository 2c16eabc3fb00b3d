r"""Support vector machine baselines (thesis 2.3, 2.6.5): hard margin, SoftDoubleMinOver, RFE.

* :class:`HardMarginSVM`: :math:`\min \tfrac{1}{2} \|w\|^2` s.t.
  :math:`y_i (w \cdot x_i + b) \ge 1` (thesis eq. 2.1), solved exactly and verified by
  :func:`sfmlearn.optim.svm.linear_svm`.
* :class:`SoftDoubleMinOver`: Martinetz' perceptron-like algorithm for the two-norm
  soft-margin SVM (thesis Fig. 2.4), converging as O(1/t).
* :func:`svm_rfe`: recursive feature elimination with a linear SVM (Guyon et al. 2002,
  thesis Fig. 2.12) as a configured scikit-learn ``RFE`` / ``RFECV``.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import RFE, RFECV
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS, pairwise_kernels
from sklearn.svm import SVC
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from ..._validation import check_features
from ...exceptions import NotSeparableError
from ...optim import linear_svm
from .._checked import CheckedDecisionMixin, TwoClassMixin
from .._probability import PlattProbabilityMixin
from .._constraints import POSITIVE, POSITIVE_INT

__all__ = ["HardMarginSVM", "SoftDoubleMinOver", "svm_rfe"]


class HardMarginSVM(CheckedDecisionMixin, PlattProbabilityMixin, TwoClassMixin, LinearClassifierMixin,
                    BaseEstimator):
    r"""Vapnik's maximum-margin hyperplane (thesis 2.3, eq. 2.1).

    .. math::

        \min_{w, b} \tfrac{1}{2} \|w\|^2 \quad \text{s.t.} \quad
        y_i (w \cdot x_i + b) \ge 1 \;\; \forall i

    Solved exactly as a QP (:func:`~sfmlearn.optim.svm.linear_svm`); the solution is
    verified against every margin row and by its duality gap. Raises
    :class:`~sfmlearn.exceptions.NotSeparableError` when no hyperplane separates the
    training data (decided by the simplex method on the LP feasibility problem).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    margin_ : float
        The geometric margin :math:`1 / \|w\|`.
    %(probability_attributes)s
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import HardMarginSVM
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
    >>> svm = HardMarginSVM().fit(X, [0, 0, 1, 1])
    >>> svm.predict([[0.5, 0.0], [3.5, 1.0]]), round(svm.margin_, 4)   # margin 1 / ||w||
    (array([0, 1]), 1.118)
    """

    _parameter_constraints = {}

    def fit(self, X, y, **fit_params):
        """Solve the hard-margin QP (NotSeparableError if no hyperplane separates)."""
        X, y_signed = self._check_fit(X, y, fit_params)
        try:
            w, b = linear_svm(X, y_signed)
        except NotSeparableError as exc:
            raise NotSeparableError(
                "The two classes are not linearly separable, so the hard-margin SVM has no "
                "solution. Use a soft margin: SoftDoubleMinOver(C=1.0) or "
                "sklearn.svm.SVC(kernel='linear', C=1.0).") from exc
        self.coef_ = w[None, :]
        self.intercept_ = np.array([b])
        self.margin_ = float(1.0 / np.linalg.norm(w))
        self._fit_probability(self._linear_decision(X), y_signed)
        return self


class SoftDoubleMinOver(PlattProbabilityMixin, TwoClassMixin, ClassifierMixin, BaseEstimator):
    r"""SoftDoubleMinOver (Martinetz 2004; thesis Fig. 2.4): a two-norm soft-margin SVM.

    The algorithm::

        alpha <- 0
        for t = 1 .. t_max:
            r_i <- y_i sum_j y_j alpha_j (K(x_i, x_j) + delta_ij / C)
            alpha_{i+} += 1 for i+ = argmin_{y_i = +1} r_i,
            alpha_{i-} += 1 for i- = argmin_{y_i = -1} r_i
        b <- (r_{i-} - r_{i+}) / 2   (with the final residuals)

    The classifier is :math:`f(x) = \sum_j y_j \alpha_j K(x_j, x) + b`; it converges to
    the two-norm soft-margin SVM (kernel :math:`K + \delta / C`) as :math:`O(1/t)`, and
    to the hard-margin SVM for C = None. The residuals are updated incrementally: O(n) per iteration after
    the n x n kernel matrix.

    Parameters
    ----------
    C : float or None, default=None
        Softness (None: hard margin).
    kernel : str, default="linear"
        Any kernel of :func:`sklearn.metrics.pairwise.pairwise_kernels` ("linear",
        "rbf", "poly", ...).
    gamma : float or None, default=None
        Kernel parameter for "rbf"/"poly"/"sigmoid" (scikit-learn's default if None).
    max_iter : int, default=1000
        t_max.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        How often each training sample was the minimal-residual one.
    intercept_ : float
    coef_ : ndarray of shape (1, n_features)
        :math:`w = \sum_j y_j \alpha_j x_j` (linear kernel only).
    support_vectors_ : ndarray
        Training samples with alpha > 0.
    n_iter_ : int
        Iterations run (= max_iter; the algorithm has no stopping test).
    %(probability_attributes)s
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import HardMarginSVM, SoftDoubleMinOver
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=0, random_state=0)   # separable
    >>> w = HardMarginSVM().fit(X, y).coef_.ravel()
    >>> v = SoftDoubleMinOver(max_iter=1000).fit(X, y).coef_.ravel()   # C=None: hard margin
    >>> round(float(w @ v / np.linalg.norm(w) / np.linalg.norm(v)), 4)   # cos of their angle
    1.0
    """

    _parameter_constraints = {
        "C": [POSITIVE, None],
        "kernel": [StrOptions(set(PAIRWISE_KERNEL_FUNCTIONS)), callable],
        "gamma": [POSITIVE, None],
        "max_iter": [POSITIVE_INT],
    }

    def __init__(self, C=None, *, kernel="linear", gamma=None, max_iter=1000):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.max_iter = max_iter

    def _kernel(self, X, Y):
        params = {} if self.gamma is None else {"gamma": self.gamma}
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, **params)

    def fit(self, X, y, **fit_params):
        """Run t_max = ``max_iter`` SoftDoubleMinOver steps."""
        X, y_signed = self._check_fit(X, y, fit_params)
        C = self.C
        K = self._kernel(X, X)
        diagonal = 0.0 if C is None else 1.0 / C
        pos, neg = np.flatnonzero(y_signed > 0), np.flatnonzero(y_signed < 0)
        alpha = np.zeros(y_signed.size)
        u = np.zeros(y_signed.size)  # sum_j y_j alpha_j K_ij

        def residuals():
            return y_signed * u + alpha * diagonal

        for _ in range(self.max_iter):
            r = residuals()
            i_pos, i_neg = pos[np.argmin(r[pos])], neg[np.argmin(r[neg])]
            alpha[i_pos] += 1.0
            alpha[i_neg] += 1.0
            u += K[:, i_pos] - K[:, i_neg]
        r = residuals()
        self.intercept_ = 0.5 * float(r[neg].min() - r[pos].min())
        used = alpha > 0
        self.n_iter_ = self.max_iter
        self.alpha_ = alpha
        self.support_vectors_ = X[used]
        self.dual_coef_ = (y_signed * alpha)[used]
        if self.kernel == "linear":
            self.coef_ = (self.dual_coef_ @ self.support_vectors_)[None, :]
        self._fit_probability(K[:, used] @ self.dual_coef_ + self.intercept_, y_signed)
        return self

    def decision_function(self, X):
        """sum_j y_j alpha_j K(x_j, x) + b; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = check_features(self, X, accept_sparse=False)
        return self._kernel(X, self.support_vectors_) @ self.dual_coef_ + self.intercept_



def svm_rfe(n_features_to_select=None, *, step=1, C=1.0, cv=None, scoring=None, n_jobs=None,
            min_features_to_select=1):
    """SVM-RFE (Guyon et al. 2002; thesis Fig. 2.12) as a scikit-learn selector.

    Repeatedly trains a linear SVM (libsvm, ``SVC(kernel="linear", C=C)``) and drops the
    ``step`` features (a count, or a fraction of the remaining ones) with the smallest
    w_j^2, the ranking criterion of the thesis. Returns an unfitted ``RFE`` stopping at
    ``n_features_to_select`` (None: half), or, with ``cv``, an ``RFECV`` that picks the
    number of features by cross-validation and runs its folds in parallel with
    ``n_jobs`` (``RFE`` itself is sequential: each elimination needs the previous
    one). A large ``step`` is Guyon et al.'s remedy for many features.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        Features to keep (a fraction when a float; None: half). Ignored with ``cv``.
    step : int or float, default=1
        Features removed per elimination (a fraction of the remaining ones if < 1).
    C : float, default=1.0
        Softness of the linear SVM.
    cv : int, splitter or None, default=None
        With a value, return an ``RFECV`` that chooses the number of features.
    scoring : str, callable or None, default=None
        Score of ``RFECV`` (accuracy by default).
    n_jobs : int or None
        Parallel folds of ``RFECV``.
    min_features_to_select : int, default=1
        The fewest features ``RFECV`` considers.

    Returns
    -------
    sklearn.feature_selection.RFE or sklearn.feature_selection.RFECV
        Unfitted.

    Examples
    --------
    >>> from sfmlearn.datasets import load_leukemia
    >>> from sfmlearn.selection import svm_rfe
    >>> data = load_leukemia()
    >>> rfe = svm_rfe(2, step=0.5).fit(data.X_train, data.y_train)
    >>> list(data.feature_names[rfe.get_support()])
    ['M19507_at', 'Z19554_s_at']
    """
    estimator = SVC(kernel="linear", C=C)
    if cv is None:
        return RFE(estimator, n_features_to_select=n_features_to_select, step=step)
    return RFECV(estimator, step=step, cv=cv, scoring=scoring, n_jobs=n_jobs,
                 min_features_to_select=min_features_to_select)
