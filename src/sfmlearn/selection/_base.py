"""The estimator skeleton of every selector fitted by the reweighting loop.

A fit is explicit objects (:class:`PreparedFit`): the validated training set
(:class:`._checked.TrainingSet`), the scaled LP data (:class:`._lpdata.LPData`), the
*problem* (rows, slack costs C_i, equality and its signs: :mod:`sfmlearn.optim.problem`),
the *penalty* (:mod:`sfmlearn.optim.penalties`) and the *engine* with its warm session
(:func:`sfmlearn.lp.make_engine`). ``fit`` reads::

    prepared = self.prepare(X, y)      # validate at the edge, scale, build the problem
    self.fit_prepared(prepared)        # fit_problem: iterated_l1 per sign, best kept;
                                       # then the fitted attributes from the kept run

and the softness path, the repetitive SFM (:class:`SubsetRefitter`) and the CV
estimators reuse a :class:`PreparedFit` (other slack costs, fewer columns, the same
warm session) through those two public methods.

:class:`IteratedL1Classifier` stores a linear classifier: it places the final
hyperplane (``refit``, :func:`._placement.place_hyperplane`) and expresses it in the
user's feature space. The SFM, Weston's l1-AROM and ML05's hinge-loss models
(:mod:`.competitors.hinge_lp`, :mod:`.competitors.hinge_qp`) are built on it; quadratic
FSV (:mod:`.competitors.quadratic_fsv`), whose classifier is not linear, on the skeleton
alone.
"""

import warnings
from dataclasses import dataclass, replace

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from .._validation import check_class_weight
from ..exceptions import NotSeparableError, SolverError
from ..lp import make_engine
from ..lp.separability import SeparationWitness
from ..optim.penalties import Penalty, ZeroNorm
from ..optim.problem import BuilderProblem, HyperplaneProblem, equal_means_error, sample_costs
from ..optim.reweighting import ITERATED_L1_TOL, flipped_start, iterated_l1
from ._checked import LinearTwoClassSelector, TrainingSet, TwoClassSelector, fit_from_scratch
from ._constraints import CLASS_WEIGHT, FORMULATION, LOOP, POSITIVE, REFIT, SOLVER
from ._lpdata import LPData
from ._placement import place_hyperplane

__all__ = ["IteratedL1Classifier", "PreparedFit", "ReweightedSelector", "SubsetRefitter",
           "class_sample_weights", "fit_problem"]


def class_sample_weights(y_signed, classes, class_weight):
    """Per-sample weights from ``class_weight`` (None, "balanced" or {label: weight}).

    "balanced" gives n / (2 n_c), so that C_+ n_+ = C_- n_- (NC 2.3.1). The type of
    ``class_weight`` is checked by the estimators' parameter constraints; a dict's
    entries by :func:`~sfmlearn._validation.check_class_weight`.
    """
    if class_weight is None:
        return np.ones(y_signed.size)
    if isinstance(class_weight, str):  # "balanced"
        n_pos = np.count_nonzero(y_signed > 0)
        n_neg = y_signed.size - n_pos
        return np.where(y_signed > 0, y_signed.size / (2.0 * n_pos), y_signed.size / (2.0 * n_neg))
    negative, positive = check_class_weight(class_weight, classes)
    return np.where(y_signed > 0, positive, negative)


def fit_problem(problem, penalty, engine, *, owner="The estimator", **loop):
    """Run :func:`~sfmlearn.optim.iterated_l1` once per sign of the problem's equality
    and keep the best run: the lowest objective, then the lowest last LP objective, then
    the first sign; for a soft problem, a continuation from the best run's negated
    solution where that is better (:func:`_continued_flip`). Returns ``(sign, run)``.

    ``loop`` holds ``iterated_l1``'s options (``reweight_slack``, ``max_iter``,
    ``tol``); ``owner`` (the estimator's name) words the errors.

    Raises
    ------
    NotSeparableError
        A hard problem has no solution (the classes are not linearly separable).
    DataValidationError
        A soft SFM problem whose class means agree on every column: its equality has
        no coefficient, so it has no solution (:meth:`~sfmlearn.optim.SFMProblem.equal_means`).
    SolverError
        No run of any other soft problem, which always has a solution, ended optimal.
    """
    runs, statuses = [], []
    for signed in problem.per_sign():
        run = iterated_l1(signed, penalty, engine, **loop)
        if run.status == "optimal":
            runs.append((run.objective, run.history["lp_objective"][-1], len(runs), signed.sign, run))
        statuses.append(run.status)
    if not runs and problem.soft:
        largest = problem.equal_means()
        if largest is not None:
            raise equal_means_error(owner, largest)
        raise SolverError(
            f"The soft {owner}'s linear programs ended with status "
            f"{statuses}, although a soft problem always has a solution. The data are "
            "probably numerically extreme (values spanning more than the float range "
            "allows after scaling); rescale or clip X and report this if it persists.",
            status=statuses[0] if statuses else None)
    if not runs:
        raise NotSeparableError(
            f"The two classes are not linearly separable, so the hard "
            f"{owner} (C=None) has no solution. Pass a softness C "
            f"(e.g. {owner}(C=1.0)) to allow training errors."
        )
    chosen = min(runs, key=lambda r: r[:3])
    if problem.soft:
        chosen = _continued_flip(problem, chosen, penalty, engine, loop) or chosen
    *_, sign, run = chosen
    return sign, run


