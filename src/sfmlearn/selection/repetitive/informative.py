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
and they are averaged (mean, NC 4.4; or median, thesis 6.4). A sigmoid is fitted to the
averaged curve (:mod:`.sigmoid`); where its tangent at the inflexion crosses chance is
the estimate of the fraction of informative features (NC: "an upper limit"), or there is
no estimate and a reason.

The SVM is trained on kernels of the standardised remaining features (standardised
with the outer training fold's statistics, :class:`~sfmlearn.SFMScaler`), each kernel
divided by the mean squared norm of the training samples so that C has the same
meaning however many features are left. Errors are balanced error rates (one minus
scikit-learn's balanced accuracy, the mean of the per-class error rates; plain error
rates on test folds that hold one class), so chance is 0.5 whatever the class sizes.

k-fold schemes shrink to the smallest class (or the number of groups), and a fold
whose training part would lose a class is refused before any fit
(:func:`~sfmlearn.model_selection.make_folds`), in the outer and the nested
cross-validation alike.

Why here and not in a statistics module beside :mod:`sfmlearn.theory` (DESIGN.md left
both open): ``RepetitiveSFM(informative_every=k).fit`` runs this estimate, and the
estimate runs the rSFM path; a module above :mod:`sfmlearn.selection` would need an
import from below. Beside the rSFM, every import points down (``tests/test_layers.py``).

Under a time limit (:mod:`sfmlearn.utils.time_limit`) the folds' runs check it before
every repetition and the SVM stage after every evaluation.
"""

import sys
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy import stats
import sklearn
from joblib import delayed
from sklearn.base import clone
from sklearn.metrics import balanced_accuracy_score
from sklearn.svm import SVC

from ..._validation import check_binary_problem
from ...exceptions import DataValidationError
from ...model_selection import average_curves, check_groups, make_folds
from ...preprocessing import SFMScaler, quiet_constant_features
from ...utils.deprecation import renamed_arguments
from ...utils.parallel import Parallel
from ...utils.time_limit import check_time_limit
from ..sfm.machine import SupportFeatureMachine
from .path import run_repetitions
from .sigmoid import CHANCE, SigmoidFit, choose_estimate, fit_informative_sigmoid

__all__ = [
    "CHANCE",
    "DEFAULT_CS",
    "InformativeFraction",
    "SigmoidFit",
    "estimate_informative_fraction",
    "fit_informative_sigmoid",
]

#: NC 4.4 chose the SVM softness among 17 values; half a decade apart here.
DEFAULT_CS = np.logspace(-4, 4, 17)


# -- the SVM on the remaining features ------------------------------------------------
def _balanced_error(y_true, y_pred):
    """1 - balanced accuracy; the plain error rate when ``y_true`` holds one class."""
    if np.unique(y_true).size < 2:
        return float(np.mean(y_pred != y_true))
    return 1.0 - float(balanced_accuracy_score(y_true, y_pred))


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
    with quiet_constant_features():  # the fold's rSFM fits have named them
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
    (:class:`~sfmlearn.selection.repetitive.RepetitionPath`: subsets, ranking,
    stop reason), ``steps`` (repetitions evaluated), ``discarded`` (features discarded
    at those steps), ``errors`` and the chosen ``Cs``.

    Parameters
    ----------
    estimate : float
        Estimated fraction of informative features (NaN if none can be made).
    fit_used : {"free", "restricted"} or None
        The sigmoid fit the estimate comes from.
    reason : str
        Why there is no estimate (empty when there is one).
    free, restricted : SigmoidFit
        Both sigmoid fits of the combined curve (thesis 6.3, 6.4).
    n_features : int
        Number of features d.
    discarded : ndarray of int, shape (n_features + 1,)
        The grid of discarded feature counts 0..d.
    curve : ndarray of shape (n_features + 1,)
        The combined (mean or median over folds) SVM test error on that grid.
    fold_curves : ndarray of shape (n_folds, n_features + 1)
        Each fold's error curve resampled to the grid.
    folds : list of dict
        Per fold: ``path``, ``steps``, ``discarded``, ``errors``, ``Cs``.
    aggregate : {"mean", "median"}, default="mean"
        How the fold curves were combined.
    every : int, default=10
        The SVM was evaluated after every ``every``-th repetition.
    chance : float, default=0.5
        The chance error the tangent is extended to.

    Examples
    --------
    >>> from sfmlearn import estimate_informative_fraction
    >>> from sfmlearn.datasets import make_basic
    >>> X, y = make_basic(40, 100, 20, class_distance=2.0, random_state=0)   # 20 informative
    >>> result = estimate_informative_fraction(X, y, informative_every=2, cv=3, inner_cv=3,
    ...                                        random_state=0)
    >>> result.fit_used, len(result.folds), result.curve.shape
    ('free', 3, (101,))
    >>> print(result.summary())
    20.8 % of 100 features informative (~21; free sigmoid fit)
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


def _check_every(every):
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
        raise DataValidationError(f"informative_every must be a positive integer; got {every!r}.")
    return every


def check_cs(Cs):
    Cs = DEFAULT_CS if Cs is None else np.sort(np.asarray(Cs, dtype=float).ravel())
    if Cs.size == 0 or not np.all(np.isfinite(Cs)) or np.any(Cs <= 0):
        raise DataValidationError(f"svm_Cs must be positive finite softness values; got {Cs!r}.")
    return Cs


@renamed_arguments(every="informative_every", Cs="svm_Cs")
def estimate_informative_fraction(X, y, groups=None, *, estimator=None, informative_every=10,
                                  svm_Cs=None, cv=None, inner_cv=None, aggregate="mean", max_repetitions=None,
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
    informative_every : int, default=10
        Evaluate the SVM after every ``informative_every``-th repetition (NC: 10), plus
        before the first and after the last (formerly ``every``).
    svm_Cs : array-like, default=DEFAULT_CS
        Grid of SVM softness values for the nested cross-validation (formerly ``Cs``).
    cv, inner_cv : None, int, "loo", "logo" or splitter
        Outer and nested schemes (:func:`~sfmlearn.model_selection.make_cv`); None is
        leave one group out with groups, else stratified 5-fold. k-fold schemes shrink
        to the smallest class (or the number of groups).
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
        The estimate, the error curves (per fold and combined), both sigmoid fits and
        every fold's repetitive-SFM path.

    Examples
    --------
    On data with 20 informative features out of 100 (NC 4.4's procedure at a small
    scale: 3 outer and 3 inner folds, the SVM evaluated after every second repetition):

    >>> from sfmlearn import estimate_informative_fraction
    >>> from sfmlearn.datasets import make_basic
    >>> X, y = make_basic(40, 100, 20, class_distance=2.0, random_state=0)
    >>> result = estimate_informative_fraction(X, y, informative_every=2, cv=3, inner_cv=3,
    ...                                        random_state=0)
    >>> round(result.estimate, 3), round(result.n_informative)
    (0.208, 21)
    """
    every = _check_every(informative_every)
    Cs = check_cs(svm_Cs)
    if aggregate not in ("mean", "median"):
        raise DataValidationError(f"aggregate must be 'mean' or 'median'; got {aggregate!r}.")
    estimator = SupportFeatureMachine() if estimator is None else estimator
    X, y_signed, classes = check_binary_problem(clone(estimator), X, y)
    labels = classes[(y_signed > 0).astype(int)]
    groups = check_groups(groups, labels.size)
    folds = make_folds(cv, X, labels, groups, random_state=random_state,
                       what="outer cross-validation")
    path_options = {"max_repetitions": max_repetitions, "chance_alpha": chance_alpha,
                    "chance_cv": chance_cv, "warm_start": warm_start,
                    "random_state": random_state, "verbose": max(verbose - 1, 0)}

    stage1 = Parallel(n_jobs=n_jobs, return_as="generator", what="rSFM folds of the estimate")(
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
        inner = make_folds(inner_cv, np.empty((train.size, 0)), labels[train], train_groups,
                           random_state=random_state,
                           what=f"inner cross-validation (in outer fold {f + 1})")
        y_fold = labels[np.r_[train, test]]
        tasks += [(f, s, K, y_fold, train.size, inner) for s, K in enumerate(kernels)]
    stage2 = Parallel(n_jobs=n_jobs, return_as="generator", what="SVM evaluations of the estimate")(
        delayed(_svm_error)(K, y_fold, n_train, inner, Cs) for _, _, K, y_fold, n_train, inner in tasks)
    errors = {}
    _report(verbose, progress, "SVM", 0, len(tasks), None)
    for i, ((f, s, *_), outcome) in enumerate(zip(tasks, stage2)):
        errors[f, s] = outcome
        _report(verbose, progress, "SVM", i + 1, len(tasks), None)
        if i + 1 < len(tasks):  # the last evaluation done, the estimate is kept
            check_time_limit(f"{i + 1} of the estimate's {len(tasks)} SVM evaluations")

    fold_records = []
    for f, ((_, test), (path, steps, _)) in enumerate(zip(folds, paths)):
        outcome = [errors[f, s] for s in range(len(steps))]
        fold_records.append({
            "path": path, "steps": steps, "discarded": path.discarded[steps],
            "errors": np.array([e for e, _ in outcome]), "Cs": np.array([c for _, c in outcome]),
            "n_test": int(test.size),
        })
    return _combine(fold_records, X.shape[1], aggregate, every)


#: Fewest SVM evaluations (the first, every ``informative_every``-th repetition, the last)
#: a fold needs for its curve to show where the error rises, not where the rSFM stopped.
MIN_EVALUATIONS = 3
#: The SVM on all features must be below chance at this one-sided binomial level, else
#: there is no informative feature for the sigmoid to find.
CHANCE_ALPHA = 0.05


def _unfit_reason(fold_records, every):
    """Why the folds' curves cannot carry an estimate, or "" when they can: too few
    evaluations in some fold (:data:`MIN_EVALUATIONS`), or an SVM on all features that
    is not below chance over the held-out samples (one-sided binomial test of the pooled
    balanced error at :data:`CHANCE_ALPHA`; on pure noise the sigmoid would still cross)."""
    fewest = min(fold_records, key=lambda record: record["steps"].size)
    if fewest["steps"].size < MIN_EVALUATIONS:
        return (f"a fold evaluated the SVM {fewest['steps'].size} times only (its rSFM stopped after "
                f"{fewest['path'].n_repetitions} repetitions, with an evaluation every {every}): too few points "
                "for the sigmoid; evaluate more often (a smaller informative_every)")
    n_test = sum(record["n_test"] for record in fold_records)
    wrong = round(sum(record["errors"][0] * record["n_test"] for record in fold_records))
    p_value = float(stats.binom.cdf(wrong, n_test, CHANCE))
    if p_value > CHANCE_ALPHA:
        return (f"the SVM on all features is not below chance (balanced error {wrong / n_test:.0%} on {n_test} "
                f"held-out samples, binomial p = {p_value:.2g}): no informative features detected")
    return ""


def _combine(fold_records, n_features, aggregate, every):
    grid = np.arange(n_features + 1)
    curve, resampled = average_curves([(r["discarded"], r["errors"]) for r in fold_records], grid,
                                      aggregate=aggregate)
    free, restricted = fit_informative_sigmoid(grid / n_features, curve)
    unfit = _unfit_reason(fold_records, every)
    estimate, fit_used, reason = (float("nan"), None, unfit) if unfit else choose_estimate(free, restricted)
    return InformativeFraction(
        estimate=estimate, fit_used=fit_used, reason=reason, free=free, restricted=restricted,
        n_features=n_features, discarded=grid, curve=curve, fold_curves=resampled,
        folds=fold_records, aggregate=aggregate, every=every)


def _report(verbose, progress, stage, done, total, message):
    if progress is not None:
        progress(stage, done, total)
    if verbose and message:
        print(f"[informative fraction] {message}", file=sys.stderr)
