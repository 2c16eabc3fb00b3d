r"""The soft-SFM regularisation path: the solutions for a grid of softness C (thesis 3.2).

The soft SFM (NC eq. 2.9-2.10) trades features against training errors,

.. math::

    \min_{w, b, \xi} \; & \|w\|_0 + C \sum_i a_i [\xi_i > 0] \\
    \text{s.t.} \;\; & y_i (w \cdot x_i + b) \ge -\xi_i, \qquad (\mu_+ - \mu_-) \cdot w = \pm 1

(:math:`a_i` the class weights). Small C buys few features, large C few errors. Like glmnet's
lambda path, :func:`sfm_path` fits a grid of C from the end where the answer is known
exactly to the end where nothing changes any more, so nobody has to know the scale of C:

* **small-C end** (thesis 3.2): as :math:`C \to 0` the first LP of the loop,
  :math:`\min \sum_j |w_j| + C \sum_i a_i \xi_i`, is solved by the single feature k with
  the largest scaled :math:`|\mu_{+k} - \mu_{-k}|` (:math:`w_k = \pm 1 / \Delta\mu_k`,
  everything else slack). That vertex stays optimal while a dual solution certifies it:
  with :math:`\lambda^1` the margin-row duals of the LP restricted to column k at C = 1
  (they scale with C, the restricted problem's bias and slack do not change),
  :math:`u = Z^\top (\lambda^1 \odot y)`, :math:`r = \Delta\mu / \Delta\mu_k` and
  :math:`v = u - u_k r`, the reduced costs of every other column stay within their costs,

  .. math::

      |C v_j + s r_j| \le 1 \quad (s = \operatorname{sign} w_k), \qquad \text{i.e.} \qquad
      C \le \frac{1 - s r_j \operatorname{sign} v_j}{|v_j|},

  so :math:`C_1 = \min_j` of that bound (over both signs of the equality) is a C up to
  which the path provably starts with one feature; after the first LP only column k is
  left, so the reweighted loop keeps it. (A feature tied with k for the largest |Delta mu|
  is interchangeable with it and left out of the bound.) With a unique dual it is the
  largest such C. Where several samples lie on the restricted LP's hyperplane (ties in
  column k, such as the zeros of sparse counts) the duals form a face, the bound comes
  from the vertex the solver returns and is a lower bound of the largest C; dense and
  sparse storage of the same numbers can then reach different vertices and give slightly
  different grids.
* **large-C end**: on separable data the hard SFM's first LP has margin-row duals
  :math:`\lambda`; for :math:`C a_i \ge \lambda_i` the slack bound of the soft LP's dual is inactive, so the
  hard solution (xi = 0) is optimal for the soft LP too; with ``reweight_slack`` (the
  default) every row whose slack is 0 then becomes hard, and the soft loop *is* the hard
  loop. :math:`C_\text{hard} = \max_i \lambda_i / a_i` is the largest C that still changes the solution.
  (With ``reweight_slack=False`` the later LPs of the loop keep finite slack costs and
  their duals can exceed the first LP's, so the last point can still be softer than the
  hard SFM.)
  On data that are not linearly separable the grid ends at C_1 / ``min_ratio``, as
  glmnet's :math:`\lambda_\text{min} = \epsilon \lambda_\text{max}`.

For Weston's zero-norm SVM (``estimator=WestonZeroNormSVM()``) the small-C end is its
critical softness :math:`C_0 = 1 / (n t^*)`, below which w = 0 (:math:`t^*` the critical slope of the
hinge loss, :func:`~sfmlearn.selection.sfm._critical.critical_slope`); the grid starts a
quarter above it (the first feature enters there; a fit at or below C_0 is empty). The large-C end is C_hard as above.

The fits along the grid share one validated, scaled copy of the data and start each
column-generation solve from the previous C's working set (a fit whose warm start HiGHS
cannot finish, status "Unknown", is repeated cold and the path continues from there): one
:class:`~sfmlearn.selection._base.PreparedFit` (problem, penalty, engine session) with
the slack costs of each C.

**Training errors along the path.** For exact l0 minimisers the (class-weighted) training
errors E cannot grow with C: if a is optimal at C_1 and b at C_2 > C_1, adding the two
optimality conditions gives :math:`(C_2 - C_1)(E_b - E_a) \le 0`. The iterated-l1 fits are local
optima and can break this between neighbouring grid points (colon, 62 x 2000: 5, 7, 5,
6 errors on four consecutive points of the default grid). The path reports the fits
as :class:`~sfmlearn.SupportFeatureMachine` returns them at each C -- ``sfm_path(X, y,
Cs).estimators[i]`` equals ``SupportFeatureMachine(C=Cs[i]).fit(X, y)`` -- rather than
hiding this: replacing a fit by a better one from another C would also replace the
exact single-feature end by whatever the l0 objective prefers there.
"""