def _continued_flip(problem, chosen, penalty, engine, loop):
    """The run of a soft problem that continues from the chosen run's negated solution,
    if that solution is better (else None). The negation is feasible for the other sign
    of the equality, with the run's training errors and correct samples swapped
    (:func:`~sfmlearn.optim.reweighting.flipped_start`): a chosen run whose negation has
    the lower objective is a hyperplane against the class means that misclassifies most
    of the training samples, and the other sign's loop continues from it
    (``tests/selection/test_equality_sign.py`` holds such a case, from Haxby's data)."""
    objective, *_, sign, run = chosen
    other = next((signed for signed in problem.per_sign() if sign is not None and signed.sign == -sign), None)
    if other is None:  # no other sign of an equality (Weston's problem, a problem built by a function)
        return None
    start, flipped = flipped_start(other, run, penalty, reweight_slack=loop.get("reweight_slack", False))
    if flipped >= objective - 1e-9 * max(1.0, abs(objective)):
        return None
    more = iterated_l1(other, penalty, engine, start=start, **loop)
    return (more.objective, more.history["lp_objective"][-1], chosen[2] + 1, other.sign, more) \
        if more.status == "optimal" and more.objective < objective else None


@dataclass(frozen=True, eq=False)
class PreparedFit:
    """Everything one fit needs, validated and built once, reusable.

    Parameters
    ----------
    training : TrainingSet
        The validated X and -1/+1 labels, classes and feature names.
    data : LPData
        The scaled LP data and the maps back to the user's features.
    weights : ndarray of shape (n_samples,)
        Per-sample class weights a_i (:func:`class_sample_weights`).
    problem : HyperplaneProblem
        The rows, slack costs and equality over the candidate columns ``positions``.
    penalty : Penalty
        The feature penalty of the loop.
    engine : engine
        What solves the problems (:func:`sfmlearn.lp.make_engine`).
    session : engine session
        The engine's warm state (:mod:`sfmlearn.lp.protocol`): every LP of a fit -
        each reweighting step, both signs of the equality and, through the
        ``with_*``/``restricted`` copies, every fit at another C or on fewer
        features - goes through it, so one HiGHS model serves them all.
    reweight_slack, max_iter, tol
        The options of :func:`~sfmlearn.optim.iterated_l1`.
    positions : ndarray of int or None
        The candidate positions (of ``data.candidates``) of the problem's columns
        (None: all).
    separation : SeparationWitness or None
        A hyperplane known to separate the training samples strictly, shared by every
        copy of this fit (fewer columns, other C): the hard fits' test of strict
        separation on the candidates (:func:`._placement.check_strict_separation`)
        answers from it while its columns remain (None: a new, empty one).
    """

    training: TrainingSet
    data: LPData
    weights: np.ndarray
    problem: HyperplaneProblem
    penalty: Penalty
    engine: object
    session: object
    reweight_slack: bool = False
    max_iter: int = 50
    tol: float = ITERATED_L1_TOL
    positions: np.ndarray = None
    separation: SeparationWitness = None

    def __post_init__(self):
        if self.positions is None:
            object.__setattr__(self, "positions", np.arange(self.data.candidates.size))
        if self.separation is None:
            object.__setattr__(self, "separation", SeparationWitness())

    def solve(self, owner="The estimator"):
        """:func:`fit_problem` on this problem, penalty and session: ``(sign, run)``."""
        return fit_problem(self.problem, self.penalty, self.session, owner=owner,
                           reweight_slack=self.reweight_slack, max_iter=self.max_iter,
                           tol=self.tol)

    def with_slack_cost(self, slack_cost):
        """The same fit with slack costs C_i (another softness; None: hard)."""
        return replace(self, problem=self.problem.with_slack_cost(slack_cost))

    def restricted(self, positions):
        """The same fit on the candidate ``positions`` only (of this fit's columns)."""
        if positions.size == self.positions.size:
            return self
        return replace(self, problem=self.problem.restrict(positions),
                       positions=self.positions[positions])

    def with_new_session(self):
        """The same fit with a cold engine session (no warm start)."""
        return replace(self, session=self.engine.session())


