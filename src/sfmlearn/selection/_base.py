"""The estimator skeleton of every selector fitted by the reweighting loop.

:class:`ReweightedSelector` is the skeleton: validate once, prepare the LP data
(:mod:`._lpdata`), set up the engine and the loop (:func:`~sfmlearn.optim.reweighting.
iterated_l1`), run it once per sign of the equality, keep the best run, and store it.
Subclasses say which problem they build (``_build_lp``), with which engine, penalty and
slack costs (``_loop_setup``), for which signs, and what they store (``_store_run``).

:class:`IteratedL1Classifier` stores a linear classifier: it places the final
hyperplane (``refit``) and expresses it in the user's feature space. The SFM, Weston's
l1-AROM and ML05's hinge-loss models (:mod:`.hinge_lp`, :mod:`.hinge_qp`) are built on
it; quadratic FSV (:mod:`.quadratic_fsv`), whose classifier is not linear, on the
skeleton alone.
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model._base import LinearClassifierMixin

from .._validation import check_class_weight
from ..exceptions import NotSeparableError, SolverError
from ..lp.engines import make_engine
from ..lp.separability import minimum_slack_hyperplane, strictly_separating_plane
from ..optim.hard_margin import hard_margin_svm
from ..optim.svm import linear_svm
from ..optim.reweighting import iterated_l1
from ._checked import CheckedDecisionMixin, CheckedTransformMixin, SupportMaskMixin, TwoClassMixin
from ._constraints import CLASS_WEIGHT, FORMULATION, LOOP, POSITIVE, REFIT, SOLVER
from ._lpdata import LPData

__all__ = ["IteratedL1Classifier", "PreparedFit", "ReweightedSelector", "SubsetRefitter",
           "best_threshold"]


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


def best_threshold(projection, y_signed, sample_weight):
    """Bias that places the hyperplane in the middle of its best gap along ``projection``.

    Minimises the weighted number of training errors of sign(projection + b); among
    equally good cuts it takes the widest gap between neighbouring projections. On data
    the direction separates this is the midpoint of the gap between the classes.
    """
    order = np.argsort(projection, kind="stable")
    p, y, w = projection[order], y_signed[order], sample_weight[order]
    # Cut k puts samples [0, k) on the negative side.
    pos_left = np.r_[0.0, np.cumsum(w * (y > 0))]
    neg_right = np.r_[np.cumsum((w * (y < 0))[::-1])[::-1], 0.0]
    errors = pos_left + neg_right
    gap = np.r_[np.inf, np.diff(p), np.inf]
    errors[gap <= 0] = np.inf  # no cut between equal projections
    best = np.flatnonzero(errors <= errors.min() + 1e-12)
    k = best[np.argmax(gap[best])]
    if k == 0:
        cut = p[0] - 1.0
    elif k == p.size:
        cut = p[-1] + 1.0
    else:
        cut = 0.5 * (p[k - 1] + p[k])
    return -cut


class ReweightedSelector(TwoClassMixin, SupportMaskMixin, CheckedTransformMixin, SelectorMixin,
                         ClassifierMixin, BaseEstimator):
    """The skeleton (module docstring). ``fit`` takes no per-sample weights
    (``sample_weight`` raises a TypeError that says so,
    :func:`~sfmlearn._validation.check_fit_params`): the hard problems and the SFM's
    class-mean equality have no per-sample cost to weight; ``class_weight`` sets the
    per-class costs.

    Subclass hooks:

    * ``_build_lp(X, y, feature_cost, slack_cost, sign)``: the problem on the columns
      ``X`` (a :class:`~sfmlearn.lp.operators.ScaledMatrix`) of the kind the engine
      solves (required);
    * ``_loop_setup(weights)``: the engine (through
      :func:`~sfmlearn.lp.engines.make_engine`, which checks it) and the keyword
      arguments of :func:`iterated_l1` (``slack_cost``, ``penalty``, ``reweight_slack``),
      given the per-sample class weights (required);
    * ``_store_run(prepared, positions, run, sign)``: the fitted attributes from the
      kept run (required);
    * ``_lp_data`` (default: :class:`._lpdata.LPData`) and ``_equality_signs`` (default:
      one run, sign None).
    """

    _sparse_input = True
    #: Why w = 0 can win and what to change (the warning raised in that case).
    _empty_support_hint = ""

    def _equality_signs(self, soft):
        return (None,)

    def _lp_data(self, X, y_signed, weights, feature_names):
        """The prepared training data the loop sees (:class:`._lpdata.LPData`)."""
        return LPData(X, self.scale, feature_names)

    def fit(self, X, y, **fit_params):
        """Select features and fit the classifier on them.

        Raises
        ------
        NotSeparableError
            For a hard problem (``C=None``) on data that are not linearly separable.
        DataValidationError
            For unusable data (NaN, one class, every feature constant, ...).
        """
        prepared = PreparedFit(self, X, y, fit_params=fit_params)
        return self._fit_prepared(prepared, np.arange(prepared.data.candidates.size))

    def _fit_prepared(self, prepared, positions):
        """Fit on the candidate ``positions`` of a :class:`PreparedFit` (all, or a subset)."""
        data, y_signed = prepared.data, prepared.y_signed
        self.classes_ = prepared.classes
        self.n_features_in_ = data.n_features
        if prepared.feature_names_in is not None:
            self.feature_names_in_ = prepared.feature_names_in
        runs, statuses = [], []
        for sign in self._equality_signs(prepared.slack_cost is not None):
            def build(columns, feature_cost, row_cost, sign=sign):
                chosen = positions[columns]
                X_cols = data.X if chosen.size == data.X.shape[1] else data.X.subset(chosen)
                return self._build_lp(X_cols, y_signed, feature_cost, row_cost, sign)

            run = iterated_l1(
                build, data.base_cost[positions], prepared.session, max_iter=self.max_iter,
                tol=self.tol, **prepared.loop_options,
            )
            if run.status == "optimal":
                runs.append((run.objective, run.history["lp_objective"][-1], len(runs), sign, run))
            statuses.append(run.status)
        if not runs and prepared.slack_cost is not None:
            raise SolverError(
                f"The soft {type(self).__name__}'s linear programs ended with status "
                f"{statuses}, although a soft problem always has a solution. The data are "
                "probably numerically extreme (values spanning more than the float range "
                "allows after scaling); rescale or clip X and report this if it persists.",
                status=statuses[0] if statuses else None)
        if not runs:
            raise NotSeparableError(
                f"The two classes are not linearly separable, so the hard "
                f"{type(self).__name__} (C=None) has no solution. Pass a softness C "
                f"(e.g. {type(self).__name__}(C=1.0)) to allow training errors."
            )
        *_, sign, run = min(runs, key=lambda r: r[:3])
        if not run.converged:
            warnings.warn(
                f"{type(self).__name__} did not converge in max_iter={self.max_iter} "
                "reweighting iterations; increase max_iter.", ConvergenceWarning,
            )
        self._store_run(prepared, positions, run, sign)
        self.n_iter_ = run.n_iter
        self.converged_ = run.converged
        self.history_ = {k: np.asarray(v) for k, v in run.history.items()}
        self.scaler_ = data.scaler
        if not self.support_.any():
            warnings.warn(
                f"{type(self).__name__} selected no feature (w = 0): "
                f"{self._empty_support_hint}", UserWarning,
            )
        return self


class IteratedL1Classifier(CheckedDecisionMixin, ReweightedSelector, LinearClassifierMixin):
    """Base of the linear selectors; see :class:`~sfmlearn.SupportFeatureMachine` for the
    parameters (and :class:`ReweightedSelector` for the hooks)."""

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
        slack_cost = None if self.C is None else float(self.C) * weights
        options = {"slack_cost": slack_cost, "reweight_slack": self.reweight_slack}
        return make_engine(self.solver, self.formulation), options

    def _store_run(self, prepared, positions, run, sign):
        data, y_signed = prepared.data, prepared.y_signed
        support = positions[run.support]  # candidate positions of the selected features
        w, b = data.lp_to_scaled(support, run.w[run.support], run.b)
        support, w, b = self._improve_selection(prepared, positions, support, w, b)
        placed = None
        if prepared.slack_cost is None:
            placed = self._certified_svm_refit(data, support, y_signed, run.solution)
            if placed is None:
                self._check_strict_separation(data, y_signed, positions, support, w, b)
        scaled_coef = np.zeros(data.n_features)
        scaled_coef[data.candidates[support]] = w
        w_final, b_final = placed if placed is not None else \
            self._place_hyperplane(data, support, w, b, y_signed, prepared.weights)
        coef, intercept = data.scaled_to_input(support, w_final, b_final)
        self.support_ = np.zeros(data.n_features, dtype=bool)
        self.support_[data.candidates[support]] = True
        self.scaled_coef_ = scaled_coef
        self.coef_ = coef[None, :]
        self.intercept_ = np.array([intercept])
        self.equality_sign_ = sign
        self.n_training_errors_ = int(run.history["n_errors"][-1])

    def _improve_selection(self, prepared, positions, support, w, b):
        """Hook after the iterated-l1 solution (scaled space); the SFM's exact method."""
        return support, w, b

    def _certified_svm_refit(self, data, support, y_signed, lp_solution):
        """Hard fits with ``refit="svm"``: the hard-margin SVM of the selected features,
        (w, b), or None if it fails. Its certificate checks every margin >= 1, so a
        returned hyperplane proves strict separation, which both separability LPs
        (:meth:`_check_strict_separation`, :func:`~sfmlearn.optim.linear_svm`'s) would
        otherwise decide first: about 5 ms of each repetitive-SFM repetition at 88 x 6362.
        Wolfe's loop starts from the samples on the last LP's margin (``lp_solution``'s
        positive margin multipliers), most of which are the SVM's support vectors."""
        if not (isinstance(self.refit, str) and self.refit == "svm") or support.size == 0:
            return None
        duals = getattr(lp_solution, "margin_duals", None)
        try:
            solution = hard_margin_svm(data.scaled_columns(support), y_signed,
                                       start=None if duals is None else duals > 0)
        except SolverError:  # not separable, or too thin to certify: decided as before
            return None
        return solution.w, solution.b

    def _check_strict_separation(self, data, y_signed, positions, support, w, b):
        """Hard fits: the zero-margin rows y_i (w . x_i + b) >= 0 are also met by
        points lying *on* the hyperplane, so a hard SFM 'solution' exists for data that
        no hyperplane strictly separates (e.g. a duplicated sample with both labels).
        Moving the LP's hyperplane (w, b) off those points proves strict separation
        when it works (:func:`~sfmlearn.lp.separability.strictly_separating_plane`, a
        least-squares solve and a check); otherwise the LP separability test on the
        selected features, and if needed on all of them, tells the cases apart."""
        X_sel = data.scaled_columns(support)
        if strictly_separating_plane(X_sel, y_signed, w, b) is not None:
            return
        if not minimum_slack_hyperplane(X_sel, y_signed)[2].any():
            return
        _, _, slack = minimum_slack_hyperplane(data.X.subset(positions), y_signed, solver="auto")
        if slack.any():
            raise NotSeparableError(
                f"The two classes are not linearly separable ({np.count_nonzero(slack)} "
                f"samples cannot be placed strictly on their side; the zero-margin hard "
                f"{type(self).__name__} would only put them on its hyperplane). Pass a "
                f"softness C (e.g. {type(self).__name__}(C=1.0)) to allow training errors."
            )
        warnings.warn(
            f"The {support.size} selected features separate the training data only weakly: "
            "some samples lie on the hyperplane (the zero-margin SFM allows it), although "
            "the data are strictly separable with more features. Training accuracy can be "
            "below 100%; a soft SFM (C) or WestonZeroNormSVM avoids this.", UserWarning,
        )

    def _place_hyperplane(self, data, support, w, b, y_signed, weights):
        """The final (w, b) in the scaled space according to ``refit``."""
        refit = self.refit
        if refit is None or support.size == 0:
            return w, b
        X_sel = data.scaled_columns(support)
        if isinstance(refit, str) and refit == "svm":
            try:
                return linear_svm(X_sel, y_signed)
            except NotSeparableError:
                pass  # soft fits: the selected features overlap; centre the SFM direction
            except SolverError as exc:  # not certified (see optim/hard_margin.py)
                warnings.warn(f"The hard-margin SVM refit failed ({exc}); the SFM direction "
                              "is centred instead (as refit='center').", UserWarning)
        if isinstance(refit, str):
            return w, best_threshold(X_sel @ w, y_signed, weights)
        model = clone(refit).fit(X_sel, y_signed)
        return np.ravel(model.coef_), float(np.ravel(model.intercept_)[0])


