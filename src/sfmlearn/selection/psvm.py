"""The Potential Support Vector Machine (Hochreiter & Obermayer; PSVM 2-4).

Linear P-SVM feature selection (PSVM 2, eq. 8) with redundancy control (PSVM 3.2,
eq. 12). With F the standardised data matrix (variable selection, Z = I):

    minimise_alpha  1/2 alpha' F'F alpha - y' F alpha + epsilon ||alpha||_1
    subject to      -C <= alpha_j <= C          (C = inf: the original P-SVM)

and the predictor g(x) = w . f(x) + b with w = alpha, b = mean(y) (PSVM eq. 9-10).
|alpha_j| is the relevance of feature j and sign(alpha_j) its class indication.
epsilon tolerates spurious directional derivatives |f_j'(F w - y)| <= epsilon (PSVM
eq. 6), so a larger epsilon keeps fewer features; a smaller C lets redundant
(correlated) relevant features in together (PSVM 3.2, Table 1).

Standardisation. Every feature column is centred and scaled to unit Euclidean length,
so F'F is the correlation matrix of the features. Then |f_j'y| of a pure-noise feature
has standard deviation ~ std(y) (= 1 for balanced +-1 labels), so epsilon reads as a
threshold in noise standard deviations. This is the scale on which the chapter's epsilon
values live (0.65-3 for 100 to 2000 samples, Table 1 and Table 5); with unit-variance
columns they would have to grow with the number of samples. The standardisation is
implicit (column means and norms inside the solver), so sparse input stays sparse.

Nonlinear P-SVM (PSVM 4, Algorithm 1): an MLP with tanh units is trained on the
standardised data until its training error is 5 % of its initial value; then, for each
unit l of the first hidden layer, its net input is clamped to 0, the induced error
e_l(x_i) = 1/2 (y~_l(x_i) - y(x_i))^2 between the clamped and the trained network's
output gives the regression target y_{l,i} = -de_l/dnet_l, and a P-SVM regression of
y_l on the inputs assigns relevances alpha_{j,l}, combined over units by max |alpha| or
sum alpha^2.

The QP is solved by :func:`sfmlearn.optim.cd.solve_box_l1_qp` (coordinate descent that
keeps F alpha, never forms F'F, verifies its KKT conditions on return).
"""

import hashlib
import numbers
from numbers import Real
import warnings

import numpy as np
import scipy.optimize
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import type_of_target
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._validation import (
    check_binary_problem, check_features, check_fit_params, check_labels, check_xy,
)
from ..exceptions import DataValidationError
from ..optim.cd import ImplicitDesign, check_kkt, solve_box_l1_qp
from ..preprocessing import _statistics, warn_constant_features
from ._checked import CheckedDecisionMixin, CheckedTransformMixin
from ._constraints import NON_NEGATIVE, POSITIVE, POSITIVE_INT
from ._lpdata import check_not_all_constant

__all__ = ["NonlinearPSVM", "PotentialSVM", "PotentialSVR"]


# -- linear P-SVM machinery shared by the three estimators -------------------------

def column_standardisation(X):
    """Column means, unit-length scales and the mask of non-constant columns.

    The statistics of :class:`~sfmlearn.SFMScaler` (overflow-safe, sparse input never
    densified; constant = no spread beyond rounding relative to the column's magnitude):
    the unit-length scale of a column is sqrt(n) times its standard deviation.
    """
    mean, std, constant, _ = _statistics(X)
    return mean, np.where(constant, 1.0, np.sqrt(X.shape[0]) * std), ~constant


def first_duplicates(X):
    """For every column the index of the first column identical to it (itself if none).

    Columns are compared through a 128-bit BLAKE2 digest of their stored bytes (sparse:
    row indices and values of a canonical CSC matrix).
    """
    rep = np.arange(X.shape[1])
    seen = {}
    for j in range(X.shape[1]):
        if sp.issparse(X):
            lo, hi = X.indptr[j], X.indptr[j + 1]
            raw = X.indices[lo:hi].tobytes() + b"|" + X.data[lo:hi].tobytes()
        else:
            raw = X[:, j].tobytes()
        rep[j] = seen.setdefault(hashlib.blake2b(raw, digest_size=16).digest(), j)
    return rep


