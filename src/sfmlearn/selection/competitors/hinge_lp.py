r"""Bradley & Mangasarian's hinge-loss selectors: RLP, l1-SVM and FSV (ML05 2.1-2.2, 4.2.1).

All three minimise a weighted hinge loss plus a feature penalty,

.. math::

    \min_{w, b} \; (1 - \lambda) \frac{1}{n} \sum_i C_i \big(1 - y_i (w \cdot x_i + b)\big)_+
    + \lambda \rho(|w|)

* RLP (ML05 eq. 1): :math:`\lambda = 0`;
* l1-SVM (eq. 4): :math:`\rho(v) = \sum_j v_j` (one LP);
* FSV (eq. 6): :math:`\rho(v) = \sum_j (1 - e^{-\alpha v_j})` (concave, :math:`\alpha = 5`);

with per-sample weights :math:`C_i` from ``class_weight`` (1, or :math:`n / (2 n_c)` for
"balanced": the :math:`1/n_\pm` weighting of Bennett & Mangasarian that ML05 2.1 mentions). The hinge loss is
the mean over samples, so lambda has the same meaning at every sample size.

Each is a :class:`~sfmlearn.lp.problems.HyperplaneLP` with margin 1: feature costs on
:math:`|w|`, slack costs :math:`(1 - \lambda) C_i / n`, solved by the shared reweighting loop
(:func:`~sfmlearn.optim.reweighting.iterated_l1`). For FSV the loop is the
successive linearisation algorithm (SLA, ML05 Alg. 4.2): starting from :math:`v^0 = 1`
(ML05 5.2.2), each LP has feature costs :math:`\lambda \alpha e^{-\alpha v_j^k}`, the gradient of the
concave penalty at the previous solution. SLA is DCA with g the indicator of the LP's
polyhedron (ML05 Corollary 2); :mod:`sfmlearn.optim.dca` has the generic algorithm and
the tests check that both produce the same iterates. The loop stops with ML05's rule
:math:`\min(|\Delta v_j|, |\Delta v_j / v_j|) \le \mathrm{tol}` for every j
(:data:`sfmlearn.optim.ITERATED_L1_TOL`; 1e-5 in ML05).

The penalties (:mod:`sfmlearn.optim.penalties`) are small objects with one job (the
multipliers of the next LP and the penalty's value), shared with the l2 models of
:mod:`sfmlearn.selection.competitors.hinge_qp`.

**Units of the parameters.** A penalty on |w| means nothing without a unit of w: scaling
a feature by c scales its weight by 1/c. ML05 works on standardised features and
chooses lambda on a validation set per data set; fixed values do not transfer between
data sets (on 60 x 300 data whose labels depend on two features, l1-SVM with lambda =
0.1 on SFMScaler-scaled data selected nothing, the l2-l1-SVM 256 features). With
``scale=True`` (the default) these selectors therefore measure weights in the data's own
unit: after :class:`~sfmlearn.SFMScaler`, every feature is divided by the **critical
slope** :math:`t^*` (:mod:`._critical`), the smallest one-norm weight at which w = 0 is the
optimal l1-SVM. In these units the l1-SVM is empty exactly for :math:`\lambda \ge 1/2`, the
l2-l1-SVM exactly for :math:`\nu \ge \mu`, and FSV / l2-l0-SVM have w = 0 as a local
minimum exactly for :math:`\lambda \alpha / (1 - \lambda) \ge 1` resp.
:math:`\nu \alpha \ge \mu`, on any data. The
defaults sit at about half those thresholds; on the 60 x 300 data above they select 2
(FSV), 3 (l2-l0), 13 (l1) and 14 (l2-l1) features, the two relevant ones among them,
with 95-98 % test accuracy (``tests/selection/test_defaults.py``). With
``scale=False`` the parameters act on the data as given, which is how
:mod:`sfmlearn.experiments.ml05_tables` reproduces ML05 with its grids on standardised
features.
"""

import textwrap

import numpy as np

