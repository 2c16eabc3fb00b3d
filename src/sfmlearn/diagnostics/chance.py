"""Could this feature subset be chance? (thesis 2.5.4, 3.4, Fig. 6.8)

A selector that finds k separating features among d in n samples has found something
only if random data of that shape would rarely allow the same. :func:`chance_report`
answers this two ways:

1. **Bound** (thesis eq. 2.3): the probability that n random samples are separable
   in some k of d features is at most min(1, P_{d,n}, C(d, k) P_{k,n}) (with the bias
   of the selector's hyperplane: P_{m,n} -> P_{m+1,n}). It assumes labels unrelated
   to the data, drawn uniformly (or rotationally symmetric data without bias); it is
   a union bound and often far above the true probability.
2. **Label permutations** (thesis 6.4, Fig. 6.8): refit the selector on the same X with
   permuted labels (within groups, e.g. participants, when given) and compare. Even
   random labels give small subsets in high dimensions. A permutation counts as at
   least as good as the real labels when its subset is at most as large *and* it
   makes at most as many training errors (for a hard selector both fits are error-
   free, so only the size matters; a soft selector can buy a small subset with
   errors, which must not count). p = (1 + #{at least as good}) / (1 + B).
   Permutations the selector cannot fit (a hard method on non-separable permuted
   labels) count as worse, and so do those on which it selects nothing, unless it selects
   nothing on the real labels too.

The test compares subset sizes, so it is meant for selectors that decide how many
features they need (the SFM family); a selector told how many to keep gives the same
size on every permutation. The repetitive SFM accumulates subsets until the signal runs
out, so a larger union means more signal and the comparison would run backwards: it is
refused (its ``chance_alpha`` tests every repetition instead; pass its base estimator to
test one subset).
"""

from dataclasses import asdict, dataclass

import numpy as np
from joblib import delayed
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted

from .._validation import check_binary_problem, data_first
from ..exceptions import DataValidationError, NotSeparableError
from ..model_selection import check_groups, fit_with_groups
from ..selection import RepetitiveSFM, SupportFeatureMachine
from ..theory import is_linearly_separable, prob_separable_subspace_bounds
from ..utils import spawn_seeds
from ..utils.parallel import Parallel
from .._validation import check_count
from ._docs import diagnostics_doc

__all__ = ["ChanceReport", "chance_report", "check_permutable_groups", "format_verdict", "permute_labels"]


@dataclass(frozen=True)
@diagnostics_doc
class ChanceReport:
    """Result of :func:`chance_report`; ``to_dict()`` gives JSON-ready values.

    Parameters
    ----------
    estimator : str
        Class name of the selector.
    n_samples, n_features : int
    subset_size : int
        Number of features the selector chose on the real labels.
    training_errors : int or None
        Training samples its fitted classifier misclassifies (None for selectors
        without ``predict``).
    separates_training_data : bool
        Whether those features separate the training classes (LP test). The bound is
        about separability; for a subset that does not separate, only the permutation
        test applies.
    fit_intercept : bool
        Whether the bound allows a bias (it does for every sfmlearn selector).
    probability_lower, probability_upper : float
        Bounds on the probability that random data of the same shape is separable in
        some subset of ``subset_size`` features (thesis eq. 2.3).
    n_permutations : int
    permutation_sizes : ndarray of float
        Subset sizes on permuted labels (NaN where the selector found no solution).
    permutation_errors : ndarray of float
        Training errors on permuted labels (NaN where unavailable).
    p_value : float
        (1 + #{permutations with size <= subset_size and errors <= training_errors})
        / (1 + n_permutations), an empty selection counting only where the real labels'
        is empty too; NaN without permutations.
    grouped : bool
        Whether labels were permuted within groups.

    Examples
    --------
    %(leukemia_report)s
    >>> report.subset_size, round(report.probability_upper, 2), report.n_permutations
    (2, 0.13, 5)
    """

    estimator: str
    n_samples: int
    n_features: int
    subset_size: int
    training_errors: int | None
    separates_training_data: bool
    fit_intercept: bool
    probability_lower: float
    probability_upper: float
    n_permutations: int
    permutation_sizes: np.ndarray
    permutation_errors: np.ndarray
    p_value: float
    grouped: bool

    @property
    def n_failed_permutations(self):
        """Permutations on which the selector found no solution."""
        return int(np.isnan(self.permutation_sizes).sum())

    def to_dict(self):
        out = asdict(self)
        for name in ("permutation_sizes", "permutation_errors"):
            out[name] = [None if np.isnan(v) else int(v) for v in getattr(self, name)]
        out["n_failed_permutations"] = self.n_failed_permutations
        out["verdict"] = format_verdict(self)
        return out