from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.utils._param_validation import InvalidParameterError

from ...exceptions import SolverError
from ...lp import HighsEngine
from ...lp.problems import class_mean_weights
from ...optim.problem import MAX_SOFTNESS, MEANS_TOL, equal_means_error, sample_costs
from ._critical import critical_slope
from .machine import SupportFeatureMachine
from .zero_norm import WestonZeroNormSVM

__all__ = ["MAX_N_CS", "SoftnessPath", "check_Cs", "check_n_Cs", "default_Cs", "sfm_path"]

#: Grid points of the default grid.
DEFAULT_N_CS = 20
#: At most this many values of C: each is one LP per fold, so more only costs time.
MAX_N_CS = 1000
#: On non-separable data the default grid spans C_1 ... C_1 / DEFAULT_MIN_RATIO.
DEFAULT_MIN_RATIO = 1e-4
#: The grid's ends sit this far inside the exact thresholds (at a threshold the LP is
#: degenerate: a second vertex with one more feature, or one more error, is optimal too).
_END_MARGIN = 1e-2


@dataclass
class SoftnessPath:
    r"""The outcome of :func:`sfm_path`: one row per C, in increasing order of C.

    ``coefs``/``intercepts`` are the fitted classifiers in input space (as ``coef_``),
    ``scaled_coefs`` the SFM weights on the scaled features (``scaled_coef_``),
    ``supports`` the selections, ``objective`` the final l0 objective of each fit
    (``history_["objective"][-1]``), ``n_training_errors`` the samples with positive slack
    in the SFM solution, ``training_error`` the fraction of training samples the fitted
    classifier misclassifies, ``estimators`` the fitted estimators themselves.

    Parameters
    ----------
    Cs : ndarray of shape (n_Cs,)
        The grid of softness, increasing.
    coefs : ndarray of shape (n_Cs, n_features)
        ``coef_[0]`` of every fit (input space).
    intercepts : ndarray of shape (n_Cs,)
        ``intercept_[0]`` of every fit.
    scaled_coefs : ndarray of shape (n_Cs, n_features)
        ``scaled_coef_`` of every fit (the SFM weights on the scaled features).
    supports : ndarray of bool, shape (n_Cs, n_features)
        ``support_`` of every fit.
    objective : ndarray of shape (n_Cs,)
        Final l0 objective :math:`\|w\|_0 + C \sum_i a_i [\xi_i > 0]` of every fit.
    n_training_errors : ndarray of int, shape (n_Cs,)
        Samples with positive slack in the SFM solution.
    training_error : ndarray of shape (n_Cs,)
        Fraction of training samples the fitted classifier misclassifies.
    estimators : list of estimator
        The fitted estimators, one per C.

    Examples
    --------
    Along five values of C the soft SFM selects more features and makes fewer training errors:

    >>> from sfmlearn import sfm_path
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> path = sfm_path(X, y, Cs=5)
    >>> path.n_features.tolist(), path.n_training_errors.tolist()
    ([1, 2, 2, 2, 3], [7, 1, 0, 0, 0])
    """

    Cs: np.ndarray
    coefs: np.ndarray
    intercepts: np.ndarray
    scaled_coefs: np.ndarray
    supports: np.ndarray
    objective: np.ndarray
    n_training_errors: np.ndarray
    training_error: np.ndarray
    estimators: list = field(repr=False)

    @property
    def n_features(self):
        """Selected features per C."""
        return self.supports.sum(axis=1)