from ...lp.engines import make_engine
from ...lp.problems import HyperplaneLP
from ...optim.penalties import ExponentialPenalty, L1Penalty
from ...optim.reweighting import ITERATED_L1_TOL
from .._base import IteratedL1Classifier
from .._constraints import CLASS_WEIGHT, FORMULATION, FRACTION, LOOP, POSITIVE, REFIT, SOLVER
from .._lpdata import LPData
from ..sfm._critical import critical_slope
from ._params import Param, declare_parameters

__all__ = ["FSV", "HINGE_PARAMETERS", "L1SVM", "REFIT_PARAMETER", "RLP",
           "model_docstring"]


class HingeLoss:
    """ML05's objective for the reweighting loop: a weighted mean hinge loss plus a penalty.

    The slack of sample i costs ``_loss_weight()`` * C_i / n: the loss weight is the
    factor of the mean hinge loss in the model's objective, 1 - lambda for the LP
    models (RLP, l1-SVM, FSV, quadratic FSV) and mu for the l2 models. ``_penalty()``
    prices the features (:mod:`sfmlearn.optim.penalties`), ``_engine()`` solves the
    problems the estimator builds.
    """

    def _engine(self):
        return make_engine(self.solver, self.formulation)

    def _loop_setup(self, weights):
        options = {
            "slack_cost": self._loss_weight() * weights / weights.size,
            "penalty": self._penalty(),
            "reweight_slack": False,
        }
        return self._engine(), options


class HingeLossSelector(HingeLoss, IteratedL1Classifier):
    """Base of the linear ML05 models: margin-1 rows, mean hinge loss, a penalty on |w|.

    Subclasses give ``_loss_weight()``, ``_penalty()`` and, for the QPs, ``_engine()``
    (:class:`HingeLoss`). With ``scale=True`` the scaled features are divided by the
    critical slope t* (module docstring, "Units").
    """

    _empty_support_hint = (
        "the feature penalty outweighs every feature's reduction of the hinge loss, so "
        "the model predicts one class. Lower the penalty weight."
    )

    def _build_lp(self, X, y, feature_cost, slack_cost, sign):
        return HyperplaneLP(X, y, feature_cost, 1.0, slack_cost=slack_cost)

    def _store_run(self, prepared, positions, run, sign):
        """The linear model's attributes, with the hinge loss's two counts of training
        samples: ``n_margin_violations_``, those with positive slack (inside the margin
        y_i f(x_i) < 1 or beyond it), and ``n_training_errors_``, those the final
        classifier misclassifies."""
        super()._store_run(prepared, positions, run, sign)
        predicted_positive = self._training_decision(prepared) > 0  # as predict decides
        self.n_margin_violations_ = int(run.history["n_errors"][-1])
        self.n_training_errors_ = int(np.count_nonzero(predicted_positive != (prepared.training.y > 0)))

    def _lp_data(self, X, y_signed, weights, feature_names):
        data = LPData(X, self.scale, feature_names)
        if self.scale:
            unit = critical_slope(data.X, y_signed, weights)
            data.divide_features(unit if unit > 0 else 1.0)
        return data


#: How every linear selector of the iterated-l1 loop places its final hyperplane; the
#: SFM's default is "svm" (``REFIT_PARAMETER.with_default("svm")``), the others' None.
REFIT_PARAMETER = Param(None, REFIT, """{"svm", "center", "logistic", None} or classifier, default=None
    How the final hyperplane is placed on the selected features: "svm" refits a
    hard-margin linear SVM on them (as "center" where they do not separate the
    training data), "center" keeps the model's direction and centres the bias in the
    widest gap with the fewest (class-weighted) training errors, "logistic" fits an
    L2 logistic regression (C = 1, class-weighted) on them standardised, a classifier with
    ``coef_`` / ``intercept_`` is cloned and fitted on them, and None keeps the model's
    own hyperplane. The selection (``support_``) never depends on it.""")