class _LinearPSVM:
    """The P-SVM problem of one data matrix: solve for a fixed epsilon or a feature count.

    Constant columns get alpha = 0. Exact duplicate columns are merged: the QP depends
    only on their total weight, so it is solved once per distinct column with the box
    g C for g copies (duplicates make the QP degenerate and coordinate descent crawl;
    half of DOROTHEA's columns are duplicates). The total goes to the first copy and
    spills to the next copies only beyond C, the sparsest of the equally good solutions;
    :meth:`expand` re-verifies the KKT conditions on the full problem.
    """

    def __init__(self, X, C, tol, max_iter):
        X = sp.csc_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        if sp.issparse(X):
            X.sum_duplicates()
            X.sort_indices()
        self.X, self.n_features = X, X.shape[1]
        self.mean, self.scale, keep = column_standardisation(X)
        self.kept = np.flatnonzero(keep)
        X_kept = X if self.kept.size == X.shape[1] else X[:, self.kept]
        rep = first_duplicates(X_kept)
        self.groups, position = np.unique(rep, return_inverse=True)  # first copies
        self.order = np.argsort(position, kind="stable")
        self.bounds = np.searchsorted(position[self.order], np.arange(self.groups.size + 1))
        columns = self.kept[self.groups]
        self.design = ImplicitDesign(X_kept[:, self.groups] if self.groups.size < self.kept.size
                                     else X_kept, self.mean[columns], self.scale[columns])
        self.C = C
        self.group_C = C * np.diff(self.bounds)
        self.tol, self.max_iter = tol, max_iter
        self.n_sweeps = 0

    def expand(self, alpha, y=None, epsilon=None):
        """Coefficients on all input columns from the merged solution; verified if y given."""
        out = np.zeros(self.n_features)
        for g in np.flatnonzero(alpha):
            members = self.kept[self.order[self.bounds[g]:self.bounds[g + 1]]]
            remaining, sign = abs(alpha[g]), np.sign(alpha[g])
            for member in members:
                out[member] = sign * min(self.C, remaining)
                remaining -= self.C
                if remaining <= 0:
                    break
        if y is not None:
            full = ImplicitDesign(self.X, self.mean, self.scale)
            check_kkt(full, y, out, epsilon, self.C, self._tol())
        return out

    def count(self, alpha):
        return int(np.count_nonzero(self.expand(alpha)))

    def _tol(self):
        return self.tol * max(1.0, np.sqrt(self.design.n))

    def epsilon_max(self, y):
        """Smallest epsilon with alpha = 0: max_j |f_j' y| (the KKT condition at 0)."""
        if self.groups.size == 0:
            return 0.0
        return float(np.abs(self.design.gradient(-y, 0.0)).max())

    def solve(self, y, epsilon, alpha0=None):
        """Merged-problem solution (see :meth:`expand`)."""
        result = solve_box_l1_qp(self.design, y, epsilon, self.group_C, alpha0=alpha0,
                                 tol=self._tol(), max_iter=self.max_iter)
        self.n_sweeps += result.n_sweeps
        return result.alpha

    def solve_count(self, y, k):
        """epsilon and alpha with exactly k non-zero coefficients, by bisection on log epsilon.

        The count n(epsilon) is 0 for epsilon >= epsilon_max. The search halves epsilon
        from epsilon_max until n >= k, then bisects (geometric midpoint) keeping
        n(lo) > k > n(hi). In general position n changes by +-1 where a feature enters or
        leaves (a coefficient reaching the box bound does not change it), so an epsilon
        with n = k exists between lo and hi and the bisection finds it once the bracket
        is narrower than that interval. Returns (epsilon, alpha, exact); exact is False
        when the interval is too narrow to find (tied or duplicate columns make n jump
        by more than one) or k is beyond the largest count reached down to
        1e-6 epsilon_max; alpha is then the solution at lo (or that smallest epsilon).
        """
        eps_hi = self.epsilon_max(y)
        alpha = np.zeros(self.groups.size)
        if eps_hi == 0.0:
            return 0.0, alpha, False
        eps_lo = eps_hi
        while True:
            eps_lo /= 2.0
            alpha = self.solve(y, eps_lo, alpha)
            count = self.count(alpha)
            if count == k:
                return eps_lo, alpha, True
            if count > k:
                break
            if eps_lo < 1e-6 * self.epsilon_max(y):
                return eps_lo, alpha, False
            eps_hi = eps_lo
        alpha_lo = alpha
        for _ in range(60):
            if eps_hi / eps_lo < 1.0 + 1e-9:
                break
            eps_mid = np.sqrt(eps_lo * eps_hi)
            alpha = self.solve(y, eps_mid, alpha)
            count = self.count(alpha)
            if count == k:
                return eps_mid, alpha, True
            if count > k:
                eps_lo, alpha_lo = eps_mid, alpha
            else:
                eps_hi = eps_mid
        return eps_lo, alpha_lo, False