def _single_feature_C(prepared, owner):
    """C_1 of the module docstring: a C up to which the SFM keeps exactly one feature
    (the largest one when the restricted LP's dual is unique). ``owner`` (the
    estimator's name) words the error of data whose class means agree everywhere."""
    X, y_signed, weights = prepared.problem.X, prepared.training.y, prepared.weights
    delta_mu = X.rmatvec(class_mean_weights(y_signed))
    k = int(np.argmax(np.abs(delta_mu)))
    if abs(delta_mu[k]) <= MEANS_TOL:  # no single feature, nor any other, meets the equality
        raise equal_means_error(owner, float(abs(delta_mu[k])))
    ratio = delta_mu / delta_mu[k]
    others = np.abs(ratio) < 1.0 - 1e-12  # tied features are interchangeable with k
    bound = np.inf
    for signed in prepared.problem.with_slack_cost(weights).per_sign():
        solution = HighsEngine().solve(signed.lp(np.array([k]), np.ones(1), weights))
        u = X.rmatvec(solution.margin_duals * y_signed)
        s = np.sign(solution.w[0])
        v = u - u[k] * ratio
        # |u_j| <= sum_i lambda_i |z_ij|: below rounding of that size v_j is zero.
        moving = others & (np.abs(v) > 1e-9 * max(1.0, np.abs(u).max()))
        if moving.any():
            limits = (1.0 - s * ratio[moving] * np.sign(v[moving])) / np.abs(v[moving])
            bound = min(bound, float(limits.min()))
    return bound  # infinite: no other feature ever enters the first LP


def _hard_C(prepared):
    """C_hard of the module docstring, or None when the classes are not separable."""
    problem = prepared.problem.with_slack_cost(None).per_sign()[0]
    solution = prepared.engine.solve(problem.lp(None, problem.base_cost, None))
    if solution.status != "optimal":
        return None
    return float(np.max(np.maximum(solution.margin_duals, 0.0) / prepared.weights))


def _ends(estimator, X, y):
    """(C at the small end, C at the large end, separable) on the data of one fit."""
    if not isinstance(estimator, (SupportFeatureMachine, WestonZeroNormSVM)):
        raise InvalidParameterError(
            f"the default C grid is derived for SupportFeatureMachine and WestonZeroNormSVM; got "
            f"{type(estimator).__name__}. Pass the grid yourself (Cs=[...]).")
    if isinstance(estimator, SupportFeatureMachine) and estimator.equality != "class_means":
        raise InvalidParameterError(
            "The default C grid is derived for equality='class_means' (NC eq. 2.6); with "
            f"equality={estimator.equality!r} pass the grid yourself (Cs=[...]).")
    prepared = clone(estimator).set_params(C=1.0).prepare(X, y)
    if isinstance(estimator, WestonZeroNormSVM):
        y_signed = prepared.training.y
        slope = critical_slope(prepared.problem.X, y_signed, prepared.weights)
        low = 1.25 / (y_signed.size * slope) if slope > 0 else 1.0
    else:
        low = (1.0 - _END_MARGIN) * _single_feature_C(prepared, type(estimator).__name__)
    high = _hard_C(prepared)
    if not np.isfinite(low):  # one feature at every C (it separates the classes, or the
        low = high if high else 1.0  # slack never pays): a single-point path
    return low, high, high is not None