class ReweightedSelector(TwoClassSelector):
    """The skeleton (module docstring). ``fit`` takes no per-sample weights
    (``sample_weight`` raises a TypeError that says so,
    :func:`~sfmlearn._validation.check_fit_params`): the hard problems and the SFM's
    class-mean equality have no per-sample cost to weight; ``class_weight`` sets the
    per-class costs.

    What a subclass says, in the order :meth:`prepare` asks:

    * ``_loop_setup(weights)``: the engine (through
      :func:`~sfmlearn.lp.engines.make_engine`, which checks it) and the loop's
      ``slack_cost`` (C_i), ``penalty`` (default :class:`~sfmlearn.optim.ZeroNorm`) and
      ``reweight_slack``, given the per-sample class weights (required);
    * ``_lp_data(X, y_signed, weights, feature_names)``: the prepared data (default
      :class:`._lpdata.LPData`);
    * ``_problem(data, y_signed, slack_cost)``: the problem of
      :mod:`sfmlearn.optim.problem` (default: a
      :class:`~sfmlearn.optim.problem.BuilderProblem` over ``_build_lp(X, y,
      feature_cost, slack_cost, sign)``);
    * ``_store_run(prepared, positions, run, sign)``: the fitted attributes from the
      kept run (required);
    * ``_training_decision(prepared)``: the fitted decision function on the training
      samples (required), to which :meth:`fit_prepared` fits the probabilities of
      ``predict_proba`` (Platt's sigmoid, :mod:`._probability`).
    """

    _sparse_input = True
    #: Why w = 0 can win and what to change (the warning raised in that case).
    _empty_support_hint = ""

    def _lp_data(self, X, y_signed, weights, feature_names):
        """The prepared training data the loop sees (:class:`._lpdata.LPData`)."""
        return LPData(X, self.scale, feature_names)

    def _problem(self, data, y_signed, slack_cost):
        return BuilderProblem(data.X, y_signed, data.base_cost, slack_cost, build=self._build_lp)

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Select features and fit the classifier on them.

        Raises
        ------
        NotSeparableError
            For a hard problem (``C=None``) on data that are not linearly separable.
        DataValidationError
            For unusable data (NaN, one class, every feature constant, ...).

        A fit that raises leaves the estimator unfitted (:func:`._checked.fit_from_scratch`).
        """
        return self.fit_prepared(self.prepare(X, y, **fit_params))

    def prepare(self, X, y, **fit_params):
        """Validate ``X, y`` and build this estimator's :class:`PreparedFit` (no fitted
        attribute is set): the input of :meth:`fit_prepared`, reusable by fits at other
        slack costs or on fewer features."""
        training = self._training_set(X, y, fit_params)
        weights = class_sample_weights(training.y, training.classes, self.class_weight)
        engine, options = self._loop_setup(weights)
        data = self._lp_data(training.X, training.y, weights, training.feature_names)
        problem = self._problem(data, training.y, options["slack_cost"])
        return PreparedFit(
            training, data, weights, problem, options.get("penalty") or ZeroNorm(), engine,
            engine.session(), reweight_slack=options.get("reweight_slack", False),
            max_iter=self.max_iter, tol=self.tol)

    def fit_prepared(self, prepared, *, probability=True):
        """Fit on a :class:`PreparedFit` (from :meth:`prepare` of an estimator with the
        same parameters, possibly with other slack costs or fewer columns); returns self.
        ``probability=False`` skips the sigmoid of ``predict_proba`` (which then raises
        ``NotFittedError``): for fits whose decisions or supports alone are used, such as
        the candidates of a cross-validation."""
        name = type(self).__name__
        sign, run = prepared.solve(owner=name)
        if not run.converged:
            warnings.warn(
                f"{name} did not converge in max_iter={prepared.max_iter} "
                "reweighting iterations; increase max_iter.", ConvergenceWarning,
            )
        training = prepared.training
        self.classes_ = training.classes
        self.n_features_in_ = training.n_features
        if training.feature_names is not None:
            self.feature_names_in_ = training.feature_names
        self._store_run(prepared, prepared.positions, run, sign)
        self.n_iter_ = run.n_iter
        self.converged_ = run.converged
        self.history_ = {k: np.asarray(v) for k, v in run.history.items()}
        self.scaler_ = prepared.data.scaler
        if probability:
            self._fit_probability(self._training_decision(prepared), training.y)
        if not self.support_.any():
            warnings.warn(
                f"{name} selected no feature (w = 0): {self._empty_support_hint}", UserWarning,
            )
        return self


class IteratedL1Classifier(ReweightedSelector, LinearTwoClassSelector):
    """Base of the linear selectors; see :class:`~sfmlearn.SupportFeatureMachine` for the
    parameters (and :class:`ReweightedSelector` for what a subclass says)."""

    _parameter_constraints = {
        "C": [POSITIVE, None],
        "class_weight": CLASS_WEIGHT,
        "reweight_slack": ["boolean"],
        "refit": REFIT,
        "scale": ["boolean"],
        "solver": SOLVER,
        "formulation": FORMULATION,
        **LOOP,
    }
    _empty_support_hint = (
        "for these data and this C a constant prediction is cheapest. Increase C or use "
        "class_weight='balanced' (and, for the SFM, equality='class_means')."
    )

    def _loop_setup(self, weights):
        """The SFM and Weston's method: the LP engine ``solver`` and the zero-norm loop
        with slack costs C_i = C * weight_i (none for the hard problems, C=None)."""
        options = {"slack_cost": sample_costs(self.C, weights), "penalty": ZeroNorm(),
                   "reweight_slack": self.reweight_slack}
        return make_engine(self.solver, self.formulation), options

    def _store_run(self, prepared, positions, run, sign):
        data = prepared.data
        support = positions[run.support]  # candidate positions of the selected features
        w, b = data.lp_to_scaled(support, run.w[run.support], run.b)
        support, w, b = self._improve_selection(prepared, support, w, b)
        scaled_coef = np.zeros(data.n_features)
        scaled_coef[data.candidates[support]] = w
        w_final, b_final = place_hyperplane(self.refit, prepared, support, w, b, run.solution,
                                            owner=type(self).__name__)
        coef, intercept = data.scaled_to_input(support, w_final, b_final)
        self.support_ = np.zeros(data.n_features, dtype=bool)
        self.support_[data.candidates[support]] = True
        self.scaled_coef_ = scaled_coef
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([intercept])
        self.equality_sign_ = sign
        self.n_training_errors_ = int(run.history["n_errors"][-1])

    def _training_decision(self, prepared):
        return self._linear_decision(prepared.training.X)

    def _improve_selection(self, prepared, support, w, b):
        """The selection after the loop (scaled space); the SFM's exact method changes it."""
        return support, w, b


