r"""The linear programs of the SFM family, in one solver-neutral form.

Every LP this package solves for a sparse separating hyperplane is an instance of

.. math::

    \min_{w, b, \xi} \; & \sum_j c_j |w_j| + \sum_i C_i \xi_i \\
    \text{s.t.} \;\; & y_i (x_i \cdot w + b) + \xi_i \ge \text{margin}, \quad i = 1, \dots, n \\
    & a \cdot w + a_b b = \text{rhs} \quad \text{(optional)} \\
    & \xi_i \ge 0 \quad \text{(soft problems only)}

with a free bias b. The members differ only in their data:

* SFM, class means (default): margin 0, equality :math:`(\mu_+ - \mu_-) \cdot w = \pm 1`
  (NC eq. 2.6);
* SFM, mean margin: margin 0, equality :math:`\frac{1}{n} \sum_i y_i (x_i \cdot w + b) = \pm 1`
  (thesis 3.1);
* Weston l1-AROM / l1-SVM: margin 1, no equality (NC eq. 2.4).

The iterated reweighting of the SFM and of Weston's method only changes the feature
costs ``c`` (see :mod:`sfmlearn.optim.reweighting`); the rows never change.

Engines take the matrix form of :mod:`.assembly` or the problem itself (generation,
:mod:`.rowgen`); :func:`~sfmlearn.lp.checks.check_solution` verifies any returned
solution against the rows above. The builders and the check are importable from here
too.
"""

from dataclasses import dataclass, field

import numpy as np

from .assembly import FORMULATIONS, MatrixLP, build_matrix_lp, data_columns
from .checks import FEASIBILITY_TOL, check_solution
from .inputs import check_costs, check_signed_labels, require_both_classes
from .operators import as_scaled_matrix

__all__ = [
    "Equality",
    "HyperplaneLP",
    "LPSolution",
    "MatrixLP",
    "sfm_lp",
    "weston_lp",
    "build_matrix_lp",
    "class_mean_weights",
    "data_columns",
    "check_solution",
    "FORMULATIONS",
    "FEASIBILITY_TOL",
]


@dataclass(frozen=True)
class Equality:
    """The row ``coef . w + bias_coef * b = rhs`` that excludes the trivial w = 0."""

    coef: np.ndarray
    bias_coef: float
    rhs: float