def _check_count(k, n_features, name="n_features_to_select"):
    """A feature count (type checked by the constraints) must not exceed the features."""
    if k is not None and k > n_features:
        raise DataValidationError(
            f"{name}={k} exceeds the number of features ({n_features}); pass at most "
            f"{n_features} or None."
        )
    return k


_LINEAR_CONSTRAINTS = {
    "epsilon": [NON_NEGATIVE],
    "C": [Interval(Real, 0, np.inf, closed="right"), None],
    "n_features_to_select": [POSITIVE_INT, None],
    "tol": [POSITIVE],
    "max_iter": [POSITIVE_INT],
}


class _PotentialSVMBase(CheckedTransformMixin, SelectorMixin, BaseEstimator):
    """Fit logic shared by :class:`PotentialSVM` and :class:`PotentialSVR`."""

    _parameter_constraints = _LINEAR_CONSTRAINTS

    def _fit_linear(self, X, target):
        epsilon = float(self.epsilon)
        C = np.inf if self.C is None else float(self.C)
        k = _check_count(self.n_features_to_select, X.shape[1])
        problem = _LinearPSVM(X, C, self.tol, self.max_iter)
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
        support = alpha_full != 0
        if not support.any():
            warnings.warn(
                f"{type(self).__name__} selected no feature (alpha = 0): epsilon={epsilon:.4g} "
                f"is at least max_j |f_j' y| = {problem.epsilon_max(target):.4g}, where every "
                "feature's correlation with the target is tolerated. Lower epsilon or pass "
                "n_features_to_select.", UserWarning, stacklevel=3)
        if not exact:
            warnings.warn(
                f"No epsilon gives exactly n_features_to_select={k} non-zero P-SVM "
                f"coefficients ({np.count_nonzero(alpha_full)} at epsilon={epsilon:.4g}); "
                f"support_ keeps the {k} largest |alpha| (fewer if fewer are non-zero). "
                "Features entering together (ties) or k beyond the reachable count cause "
                "this.", UserWarning, stacklevel=3,
            )
            support = np.zeros(alpha_full.size, dtype=bool)
            support[np.argsort(-np.abs(alpha_full), kind="stable")[:k]] = True
            support &= alpha_full != 0
        self.alpha_ = alpha_full
        self.relevance_ = np.abs(alpha_full)
        self.support_ = support
        self.epsilon_ = epsilon
        self.n_iter_ = problem.n_sweeps
        # g(x) = sum_j alpha_j (x_j - mean_j) / scale_j + mean(y)  in input units.
        coef = alpha_full / problem.scale
        intercept = float(target.mean() - problem.mean @ coef)
        return coef, intercept

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