#: The parameters ML05's hinge-loss models share, declared once
#: (:mod:`._params`); the l2 models and quadratic FSV take a subset.
HINGE_PARAMETERS = {
    "class_weight": Param(None, CLASS_WEIGHT, """None, "balanced" or dict, default=None
        Per-class multipliers C_i of the hinge loss. "balanced" weights each class by
        n / (2 n_c): Bennett & Mangasarian's 1/n_+- weighting (ML05 2.1)."""),
    "refit": REFIT_PARAMETER,
    "scale": Param(True, ["boolean"], """bool, default=True
        Apply :class:`~sfmlearn.SFMScaler` first and measure the weights in the data's
        unit (divide by the critical slope t*: "Units" in
        :mod:`~sfmlearn.selection.competitors.hinge_lp`), so that the penalty
        parameters mean the same on every data set. ML05 standardises only (zero mean,
        unit variance); to reproduce its parameter values use
        ``make_pipeline(StandardScaler(), Model(scale=False))`` as
        :mod:`sfmlearn.experiments.ml05_tables` does."""),
    "solver": Param("auto", SOLVER, """str or engine, default="auto"
        As for :class:`~sfmlearn.SupportFeatureMachine` (:mod:`sfmlearn.lp.engines`)."""),
    "formulation": Param("standard", FORMULATION, """{"standard", "sparse"}, default="standard"
        As for :class:`~sfmlearn.SupportFeatureMachine`."""),
    "max_iter": Param(50, LOOP["max_iter"], """int, default=50
        Maximum number of LPs (or QPs) of the SLA / DCA loop."""),
    "tol": Param(ITERATED_L1_TOL, LOOP["tol"], r"""float, default=1e-6
        ML05's stopping rule on v: :math:`\min(|\Delta v_j|, |\Delta v_j / v_j|) \le \mathrm{tol}`
        for every j
        (:data:`~sfmlearn.optim.ITERATED_L1_TOL`, the SFM's value; ML05 5.2.2
        used 1e-5)."""),
}
#: Steepness alpha of the concave penalty sum_j (1 - exp(-alpha v_j)) (ML05 eq. 5).
ALPHA = Param(5.0, [POSITIVE], """float, default=5.0
    Steepness of the exponential (ML05 5.2.2 and Bradley & Mangasarian: 5), on the
    weights as the model measures them (see ``scale``).""")

_ATTRIBUTES_DOC = """
    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
        Features with |w_j| > 0 (the LP's exact zeros; ML05 counts |w_j| > 1e-8).
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    scaled_coef_ : ndarray of shape (n_features,)
        The weights on the scaled features (the papers' w; with ``scale=True`` in the
        data's unit: features scaled by SFMScaler and divided by t*).
    %(probability_attributes)s
    n_training_errors_ : int
        Training samples the fitted classifier misclassifies (``predict`` differs from
        y).
    n_margin_violations_ : int
        Training samples with positive slack in the model's solution, y_i f(x_i) < 1:
        the misclassified ones and the correct ones inside the margin
        (``n_training_errors_`` held this count before sfmlearn 0.2).
    classes_, n_iter_, converged_, scaler_
    history_ : dict of arrays
        Per LP: ``objective`` (the model's objective at that iterate),
        ``lp_objective``, ``n_features``, ``n_errors`` (the margin violations of that
        iterate), ``lp_iterations``, ``seconds``.
    n_features_in_, feature_names_in_
"""

#: The data of every ML05 model's example: features 0-5 carry the labels, 100 are noise.
_EXAMPLE_DATA = """
>>> from sfmlearn.datasets import make_weston
>>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
"""


def model_docstring(summary, example, attributes=_ATTRIBUTES_DOC):
    """The docstring of an ML05 model: ``summary``, its declared parameters
    (:func:`._params.declare_parameters`), ``attributes`` and an example whose lines
    (``example``) use the Weston data X, y."""
    lines = textwrap.dedent(_EXAMPLE_DATA).strip("\n") + "\n" + textwrap.dedent(example).strip("\n")
    return (summary.rstrip() + "\n\n    Parameters\n    ----------\n    %(parameters)s\n"
            + attributes + "\n    Examples\n    --------\n" + textwrap.indent(lines, "    ") + "\n    ")


