"""The Support Feature Machine (NC 2.2-2.3, thesis 3.1-3.2)."""

import numpy as np
from sklearn.utils._param_validation import InvalidParameterError, StrOptions

from ...lp.exact import minimum_support_milp
from ...optim.problem import SFMProblem
from ...optim.reweighting import ITERATED_L1_TOL
from .._base import IteratedL1Classifier
from ...utils.parameters import set_parameters
from .._constraints import POSITIVE

__all__ = ["SupportFeatureMachine", "minimum_support"]


class SupportFeatureMachine(IteratedL1Classifier):
    r"""Support Feature Machine: the fewest features in which the classes are separable.

    Approximates (NC eq. 2.6, thesis eq. 3.1)

    .. math::

        \min_{w, b} \|w\|_0 \quad \text{s.t.} \quad y_i (w \cdot x_i + b) \ge 0 \;\; \forall i,
        \qquad (\mu_+ - \mu_-) \cdot w = 1

    by iterated one-norm minimisation (NC 2.2): :math:`z \leftarrow 1`; repeat { minimise
    :math:`\sum_j |v_j|` subject to the constraints on :math:`w = v \odot z`;
    :math:`z \leftarrow z \odot |v|` } until the support and z stop changing. Each step is
    a linear program with n + 1 rows solved by HiGHS. The constraints carry no margin, so,
    unlike Weston's zero-norm SVM, no feature is spent on widening a margin.

    The soft SFM (``C > 0``, NC eq. 2.9-2.10) trades features against training errors:

    .. math::

        \min_{w, b, \xi} \; & \|w\|_0 + C_+ \|\xi_+\|_0 + C_- \|\xi_-\|_0 \\
        \text{s.t.} \;\; & y_i (w \cdot x_i + b) \ge -\xi_i, \;\; \xi \ge 0, \;\;
        (\mu_+ - \mu_-) \cdot w = \pm 1

    solved with +1 and with -1 on the right-hand side, keeping the run with the lower
    objective. As :math:`C \to 0` it returns exactly one feature, the one maximising
    :math:`|\mu_{+j} - \mu_{-j}|` (thesis 3.2, NC 2.3.2).

    Parameters
    ----------
    C : float or None, default=None
        Softness. None is the hard SFM, which raises :class:`NotSeparableError` on
        data that are not linearly separable.
    class_weight : None, "balanced" or dict, default=None
        Per-class multipliers of C. "balanced" sets :math:`C_+ n_+ = C_- n_-` (NC 2.3.1),
        so a small class is not sacrificed on unbalanced data.
    equality : {"class_means", "mean_margin"}, default="class_means"
        The row that excludes w = 0: NC's :math:`(\mu_+ - \mu_-) \cdot w = 1` or the
        thesis' older :math:`\frac{1}{n} \sum_i y_i (w \cdot x_i + b) = 1`. The latter
        admits w = 0 for soft fits on unbalanced data (thesis 3.2).
    reweight_slack : bool, default=True
        Whether the slack is reweighted like w, approximating the :math:`C \|\xi\|_0` of
        the soft-SFM objective faithfully, or enters every LP as :math:`C \sum_i \xi_i`. Both give
        fewer features as C shrinks and exactly one as C -> 0. The default, True, is
        the papers' objective, makes the l0 objective provably non-increasing over the
        iterations, and gave the lower minimum test error on the soft-SFM scenarios of
        thesis Fig. 4.8 (scenario 2: 28.0 % vs 28.9 %, published 27.6 %), reaching the
        published operating point (about 5.4 features, almost all relevant) near the
        thesis' optimum C = 0.2 (``sfmlearn reproduce extra-soft-slack``).
        With reweighted slack a sample whose slack reached zero keeps a hard constraint.
    refit : {"svm", "center", "logistic", None} or classifier, default="svm"
        How the final hyperplane is placed on the selected features. The LP's own
        hyperplane has zero margin (training points lie on it). "svm" refits a
        hard-margin linear SVM on the selected (scaled) features, and falls back to
        "center" when they do not separate the training data (soft fits); "center"
        keeps the SFM direction and moves the bias to the middle of the widest gap with
        the fewest (class-weighted) training errors (the LP optimum is a vertex where
        points of both classes usually touch the hyperplane, so along the SFM direction
        itself that gap is often zero); "logistic" fits an L2 logistic regression
        (C = 1, the class weights as sample weights) on the selected features
        standardised, a soft margin; None keeps the LP
        solution; an estimator with ``coef_``/``intercept_`` is cloned and fitted on
        the selected scaled features. "svm" gave the lowest test error on the NC Table
        1 data (README, ``benchmarks/refit_choice.py``). The selection (``support_``)
        never depends on this choice.
    scale : bool, default=True
        Apply :class:`~sfmlearn.SFMScaler` (standardise, then mean sample norm 1) to
        the training data first, as in every experiment of the papers.
    solver : str or engine, default="auto"
        "auto" (row and/or column generation chosen from the shape, one warm HiGHS
        model per fit), "rowcolgen", "rowgen", "colgen", "highs" (the full LP, a new
        model per LP), "scipy" (``scipy.optimize.linprog``), "glpk" (needs
        swiglpk), or an engine object (:mod:`sfmlearn.lp.engines`).
    formulation : {"standard", "sparse"}, default="standard"
        The LP form of thesis 3.5 for full-LP solves. "standard" (w = w+ - w-) was
        120-1100x faster in HiGHS (``benchmarks/bench_formulations.py``).
    max_iter : int, default=50
        Maximum number of reweighting iterations (LPs per sign).
    tol : float, default=1e-6
        Convergence: support unchanged and every |w_j| within ``tol`` (relative) of the
        previous iterate.
    method : {"l1", "exact"}, default="l1"
        "l1" is the papers' iterated one-norm approximation. "exact" (with
        ``equality="class_means"`` only) then solves the l0 problem itself as a
        mixed-integer program (:mod:`sfmlearn.lp.exact`), warm-started with the l1
        solution, and reports a proven lower bound in ``exact_``. Exponential in the worst case: for small d or with ``time_limit``.
    time_limit : float or None, default=60.0
        Seconds for the exact method's MILP.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
        Selected features (exactly the non-zero weights of the LP solution).
    coef_ : ndarray of shape (1, n_features)
        Weights in the input feature space: ``decision_function(X) = X @ coef_.T +
        intercept_``. Zero outside the support.
    intercept_ : ndarray of shape (1,)
    scaled_coef_ : ndarray of shape (n_features,)
        The SFM weights w on the scaled features (the papers' w), before ``refit``.
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class (+1).
    n_iter_ : int
        Reweighting iterations of the kept run.
    converged_ : bool
    history_ : dict of arrays
        Per iteration: ``n_features``, ``n_errors``, ``lp_objective``, ``objective``
        (:math:`\|w\|_0` plus the slack term: :math:`\sum_i C_i \xi_i`, or the sum of
        :math:`C_i` over training errors with ``reweight_slack``), ``lp_iterations``,
        ``seconds``.
    equality_sign_ : float or None
        The right-hand side (+1 or -1) of the kept soft run.
    n_training_errors_ : int
        Samples with positive slack in the SFM solution (0 for the hard SFM).
    scaler_ : SFMScaler or None
    exact_ : MinimumSupport or None
        For ``method="exact"``: ``support`` (feature indices), ``objective``,
        ``lower_bound`` (proven, for :math:`|w_j| \le` ``weight_bound`` on scaled data),
        ``gap``, ``status`` ("optimal" or "time limit"), ``seconds``.
    %(probability_attributes)s
    n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> sfm = SupportFeatureMachine().fit(X, y)
    >>> sfm.get_support(indices=True).tolist()   # the Weston data's relevant features are 0-5
    [2, 4, 5]
    >>> float(sfm.score(X, y))
    1.0
    """

    _parameter_constraints = {
        **IteratedL1Classifier._parameter_constraints,
        "equality": [StrOptions({"class_means", "mean_margin"})],
        "method": [StrOptions({"l1", "exact"})],
        "time_limit": [POSITIVE, None],
    }

    def __init__(self, C=None, *, class_weight=None, equality="class_means",
                 reweight_slack=True, refit="svm", scale=True, solver="auto",
                 formulation="standard", max_iter=50, tol=ITERATED_L1_TOL, method="l1",
                 time_limit=60.0):
        set_parameters(self, locals())

    def _loop_setup(self, weights):
        if self.method == "exact" and self.equality != "class_means":
            raise InvalidParameterError(
                "method='exact' solves the l0 problem under the class-means equality "
                "(NC eq. 2.6) only, so equality='mean_margin' would be silently ignored: "
                "use the default equality='class_means' with it, or method='l1'.")
        return super()._loop_setup(weights)

    def _problem(self, data, y_signed, slack_cost):
        return SFMProblem(data.X, y_signed, data.base_cost, slack_cost, equality=self.equality)

    def _improve_selection(self, prepared, support, w, b):
        if self.method == "l1":
            self.exact_ = None
            return support, w, b
        self.exact_, chosen, w, b = exact_support(prepared, support, w, b, self.time_limit)
        return chosen, w, b


