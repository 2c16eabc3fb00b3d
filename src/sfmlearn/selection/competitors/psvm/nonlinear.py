"""Nonlinear P-SVM feature selection through an MLP (PSVM 4, Algorithm 1).

An MLP with tanh units is trained on the standardised data until its training error is
5 % of its initial value; then, for each unit l of the first hidden layer, its net input
is clamped to 0, the induced error e_l(x_i) = 1/2 (y~_l(x_i) - y(x_i))^2 between the
clamped and the trained network's output gives the regression target
y_{l,i} = -de_l/dnet_l, and a P-SVM regression of y_l on the inputs assigns relevances
alpha_{j,l}, combined over units by max |alpha| or sum alpha^2.
"""

import numbers
import warnings
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from ...._validation import check_fit_params, check_labels, check_xy
from ....exceptions import DataValidationError
from ....preprocessing import column_statistics, warn_constant_features
from ..._checked import FIT_CALLER, CheckedTransformMixin, fit_from_scratch
from ..._constraints import NON_NEGATIVE, POSITIVE_INT
from ..._lpdata import check_not_all_constant
from .._params import Param, declare_parameters
from .linear import PSVM_PARAMETERS
from .mlp import train_mlp, unit_targets
from .problem import LinearPSVMProblem, check_count

__all__ = ["NonlinearPSVM"]

COMBINE = ("max", "sum_squares")


