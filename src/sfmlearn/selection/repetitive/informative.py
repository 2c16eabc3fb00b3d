"""How many features carry information? The repetitive-SFM estimate (NC 4.4, thesis 6.3-6.4).

Within every outer cross-validation fold (leave one participant out when groups are
given) the repetitive SFM runs on the training samples; after every k-th repetition
(``every``; and before the first and after the last) a soft linear SVM is trained on the
features that are left and tested on the held-out samples. Its softness C is chosen by
a nested cross-validation on the training samples (leave one group out, or stratified
5-fold without groups) over a log grid (``Cs``; NC used 17 values). The test error
against the fraction x of discarded features rises from the error of all features
towards chance (0.5) as the informative features are used up.

The fold curves have different lengths, so each is resampled piecewise constant onto
the number of discarded features 0..d (:func:`~sfmlearn.model_selection.resample_curve`)
and they are averaged (mean, NC 4.4; or median, thesis 6.4). To the averaged curve the
sigmoid

    f(x) = a0 + a1 / (1 + exp(-(x - a2) / a3))                          (thesis 6.3)

is fitted by least squares; when that fit is unstable (below) the restricted sigmoid

    g(x) = 0.5 / (1 + exp(-(x - a2) / a3))                              (thesis 6.4)

is fitted instead. The tangent at the inflexion x = a2 crosses chance at the estimate

    x* = a2 + (0.5 - a0 - a1 / 2) * 4 a3 / a1     (free),    x* = a2 + 2 a3     (restricted),

an estimate of the fraction of informative features (NC: "an upper limit").

"Unstable" (the thesis only says the free fit "gave numerically unstable results") is
made precise here. The free fit is rejected if any of these holds:

* the optimiser fails or the parameter covariance is not finite (a0..a3 not
  identifiable from the curve);
* a1 <= 0: the error does not rise as features are discarded;
* the fitted error leaves [-0.05, 1.05] somewhere in the evaluated range of x: an
  error rate cannot;
* the inflexion a2 lies farther than 2 a3 (the width of the sigmoid's bend) outside
  the evaluated range: then only the sigmoid's exponential tail meets the data, and
  a0, a1 and a2 trade off against each other without bound (the "numerically unstable"
  fits of thesis 6.4, e.g. a0 = -517, a2 = -2.7);
* a3 reaches its lower bound (a step: the tangent is vertical and x* is just a2).

The restricted fit is rejected on the first and the last condition. No estimate (NaN,
with ``reason``) is returned when both fits are rejected, or when x* falls outside
[0, 1]: x* < 0 means the tangent reaches chance before any feature is discarded (no
information detected), x* > 1 means the features left when the rSFM stopped still carry
information. Nothing is clipped or invented.

The SVM is trained on kernels of the standardised remaining features (standardised
with the outer training fold's statistics, :class:`~sfmlearn.SFMScaler`), each kernel
divided by the mean squared norm of the training samples so that C has the same
meaning however many features are left. Errors are balanced error rates (the mean of
the per-class error rates; plain error rates on test folds that hold one class), so
chance is 0.5 whatever the class sizes.
"""

import sys
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import sklearn
from joblib import Parallel, delayed
from scipy.optimize import OptimizeWarning, curve_fit
from scipy.special import expit
from sklearn.base import clone
from sklearn.svm import SVC

from ..._validation import check_binary_problem
from ...exceptions import DataValidationError
from ...model_selection import average_curves, make_cv, split_indices
from ...preprocessing import SFMScaler
from ..sfm import SupportFeatureMachine
from .path import run_repetitions

__all__ = [
    "CHANCE",
    "DEFAULT_CS",
    "InformativeFraction",
    "SigmoidFit",
    "estimate_informative_fraction",
    "fit_informative_sigmoid",
]

CHANCE = 0.5
#: NC 4.4 chose the SVM softness among 17 values; half a decade apart here.
DEFAULT_CS = np.logspace(-4, 4, 17)
_RANGE_TOL = 0.05


# -- the sigmoid fits -----------------------------------------------------------------
def _free(x, a0, a1, a2, a3):
    return a0 + a1 * expit((x - a2) / a3)


def _restricted(x, a2, a3):
    return CHANCE * expit((x - a2) / a3)