def permute_labels(y, groups, rng):
    """A random permutation of ``y``, within each group when ``groups`` is given.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels.
    groups : ndarray of shape (n_samples,) or None
        Group of each sample; labels move only within their group.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    ndarray of shape (n_samples,)
        The permuted labels.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.diagnostics import permute_labels
    >>> y, groups = np.array([0, 1, 0, 1]), np.array([1, 1, 2, 2])
    >>> permuted = permute_labels(y, groups, np.random.default_rng(0))
    >>> [sorted(permuted[groups == g].tolist()) for g in (1, 2)]   # each group keeps its labels
    [[0, 1], [0, 1]]
    """
    if groups is None:
        return y[rng.permutation(y.size)]
    groups = check_groups(groups, y.size)
    out = y.copy()
    for g in np.unique(groups):
        idx = np.flatnonzero(groups == g)
        out[idx] = y[idx[rng.permutation(idx.size)]]
    return out


def _subset_size(estimator):
    if hasattr(estimator, "get_support"):
        return int(np.count_nonzero(estimator.get_support()))
    if hasattr(estimator, "support_"):
        return int(np.count_nonzero(estimator.support_))
    raise DataValidationError(
        f"{type(estimator).__name__} selects no features (it has neither get_support() nor "
        "support_); pass a feature selector such as SupportFeatureMachine."
    )


def _training_errors(fitted, X, y):
    if not hasattr(fitted, "predict"):
        return np.nan
    return float(np.count_nonzero(fitted.predict(X) != y))


def _permuted_fit(estimator, X, y, groups, seed):
    """(subset size, training errors) on permuted labels; NaNs if the selector has no solution."""
    y_perm = permute_labels(y, groups, np.random.default_rng(seed))
    try:
        fitted = fit_with_groups(clone(estimator), X, y_perm, groups)
    except NotSeparableError:
        return np.nan, np.nan
    return float(_subset_size(fitted)), _training_errors(fitted, X, y_perm)


def _check_fitted_to(fitted, X, y):
    """DataValidationError unless ``fitted`` is fitted, to ``X``'s features and ``y``'s classes."""
    check_is_fitted(fitted)
    n_features = getattr(fitted, "n_features_in_", X.shape[1])
    classes = getattr(fitted, "classes_", None)
    if n_features != X.shape[1] or (classes is not None and not np.array_equal(np.sort(classes), np.unique(y))):
        raise DataValidationError(
            f"fitted was fitted to {n_features} features"
            + (f" and classes {list(classes)}" if classes is not None else "")
            + f", these data have {X.shape[1]} features and classes {np.unique(y).tolist()}; pass the fit on "
            "these data, or none (fitted=None) to fit here.")


#: What a caller of :func:`check_permutable_groups` can do instead, by default.
ACROSS_GROUPS = "permute across groups (groups=None) or group the samples differently"


