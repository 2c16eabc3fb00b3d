"""Kernel-target alignment feature selection (ML05 3.2.2, 4.2.4).

Features are weighted by theta in [0, 1]^d inside the kernel,

    Gaussian (ML05 eq. 10):  K_theta(x, z) = exp(-sum_k theta_k (x_k - z_k)^2 / (2 sigma^2))
    chi^2    (ML05 5.3):     K_theta(x, z) = exp(-rho sum_k theta_k (x_k - z_k)^2 / (x_k + z_k)),

both of the form exp(-gamma sum_k theta_k D_k(x, z)), and theta minimises (ML05 eq. 12)

    f(theta) = -(1 - lambda) 1/2 y_n^T K_theta y_n + (lambda / d) sum_k (1 - exp(-alpha theta_k))

over [0, 1]^d, where y_n = (y_i / n_{y_i})_i: y_n^T K y_n is the squared distance of the
class centres in feature space (ML05 eq. 11). DCA split (ML05 4.2.4):

    g(theta) = (1 - lambda) / (n_+ n_-) sum_{i in +, j in -} K_theta(x_i, x_j) + chi_[0,1]^d
    h(theta) = (1 - lambda) / 2 sum_{y_i = y_j} K_theta(x_i, x_j) / n_{y_i}^2
               - (lambda / d) sum_k (1 - exp(-alpha theta_k))

Both are convex (K_theta is the exponential of an affine function of theta). Each DCA
step solves the bounded convex problem min_{theta in [0,1]^d} g(theta) - theta . grad h(theta^k)
(ML05 eq. 16) with L-BFGS-B (ML05 used MATLAB's fmincon), from theta^0 = 1/2 and with
ML05's stopping rule at tol = 1e-3 (ML05 5.2.2). Features with theta_k > 1e-2 are
selected (ML05 5.2.3), and the classifier is an SVM with the same kernel on the selected,
theta-weighted features.

Even with lambda = 0 the alignment discards noise features (ML05 5.1, Fig. 2): random
features damp every off-diagonal kernel entry by about the same factor and so pull the
class centres on the unit sphere of feature space together.

**Choice of sigma.** ML05 5.2.2 sets sigma = sqrt(d / 2) for standardised features and
states that it maximises the alignment; with E||x - z||^2 = 2d it makes the typical
kernel value exp(-2), and for the 2-D chess board of ML05 Fig. 2 it gives the sigma = 1
of that figure. ``sigma="auto"`` uses this rule; ``sigma="max_alignment"`` instead
maximises Cristianini et al.'s alignment y^T K y / (n ||K||_F) at theta = 1 over sigma on
the training data (a bounded one-dimensional search), so the paper's claim can be
checked on any data set.
"""

import numbers
import warnings
from functools import partial

import numpy as np
from scipy.optimize import minimize, minimize_scalar
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.metrics.pairwise import chi2_kernel
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, StandardScaler
from sklearn.svm import SVC
from sklearn.utils._param_validation import StrOptions, validate_params
from sklearn.utils.validation import check_is_fitted

from ..._validation import check_features
from ...exceptions import DataValidationError
from ...optim import dca, single_blas_thread
from ...preprocessing import constant_features, warn_constant_features
from .._checked import CheckedTransformMixin, SupportMaskMixin, TwoClassMixin
from .._constraints import FRACTION, LOOP, NON_NEGATIVE, POSITIVE, UNIT_INTERVAL
from .._lpdata import check_not_all_constant

__all__ = ["KernelTargetAlignment", "alignment", "gaussian_sigma"]

KERNELS = ("gaussian", "chi2")
SIGMA_RULES = ("auto", "max_alignment")


class _GaussianBlock:
    """Pairs (i in A, j in B) with D_ijk = (x_ik - x_jk)^2, without an n_A x n_B x d array."""

    def __init__(self, XA, XB):
        self.XA, self.XB = XA, XB
        self.XA2, self.XB2 = XA**2, XB**2

    def distance(self, theta):
        """sum_k theta_k D_ijk, shape (n_A, n_B)."""
        cross = (self.XA * theta) @ self.XB.T
        return np.maximum(
            (self.XA2 @ theta)[:, None] + (self.XB2 @ theta)[None, :] - 2.0 * cross, 0.0
        )

    def weighted_sum(self, W):
        """sum_ij W_ij D_ijk for every k, shape (d,)."""
        return self.XA2.T @ W.sum(axis=1) + self.XB2.T @ W.sum(axis=0) \
            - 2.0 * np.einsum("ik,ik->k", self.XA, W @ self.XB)