class PreparedFit:
    """Validated, scaled training data and solver state of one estimator, reusable.

    Validation, scaling (:class:`LPData`) and the engine are set up once; the
    estimator can then be fitted on any subset of the features
    (:meth:`ReweightedSelector._fit_prepared`) without repeating that work. ``session``
    is the engine's warm state (:mod:`sfmlearn.lp.protocol`): every LP of the fit -
    each reweighting step, both signs of the equality, and, through
    :class:`SubsetRefitter`, every refit on fewer features - goes through it, so one
    HiGHS model serves them all.
    """

    def __init__(self, estimator, X, y, *, fit_params=None):
        X, self.y_signed = estimator._check_fit(X, y, fit_params)
        self.classes = estimator.classes_
        self.feature_names_in = getattr(estimator, "feature_names_in_", None)
        self.weights = class_sample_weights(self.y_signed, self.classes, estimator.class_weight)
        self.engine, self.loop_options = estimator._loop_setup(self.weights)
        self.slack_cost = self.loop_options["slack_cost"]
        self.data = estimator._lp_data(X, self.y_signed, self.weights, self.feature_names_in)
        self.session = self.engine.session()


class SubsetRefitter:
    """Refit an SFM-family estimator on shrinking feature subsets of the same data.

    The repetitive SFM (NC 4.4) fits, removes the selected features and refits, hundreds
    of times. This object validates and scales X once and, with ``warm_start``, keeps
    one engine session (one HiGHS model, its working sets and basis) across the refits,
    so each refit starts from the previous one's master minus the removed features.

    >>> refitter = SubsetRefitter(SupportFeatureMachine(), X, y)       # doctest: +SKIP
    >>> first = refitter.fit()                                         # doctest: +SKIP
    >>> second = refitter.fit(exclude=first.support_)                  # doctest: +SKIP

    Every call returns a new fitted clone of ``estimator`` whose attributes refer to
    all features of X (excluded features have zero weight).
    """

    def __init__(self, estimator, X, y, *, warm_start=True):
        self.estimator = estimator
        self._template = clone(estimator)
        self._prepared = PreparedFit(self._template, X, y)
        self._warm_start = warm_start

    @property
    def n_features(self):
        return self._prepared.data.n_features

    def fit(self, exclude=None):
        """Fit on all features except ``exclude`` (boolean mask or indices of X's columns)."""
        data = self._prepared.data
        allowed = np.ones(data.n_features, dtype=bool)
        if exclude is not None:
            exclude = np.asarray(exclude)
            if exclude.dtype == bool:
                allowed &= ~exclude
            else:
                allowed[exclude] = False
        positions = np.flatnonzero(allowed[data.candidates])
        if not self._warm_start:
            self._prepared.session = self._prepared.engine.session()
        fitted = clone(self.estimator)
        return fitted._fit_prepared(self._prepared, positions)