def check_permutable_groups(y, groups, fix=ACROSS_GROUPS):
    """Refuse groups within which no label can move: every permutation would be the real labels.

    When every group holds samples of one class only (runs or sessions of one condition),
    permuting the labels within groups changes nothing, and a permutation test would
    report p = 1 on no evidence.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels.
    groups : ndarray of shape (n_samples,) or None
        Group of each sample (None: permutations across all samples, always possible).
    fix : str, default=ACROSS_GROUPS
        What the caller can do instead, ending the error message.

    Raises
    ------
    DataValidationError
        If every group holds one class only.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.diagnostics import check_permutable_groups
    >>> y = np.array([0, 0, 1, 1])
    >>> check_permutable_groups(y, np.array([1, 2, 1, 2]), "group by participant")   # both classes in each
    >>> check_permutable_groups(y, np.array([1, 1, 2, 2]), "group by participant")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: every group holds samples of one class only, ...; group by participant.
    """
    if groups is not None and all(np.unique(y[groups == g]).size == 1 for g in np.unique(groups)):
        raise DataValidationError(
            "every group holds samples of one class only, so permuting the labels within groups changes no label "
            f"(every permutation would be the real labels); {fix}.")


def _check_permutable(estimator, y, groups):
    """DataValidationError for a selector the size comparison does not fit, or groups
    within which no label can move."""
    if isinstance(estimator, RepetitiveSFM):
        raise DataValidationError(
            "chance_report compares the size of one subset, and the repetitive SFM's union grows with the "
            "signal; its chance_alpha already tests every repetition. Pass its base estimator "
            "(e.g. SupportFeatureMachine()) to test one subset.")
    check_permutable_groups(y, groups)


@data_first
@diagnostics_doc
def chance_report(X, y, estimator=None, *, groups=None, n_permutations=100, random_state=None, n_jobs=None,
                  fitted=None):
    """Fit ``estimator`` and say whether a feature subset that small could be chance.

    Parameters
    ----------
    X : array-like (n_samples, n_features)
    y : array-like (n_samples,), two classes
    estimator : selector, default=None
        Any estimator with ``get_support()`` (or ``support_``) after ``fit``;
        None means :class:`~sfmlearn.SupportFeatureMachine` with its defaults. It is
        cloned, never modified. Passing it first, ``chance_report(estimator, X, y)``
        (the order before 0.2), still works for one release with a ``FutureWarning``.
    groups : array-like (n_samples,) or None
        Permute labels only within each group (e.g. participant or session), keeping
        the group structure of the null hypothesis (thesis 6.4).
    n_permutations : int, default=100
        Number of label permutations (0 skips the permutation test).
    random_state : int, RandomState or None
        Seeds the permutations; each permutation gets its own seed, so the report is
        the same for every ``n_jobs``.
    n_jobs : int or None
        Parallel refits through joblib.
    fitted : estimator, optional
        The selector already fitted to exactly these ``X`` and ``y`` (with ``groups``),
        when the caller has that fit: its subset and training errors are read instead of
        fitting again (a cross-validated selector's fit costs its whole choice), and the
        permutations refit clones of it, so they use its parameters. ``estimator``, if
        given too, must be of its class. A fit to another number of features or other
        classes is refused; one to other values of the same shape cannot be told apart.

    Returns
    -------
    ChanceReport

    Examples
    --------
    %(leukemia_report)s
    >>> report.subset_size, sorted(report.permutation_sizes.tolist())
    (2, [2.0, 4.0, 5.0, 6.0, 6.0])
    """
    if fitted is not None:
        if estimator is not None and type(estimator) is not type(fitted):
            raise DataValidationError(f"fitted is a {type(fitted).__name__}, estimator a {type(estimator).__name__}; "
                                      "pass the fit of estimator, or fitted alone.")
        estimator = clone(fitted)
    if estimator is None:
        estimator = SupportFeatureMachine()
    X, y_signed, _ = check_binary_problem(BaseEstimator(), X, y)
    y = np.asarray(y).ravel()
    n_permutations = check_count("n_permutations", n_permutations, 0)
    groups = check_groups(groups, y.shape[0])
    if n_permutations:
        _check_permutable(estimator, y, groups)
    if fitted is None:
        fitted = fit_with_groups(clone(estimator), X, y, groups)
    else:
        _check_fitted_to(fitted, X, y)
    k = _subset_size(fitted)
    errors = _training_errors(fitted, X, y)
    n, d = X.shape
    fit_intercept = bool(getattr(estimator, "fit_intercept", True))
    if k > 0:
        support = fitted.get_support() if hasattr(fitted, "get_support") else fitted.support_
        separates = is_linearly_separable(X[:, np.asarray(support, dtype=bool)], y_signed, fit_intercept=fit_intercept)
        lower, upper = prob_separable_subspace_bounds(n, d, k, fit_intercept=fit_intercept)
    else:
        separates, lower, upper = False, np.nan, np.nan

    seeds = spawn_seeds(random_state, n_permutations)
    fits = Parallel(n_jobs=n_jobs, what="label permutations of the chance report")(
        delayed(_permuted_fit)(estimator, X, y, groups, s) for s in seeds)
    fits = np.array(fits, dtype=float).reshape(n_permutations, 2)
    sizes, perm_errors = fits[:, 0], fits[:, 1]
    with np.errstate(invalid="ignore"):
        no_worse_fit = np.isnan(errors) | (perm_errors <= errors)
    # an empty selection is no subset: it is as good only as an empty one on the real labels
    as_good = (sizes <= k) & ((sizes > 0) | (k == 0)) & no_worse_fit
    p_value = (1 + np.count_nonzero(as_good)) / (1 + n_permutations) if n_permutations else np.nan
    return ChanceReport(
        estimator=type(estimator).__name__, n_samples=n, n_features=d, subset_size=k,
        training_errors=None if np.isnan(errors) else int(errors),
        separates_training_data=bool(separates), fit_intercept=fit_intercept,
        probability_lower=float(lower), probability_upper=float(upper),
        n_permutations=int(n_permutations), permutation_sizes=sizes,
        permutation_errors=perm_errors, p_value=float(p_value), grouped=groups is not None,
    )