class _Chi2Block:
    """Pairs (i in A, j in B) with D_ijk = (x_ik - x_jk)^2 / (x_ik + x_jk) (0 where 0/0).

    Stores the n_A x n_B x d array of D: the chi^2 kernel has no Gram shortcut.
    """

    def __init__(self, XA, XB):
        total = XA[:, None, :] + XB[None, :, :]
        diff2 = (XA[:, None, :] - XB[None, :, :]) ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            self.D = np.where(total > 0, diff2 / np.where(total > 0, total, 1.0), 0.0)

    def distance(self, theta):
        return self.D @ theta

    def weighted_sum(self, W):
        return np.einsum("ij,ijk->k", W, self.D)


class _AlignmentProgram:
    """The DC program of ML05 4.2.4 for :func:`~sfmlearn.optim.dca.dca`."""

    def __init__(self, X, y, block, gamma, lam, alpha):
        pos, neg = y > 0, y < 0
        self.n_pos, self.n_neg = int(pos.sum()), int(neg.sum())
        self.same = [(block(X[pos], X[pos]), 1.0 / self.n_pos**2),
                     (block(X[neg], X[neg]), 1.0 / self.n_neg**2)]
        self.cross = block(X[pos], X[neg])
        self.gamma, self.lam, self.alpha = gamma, lam, alpha
        self.d = X.shape[1]
        self.n_subproblem_evaluations = 0

    def _kernel_sum(self, block, theta):
        K = np.exp(-self.gamma * block.distance(theta))
        return float(K.sum()), -self.gamma * block.weighted_sum(K)

    def _g(self, theta):
        value, grad = self._kernel_sum(self.cross, theta)
        scale = (1.0 - self.lam) / (self.n_pos * self.n_neg)
        return scale * value, scale * grad

    def _h(self, theta):
        value, grad = 0.0, np.zeros(self.d)
        for block, weight in self.same:
            v, g = self._kernel_sum(block, theta)
            value += 0.5 * (1.0 - self.lam) * weight * v
            grad += 0.5 * (1.0 - self.lam) * weight * g
        decay = np.exp(-self.alpha * theta)
        value -= self.lam / self.d * float(np.sum(1.0 - decay))
        grad -= self.lam / self.d * self.alpha * decay
        return value, grad

    def subgradient_h(self, theta):
        return self._h(theta)[1]

    def argmin_linearised(self, slope, theta):
        def fun(t):
            value, grad = self._g(t)
            return value - float(slope @ t), grad - slope

        result = minimize(fun, theta, jac=True, method="L-BFGS-B",
                          bounds=[(0.0, 1.0)] * self.d,
                          options={"ftol": 1e-15, "gtol": 1e-10, "maxiter": 1000})
        self.n_subproblem_evaluations += result.nfev
        # L-BFGS-B only returns feasible points; the convex subproblem's optimum is
        # certified by its projected gradient, checked here.
        grad = fun(result.x)[1]
        projected = np.clip(result.x - grad, 0.0, 1.0) - result.x
        if np.abs(projected).max() > 1e-6 * (1.0 + np.abs(grad).max()):
            warnings.warn(
                f"The alignment subproblem stopped with projected gradient "
                f"{np.abs(projected).max():.2g} ({result.message}).", ConvergenceWarning,
            )
        return result.x

    def objective(self, theta):
        return self._g(theta)[0] - self._h(theta)[0]


def alignment(X, y, sigma):
    """Cristianini et al.'s alignment y^T K y / (n ||K||_F) of the Gaussian kernel."""
    y = np.where(np.asarray(y) == np.unique(y)[-1], 1.0, -1.0)
    sq = np.sum(X**2, axis=1)
    K = np.exp(-np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0) / (2.0 * sigma**2))
    return float(y @ K @ y / (y.size * np.linalg.norm(K)))