@dataclass(frozen=True)
class HyperplaneLP:
    r"""One weighted one-norm LP for a separating hyperplane (see the module docstring).

    The problem is

    .. math::

        \min_{w, b, \xi} \; & \sum_j c_j |w_j| + \sum_i C_i \xi_i \\
        \text{s.t.} \;\; & y_i (x_i \cdot w + b) + \xi_i \ge \text{margin}, \quad i = 1, \dots, n \\
        & a \cdot w + a_b b = \text{rhs} \quad \text{(if equality)} \\
        & \xi_i \ge 0 \quad \text{(if slack\_cost)}

    with a free bias b (NC eq. 2.6 for the SFM, 2.9-2.10 for the soft SFM, 2.4 for
    Weston's l1-AROM step). Build it with :func:`sfm_lp` or :func:`weston_lp` rather
    than by hand; any engine of :mod:`sfmlearn.lp.engines` solves it.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The columns still active in the reweighting loop; stored as a
        :class:`~sfmlearn.lp.operators.ScaledMatrix`, whose ``columns`` name them (raw
        column indices of the data), which is how a warm session (:mod:`.rowgen`)
        recognises the columns of the next problem.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}; stored as float64.
    feature_cost : array-like of shape (n_columns,)
        :math:`c_j \ge 0`, the price of |w_j| (the reweighting loop changes only these).
    margin : float
        Right-hand side of the margin rows: 0 for the SFM, 1 for Weston's LP.
    equality : Equality or None, default=None
        The row ``coef . w + bias_coef * b = rhs`` that excludes w = 0 (SFM only).
    slack_cost : array-like of shape (n_samples,) or None, default=None
        :math:`C_i \ge 0` for a soft problem; ``np.inf`` keeps row i hard. None: every row is hard
        and there is no xi.
    fit_intercept : bool, default=True
        False fixes b = 0.

    Raises
    ------
    sfmlearn.exceptions.DataValidationError
        Raw ``X`` that is not 2-D, numeric and finite; labels other than -1 and +1;
        costs of the wrong length, NaN, negative or (feature costs) infinite. They are
        checked here, where the problem is built, so that no solver sees them.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HyperplaneLP
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> problem = HyperplaneLP(X, y, feature_cost=np.ones(2), margin=1.0)
    >>> problem.n_samples, problem.n_columns, problem.is_soft
    (4, 2, False)
    """

    X: object
    y: np.ndarray
    feature_cost: np.ndarray
    margin: float
    equality: Equality | None = None
    slack_cost: np.ndarray | None = None
    fit_intercept: bool = True

    def __post_init__(self):
        X = as_scaled_matrix(self.X)
        n_samples, n_columns = X.shape
        self._set(X=X, y=check_signed_labels(self.y, n_samples),
                  feature_cost=check_costs(self.feature_cost, n_columns, "feature_cost", "column of X"))
        if self.slack_cost is not None:
            self._set(slack_cost=check_costs(self.slack_cost, n_samples, "slack_cost", "sample",
                                             infinite_means="keeps a row hard"))

    def _set(self, **fields):
        """Store checked fields on the frozen instance."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def n_samples(self):
        """n, the number of margin rows."""
        return self.X.shape[0]

    @property
    def n_columns(self):
        """The number of weight columns w_j."""
        return self.X.shape[1]

    @property
    def is_soft(self):
        """True when the rows have slack variables (``slack_cost`` is given)."""
        return self.slack_cost is not None


@dataclass
class LPSolution:
    r"""What an engine returns for one :class:`HyperplaneLP`.

    Engines fill it and verify it (:func:`check_solution`, or an infeasibility
    certificate, :mod:`sfmlearn.lp.certificates`) before returning it.

    Parameters
    ----------
    status : {"optimal", "infeasible"}
        Any other outcome makes the engine raise instead.
    w : ndarray of shape (n_columns,) or None, default=None
        The weights (None when infeasible).
    b : float, default=0.0
        The bias.
    xi : ndarray of shape (n_samples,) or None, default=None
        The slacks of a soft problem (0 in hard rows); None for hard problems.
    objective : float, default=nan
        :math:`\sum_j c_j |w_j| + \sum_i C_i \xi_i`; :func:`check_solution` recomputes it.
    margin_duals : ndarray of shape (n_samples,) or None, default=None
        Row duals (Lagrange multipliers) of the margin rows, with the sign convention
        of a minimisation (>= 0); None if the engine has none.
    equality_dual : float, default=0.0
        Dual of the equality row (0 without one).
    iterations : int, default=0
        Simplex iterations (or the engine's own count).
    engine : str, default=""
        ``Engine.name`` of the engine that solved it.
    info : dict, default={}
        Engine-specific details, e.g. ``info["certificate"]`` of an infeasible answer.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import LPSolution
    >>> solution = LPSolution("optimal", w=np.array([0.5, 0.0]), b=0.0, objective=0.5)
    >>> solution.status, float(solution.objective)
    ('optimal', 0.5)
    """

    status: str
    w: np.ndarray | None = None
    b: float = 0.0
    xi: np.ndarray | None = None
    objective: float = np.nan
    margin_duals: np.ndarray | None = None
    equality_dual: float = 0.0
    iterations: int = 0
    engine: str = ""
    info: dict = field(default_factory=dict)


def class_mean_weights(y):
    """v with X^T v = mu_+ - mu_- : 1/n_+ on positives, -1/n_- on negatives."""
    pos = y > 0
    return np.where(pos, 1.0 / np.count_nonzero(pos), -1.0 / np.count_nonzero(~pos))


def sfm_lp(X, y, feature_cost, *, equality="class_means", sign=1.0, slack_cost=None):
    r"""The (soft) SFM LP: margin 0 and an equality that excludes w = 0.

    One step of the SFM's reweighting loop (NC 2.2, thesis 3.1):

    .. math::

        \min_{w, b, \xi} \; & \sum_j c_j |w_j| + \sum_i C_i \xi_i \\
        \text{s.t.} \;\; & y_i (x_i \cdot w + b) + \xi_i \ge 0, \;\; \xi_i \ge 0 \\
        & (\mu_+ - \mu_-) \cdot w = \text{sign} \quad \text{(NC eq. 2.6)}

    without the xi for the hard SFM. ``equality="mean_margin"`` replaces the last row by
    the thesis' older :math:`\frac{1}{n} \sum_i y_i (x_i \cdot w + b) = \text{sign}` (thesis
    eq. 3.1). The soft SFM (NC eq. 2.9; per-class :math:`C_+` and :math:`C_-`, NC eq. 2.10) may make the left-hand side
    of the equality negative, so it must be solved with sign = +1 and sign = -1 and
    the lower objective kept.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The (active columns of the) training data.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}; both classes must be present.
    feature_cost : array-like of shape (n_columns,)
        c_j, the price of |w_j|.
    equality : {"class_means", "mean_margin"}, default="class_means"
        Which row excludes w = 0 (see above).
    sign : {1.0, -1.0}, default=1.0
        Right-hand side of the equality row.
    slack_cost : ndarray of shape (n_samples,) or None, default=None
        C_i per sample for the soft SFM (``np.inf`` keeps a row hard); None for the
        hard SFM.

    Returns
    -------
    HyperplaneLP
        The problem, margin 0, with its :class:`Equality` row.

    Examples
    --------
    Two classes separated by the first feature: :math:`\mu_+ - \mu_- = (3, 0)`, so the LP
    puts w_1 = 1/3 and nothing on the second feature.

    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, sfm_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> problem = sfm_lp(X, y, np.ones(2))
    >>> problem.equality.coef
    array([3., 0.])
    >>> solution = HighsEngine().solve(problem)
    >>> solution.w.round(6), round(solution.objective, 6)
    (array([0.333333, 0.      ]), 0.333333)

    The hard SFM with sign = -1 asks for the wrong orientation and is infeasible:

    >>> HighsEngine().solve(sfm_lp(X, y, np.ones(2), sign=-1.0)).status
    'infeasible'
    """
    X = as_scaled_matrix(X)
    y = check_signed_labels(y, X.shape[0])
    require_both_classes(y, "The SFM LP")
    if sign not in (1.0, -1.0):
        raise ValueError(f"sign must be +1 or -1 (the orientation of the equality row); got {sign!r}.")
    if equality == "class_means":
        row = Equality(X.rmatvec(class_mean_weights(y)), 0.0, float(sign))
    elif equality == "mean_margin":
        row = Equality(X.rmatvec(y) / y.size, float(np.mean(y)), float(sign))
    else:
        raise ValueError(
            f"equality must be 'class_means' or 'mean_margin'; got {equality!r}."
        )
    return HyperplaneLP(X, y, feature_cost, 0.0, row, slack_cost)


def weston_lp(X, y, feature_cost, *, slack_cost=None):
    r"""Weston's LP: one step of l1-AROM (Weston et al. 2003; NC eq. 2.4, thesis 2.6.5).

    .. math::

        \min_{w, b, \xi} \; & \sum_j c_j |w_j| + \sum_i C_i \xi_i \\
        \text{s.t.} \;\; & y_i (x_i \cdot w + b) + \xi_i \ge 1, \;\; \xi_i \ge 0

    (without the xi for the hard problem). The margin 1 fixes the scale, so no
    equality row is needed; reweighting the costs c_j (:mod:`sfmlearn.optim.reweighting`)
    turns the sequence of these LPs into Weston's approximation of the zero-norm.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_columns), or ScaledMatrix
        The (active columns of the) training data.
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    feature_cost : array-like of shape (n_columns,)
        c_j, the price of |w_j|.
    slack_cost : array-like of shape (n_samples,) or None, default=None
        C_i per sample for the soft problem (``np.inf`` keeps a row hard); None for
        the hard one.

    Returns
    -------
    HyperplaneLP
        The problem, margin 1, no equality row.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, weston_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> solution = HighsEngine().solve(weston_lp(X, y, np.ones(2)))
    >>> solution.w.round(6), round(solution.objective, 6)
    (array([1., 0.]), 1.0)
    """
    return HyperplaneLP(X, y, feature_cost, 1.0, None, slack_cost)