_LINEAR_PARAMS_DOC = """
    Parameters
    ----------
    epsilon : float, default=2.0
        Tolerance of the constraints |f_j'(F alpha - y)| <= epsilon (PSVM eq. 6): larger
        keeps fewer features. With the unit-length standardisation and +-1 labels it is
        about a z-score for a pure-noise feature. Ignored when ``n_features_to_select``
        is given.
    C : float or None, default=None
        Box bound |alpha_j| <= C (redundancy control, PSVM eq. 12). None (or np.inf) is
        the original P-SVM, which avoids redundant features; smaller C admits more
        correlated relevant features (and fewer random probes).
    n_features_to_select : int or None, default=None
        Search epsilon so that exactly this many coefficients are non-zero: epsilon is
        halved from epsilon_max = max_j |f_j'y| (where alpha = 0) until at least k are
        non-zero, then bisected geometrically, warm-starting each solve from the last.
        In general position the count changes by one at a time, and an epsilon with
        exactly k is found. If none is found (duplicate or tied columns make the count
        jump, or k exceeds the largest count reachable, at most n - 1 for C = None) a
        UserWarning says so and ``support_`` holds the k largest |alpha| of the solution
        with the next larger count.
    tol : float, default=1e-6
        KKT tolerance of the QP solver, relative to sqrt(n_samples) (the largest
        possible |f_j'y| for +-1 labels).
    max_iter : int, default=10000
        Maximum coordinate sweeps of the solver per QP.
"""

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


class PotentialSVM(CheckedDecisionMixin, LinearClassifierMixin, _PotentialSVMBase):
    __doc__ = """P-SVM feature selection and linear classification (PSVM 2, 3.2).

    Solves the dual P-SVM QP (PSVM eq. 8, with the box of eq. 12 when C is given) on
    unit-length standardised feature columns with the labels as +-1 targets, and
    classifies by sign(w . f(x) + b) with w = alpha and b = mean(y) (PSVM eq. 9-10).
    Two classes; sparse X is accepted and never densified (DOROTHEA, 350 x 100000,
    fits in seconds). The regression variant is :class:`PotentialSVR`.
    """ + _LINEAR_PARAMS_DOC + """
    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
        w in input units: decision_function(X) = X @ coef_.T + intercept_.
    intercept_ : ndarray of shape (1,)
    """ + _LINEAR_ATTRS_DOC

    def __init__(self, epsilon=2.0, *, C=None, n_features_to_select=None, tol=1e-6,
                 max_iter=10_000):
        self.epsilon = epsilon
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y, **fit_params):
        """Select features and fit w = alpha, b = mean(y) on labels mapped to -1/+1."""
        check_fit_params(self, fit_params)
        self._validate_params()
        X, y_signed, classes = check_binary_problem(self, X, y)
        self.classes_ = classes
        coef, intercept = self._fit_linear(X, y_signed)
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([intercept])
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class PotentialSVR(RegressorMixin, _PotentialSVMBase):
    __doc__ = """P-SVM feature selection and linear regression (PSVM 2).

    The same QP as :class:`PotentialSVM` with a real-valued target y (PSVM eq. 10 is the
    regression function); epsilon is then in the units of y.
    """ + _LINEAR_PARAMS_DOC + """
    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        w in input units: predict(X) = X @ coef_ + intercept_.
    intercept_ : float
    """ + _LINEAR_ATTRS_DOC

    def __init__(self, epsilon=2.0, *, C=None, n_features_to_select=None, tol=1e-6,
                 max_iter=10_000):
        self.epsilon = epsilon
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.tol = tol
        self.max_iter = max_iter

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


# -- nonlinear P-SVM: a small tanh network ------------------------------------------

def _unpack(theta, sizes):
    """Weights and biases of each layer from one flat parameter vector."""
    layers, start = [], 0
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        W = theta[start:start + fan_in * fan_out].reshape(fan_in, fan_out)
        start += fan_in * fan_out
        layers.append((W, theta[start:start + fan_out]))
        start += fan_out
    return layers


def _forward(layers, X, clamp=None):
    """Activations of every layer (tanh everywhere); ``clamp`` zeroes one first-layer net."""
    activations = [X]
    for depth, (W, b) in enumerate(layers):
        net = activations[-1] @ W + b
        if depth == 0 and clamp is not None:
            net[:, clamp] = 0.0
        activations.append(np.tanh(net))
    return activations


def _backward(layers, activations, delta_out):
    """Gradients of sum_i delta_out_i * out_i wrt every (W, b); also the first-layer deltas."""
    grads = []
    delta = delta_out[:, None] * (1.0 - activations[-1] ** 2)
    for depth in range(len(layers) - 1, -1, -1):
        W, _ = layers[depth]
        grads.append((activations[depth].T @ delta, delta.sum(axis=0)))
        if depth > 0:
            delta = (delta @ W.T) * (1.0 - activations[depth] ** 2)
    grads.reverse()
    return grads, delta