@diagnostics_doc
def format_verdict(report, alpha=0.05):
    """One line saying whether the subset size of a :class:`ChanceReport` could be chance.

    Parameters
    ----------
    report : ChanceReport
        The result of :func:`chance_report`.
    alpha : float, default=0.05
        Significance level of the permutation test.

    Returns
    -------
    str
        One line: the bound on incidental separability, the permutation sizes and the
        verdict.

    Examples
    --------
    %(leukemia_report)s
    >>> from sfmlearn.diagnostics import format_verdict
    >>> format_verdict(report).split(" -> ")[1]
    'a subset this small is plausible by chance.'
    """
    r = report
    k, feats = r.subset_size, "feature" if r.subset_size == 1 else "features"
    errors = f" with {r.training_errors} training errors" if r.training_errors else ""
    parts = [f"{k} of {r.n_features} features on {r.n_samples} samples{errors}"]
    if k > 0 and r.separates_training_data:
        parts.append(f"random data of this shape is separable in {k} {feats} with probability "
                     f"<= {r.probability_upper:.2g}")
    elif k > 0:
        parts.append("the subset does not separate the classes, so the separability bound does not apply")
    if r.n_permutations:
        fitted = r.permutation_sizes[~np.isnan(r.permutation_sizes)]
        where = " within groups" if r.grouped else ""
        if fitted.size:
            spread = (f"{int(fitted.min())}-{int(fitted.max())} features "
                      f"(median {np.median(fitted):g})")
        else:
            spread = "no solution"
        failed = f", {r.n_failed_permutations} without solution" if r.n_failed_permutations and fitted.size else ""
        smallest = 1 / (1 + r.n_permutations)
        # at the smallest p the permutations allow, say why it is not smaller (when it misses alpha)
        floor = (f" (the smallest possible with {r.n_permutations})"
                 if np.isclose(r.p_value, smallest) and smallest > alpha else "")
        as_good = "" if not r.training_errors else f" (p counts subsets <= {k} with <= {r.training_errors} errors)"
        parts.append(f"{r.n_permutations} label permutations{where} gave {spread}{failed}, "
                     f"p = {r.p_value:.3g}{floor}{as_good}")
        chance = r.p_value > alpha
    else:
        chance = not (r.separates_training_data and r.probability_upper <= alpha)
    verdict = ("a subset this small is plausible by chance" if chance
               else "a subset this small is unlikely by chance")
    return "chance check: " + "; ".join(parts) + f" -> {verdict}."