@dataclass
class SigmoidFit:
    """One least-squares sigmoid fit and its tangent at the inflexion.

    ``kind`` is "free" (a0..a3) or "restricted" (a2, a3; a0 = 0, a1 = 0.5); ``params``
    is None when the optimiser failed. ``crossing`` is where the tangent at x = a2
    meets chance; ``problems`` lists why the fit is not trusted (empty if stable).
    """

    kind: str
    params: np.ndarray | None
    problems: tuple = ()

    @property
    def stable(self):
        return self.params is not None and not self.problems

    @property
    def full_params(self):
        """(a0, a1, a2, a3), also for the restricted fit."""
        if self.params is None:
            return None
        return self.params if self.kind == "free" else np.r_[0.0, CHANCE, self.params]

    def __call__(self, x):
        a0, a1, a2, a3 = self.full_params
        return _free(np.asarray(x, dtype=float), a0, a1, a2, a3)

    @property
    def inflexion(self):
        return float(self.full_params[2])

    @property
    def slope(self):
        """f'(a2) = a1 / (4 a3)."""
        _, a1, _, a3 = self.full_params
        return float(a1 / (4.0 * a3))

    def tangent(self, x):
        return self(self.inflexion) + self.slope * (np.asarray(x, dtype=float) - self.inflexion)

    @property
    def crossing(self):
        """x* where the tangent at the inflexion equals chance (NaN without a fit)."""
        if self.params is None or self.slope == 0:
            return float("nan")
        return float(self.inflexion + (CHANCE - self(self.inflexion)) / self.slope)