@validate_params(
    {"X": "no_validation", "y": "no_validation", "rule": [StrOptions(set(SIGMA_RULES))]},
    prefer_skip_nested_validation=True,
)
def gaussian_sigma(X, y, rule="auto"):
    """The kernel width: ML05's sqrt(d / 2) (``"auto"``) or the alignment maximiser."""
    d = X.shape[1]
    if rule == "auto":
        return float(np.sqrt(d / 2.0))
    centre = np.log(np.sqrt(d / 2.0))
    found = minimize_scalar(lambda s: -alignment(X, y, np.exp(s)),
                            bounds=(centre - np.log(1e3), centre + np.log(1e3)),
                            method="bounded", options={"xatol": 1e-4})
    return float(np.exp(found.x))


class KernelTargetAlignment(TwoClassMixin, SupportMaskMixin, CheckedTransformMixin, SelectorMixin,
                            ClassifierMixin, BaseEstimator):
    """Feature selection by kernel-target alignment, then a kernel SVM (ML05 3.2.2, 4.2.4).

    Minimises f(theta) = -(1 - lambda) 1/2 y_n^T K_theta y_n + (lambda/d) sum_k (1 -
    exp(-alpha theta_k)) over theta in [0, 1]^d by DCA (see the module docstring),
    selects the features with theta_k > ``threshold`` and trains an SVM with the
    theta-weighted kernel on them.

    Parameters
    ----------
    lam : float in [0, 1), default=0.1
        Weight of the feature penalty (ML05's grid: 0, 0.1, ..., 0.9). With 0 the
        alignment alone already discards features (ML05 Table 6).
    kernel : {"gaussian", "chi2"}, default="gaussian"
    sigma : float, "auto" or "max_alignment", default="auto"
        Gaussian width (module docstring): "auto" is ML05's sqrt(d/2).
    rho : float, default=2**-11
        chi^2 kernel factor (ML05 5.3 uses 2^-11 on histogram features).
    alpha : float, default=5.0
    C : float, default=1.0
        Softness of the final SVM (ML05 picks (1 - lambda)/lambda in {e^-5, ..., e^5}
        on validation data: C plays that role here).
    standardize : bool or None, default=None
        Standardise the features (zero mean, unit variance) first, as ML05 5.2.1 insists
        for this method. None means True for the Gaussian kernel and False for chi^2,
        whose features must stay non-negative (ML05 uses them unmodified).
    theta0 : float in (0, 1], default=0.5
        The DCA start theta^0 = theta0 * 1 (ML05: 1/2).
    threshold : float, default=1e-2
        theta_k above it counts as selected (ML05 5.2.3).
    max_iter : int, default=100
    tol : float, default=1e-3
        ML05's stopping rule on theta (ML05: 1e-3).

    Attributes
    ----------
    theta_ : ndarray of shape (n_features,)
        Feature weights (0 for constant features).
    support_ : ndarray of bool
    sigma_ : float or None
        The Gaussian width used (None for chi^2).
    svm_ : sklearn.svm.SVC or None
        The classifier on the selected, weighted features (None if nothing was selected:
        then the majority class is predicted).
    n_iter_, converged_ : DCA iterations and whether ML05's rule was met.
    history_ : dict with ``objective`` (f(theta^k), k = 0, 1, ...) and ``seconds``.
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import KernelTargetAlignment
    >>> from sfmlearn.datasets import make_chessboard
    >>> X, y = make_chessboard(random_state=0)   # the board lives in x1, x2 (ML05 Fig. 2)
    >>> np.flatnonzero(KernelTargetAlignment().fit(X, y).get_support())
    array([0, 1])
    """

    _parameter_constraints = {
        "lam": [FRACTION],
        "kernel": [StrOptions(set(KERNELS))],
        "sigma": [POSITIVE, StrOptions(set(SIGMA_RULES))],
        "rho": [POSITIVE],
        "alpha": [POSITIVE],
        "C": [POSITIVE],
        "standardize": ["boolean", None],
        "theta0": [UNIT_INTERVAL],
        "threshold": [NON_NEGATIVE],
        **LOOP,
    }

    def __init__(self, lam=0.1, *, kernel="gaussian", sigma="auto", rho=2.0**-11, alpha=5.0,
                 C=1.0, standardize=None, theta0=0.5, threshold=1e-2, max_iter=100, tol=1e-3):
        self.lam = lam
        self.kernel = kernel
        self.sigma = sigma
        self.rho = rho
        self.alpha = alpha
        self.C = C
        self.standardize = standardize
        self.theta0 = theta0
        self.threshold = threshold
        self.max_iter = max_iter
        self.tol = tol

    def _prepare(self, X, fit):
        """Standardised (or raw) features.

        Each column is divided by its largest magnitude before the standardisation, which
        leaves the result unchanged but keeps the moments finite for any scale of X.
        """
        standardize = self.kernel == "gaussian" if self.standardize is None else self.standardize
        if fit:
            self.scaler_ = make_pipeline(MaxAbsScaler(), StandardScaler()).fit(X) \
                if standardize else None
        X = np.asarray(X, dtype=np.float64)
        if self.scaler_ is not None:
            X = self.scaler_.transform(X)
        if self.kernel == "chi2" and X.min(initial=0.0) < 0:
            raise DataValidationError(
                "The chi2 kernel needs non-negative features (e.g. histograms); got negative "
                "values. Use kernel='gaussian' or pass non-negative data with standardize=False."
            )
        return X

    def _weighted(self, X, theta):
        return X * (np.sqrt(theta) if self.kernel == "gaussian" else theta)

    def fit(self, X, y, **fit_params):
        """Weight the features by DCA, then train the SVM on the selected ones."""
        X, y_signed = self._check_fit(X, y, fit_params)
        lam = float(self.lam)
        constant = constant_features(X)
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, getattr(self, "feature_names_in_", None))
        varying = ~constant
        X = self._prepare(X, fit=True)
        Xv = X[:, varying]
        if self.kernel == "gaussian":
            self.sigma_ = float(self.sigma) if isinstance(self.sigma, numbers.Real) \
                else gaussian_sigma(Xv, y_signed, self.sigma)
            gamma, block = 1.0 / (2.0 * self.sigma_**2), _GaussianBlock
        else:
            self.sigma_, gamma, block = None, float(self.rho), _Chi2Block
        with single_blas_thread():
            program = _AlignmentProgram(Xv, y_signed, block, gamma, lam, self.alpha)
            run = dca(program, np.full(Xv.shape[1], float(self.theta0)), tol=self.tol,
                      max_iter=self.max_iter)
        if not run.converged:
            warnings.warn(
                f"KernelTargetAlignment's DCA did not converge in max_iter={self.max_iter} "
                "iterations; increase max_iter.", ConvergenceWarning,
            )
        self.theta_ = np.zeros(X.shape[1])
        self.theta_[varying] = run.x
        self.support_ = self.theta_ > self.threshold
        self.n_iter_ = run.n_iter
        self.converged_ = run.converged
        self.history_ = {key: np.asarray(value) for key, value in run.history.items()}
        self.svm_ = None
        if self.support_.any():
            kernel = "rbf" if self.kernel == "gaussian" else partial(chi2_kernel, gamma=self.rho)
            params = {"gamma": gamma} if self.kernel == "gaussian" else {}
            self.svm_ = SVC(kernel=kernel, C=self.C, **params).fit(
                self._weighted(X[:, self.support_], self.theta_[self.support_]), y_signed
            )
        else:
            warnings.warn(
                "KernelTargetAlignment selected no feature (every theta_k <= threshold); "
                "it predicts the majority class. Lower lam.", UserWarning,
            )
            self.majority_ = 1.0 if np.sum(y_signed) >= 0 else -1.0
        return self

    def decision_function(self, X):
        """The SVM's decision values; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = self._prepare(check_features(self, X, accept_sparse=False), fit=False)
        if self.svm_ is None:
            return np.full(X.shape[0], self.majority_)
        return self.svm_.decision_function(
            self._weighted(X[:, self.support_], self.theta_[self.support_])
        )

    @property
    def n_support_vectors_(self):
        """Number of support vectors of the final SVM (reported in ML05 Table 4)."""
        check_is_fitted(self)
        return 0 if self.svm_ is None else int(self.svm_.n_support_.sum())