def exact_support(prepared, support, w, b, time_limit):
    """The l0 problem itself (:func:`~sfmlearn.lp.exact.minimum_support_milp`) on the
    fit's candidate columns, warm-started with the iterated-l1 solution (support, w, b)
    in the scaled space. Returns the MILP's result (its ``support`` in input feature
    indices) and its (candidate positions, w, b)."""
    data, positions = prepared.data, prepared.positions
    Z = data.scaled_columns(positions)
    incumbent = np.zeros(positions.size)
    incumbent[np.searchsorted(positions, support)] = w
    result = minimum_support_milp(Z, prepared.training.y, (incumbent, b),
                                  error_cost=prepared.problem.slack_cost, time_limit=time_limit)
    chosen = positions[result.support]
    result.support = data.candidates[chosen]  # report input feature indices
    return result, chosen, result.w[result.support_positions], result.b


def minimum_support(X, y, *, C=None, class_weight=None, time_limit=60.0):
    r"""The exact minimum number of features that separate the classes (hard SFM, ``C=None``)
    or the exact minimum of the soft SFM objective :math:`\|w\|_0 + \sum_i C_i [\text{error}_i]`.

    Solves the l0 problem of NC eq. 2.6 (thesis eq. 3.1),

    .. math::

        \min_{w, b} \; & \|w\|_0 \\
        \text{s.t.} \;\; & y_i (w \cdot x_i + b) \ge 0 \;\; \forall i, \qquad
        (\mu_+ - \mu_-) \cdot w = 1

    (with slacks :math:`\xi_i` and the term :math:`\sum_i C_i [\xi_i > 0]` for the soft SFM)
    as a mixed-integer program (HiGHS), warm-started with the iterated-l1 SFM, on
    SFMScaler-scaled data. The answer the papers' l1 approximation gives is
    ``SupportFeatureMachine().fit(X, y).support_``. Exponential in the worst case: for
    small d, or with a ``time_limit``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data.
    y : array-like of shape (n_samples,)
        Two classes.
    C : float or None, default=None
        None for the hard SFM; a float for the soft SFM (as in
        :class:`~sfmlearn.SupportFeatureMachine`).
    class_weight : None, "balanced" or dict, default=None
        Per-class multipliers of C (soft SFM only).
    time_limit : float or None, default=60.0
        Seconds for the MILP; when it is reached the best support found is returned
        with ``status="time limit"`` and a positive ``gap``.

    Returns
    -------
    MinimumSupport
        ``support`` (feature indices of X), ``objective``, the proven ``lower_bound``,
        the ``gap``, the ``status`` ("optimal" or "time limit") and the time in
        ``seconds`` (:class:`sfmlearn.lp.exact.MinimumSupport`).

    Examples
    --------
    On 30 samples of Weston's data the smallest separating subset holds two of the six relevant features:

    >>> from sfmlearn import minimum_support
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=20, random_state=0)
    >>> result = minimum_support(X, y, time_limit=30)
    >>> result.support.tolist(), result.status, result.gap
    ([1, 5], 'optimal', 0.0)
    """
    model = SupportFeatureMachine(C=C, class_weight=class_weight, method="exact", time_limit=time_limit)
    return model.fit(X, y).exact_