def _least_squares(model, x, e, p0, lower):
    """curve_fit with optimiser trouble turned into a list of problems."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", OptimizeWarning)
        try:
            params, cov = curve_fit(model, x, e, p0=p0, bounds=(lower, np.inf), maxfev=20000)
        except (RuntimeError, OptimizeWarning, ValueError) as exc:
            return None, (f"the least-squares fit failed ({exc})",)
    problems = []
    if not np.all(np.isfinite(cov)):
        problems.append("the parameter covariance is not finite (parameters not identifiable)")
    if params[-1] <= 1.01 * lower[-1]:
        problems.append("a3 reached its lower bound: the fit degenerated into a step")
    return params, tuple(problems)


def fit_informative_sigmoid(fraction, error):
    """Fit both sigmoids to an error curve; return ``(free, restricted)`` :class:`SigmoidFit`.

    ``fraction`` is the fraction of discarded features (0..1), ``error`` the test error
    at those points (NaN entries are ignored). See the module docstring for the fits
    and the stability rules.
    """
    x, e = np.asarray(fraction, dtype=float), np.asarray(error, dtype=float)
    keep = np.isfinite(x) & np.isfinite(e)
    x, e = x[keep], e[keep]
    if x.size < 5 or np.ptp(x) == 0:
        problem = (f"only {x.size} distinct curve points; a sigmoid needs more",)
        return SigmoidFit("free", None, problem), SigmoidFit("restricted", None, problem)
    span = np.ptp(x)
    a3_min = 1e-4 * span
    low, high = e.min(), e.max()
    rising = np.flatnonzero(e >= 0.5 * (low + high))
    a2_guess = x[rising[0]] if rising.size else x.mean()
    params, problems = _least_squares(
        _free, x, e, [low, max(high - low, 1e-3), a2_guess, span / 10], [-np.inf, -np.inf, -np.inf, a3_min])
    free_problems = list(problems)
    if params is not None:
        a0, a1, a2, a3 = params
        if a1 <= 0:
            free_problems.append(f"a1 = {a1:.3g} <= 0: the error does not rise with discarded features")
        else:
            low_fit, high_fit = _free(np.array([x.min(), x.max()]), *params)
            if low_fit < -_RANGE_TOL or high_fit > 1 + _RANGE_TOL:
                free_problems.append(
                    f"the fitted error leaves [0, 1] in the evaluated range ({low_fit:.3g} to "
                    f"{high_fit:.3g})")
        if not x.min() - 2 * a3 <= a2 <= x.max() + 2 * a3:
            free_problems.append(
                f"the inflexion a2 = {a2:.3g} lies more than 2 a3 = {2 * a3:.3g} outside the "
                f"evaluated range [{x.min():.3g}, {x.max():.3g}]")
    free = SigmoidFit("free", params, tuple(free_problems))
    params, problems = _least_squares(_restricted, x, e, [a2_guess, span / 10], [-np.inf, a3_min])
    return free, SigmoidFit("restricted", params, problems)


def _choose_estimate(free, restricted):
    """(estimate, fit_used, reason) from the two fits; NaN and a reason when none."""
    if free.stable:
        chosen = free
    elif restricted.stable:
        chosen = restricted
    else:
        return float("nan"), None, (
            "no stable sigmoid fit: free fit: " + "; ".join(free.problems)
            + "; restricted fit: " + "; ".join(restricted.problems))
    x_star = chosen.crossing
    if not np.isfinite(x_star):
        return float("nan"), None, f"the {chosen.kind} fit has a flat tangent"
    if x_star < 0:
        return float("nan"), None, (
            f"the tangent of the {chosen.kind} fit reaches chance before any feature is "
            f"discarded (x* = {x_star:.3g}): no informative features detected")
    if x_star > 1:
        return float("nan"), None, (
            f"the tangent of the {chosen.kind} fit meets chance only beyond 100 % discarded "
            f"(x* = {x_star:.3g}): the features left when the rSFM stopped still carry "
            "information")
    note = "" if free.stable else "free fit unstable (" + "; ".join(free.problems) + ")"
    return x_star, chosen.kind, note


# -- the SVM on the remaining features ------------------------------------------------
def _balanced_error(y_true, y_pred):
    labels = np.unique(y_true)
    if labels.size < 2:
        return float(np.mean(y_pred != y_true))
    return float(np.mean([np.mean(y_pred[y_true == lab] != lab) for lab in labels]))


def _kernel(Z, removed, n_train):
    """Linear kernel of the remaining columns, divided by the training mean squared norm."""
    Zr = Z[:, ~removed]
    K = Zr @ Zr.T
    K = K.toarray() if sp.issparse(K) else np.asarray(K)
    scale = K.diagonal()[:n_train].mean()
    return K / scale if scale > 0 else K


def _svm_error(K, y, n_train, inner_folds, Cs):
    """Nested-CV soft SVM on a fold's kernel (training rows first): (test error, C).

    C is the grid value with the lowest pooled inner balanced error, the smallest on
    ties. Once a fit has no multiplier at its bound C, the hard-margin solution is
    reached and every larger C gives the same classifier, so it is reused.
    """
    K_train, y_train = K[:n_train, :n_train], y[:n_train]
    inner_errors = np.empty(len(Cs))
    with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
        predicted = np.empty((len(Cs), n_train), dtype=y.dtype)
        for tr, te in inner_folds:
            K_tr, K_te = K_train[np.ix_(tr, tr)], K_train[np.ix_(te, tr)]
            for c, C in enumerate(Cs):
                model = SVC(kernel="precomputed", C=C).fit(K_tr, y_train[tr])
                predicted[c, te] = model.predict(K_te)
                if np.all(np.abs(model.dual_coef_) < C * (1 - 1e-6)):
                    predicted[c + 1:, te] = predicted[c, te]
                    break
        for c in range(len(Cs)):
            inner_errors[c] = _balanced_error(y_train, predicted[c])
        best = float(Cs[int(np.argmin(inner_errors))])
        model = SVC(kernel="precomputed", C=best).fit(K_train, y_train)
        test_pred = model.predict(K[n_train:, :n_train])
    return _balanced_error(y[n_train:], test_pred), best


def evaluation_steps(n_repetitions, every):
    """Repetitions after which the SVM is evaluated: 0, k, 2k, ... and the last one."""
    return np.unique(np.r_[np.arange(0, n_repetitions + 1, every), n_repetitions]).astype(int)


def _fold_path(estimator, X, y, groups, train, test, every, path_options, fold):
    """Stage 1 of a fold: the rSFM on its training samples and the kernels to evaluate."""
    path = run_repetitions(estimator, X[train], y[train], None if groups is None else groups[train],
                           label=f"rSFM fold {fold + 1}", **path_options)
    steps = evaluation_steps(path.n_repetitions, every)
    Z = SFMScaler().fit(X[train]).transform(X[np.r_[train, test]])
    kernels = [_kernel(Z, path.removed_before(t), train.size) for t in steps]
    return path, steps, kernels


# -- the estimate ---------------------------------------------------------------------
@dataclass
class InformativeFraction:
    """Outcome of :func:`estimate_informative_fraction`.

    ``estimate`` is the estimated fraction of informative features (NaN if none can be
    made; then ``reason`` says why), ``n_informative`` the same as a count, ``fit_used``
    "free", "restricted" or None. ``discarded``/``curve`` are the combined curve on the
    grid of discarded feature counts 0..d (``fraction`` = discarded / d);
    ``fold_curves`` the resampled per-fold curves; ``free``/``restricted`` both fits
    (callable on fractions). ``folds[f]`` holds fold f's ``path``
    (:class:`~sfmlearn.selection._repetition.RepetitionPath`: subsets, ranking,
    stop reason), ``steps`` (repetitions evaluated), ``discarded`` (features discarded
    at those steps), ``errors`` and the chosen ``Cs``.
    """

    estimate: float
    fit_used: str | None
    reason: str
    free: SigmoidFit
    restricted: SigmoidFit
    n_features: int
    discarded: np.ndarray
    curve: np.ndarray
    fold_curves: np.ndarray
    folds: list = field(repr=False)
    aggregate: str = "mean"
    every: int = 10
    chance: float = CHANCE

    @property
    def available(self):
        return bool(np.isfinite(self.estimate))

    @property
    def n_informative(self):
        return self.estimate * self.n_features

    @property
    def fraction(self):
        return self.discarded / self.n_features

    @property
    def extrapolated(self):
        """True if the estimate lies beyond the last evaluated point of every fold."""
        last = max(f["discarded"][-1] for f in self.folds) / self.n_features
        return self.available and self.estimate > last

    def summary(self):
        """One line for people."""
        if not self.available:
            return f"no estimate: {self.reason}"
        text = (f"{100 * self.estimate:.1f} % of {self.n_features} features informative "
                f"(~{self.n_informative:.0f}; {self.fit_used} sigmoid fit)")
        return text + (" [extrapolated beyond the evaluated curve]" if self.extrapolated else "")


def check_folds_keep_classes(folds, labels, *, what="cross-validation"):
    """Every training part of ``folds`` must hold both classes (else the fit cannot run).

    Raises a DataValidationError naming the fold, the class it lost, the class counts
    and the fixes, instead of the "only one class" error of the fit inside the fold.
    """
    classes, counts = np.unique(labels, return_counts=True)
    for f, (train, _) in enumerate(folds):
        present = np.unique(labels[train])
        if present.size < classes.size:
            lost = [c for c in classes.tolist() if c not in present.tolist()]
            raise DataValidationError(
                f"The training part of {what} fold {f + 1} of {len(folds)} has no sample of "
                f"class {lost[0]!r} (class counts in the data: "
                f"{dict(zip(classes.tolist(), counts.tolist()))}), so nothing can be fitted "
                "on it. Use fewer folds (cv=k with k at most the smallest class count), "
                "stratified folds (the default without groups), or groups that each hold "
                "samples of both classes.")


def _check_every(every):
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
        raise DataValidationError(f"every must be a positive integer; got {every!r}.")


def check_cs(Cs):
    Cs = DEFAULT_CS if Cs is None else np.sort(np.asarray(Cs, dtype=float).ravel())
    if Cs.size == 0 or not np.all(np.isfinite(Cs)) or np.any(Cs <= 0):
        raise DataValidationError(f"Cs must be positive finite softness values; got {Cs!r}.")
    return Cs


def estimate_informative_fraction(X, y, groups=None, *, estimator=None, every=10, Cs=None,
                                  cv=None, inner_cv=None, aggregate="mean", max_repetitions=None,
                                  chance_alpha=0.05, chance_cv=5, warm_start=True,
                                  random_state=None, n_jobs=None, verbose=0, progress=None):
    """Estimate the fraction of informative features with the repetitive SFM (NC 4.4).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), two classes
    groups : array-like of shape (n_samples,), optional
        Participant (or other group) ids: the outer and the nested cross-validation
        leave one group out by default, as in NC 4.4.
    estimator : binary selector, default=SupportFeatureMachine()
        The base SFM of the repetitive SFM.
    every : int, default=10
        Evaluate the SVM after every ``every``-th repetition (NC: 10), plus before the
        first and after the last.
    Cs : array-like, default=DEFAULT_CS
        Grid of SVM softness values for the nested cross-validation.
    cv, inner_cv : None, int, "loo", "logo" or splitter
        Outer and nested schemes (:func:`~sfmlearn.model_selection.make_cv`); None is
        leave one group out with groups, else stratified 5-fold.
    aggregate : {"mean", "median"}, default="mean"
        How fold curves are combined (NC 4.4 mean; thesis 6.4 median).
    max_repetitions, chance_alpha, chance_cv, warm_start
        Passed to the repetitive SFM of every fold (:class:`~sfmlearn.RepetitiveSFM`).
    random_state : int, RandomState or None
        Seeds shuffled folds (outer, nested and the soft chance test).
    n_jobs : int or None
        Parallel jobs (joblib) over the folds' rSFM runs and then over all SVM
        evaluations; use ``joblib.parallel_config(backend="dask")`` for a cluster.
        Results do not depend on it.
    verbose : int
        0 quiet; 1 one line per fold and stage; 2 also one line per repetition.
    progress : callable(stage, done, total), optional
        Called with done = 0 when a stage starts and after every finished fold ("rSFM")
        and SVM evaluation ("SVM").

    Returns
    -------
    InformativeFraction
    """
    _check_every(every)
    Cs = check_cs(Cs)
    if aggregate not in ("mean", "median"):
        raise DataValidationError(f"aggregate must be 'mean' or 'median'; got {aggregate!r}.")
    estimator = SupportFeatureMachine() if estimator is None else estimator
    X, y_signed, classes = check_binary_problem(clone(estimator), X, y)
    labels = classes[(y_signed > 0).astype(int)]
    groups = None if groups is None else np.asarray(groups)
    if groups is not None and groups.shape != (labels.size,):
        raise DataValidationError(
            f"groups must hold one id per sample ({labels.size}); got shape {groups.shape}.")
    folds = split_indices(make_cv(cv, groups=groups, random_state=random_state), X, labels, groups)
    check_folds_keep_classes(folds, labels, what="outer cross-validation")
    path_options = {"max_repetitions": max_repetitions, "chance_alpha": chance_alpha,
                    "chance_cv": chance_cv, "warm_start": warm_start,
                    "random_state": random_state, "verbose": max(verbose - 1, 0)}

    stage1 = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_fold_path)(estimator, X, labels, groups, train, test, every, path_options, f)
        for f, (train, test) in enumerate(folds))
    paths = []
    _report(verbose, progress, "rSFM", 0, len(folds), None)
    for f, result in enumerate(stage1):
        paths.append(result)
        _report(verbose, progress, "rSFM", f + 1, len(folds),
                f"fold {f + 1}/{len(folds)}: {result[0].n_repetitions} repetitions "
                f"({result[0].stop_reason})")

    tasks = []
    for f, ((train, test), (path, steps, kernels)) in enumerate(zip(folds, paths)):
        train_groups = None if groups is None else groups[train]
        inner = split_indices(make_cv(inner_cv, groups=train_groups, random_state=random_state),
                              np.empty((train.size, 0)), labels[train], train_groups)
        check_folds_keep_classes(inner, labels[train],
                                 what=f"inner cross-validation (in outer fold {f + 1})")
        y_fold = labels[np.r_[train, test]]
        tasks += [(f, s, K, y_fold, train.size, inner) for s, K in enumerate(kernels)]
    stage2 = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_svm_error)(K, y_fold, n_train, inner, Cs) for _, _, K, y_fold, n_train, inner in tasks)
    errors = {}
    _report(verbose, progress, "SVM", 0, len(tasks), None)
    for i, ((f, s, *_), outcome) in enumerate(zip(tasks, stage2)):
        errors[f, s] = outcome
        _report(verbose, progress, "SVM", i + 1, len(tasks), None)

    fold_records = []
    for f, (path, steps, _) in enumerate(paths):
        outcome = [errors[f, s] for s in range(len(steps))]
        fold_records.append({
            "path": path, "steps": steps, "discarded": path.discarded[steps],
            "errors": np.array([e for e, _ in outcome]), "Cs": np.array([c for _, c in outcome]),
        })
    return _combine(fold_records, X.shape[1], aggregate, every)


def _combine(fold_records, n_features, aggregate, every):
    grid = np.arange(n_features + 1)
    curve, resampled = average_curves([(r["discarded"], r["errors"]) for r in fold_records], grid,
                                      aggregate=aggregate)
    free, restricted = fit_informative_sigmoid(grid / n_features, curve)
    estimate, fit_used, reason = _choose_estimate(free, restricted)
    return InformativeFraction(
        estimate=estimate, fit_used=fit_used, reason=reason, free=free, restricted=restricted,
        n_features=n_features, discarded=grid, curve=curve, fold_curves=resampled,
        folds=fold_records, aggregate=aggregate, every=every)


def _report(verbose, progress, stage, done, total, message):
    if progress is not None:
        progress(stage, done, total)
    if verbose and message:
        print(f"[informative fraction] {message}", file=sys.stderr)