class SubsetRefitter:
    """Refit an SFM-family estimator on shrinking feature subsets of the same data.

    The repetitive SFM (NC 4.4) fits, removes the selected features and refits, hundreds
    of times. This object prepares the fit once (:meth:`ReweightedSelector.prepare`:
    validated, scaled X, the problem, and with ``warm_start`` one engine session - one
    HiGHS model, its working sets and basis - across the refits), so each refit is
    ``clone(estimator).fit_prepared(prepared.restricted(positions))`` and starts from the
    previous one's master minus the removed features.

    >>> refitter = SubsetRefitter(SupportFeatureMachine(), X, y)       # doctest: +SKIP
    >>> first = refitter.fit()                                         # doctest: +SKIP
    >>> second = refitter.fit(exclude=first.support_)                  # doctest: +SKIP

    Every call returns a new fitted clone of ``estimator`` whose attributes refer to
    all features of X (excluded features have zero weight).
    """

    def __init__(self, estimator, X, y, *, warm_start=True):
        self.estimator = estimator
        self.prepared = clone(estimator).prepare(X, y)
        self.warm_start = warm_start

    @property
    def n_features(self):
        return self.prepared.data.n_features

    def fit(self, exclude=None, *, probability=True):
        """Fit on all features except ``exclude`` (boolean mask or indices of X's columns);
        ``probability``: as in :meth:`ReweightedSelector.fit_prepared`."""
        data = self.prepared.data
        allowed = np.ones(data.n_features, dtype=bool)
        if exclude is not None:
            exclude = np.asarray(exclude)
            if exclude.dtype == bool:
                allowed &= ~exclude
            else:
                allowed[exclude] = False
        prepared = self.prepared.restricted(np.flatnonzero(allowed[data.candidates]))
        if not self.warm_start:
            prepared = prepared.with_new_session()
        return clone(self.estimator).fit_prepared(prepared, probability=probability)