def _train_mlp(X, target, sizes, error_ratio, weight_decay, max_iter, rng):
    """Train the tanh network; returns (layers, final error, initial error, reason, n_iter).

    Full-batch L-BFGS on E + weight_decay / (2 m) * sum of squared weights (not biases; the
    weight decay of scikit-learn's MLP), E = 1/2 mean_i (out_i - t_i)^2. Training stops
    as soon as E <= error_ratio * E(initial weights) (reason "goal"), or when L-BFGS
    converges on the regularised objective ("converged") or runs out of iterations
    ("max_iter"). Initial weights are Glorot-uniform, biases uniform in [-1, 1] so that
    hidden units start in their curved range (zero biases give tanh''(b) = 0 and no
    gradient towards even functions such as x1^2 + x2^2).
    """
    theta0 = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = np.sqrt(6.0 / (fan_in + fan_out))
        theta0.append(rng.uniform(-bound, bound, fan_in * fan_out))
        theta0.append(rng.uniform(-1.0, 1.0, fan_out))
    theta0 = np.concatenate(theta0)
    m = X.shape[0]

    def error(theta):
        residual = _forward(_unpack(theta, sizes), X)[-1][:, 0] - target
        return 0.5 * float(residual @ residual) / m

    def objective_and_gradient(theta):
        layers = _unpack(theta, sizes)
        activations = _forward(layers, X)
        residual = activations[-1][:, 0] - target
        grads, _ = _backward(layers, activations, residual / m)
        flat = np.concatenate([np.r_[(gW + weight_decay / m * W).ravel(), gb]
                               for (gW, gb), (W, _) in zip(grads, layers)])
        decay = 0.5 * weight_decay / m * sum(float((W * W).sum()) for W, _ in layers)
        return 0.5 * float(residual @ residual) / m + decay, flat

    initial = error(theta0)
    goal = error_ratio * initial
    reached = {}
    n_iter = [0]

    def stop_at_goal(xk):
        n_iter[0] += 1
        if error(xk) <= goal:
            reached["theta"] = np.array(xk)
            raise StopIteration

    try:
        result = scipy.optimize.minimize(
            objective_and_gradient, theta0, jac=True, method="L-BFGS-B", callback=stop_at_goal,
            options={"maxiter": max_iter, "gtol": 1e-9, "ftol": 1e-12},
        )
        theta = reached.get("theta", result.x)
        reason = "goal" if "theta" in reached else ("max_iter" if result.nit >= max_iter
                                                   else "converged")
    except StopIteration:  # scipy < 1.11 lets the callback's StopIteration through
        theta, reason = reached["theta"], "goal"
    return _unpack(theta, sizes), error(theta), initial, reason, n_iter[0]


def _unit_targets(layers, X):
    """y_{l,i} = -de_l/dnet_l for each first-hidden-layer unit l (PSVM eq. 13).

    With net_l clamped to 0 the network outputs y~_l(x_i); e_l = 1/2 (y~_l - y(x_i))^2
    measures the change against the trained output y(x_i), so
    y_{l,i} = -(y~_l(x_i) - y(x_i)) * dy~_l/dnet_l, the derivative taken at net_l = 0.
    Returns an array of shape (n_hidden, n_samples).
    """
    output = _forward(layers, X)[-1][:, 0]
    targets = np.empty((layers[0][0].shape[1], X.shape[0]))
    for unit in range(targets.shape[0]):
        activations = _forward(layers, X, clamp=unit)
        clamped = activations[-1][:, 0]
        _, first_delta = _backward(layers, activations, np.ones(X.shape[0]))
        # first_delta = dy~/dnet_1 (tanh'(0) = 1 at the clamped unit).
        targets[unit] = -(clamped - output) * first_delta[:, unit]
    return targets


BIAS = 1.0
COMBINE = ("max", "sum_squares")


