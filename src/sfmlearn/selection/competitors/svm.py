r"""Support vector machine baselines (thesis 2.3, 2.6.5): hard margin, SoftDoubleMinOver, RFE.

* :class:`HardMarginSVM`: :math:`\min \tfrac{1}{2} \|w\|^2` s.t.
  :math:`y_i (w \cdot x_i + b) \ge 1` (thesis eq. 2.1), solved exactly and verified by
  :func:`sfmlearn.optim.svm.linear_svm`.
* :class:`SoftDoubleMinOver`: Martinetz' perceptron-like algorithm for the two-norm
  soft-margin SVM (thesis Fig. 2.4), converging as O(1/t), with a stopping test on its
  margin gap (:func:`margin_gap`).
* :func:`svm_rfe`: recursive feature elimination with a linear SVM (Guyon et al. 2002,
  thesis Fig. 2.12) as a configured scikit-learn ``RFE`` / ``RFECV``.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import RFE, RFECV
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS, pairwise_kernels
from sklearn.svm import SVC
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from ..._validation import check_features
from ...exceptions import DataValidationError, NotSeparableError
from ...optim import linear_svm
from ...optim.conditioning import separable
from .._checked import FIT_CALLER, CheckedDecisionMixin, TwoClassMixin, fit_from_scratch
from .._probability import PlattProbabilityMixin
from .._constraints import NON_NEGATIVE, POSITIVE, POSITIVE_INT

__all__ = ["HardMarginSVM", "SoftDoubleMinOver", "double_min_over", "margin_gap", "svm_rfe"]


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

    @fit_from_scratch
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


def double_min_over(K, y, diagonal, max_iter, tol):
    r"""DoubleMinOver on the kernel matrix ``K`` plus ``diagonal`` times the identity.

    Each step adds 1 to :math:`\alpha` of the positive and of the negative sample with
    the smallest residual :math:`r_i = y_i \sum_j y_j \alpha_j (K_{ij} + \delta_{ij} d)`
    (d = ``diagonal``, 1 / C),
    until the margin gap (:func:`margin_gap`) is at most ``tol`` or ``max_iter`` steps
    were taken. Returns ``(alpha, b, n_steps, gap)`` with the bias
    :math:`b = (r_{i-} - r_{i+}) / 2` of the final minimal residuals.
    """
    order = np.concatenate([np.flatnonzero(y < 0), np.flatnonzero(y > 0)])  # negatives first
    n_neg = np.count_nonzero(y < 0)
    signed_columns = np.asfortranarray(y[order, None] * K[np.ix_(order, order)])  # y_i K_ij
    alpha = np.zeros(y.size)
    residuals = np.zeros(y.size)
    for step in range(max_iter + 1):
        i_neg, i_pos = int(residuals[:n_neg].argmin()), n_neg + int(residuals[n_neg:].argmin())
        gap = margin_gap(step, alpha @ residuals, residuals[i_pos] + residuals[i_neg])
        if gap <= tol or step == max_iter:
            break
        alpha[i_pos] += 1.0
        alpha[i_neg] += 1.0
        residuals += signed_columns[:, i_pos]
        residuals -= signed_columns[:, i_neg]
        residuals[i_pos] += diagonal
        residuals[i_neg] += diagonal
    in_input_order = np.empty_like(alpha)
    in_input_order[order] = alpha
    return in_input_order, 0.5 * float(residuals[i_neg] - residuals[i_pos]), step, gap


def margin_gap(n_steps, squared_norm, smallest_residuals):
    r"""How far the margin after ``n_steps`` DoubleMinOver steps may be from the optimum.

    After t steps, :math:`w_t / t = c_+ - c_-` joins a point of each class's convex hull
    (in the feature space of the kernel, augmented by :math:`e_i / \sqrt{C}` for the soft
    margin), so the optimal margin (half the distance of the hulls) is at most
    :math:`\|w_t\| / (2t)`, while the hyperplane of :math:`w_t` and its bias has the margin
    :math:`(r_+ + r_-) / (2 \|w_t\|)` (the two smallest residuals). The gap is
    :math:`1 - t (r_+ + r_-) / \|w_t\|^2` (``squared_norm`` is
    :math:`\|w_t\|^2 = \sum_i \alpha_i r_i`): the margin is within a factor 1 - gap of the
    optimum; 1 or more while some training sample is on the wrong side; infinite before
    the first step.
    """
    return float(1.0 - n_steps * smallest_residuals / squared_norm) if squared_norm > 0 else np.inf


class SoftDoubleMinOver(PlattProbabilityMixin, TwoClassMixin, ClassifierMixin, BaseEstimator):
    r"""SoftDoubleMinOver (Martinetz, Labusch & Schneegass 2005; thesis Fig. 2.4): a two-norm soft-margin SVM.

    The algorithm (T. Martinetz, K. Labusch, D. Schneegass, "SoftDoubleMinOver: a simple
    procedure for maximum margin classification", ICANN 2005, LNCS 3697, 301-306)::

        alpha <- 0
        for t = 1 .. t_max:
            r_i <- y_i sum_j y_j alpha_j (K(x_i, x_j) + delta_ij / C)
            alpha_{i+} += 1 for i+ = argmin_{y_i = +1} r_i,
            alpha_{i-} += 1 for i- = argmin_{y_i = -1} r_i
        b <- (r_{i-} - r_{i+}) / 2   (with the final residuals)

    The classifier is :math:`f(x) = \sum_j y_j \alpha_j K(x_j, x) + b`. It converges to
    the two-norm soft-margin SVM, which is the hard-margin SVM of the kernel
    :math:`K + \delta / C`, and for C = None to the hard-margin SVM. The residuals are
    updated incrementally: O(n) per step after the n x n kernel matrix.

    What ``fit`` guarantees:

    * **Stopping test.** After t steps :math:`w_t / t` joins a point of each class's
      convex hull, so :math:`\|w_t\| / (2t)` bounds the optimal margin from above, and the
      current hyperplane's margin bounds it from below (:func:`margin_gap`). ``fit``
      stops once the current margin is within a factor ``1 - tol`` of the optimum, and
      issues a ``ConvergenceWarning`` when ``max_iter`` steps end before that (the
      hyperplane may then misclassify training samples that the SVM gets right).
    * **Hard margin.** For ``C=None`` ``fit`` first checks (by the separability LP,
      :func:`sfmlearn.lp.separability.is_separable`) that a hyperplane in the kernel's
      feature space separates the classes, and raises
      :class:`~sfmlearn.exceptions.NotSeparableError` otherwise, as
      :class:`HardMarginSVM` does: there the algorithm would run forever with training
      errors. Pass a softness C for such data.
    * **Finite results.** The algorithm's sums (at most 4 ``max_iter``:sup:`2` times the
      largest kernel entry) must stay within the float range; otherwise (e.g. X of
      magnitude 1e160 with the linear kernel) a
      :class:`~sfmlearn.exceptions.DataValidationError` asks to rescale X, instead of
      returning NaN.

    Parameters
    ----------
    C : float or None, default=None
        Softness (None: hard margin).
    kernel : str, default="linear"
        Any kernel of :func:`sklearn.metrics.pairwise.pairwise_kernels` ("linear",
        "rbf", "poly", ...).
    gamma : float or None, default=None
        Kernel parameter for "rbf"/"poly"/"sigmoid" (scikit-learn's default if None).
    max_iter : int, default=100000
        t_max, the most steps.
    tol : float, default=1e-2
        Stop once the margin is within a factor 1 - tol of the optimal one (the gap of
        :func:`margin_gap`); 0 runs all ``max_iter`` steps.

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
        Steps run (at most ``max_iter``).
    margin_gap_ : float
        The final gap: the margin is within a factor 1 - margin_gap_ of the optimum.
    converged_ : bool
        Whether ``margin_gap_ <= tol``.
    %(probability_attributes)s
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import HardMarginSVM, SoftDoubleMinOver
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=0, random_state=0)   # separable
    >>> w = HardMarginSVM().fit(X, y).coef_.ravel()
    >>> model = SoftDoubleMinOver(tol=1e-3).fit(X, y)   # C=None: hard margin
    >>> model.converged_, model.n_iter_   # the margin within 0.1 % of the SVM's
    (True, 4484)
    >>> v = model.coef_.ravel()
    >>> round(float(w @ v / np.linalg.norm(w) / np.linalg.norm(v)), 4)   # cos of their angle
    1.0
    """

    _parameter_constraints = {
        "C": [POSITIVE, None],
        "kernel": [StrOptions(set(PAIRWISE_KERNEL_FUNCTIONS)), callable],
        "gamma": [POSITIVE, None],
        "max_iter": [POSITIVE_INT],
        "tol": [NON_NEGATIVE],
    }

    def __init__(self, C=None, *, kernel="linear", gamma=None, max_iter=100_000, tol=1e-2):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.max_iter = max_iter
        self.tol = tol

    def _kernel(self, X, Y):
        params = {} if self.gamma is None else {"gamma": self.gamma}
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, **params)

    def _training_kernel(self, X, diagonal):
        """The kernel matrix of the training samples, refused where the algorithm's sums
        would leave the float range: the residuals are at most 2 ``max_iter`` times the
        largest entry (plus the soft diagonal), and ||w||^2 = sum_i alpha_i r_i twice
        ``max_iter`` times that."""
        with np.errstate(over="ignore", invalid="ignore"):
            K = self._kernel(X, X)
            peak = np.abs(K).max()
            bound = (peak + diagonal) * 4.0 * float(self.max_iter) ** 2
        if not np.isfinite(bound):
            size = f"reaches {peak:.3g}" if np.isfinite(peak) else "overflows"
            raise DataValidationError(
                f"The {self.kernel} kernel of X {size} (|X| up to {np.abs(X).max():.3g}): "
                f"SoftDoubleMinOver's sums over max_iter={self.max_iter} steps would leave "
                "the float range and give inf or NaN. Rescale X, e.g. with "
                "sklearn.preprocessing.StandardScaler.")
        return K

    def _check_separable(self, X, K, y_signed):
        """For the hard margin (C=None): NotSeparableError unless a hyperplane of the
        kernel's feature space separates the classes (on X for the linear kernel, else on
        the rows of K: w in the span of the training samples)."""
        if self.C is None and not separable(X if self.kernel == "linear" else K, y_signed):
            raise NotSeparableError(
                "The two classes are not separable in the feature space of the "
                f"{self.kernel} kernel, so the hard-margin SoftDoubleMinOver (C=None) has no "
                "solution and would never converge. Pass a softness C, e.g. "
                "SoftDoubleMinOver(C=1.0).")

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Run SoftDoubleMinOver steps until the margin gap is at most ``tol`` (at most
        ``max_iter``).

        Raises
        ------
        NotSeparableError
            For ``C=None`` on data that no hyperplane of the kernel separates.
        DataValidationError
            For unusable data (one class, NaN, a kernel beyond the float range, ...).
        """
        X, y_signed = self._check_fit(X, y, fit_params)
        diagonal = 0.0 if self.C is None else 1.0 / self.C
        K = self._training_kernel(X, diagonal)
        self._check_separable(X, K, y_signed)
        alpha, self.intercept_, self.n_iter_, self.margin_gap_ = double_min_over(
            K, y_signed, diagonal, self.max_iter, self.tol)
        self.converged_ = bool(self.margin_gap_ <= self.tol)
        if not self.converged_:
            warnings.warn(self._not_converged_message(), ConvergenceWarning, stacklevel=FIT_CALLER)
        used = alpha > 0
        self.alpha_ = alpha
        self.support_vectors_ = X[used]
        self.dual_coef_ = (y_signed * alpha)[used]
        if self.kernel == "linear":
            self.coef_ = (self.dual_coef_ @ self.support_vectors_)[None, :]
        self._fit_probability(K[:, used] @ self.dual_coef_ + self.intercept_, y_signed)
        return self

    def _not_converged_message(self):
        """What an unconverged fit means, from its margin gap."""
        meaning = ("training samples are still on the wrong side of its hyperplane"
                   if self.margin_gap_ >= 1 else
                   f"its margin may be up to {100 * self.margin_gap_:.2g} % below the SVM's")
        return (f"SoftDoubleMinOver did not converge in max_iter={self.max_iter} steps: the "
                f"margin gap is {self.margin_gap_:.3g} > tol={self.tol}, so {meaning}. "
                "Increase max_iter.")

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