@declare_parameters(
    positional={"hidden_layer_sizes": Param((10,), [tuple, list], """tuple of int, default=(10,)
        The chapter used (10,) on its toys and (20,) or (10, 10) on MADELON. Relevance is
        read off the first hidden layer (Algorithm 1's recommendation).""")},
    keyword={
        "weight_decay": Param(10.0, [NON_NEGATIVE], """float, default=10.0
            L2 penalty weight_decay / (2 n_samples) * sum of squared weights (scikit-learn's
            ``alpha`` convention). 10 made the network learn toy B at 500 x 100 in 5 of 5
            seeds; 0 and 3 memorised noise in 5 of 5."""),
        "epsilon": Param(0.01, [NON_NEGATIVE], """float, default=0.01
            P-SVM epsilon of each unit's regression, in the units of y_l (the chapter used
            0.01 and 0.2 on MADELON)."""),
        "C": PSVM_PARAMETERS["C"],
        "combine": Param("max", [StrOptions(set(COMBINE))], """{"max", "sum_squares"}, default="max"
            How the units' alpha_{j,l} combine (step 4)."""),
        "error_ratio": Param(0.05, [Interval(Real, 0, 1, closed="neither")], """float, default=0.05
            Stop training when the training error is this fraction of its initial value."""),
        "max_iter": Param(5000, [POSITIVE_INT], """int, default=5000
            Maximum L-BFGS iterations; if the error ratio is not reached a
            ConvergenceWarning is issued and relevances are computed from the last network."""),
        "n_features_to_select": Param(None, [POSITIVE_INT, None], """int or None, default=None
            ``support_`` holds this many top-ranked features; None: every feature with
            non-zero relevance. Features of zero relevance are never selected: if fewer
            than this many (or none) have a non-zero relevance, ``support_`` holds those
            and a UserWarning says to lower ``epsilon``."""),
        "tol": PSVM_PARAMETERS["tol"],
        "random_state": Param(None, ["random_state"], """int, RandomState or None, default=None
            Initial network weights."""),
    },
)
class NonlinearPSVM(CheckedTransformMixin, SelectorMixin, BaseEstimator):
    r"""Nonlinear P-SVM feature selection through an MLP (PSVM 4, Algorithm 1).

    1. Standardise the inputs (zero mean, unit variance).
    2. Train an MLP with tanh units (hidden and output, the chapter's "sigmoid units in
       [-1, 1]") by full-batch L-BFGS on
       :math:`E = \tfrac{1}{2} \operatorname{mean}_i (\mathrm{out}_i - t_i)^2` plus weight
       decay until :math:`E \le` ``error_ratio`` :math:`\cdot E(\text{initial weights})` (the chapter's 5 %
       criterion) or until the regularised objective is minimal, whichever comes first.
       The chapter used plain back-propagation; without weight decay our networks
       memorise the 98 noise inputs of its toys (test error above the target variance)
       before reaching 5 %, and no relevance read-out can then find x1, x2 (docs/guide/psvm.md).
    3. For every unit l of the first hidden layer clamp its net input to 0 (forward and
       backward pass), take :math:`y_{l,i} = -\partial e_l / \partial \mathrm{net}_l` with
       :math:`e_l = \tfrac{1}{2} (\tilde y_l(x_i) - y(x_i))^2` (PSVM eq. 13) and solve the
       regression :math:`y_{l,i} = w_l \cdot x_i + b_l` with the linear P-SVM
       (:class:`PotentialSVR`'s QP with ``epsilon`` and ``C``) :math:`\to \alpha_{j,l}`.
    4. Combine over units: :math:`\max_l |\alpha_{j,l}|` (``combine="max"``, used in the
       chapter's experiments) or :math:`\sum_l \alpha_{j,l}^2` (``"sum_squares"``).

    Targets: two classes are mapped to -1/+1 (``classes_[1]`` -> +1); a numeric target
    with more values is a regression target, centred and divided by max |y - mean(y)|
    when that exceeds 1, so it lies in the range of the tanh output unit (centring made
    the network learn toy A at 500 x 50 in 4 of 5 seeds, against 1 of 5 without).

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    relevance_ : ndarray of shape (n_features,)
        Combined relevance (:math:`\max_l |\alpha_{j,l}|` or :math:`\sum_l \alpha_{j,l}^2`).
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

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import NonlinearPSVM
    >>> from sfmlearn.datasets import make_psvm_nonlinear
    >>> X, y = make_psvm_nonlinear("B", n_samples=100, n_features=6, random_state=0)   # y = x1 x2
    >>> model = NonlinearPSVM(n_features_to_select=2, random_state=0).fit(X, y)
    >>> np.flatnonzero(model.get_support())   # the two inputs the task depends on
    array([0, 1])
    >>> bool(model.relevance_[:2].min() > model.relevance_[2:].max())
    True
    """

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
        return float(self.epsilon), C, check_count(self.n_features_to_select, n_features)

    def _target(self, y):
        """The network's target: -1/+1 for two classes (sets ``classes_``), else the
        centred numeric target (``classes_`` None); one label is refused."""
        y = np.asarray(y)
        kind = type_of_target(y, input_name="y", raise_unknown=True)
        values = np.unique(y)
        if values.size < 2:  # type_of_target calls one label "binary"
            raise DataValidationError(
                f"y contains only one class ({values.tolist()[0]!r}). NonlinearPSVM needs two "
                "classes (or a varying regression target) to find the features they depend on.")
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

    def _few_relevant_message(self, k, epsilon, problem, targets):
        """Why fewer features than asked for (or none) have non-zero relevance."""
        n_relevant = np.count_nonzero(self.relevance_)
        largest = max(problem.epsilon_max(t) for t in targets)
        if n_relevant == 0:
            return (f"NonlinearPSVM selected no feature: every relevance is 0, because "
                    f"epsilon={epsilon:.4g} is at least every unit's max_j |f_j' y_l| (the largest: "
                    f"{largest:.4g}), where each unit's regression tolerates every input. Lower epsilon.")
        return (f"Only {n_relevant} features have non-zero relevance at epsilon={epsilon:.4g}, fewer "
                f"than n_features_to_select={k}; support_ keeps those {n_relevant}, not features "
                "of zero relevance. Lower epsilon for more.")

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Train the network, compute per-unit targets and P-SVM relevances."""
        check_fit_params(self, fit_params)
        X, y = check_xy(self, X, check_labels(y), accept_sparse=False)
        X = np.asarray(X, dtype=np.float64)
        epsilon, C, k = self._check_params(X.shape[1])
        weight_decay = float(self.weight_decay)
        target = self._target(y)
        rng = check_random_state(self.random_state)
        mean, std, constant, _ = column_statistics(X)
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, getattr(self, "feature_names_in_", None))
        Z = (X - mean) / np.where(constant, 1.0, std)
        sizes = (X.shape[1], *self.hidden_layer_sizes, 1)
        layers, error, initial, reason, n_iter = train_mlp(
            Z, target, sizes, self.error_ratio, weight_decay, self.max_iter, rng)
        self.n_iter_ = n_iter
        self.training_error_ratio_ = error / initial if initial > 0 else 0.0
        self.training_stop_ = reason
        if reason == "max_iter":
            warnings.warn(
                f"The MLP reached {self.training_error_ratio_:.3f} of its initial training "
                f"error, not error_ratio={self.error_ratio}, in max_iter={self.max_iter} "
                "L-BFGS iterations; increase max_iter.", ConvergenceWarning, stacklevel=FIT_CALLER,
            )
        problem = LinearPSVMProblem(Z, C, self.tol, 10_000)
        targets = unit_targets(layers, Z)
        alphas = np.array([problem.expand(problem.solve(t, epsilon), t, epsilon) for t in targets])
        self.unit_alpha_ = alphas
        self.relevance_ = (np.abs(alphas).max(axis=0) if self.combine == "max"
                           else (alphas ** 2).sum(axis=0))
        order = np.argsort(-self.relevance_, kind="stable")
        self.ranking_ = np.empty(X.shape[1], dtype=int)
        self.ranking_[order] = np.arange(1, X.shape[1] + 1)
        self.support_ = self.relevance_ > 0
        if k is not None:
            self.support_ &= self.ranking_ <= k
        if np.count_nonzero(self.support_) < (1 if k is None else k):
            warnings.warn(self._few_relevant_message(k, epsilon, problem, targets), UserWarning,
                          stacklevel=FIT_CALLER)
        self.coefs_ = [W.copy() for W, _ in layers]
        self.intercepts_ = [b.copy() for _, b in layers]
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_