class NonlinearPSVM(CheckedTransformMixin, SelectorMixin, BaseEstimator):
    """Nonlinear P-SVM feature selection through an MLP (PSVM 4, Algorithm 1).

    1. Standardise the inputs (zero mean, unit variance).
    2. Train an MLP with tanh units (hidden and output, the chapter's "sigmoid units in
       [-1, 1]") by full-batch L-BFGS on E = 1/2 mean_i (out_i - t_i)^2 plus weight
       decay until E <= ``error_ratio`` * E(initial weights) (the chapter's 5 %
       criterion) or until the regularised objective is minimal, whichever comes first.
       The chapter used plain back-propagation; without weight decay our networks
       memorise the 98 noise inputs of its toys (test error above the target variance)
       before reaching 5 %, and no relevance read-out can then find x1, x2 (docs/psvm.md).
    3. For every unit l of the first hidden layer clamp its net input to 0 (forward and
       backward pass), take y_{l,i} = -de_l/dnet_l with e_l = 1/2 (y~_l(x_i) - y(x_i))^2
       (PSVM eq. 13) and solve the regression y_{l,i} = w_l . x_i + b_l with the linear
       P-SVM (:class:`PotentialSVR`'s QP with ``epsilon`` and ``C``) -> alpha_{j,l}.
    4. Combine over units: max_l |alpha_{j,l}| (``combine="max"``, used in the chapter's
       experiments) or sum_l alpha_{j,l}^2 (``"sum_squares"``).

    Targets: two classes are mapped to -1/+1 (``classes_[1]`` -> +1); a numeric target
    with more values is a regression target, centred and divided by max |y - mean(y)|
    when that exceeds 1, so it lies in the range of the tanh output unit (centring made
    the network learn toy A at 500 x 50 in 4 of 5 seeds, against 1 of 5 without).

    Parameters
    ----------
    hidden_layer_sizes : tuple of int, default=(10,)
        The chapter used (10,) on its toys and (20,) or (10, 10) on MADELON. Relevance is
        read off the first hidden layer (Algorithm 1's recommendation).
    weight_decay : float, default=10.0
        L2 penalty weight_decay / (2 n_samples) * sum of squared weights (scikit-learn's
        ``alpha`` convention). 10 made the network learn toy B at 500 x 100 in 5 of 5
        seeds; 0 and 3 memorised noise in 5 of 5.
    epsilon : float, default=0.01
        P-SVM epsilon of each unit's regression, in the units of y_l (the chapter used
        0.01 and 0.2 on MADELON).
    C : float or None, default=None
        P-SVM box bound (None: no redundancy control).
    combine : {"max", "sum_squares"}, default="max"
    error_ratio : float, default=0.05
        Stop training when the training error is this fraction of its initial value.
    max_iter : int, default=5000
        Maximum L-BFGS iterations; if the error ratio is not reached a
        ConvergenceWarning is issued and relevances are computed from the last network.
    n_features_to_select : int or None, default=None
        ``support_`` holds this many top-ranked features; None: every feature with
        non-zero relevance.
    tol : float, default=1e-6
        KKT tolerance of the P-SVM solver (as for :class:`PotentialSVM`).
    random_state : int, RandomState or None, default=None
        Initial network weights.

    Attributes
    ----------
    relevance_ : ndarray of shape (n_features,)
        Combined relevance (max |alpha_{j,l}| or sum alpha_{j,l}^2).
    ranking_ : ndarray of int of shape (n_features,)
        1 for the most relevant feature, 2 for the next, ... (ties by column order).
    unit_alpha_ : ndarray of shape (n_hidden, n_features)
        alpha_{j,l} of every first-layer unit.
    support_ : ndarray of bool of shape (n_features,)
    training_error_ratio_ : float
        Final / initial training error of the network.
    training_stop_ : str
        Why training stopped: "goal" (error_ratio reached), "converged" (the weight-decay
        objective reached its minimum first) or "max_iter".
    n_iter_ : int
        L-BFGS iterations of the network training.
    coefs_, intercepts_ : lists of arrays
        The trained network (on standardised inputs).
    classes_ : ndarray or None
        The two class labels when y was binary, else None.
    """

    def __init__(self, hidden_layer_sizes=(10,), *, weight_decay=10.0, epsilon=0.01, C=None,
                 combine="max", error_ratio=0.05, max_iter=5000, n_features_to_select=None,
                 tol=1e-6, random_state=None):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.weight_decay = weight_decay
        self.epsilon = epsilon
        self.C = C
        self.combine = combine
        self.error_ratio = error_ratio
        self.max_iter = max_iter
        self.n_features_to_select = n_features_to_select
        self.tol = tol
        self.random_state = random_state

    _parameter_constraints = {
        "hidden_layer_sizes": [tuple, list],
        "weight_decay": [NON_NEGATIVE],
        "epsilon": [NON_NEGATIVE],
        "C": _LINEAR_CONSTRAINTS["C"],
        "combine": [StrOptions(set(COMBINE))],
        "error_ratio": [Interval(Real, 0, 1, closed="neither")],
        "max_iter": [POSITIVE_INT],
        "n_features_to_select": [POSITIVE_INT, None],
        "tol": [POSITIVE],
        "random_state": ["random_state"],
    }

    def _check_params(self, n_features):
        self._validate_params()
        sizes = self.hidden_layer_sizes
        if not (len(sizes) >= 1 and all(
                isinstance(h, numbers.Integral) and not isinstance(h, bool) and h >= 1
                for h in sizes)):
            raise DataValidationError(
                f"hidden_layer_sizes must be a non-empty tuple of positive integers; got {sizes!r}."
            )
        C = np.inf if self.C is None else float(self.C)
        return float(self.epsilon), C, _check_count(self.n_features_to_select, n_features)

    def _target(self, y):
        y = np.asarray(y)
        kind = type_of_target(y, input_name="y", raise_unknown=True)
        if kind == "binary":
            self.classes_, index = np.unique(y, return_inverse=True)
            return np.where(index == 1, 1.0, -1.0)
        if y.dtype.kind not in "biuf":
            raise DataValidationError(
                "y must be two class labels or a numeric regression target; got "
                f"{kind} labels of dtype {y.dtype}."
            )
        self.classes_ = None
        y = y.astype(np.float64) - y.mean()
        peak = np.abs(y).max()
        return y / peak if peak > 1 else y

    def fit(self, X, y, **fit_params):
        """Train the network, compute per-unit targets and P-SVM relevances."""
        check_fit_params(self, fit_params)
        X, y = check_xy(self, X, check_labels(y), accept_sparse=False)
        X = np.asarray(X, dtype=np.float64)
        epsilon, C, k = self._check_params(X.shape[1])
        weight_decay = float(self.weight_decay)
        target = self._target(y)
        rng = check_random_state(self.random_state)
        mean, std, constant, _ = _statistics(X)
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, getattr(self, "feature_names_in_", None))
        Z = (X - mean) / np.where(constant, 1.0, std)
        sizes = (X.shape[1], *self.hidden_layer_sizes, 1)
        layers, error, initial, reason, n_iter = _train_mlp(
            Z, target, sizes, self.error_ratio, weight_decay, self.max_iter, rng)
        self.n_iter_ = n_iter
        self.training_error_ratio_ = error / initial if initial > 0 else 0.0
        self.training_stop_ = reason
        if reason == "max_iter":
            warnings.warn(
                f"The MLP reached {self.training_error_ratio_:.3f} of its initial training "
                f"error, not error_ratio={self.error_ratio}, in max_iter={self.max_iter} "
                "L-BFGS iterations; increase max_iter.", ConvergenceWarning, stacklevel=2,
            )
        problem = _LinearPSVM(Z, C, self.tol, 10_000)
        alphas = np.array([problem.expand(problem.solve(t, epsilon), t, epsilon)
                           for t in _unit_targets(layers, Z)])
        self.unit_alpha_ = alphas
        self.relevance_ = (np.abs(alphas).max(axis=0) if self.combine == "max"
                           else (alphas ** 2).sum(axis=0))
        order = np.argsort(-self.relevance_, kind="stable")
        self.ranking_ = np.empty(X.shape[1], dtype=int)
        self.ranking_[order] = np.arange(1, X.shape[1] + 1)
        self.support_ = (self.ranking_ <= k) if k is not None else self.relevance_ > 0
        self.coefs_ = [W.copy() for W, _ in layers]
        self.intercepts_ = [b.copy() for _, b in layers]
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_