def default_Cs(X, y, *, estimator=None, n_Cs=DEFAULT_N_CS, min_ratio=DEFAULT_MIN_RATIO):
    """The data-adaptive grid of :func:`sfm_path`: ``n_Cs`` log-spaced values of C.

    From just below C_1 (one feature, the largest scaled |Delta mu|; for Weston's method
    just above the critical C_0) to just above C_hard (the hard solution) on separable
    data, or to C_1 / ``min_ratio`` otherwise (module docstring).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Training data.
    y : array-like of shape (n_samples,)
        Two classes.
    estimator : SupportFeatureMachine or WestonZeroNormSVM, default=SupportFeatureMachine()
        The model whose path the grid is for (its class weights, scaling and slack
        reweighting set the ends; its own C is ignored).
    n_Cs : int, default=20
        Number of grid points (:data:`DEFAULT_N_CS`).
    min_ratio : float, default=1e-4
        On data that are not linearly separable the grid ends at C_1 / ``min_ratio``.

    Returns
    -------
    ndarray of shape (at most n_Cs,)
        The increasing grid, log-spaced (duplicates removed: a path on which one feature
        already separates the classes has a single point).

    Examples
    --------
    Five log-spaced values of C, from one selected feature to the hard solution:

    >>> import numpy as np
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.selection import default_Cs
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> np.round(default_Cs(X, y, n_Cs=5), 3)
    array([0.23 , 0.362, 0.57 , 0.898, 1.414])
    """
    check_n_Cs(n_Cs)
    _check_min_ratio(min_ratio)
    estimator = SupportFeatureMachine() if estimator is None else estimator
    low, high, separable = _ends(estimator, X, y)
    high = high * (1.0 + _END_MARGIN) if separable else low / min_ratio
    return np.unique(np.geomspace(low, max(high, low), int(n_Cs)))


def check_n_Cs(n_Cs):
    """InvalidParameterError, before any fit, for a number of grid points that is not a
    positive whole number or exceeds :data:`MAX_N_CS`."""
    if isinstance(n_Cs, bool) or not isinstance(n_Cs, Integral) or n_Cs < 1:
        raise InvalidParameterError(f"the number of values of C must be a positive whole number; got {n_Cs!r}")
    if n_Cs > MAX_N_CS:
        raise InvalidParameterError(f"Cs asks for {n_Cs} values of C; at most {MAX_N_CS} are allowed "
                                    "(each is one LP per fold)")


def _check_min_ratio(min_ratio):
    if isinstance(min_ratio, bool) or not isinstance(min_ratio, Real) or not 0 < min_ratio < 1:
        raise InvalidParameterError(
            f"min_ratio must be a number in (0, 1): the grid on data that are not separable ends at C_1 / "
            f"min_ratio; got {min_ratio!r}")


def check_Cs(Cs, scaled_by=1.0):
    """A grid of C given as values, increasing; InvalidParameterError, naming the values as
    given, for values that are not numbers, an empty grid, one that is too long
    (:func:`check_n_Cs`) or a value that is not finite and positive. ``scaled_by``: the
    largest factor n / n_fit by which fits on fewer samples (folds, halves) multiply C;
    a value that it takes above :data:`~sfmlearn.optim.problem.MAX_SOFTNESS` is refused
    here, in the user's units, rather than inside a fit."""
    try:
        values = np.asarray(Cs, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"Cs must hold numbers (finite positive softness values); got {Cs!r}. "
                                    "Pass None (or an int) for the data-adaptive grid.") from None
    if values.ndim > 1:
        raise InvalidParameterError(f"Cs must be a flat list of softness values; got shape {values.shape}.")
    values = values.ravel()
    if values.size == 0 or not np.all(np.isfinite(values)) or np.any(values <= 0):
        raise InvalidParameterError(
            f"Cs must hold finite positive softness values only, at least one; got {values.tolist()}. Pass "
            "None (or an int) for the data-adaptive grid.")
    check_n_Cs(values.size)
    largest = float(values.max()) * scaled_by
    if largest > MAX_SOFTNESS:
        raise InvalidParameterError(
            f"Cs holds {values.max():g}, which the fits on fewer samples run at C x {scaled_by:.3g} (C n / n_fit) "
            f"= {largest:.3g}, above the largest softness {MAX_SOFTNESS:g}; pass Cs at most "
            f"{MAX_SOFTNESS / scaled_by:.3g}.")
    return np.sort(values)


