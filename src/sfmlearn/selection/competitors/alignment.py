r"""Kernel-target alignment feature selection (ML05 3.2.2, 4.2.4).

Features are weighted by :math:`\theta \in [0, 1]^d` inside the kernel, Gaussian (ML05
eq. 10) or chi-squared (ML05 5.3):

.. math::

    K_\theta(x, z) &= \exp\Big(-\sum_k \theta_k \frac{(x_k - z_k)^2}{2 \sigma^2}\Big)
    \quad \text{(Gaussian)}, \\
    K_\theta(x, z) &= \exp\Big(-\rho \sum_k \theta_k \frac{(x_k - z_k)^2}{x_k + z_k}\Big)
    \quad \text{(chi-squared)},

both of the form :math:`\exp(-\gamma \sum_k \theta_k D_k(x, z))`
(:math:`\gamma = 1 / (2 \sigma^2)`, resp. :math:`\rho`: the estimator's ``gamma``,
scikit-learn's name), and theta minimises (ML05 eq. 12)

.. math::

    f(\theta) = -(1 - \lambda) \tfrac{1}{2} y_n^\top K_\theta y_n
    + \frac{\lambda}{d} \sum_k \big(1 - e^{-\alpha \theta_k}\big)

over :math:`[0, 1]^d`, where :math:`y_n = (y_i / n_{y_i})_i`: :math:`y_n^\top K y_n` is the
squared distance of the class centres in feature space (ML05 eq. 11). DCA split (ML05
4.2.4):

.. math::

    g(\theta) &= \frac{1 - \lambda}{n_+ n_-} \sum_{i \in +, \, j \in -} K_\theta(x_i, x_j)
    + \chi_{[0,1]^d}(\theta) \\
    h(\theta) &= \frac{1 - \lambda}{2} \sum_{y_i = y_j} \frac{K_\theta(x_i, x_j)}{n_{y_i}^2}
    - \frac{\lambda}{d} \sum_k \big(1 - e^{-\alpha \theta_k}\big)

Both are convex (:math:`K_\theta` is the exponential of an affine function of theta).
Each DCA step solves the bounded convex problem
:math:`\min_{\theta \in [0,1]^d} g(\theta) - \theta \cdot \nabla h(\theta^k)` (ML05 eq. 16)
with L-BFGS-B (ML05 used MATLAB's fmincon), from :math:`\theta^0 = 1/2` and with ML05's
stopping rule at tol = 1e-3 (ML05 5.2.2). Features with :math:`\theta_k > 10^{-2}` are
selected (ML05 5.2.3), and the classifier is an SVM with the same kernel on the selected,
theta-weighted features.

Even with :math:`\lambda = 0` the alignment discards noise features (ML05 5.1, Fig. 2): random
features damp every off-diagonal kernel entry by about the same factor and so pull the
class centres on the unit sphere of feature space together.

**Choice of the width.** ML05 5.2.2 sets sigma = sqrt(d / 2) for standardised features
and states that it maximises the alignment; with E||x - z||^2 = 2d it makes the typical
kernel value exp(-2), and for the 2-D chess board of ML05 Fig. 2 it gives the sigma = 1
of that figure. ``gamma="auto"`` uses this rule, gamma = 1 / (2 sigma^2) = 1 / d (and
ML05 5.3's rho = 2^-11 for the chi^2 kernel); ``gamma="max_alignment"`` instead
maximises Cristianini et al.'s alignment y^T K y / (n ||K||_F) at theta = 1 over gamma
on the training data (a bounded one-dimensional search, :func:`kernel_gamma`), so the
paper's claim can be checked on any data set.
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
from sklearn.utils._param_validation import InvalidParameterError, StrOptions, validate_params
from sklearn.utils.validation import check_is_fitted

from ..._validation import check_features
from ...exceptions import DataValidationError
from ...optim import dca, single_blas_thread
from ...preprocessing import constant_features, warn_constant_features
from ...utils.deprecation import REMOVED_IN, is_given
from .._checked import FIT_CALLER, CheckedTransformMixin, SupportMaskMixin, TwoClassMixin, fit_from_scratch
from .._probability import PlattProbabilityMixin
from .._constraints import FRACTION, LOOP, NON_NEGATIVE, POSITIVE, UNIT_INTERVAL
from .._lpdata import check_not_all_constant
from ._params import Param, declare_parameters, renamed, renamed_value

__all__ = ["KernelTargetAlignment", "alignment", "gaussian_sigma", "kernel_alignment", "kernel_gamma"]

KERNELS = ("gaussian", "chi2")
GAMMA_RULES = ("auto", "max_alignment")
#: ML05 5.3's chi^2 factor on histogram features: the chi^2 kernel's ``gamma="auto"``.
CHI2_GAMMA = 2.0**-11


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


_BLOCKS = {"gaussian": _GaussianBlock, "chi2": _Chi2Block}


def kernel_alignment(X, y, gamma, kernel="gaussian"):
    """Cristianini et al.'s alignment y^T K y / (n ||K||_F) of the kernel at theta = 1.

    K_ij = exp(-gamma sum_k D_k(x_i, x_j)), D the squared difference (Gaussian) or the
    chi^2 distance of the module docstring.
    """
    y = np.where(np.asarray(y) == np.unique(y)[-1], 1.0, -1.0)
    K = np.exp(-gamma * _BLOCKS[kernel](X, X).distance(np.ones(X.shape[1])))
    return float(y @ K @ y / (y.size * np.linalg.norm(K)))


@validate_params(
    {"X": "no_validation", "y": "no_validation", "rule": [StrOptions(set(GAMMA_RULES))],
     "kernel": [StrOptions(set(KERNELS))]},
    prefer_skip_nested_validation=True,
)
def kernel_gamma(X, y, rule="auto", kernel="gaussian"):
    """The kernel factor gamma by ML05's rule (``"auto"``) or as the alignment maximiser.

    "auto" is 1 / (2 sigma^2) = 1 / d with ML05 5.2.2's sigma = sqrt(d / 2) for the
    Gaussian kernel and ML05 5.3's 2^-11 for chi^2; "max_alignment" maximises
    :func:`kernel_alignment` over log gamma within a factor 1e6 of the "auto" value.
    """
    auto = 1.0 / X.shape[1] if kernel == "gaussian" else CHI2_GAMMA
    if rule == "auto":
        return auto
    centre, reach = np.log(auto), np.log(1e6)
    found = minimize_scalar(lambda g: -kernel_alignment(X, y, np.exp(g), kernel),
                            bounds=(centre - reach, centre + reach), method="bounded",
                            options={"xatol": 2e-4})
    return float(np.exp(found.x))


def _sigma_replaced(owner, stacklevel):
    """The FutureWarning of a deprecated Gaussian width ``sigma`` (``stacklevel`` as for
    :func:`warnings.warn`, counted from the caller)."""
    warnings.warn(f"{owner}: 'sigma' is replaced by 'gamma' = 1 / (2 sigma^2); the old name "
                  f"stops working in sfmlearn {REMOVED_IN}", FutureWarning, stacklevel=stacklevel + 1)


def _sigma_to_gamma(sigma):
    """The ``gamma`` of a deprecated Gaussian width ``sigma`` (a rule name stays a name)."""
    return sigma if isinstance(sigma, str) else 0.5 / float(sigma) ** 2


#: Each kernel's deprecated factor: its name, its conversion to ``gamma`` (None: the same
#: value) and the relation the deprecation warning states.
_OLD_FACTORS = {"gaussian": ("sigma", _sigma_to_gamma, "1 / (2 sigma^2)"), "chi2": ("rho", None, None)}


def alignment(X, y, sigma):
    """Deprecated: :func:`kernel_alignment` with gamma = 1 / (2 sigma^2)."""
    _sigma_replaced("alignment", 2)
    return kernel_alignment(X, y, 0.5 / sigma**2)


def gaussian_sigma(X, y, rule="auto"):
    """Deprecated: sigma = 1 / sqrt(2 gamma) of :func:`kernel_gamma` (Gaussian kernel)."""
    _sigma_replaced("gaussian_sigma", 2)
    return float(np.sqrt(0.5 / kernel_gamma(X, y, rule)))


_GAMMA = Param("auto", [POSITIVE, StrOptions(set(GAMMA_RULES))], r"""float, "auto" or "max_alignment", default="auto"
    The kernel factor :math:`\gamma` of :math:`\exp(-\gamma \sum_k \theta_k D_k(x, z))`
    (module docstring): :math:`1 / (2 \sigma^2)` for the Gaussian kernel (ML05 eq. 10),
    ML05's :math:`\rho` for chi^2. "auto" is ML05's choice, :math:`\sigma = \sqrt{d / 2}`
    (:math:`\gamma = 1 / d`) for the Gaussian kernel and :math:`2^{-11}` for chi^2
    (ML05 5.3, histogram features); "max_alignment"
    maximises the kernel-target alignment on the training data
    (:func:`~sfmlearn.selection.competitors.alignment.kernel_gamma`).""")
_SCALE = Param(None, ["boolean", None], """bool or None, default=None
    Standardise the features (zero mean, unit variance) first, as ML05 5.2.1 insists
    for this method. None means True for the Gaussian kernel and False for chi^2,
    whose features must stay non-negative (ML05 uses them unmodified).""")


@declare_parameters(
    positional={"lam": Param(0.1, [FRACTION], """float in [0, 1), default=0.1
        Weight of the feature penalty (ML05's grid: 0, 0.1, ..., 0.9). With 0 the
        alignment alone already discards features (ML05 Table 6).""")},
    keyword={
        "kernel": Param("gaussian", [StrOptions(set(KERNELS))], """{"gaussian", "chi2"}, default="gaussian"
            The kernel of the module docstring."""),
        "gamma": _GAMMA,
        "alpha": Param(5.0, [POSITIVE], r"""float, default=5.0
            Steepness of the penalty :math:`1 - e^{-\alpha \theta_k}` (ML05 eq. 12: 5)."""),
        "C": Param(1.0, [POSITIVE], """float, default=1.0
            Softness of the final SVM (ML05 picks (1 - lambda)/lambda in {e^-5, ..., e^5}
            on validation data: C plays that role here)."""),
        "scale": _SCALE,
        "theta0": Param(0.5, [UNIT_INTERVAL], """float in (0, 1], default=0.5
            The DCA start theta^0 = theta0 * 1 (ML05: 1/2)."""),
        "threshold": Param(1e-2, [NON_NEGATIVE], """float, default=1e-2
            theta_k above it counts as selected (ML05 5.2.3)."""),
        "max_iter": Param(100, LOOP["max_iter"], """int, default=100
            Maximum number of DCA steps."""),
        "tol": Param(1e-3, LOOP["tol"], """float, default=1e-3
            ML05's stopping rule on theta (ML05: 1e-3)."""),
        "sigma": renamed("gamma", Param("auto", [POSITIVE, StrOptions(set(GAMMA_RULES))], ""),
                         "gamma = 1 / (2 sigma^2)"),
        "rho": renamed("gamma", Param(CHI2_GAMMA, [POSITIVE], "")),
        "standardize": renamed("scale", _SCALE),
    },
)
class KernelTargetAlignment(PlattProbabilityMixin, TwoClassMixin, SupportMaskMixin,
                            CheckedTransformMixin, SelectorMixin, ClassifierMixin, BaseEstimator):
    r"""Feature selection by kernel-target alignment, then a kernel SVM (ML05 3.2.2, 4.2.4).

    Minimises

    .. math::

        f(\theta) = -(1 - \lambda) \tfrac{1}{2} y_n^\top K_\theta y_n
        + \frac{\lambda}{d} \sum_k \big(1 - e^{-\alpha \theta_k}\big)

    over :math:`\theta \in [0, 1]^d` by DCA (see the module docstring), selects the
    features with :math:`\theta_k >` ``threshold`` and trains an SVM with the
    theta-weighted kernel on them.

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    theta_ : ndarray of shape (n_features,)
        Feature weights (0 for constant features).
    support_ : ndarray of bool
    gamma_ : float
        The kernel factor used (the value ``gamma`` names).
    svm_ : sklearn.svm.SVC or None
        The classifier on the selected, weighted features (None if nothing was selected:
        then the majority class is predicted).
    n_iter_, converged_ : DCA iterations and whether ML05's rule was met.
    history_ : dict with ``objective`` (f(theta^k), k = 0, 1, ...) and ``seconds``.
    %(probability_attributes)s
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import KernelTargetAlignment
    >>> from sfmlearn.datasets import make_chessboard
    >>> X, y = make_chessboard(random_state=0)   # a board in x1, x2 and two noise features
    >>> model = KernelTargetAlignment().fit(X, y)   # gamma = 1 / d (ML05 Fig. 2)
    >>> model.theta_.round(2).tolist(), model.gamma_
    ([1.0, 1.0, 0.0, 0.0], 0.25)
    """

    def _fit_scaler(self, X, scale):
        """``scaler_``: the standardisation of X if ``scale`` (None: for the Gaussian kernel).

        Each column is divided by its largest magnitude before the standardisation, which
        leaves the result unchanged but keeps the moments finite for any scale of X.
        """
        standardize = self.kernel == "gaussian" if scale is None else scale
        self.scaler_ = make_pipeline(MaxAbsScaler(), StandardScaler()).fit(X) if standardize else None

    def _prepare(self, X):
        """The features as the kernel sees them: standardised by ``scaler_`` (or raw)."""
        X = np.asarray(X, dtype=np.float64)
        if self.scaler_ is not None:
            X = self.scaler_.transform(X)
        if self.kernel == "chi2" and X.min(initial=0.0) < 0:
            raise DataValidationError(
                "The chi2 kernel needs non-negative features (e.g. histograms); got negative "
                "values. Use kernel='gaussian' or pass non-negative data with scale=False."
            )
        return X

    def _gamma(self):
        """``gamma``, or the deprecated factor of this kernel it replaces (``sigma`` of the
        Gaussian kernel, ``rho`` of chi^2): warned about, refused where it disagrees with
        ``gamma``. The other kernel's deprecated factor, which this kernel would ignore, is
        refused."""
        for kernel, (name, convert, _) in _OLD_FACTORS.items():
            value = getattr(self, name)
            if kernel != self.kernel and is_given(value):
                gamma = value if convert is None else convert(value)
                raise InvalidParameterError(
                    f"KernelTargetAlignment: {name}={value!r} is the old factor of the {kernel} "
                    f"kernel; kernel={self.kernel!r} does not use it. Pass kernel={kernel!r}, "
                    f"gamma={gamma!r} for that kernel, or only gamma= for the {self.kernel} kernel.")
        name, convert, relation = _OLD_FACTORS[self.kernel]
        return renamed_value(self, name, "gamma", convert=convert, relation=relation,
                             stacklevel=FIT_CALLER + 1)

    def _weighted(self, X, theta):
        return X * (np.sqrt(theta) if self.kernel == "gaussian" else theta)

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Weight the features by DCA, then train the SVM on the selected ones."""
        X, y_signed = self._check_fit(X, y, fit_params)
        scale = renamed_value(self, "standardize", "scale", stacklevel=FIT_CALLER)
        gamma = self._gamma()
        lam = float(self.lam)
        constant = constant_features(X)
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, getattr(self, "feature_names_in_", None))
        varying = ~constant
        self._fit_scaler(X, scale)
        X = self._prepare(X)
        Xv = X[:, varying]
        self.gamma_ = float(gamma) if isinstance(gamma, numbers.Real) \
            else kernel_gamma(Xv, y_signed, gamma, self.kernel)
        with single_blas_thread():
            program = _AlignmentProgram(Xv, y_signed, _BLOCKS[self.kernel], self.gamma_, lam,
                                        self.alpha)
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
            kernel = "rbf" if self.kernel == "gaussian" else partial(chi2_kernel, gamma=self.gamma_)
            params = {"gamma": self.gamma_} if self.kernel == "gaussian" else {}
            self.svm_ = SVC(kernel=kernel, C=self.C, **params).fit(
                self._weighted(X[:, self.support_], self.theta_[self.support_]), y_signed
            )
        else:
            warnings.warn(
                "KernelTargetAlignment selected no feature (every theta_k <= threshold); "
                "it predicts the majority class. Lower lam.", UserWarning,
            )
            self.majority_ = 1.0 if np.sum(y_signed) >= 0 else -1.0
        self._fit_probability(self._prepared_decision(X), y_signed)
        return self

    def decision_function(self, X):
        """The SVM's decision values; positive means ``classes_[1]``."""
        check_is_fitted(self)
        return self._prepared_decision(
            self._prepare(check_features(self, X, accept_sparse=False)))

    def _prepared_decision(self, X):
        """The decision values of X scaled by :meth:`_prepare`."""
        if self.svm_ is None:
            return np.full(X.shape[0], self.majority_)
        return self.svm_.decision_function(
            self._weighted(X[:, self.support_], self.theta_[self.support_])
        )

    @property
    def sigma_(self):
        """Deprecated: the Gaussian width 1 / sqrt(2 gamma_) (None for chi^2); use ``gamma_``."""
        check_is_fitted(self)
        warnings.warn(f"KernelTargetAlignment: 'sigma_' is replaced by 'gamma_' = 1 / (2 sigma_^2); "
                      f"the old name stops working in sfmlearn {REMOVED_IN}", FutureWarning,
                      stacklevel=2)
        return float(np.sqrt(0.5 / self.gamma_)) if self.kernel == "gaussian" else None

    @property
    def n_support_vectors_(self):
        """Number of support vectors of the final SVM (reported in ML05 Table 4)."""
        check_is_fitted(self)
        return 0 if self.svm_ is None else int(self.svm_.n_support_.sum())