@declare_parameters(keyword=HINGE_PARAMETERS)
class RLP(HingeLossSelector):
    __doc__ = model_docstring(r"""Robust linear programming (Bennett & Mangasarian 1992; ML05 eq. 1).

    .. math::

        \min_{w, b} \; \frac{1}{n} \sum_i C_i \big(1 - y_i (w \cdot x_i + b)\big)_+

    One LP; no feature selection beyond the LP's vertex sparsity (at most n + 1
    non-zero weights). FSV with lambda = 0.
    """, """
    >>> from sfmlearn import RLP
    >>> rlp = RLP().fit(X, y)
    >>> int(rlp.get_support().sum()) <= 51   # a vertex: at most n + 1 non-zero weights
    True
    >>> float(rlp.score(X, y))
    1.0
    """)

    def _loss_weight(self):
        return 1.0

    def _penalty(self):
        return L1Penalty(0.0)


@declare_parameters(positional={"lam": Param(1 / 3, [FRACTION], r"""float in [0, 1), default=1/3
    Weight of the one-norm penalty. With ``scale=True`` the model is empty exactly
    for :math:`\lambda \ge 1/2` (module docstring, "Units"); the default, 1/3, is half that
    one-norm weight (t = lam / (1 - lam) = 1/2). It selected 13 of 300 features on
    the data of the module docstring, 19 of 2000 genes on colon and 26 of 7129 on the
    leukemia training set.""")}, keyword=HINGE_PARAMETERS)
class L1SVM(HingeLossSelector):
    __doc__ = model_docstring(r"""The l1-norm SVM (Bradley & Mangasarian 1998; ML05 eq. 4).

    .. math::

        \min_{w, b} \; (1 - \lambda) \frac{1}{n} \sum_i C_i \big(1 - y_i (w \cdot x_i + b)\big)_+
        + \lambda \|w\|_1

    One LP.
    """, """
    >>> from sfmlearn import L1SVM
    >>> L1SVM().fit(X, y).get_support(indices=True).tolist()   # relevant features: 0-5
    [1, 2, 4, 5]
    """)

    def _loss_weight(self):
        return 1.0 - self.lam

    def _penalty(self):
        return L1Penalty(self.lam)


@declare_parameters(positional={"lam": Param(0.1, [FRACTION], r"""float in [0, 1), default=0.1
    Weight of the feature penalty (ML05 selects it from {0.05, 0.1, 0.2, ..., 0.9,
    0.95} on a validation set, ML05 5.2.2; see
    :func:`sfmlearn.selection.ml05_search`). With ``scale=True`` w = 0 is a local
    minimum for :math:`\lambda \alpha / (1 - \lambda) \ge 1`, i.e. :math:`\lambda \ge 1/6` at
    :math:`\alpha = 5`; the
    default is about half that slope."""), "alpha": ALPHA}, keyword=HINGE_PARAMETERS)
class FSV(HingeLossSelector):
    __doc__ = model_docstring(r"""Feature selection concave (Bradley & Mangasarian 1998; ML05 eq. 6) by SLA.

    .. math::

        \min_{w, b, v, \xi} \; & (1 - \lambda) \frac{1}{n} \sum_i C_i \xi_i
        + \lambda \sum_j \big(1 - e^{-\alpha v_j}\big) \\
        \text{s.t.} \;\; & y_i (w \cdot x_i + b) \ge 1 - \xi_i, \;\; \xi \ge 0, \;\;
        -v \le w \le v

    The concave exponential approximates :math:`\|w\|_0` (ML05 eq. 5). Solved by the
    successive linearisation algorithm (ML05 Alg. 4.2, a sequence of LPs with feature
    costs :math:`\lambda \alpha e^{-\alpha v_j^k}`, from :math:`v^0 = 1`), which is DCA for this
    problem (ML05 Corollary 2). Each LP's solution costs no more in the concave
    objective than the previous one, so ``history_["objective"]`` never increases.
    """, """
    >>> from sfmlearn import FSV
    >>> fsv = FSV().fit(X, y)
    >>> fsv.get_support(indices=True).tolist(), float(fsv.score(X, y))   # relevant: 0-5
    ([2, 5], 1.0)
    """)

    def _loss_weight(self):
        return 1.0 - self.lam

    def _penalty(self):
        return ExponentialPenalty(self.lam, self.alpha)