def sfm_path(X, y, Cs=None, *, estimator=None, min_ratio=DEFAULT_MIN_RATIO, warm_start=True,
             probability=True):
    """Fit the soft SFM (or Weston's zero-norm SVM) for a grid of softness C.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes
    Cs : array-like, int or None, default=None
        The grid (sorted increasingly), or the number of points of the data-adaptive
        grid of :func:`default_Cs` (None: :data:`DEFAULT_N_CS`).
    estimator : SupportFeatureMachine or WestonZeroNormSVM, default=SupportFeatureMachine()
        Every other parameter (class_weight, refit, solver, ...) is taken from it; its
        own C is ignored.
    min_ratio : float
        Span of the default grid on data that are not linearly separable.
    warm_start : bool, default=True
        Start every column-generation solve from the previous C's working set.
    probability : bool, default=True
        Fit each estimator's ``predict_proba`` sigmoid. False skips it where only the
        decisions or supports are used (the candidates of a cross-validation); the
        estimators' ``predict_proba`` then raises ``NotFittedError``.

    Returns
    -------
    SoftnessPath
        One row per C: coefficients, supports, objective, training errors and the fitted
        estimators (``path.estimators[i]`` equals the estimator fitted at ``Cs[i]``).

    Examples
    --------
    From one feature at the small-C end to the hard solution at the large-C end:

    >>> from sfmlearn import sfm_path
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> path = sfm_path(X, y, Cs=5)
    >>> path.n_features.tolist()
    [1, 2, 2, 2, 3]
    >>> path.training_error.tolist()
    [0.12, 0.0, 0.0, 0.0, 0.0]
    """
    estimator = SupportFeatureMachine() if estimator is None else estimator
    _check_min_ratio(min_ratio)
    if Cs is None or isinstance(Cs, (int, np.integer)):
        Cs = default_Cs(X, y, estimator=estimator, min_ratio=min_ratio,
                        n_Cs=DEFAULT_N_CS if Cs is None else Cs)
    Cs = check_Cs(Cs)
    # One validated, scaled copy of the data and one warm engine session for every C.
    prepared = clone(estimator).prepare(X, y)
    estimators = []
    for C in Cs:
        costs = sample_costs(C, prepared.weights)
        at_C = prepared.with_slack_cost(costs) if warm_start else prepared.with_slack_cost(costs).with_new_session()
        try:
            fitted = clone(estimator).set_params(C=C).fit_prepared(at_C, probability=probability)
        except SolverError:
            if not warm_start:
                raise
            # HiGHS can stop with status "Unknown" when started from the previous C's
            # basis; that C is fitted cold, as SupportFeatureMachine(C).fit would, and the
            # rest of the path continues from the cold session.
            prepared = prepared.with_new_session()
            fitted = clone(estimator).set_params(C=C).fit_prepared(prepared.with_slack_cost(costs),
                                                                   probability=probability)
        estimators.append(fitted)
    y = np.asarray(y)
    return SoftnessPath(
        Cs=Cs,
        coefs=np.array([e.coef_[0] for e in estimators]),
        intercepts=np.array([e.intercept_[0] for e in estimators]),
        scaled_coefs=np.array([e.scaled_coef_ for e in estimators]),
        supports=np.array([e.support_ for e in estimators]),
        objective=np.array([e.history_["objective"][-1] for e in estimators]),
        n_training_errors=np.array([e.n_training_errors_ for e in estimators]),
        training_error=np.array([np.mean(e.predict(X) != y) for e in estimators]),
        estimators=estimators,
    )

