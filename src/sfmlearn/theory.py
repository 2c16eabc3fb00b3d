"""How likely is a separating feature subset by chance? (thesis 2.5.4, 3.4)

Exact probabilities and bounds for *incidental separability*: random data with few
samples and many features is separable far more often than intuition says, and an
embedded selector that finds k separating features out of d has more capacity than a
k-feature classifier. Every function is vectorised over NumPy-broadcastable integer
arguments and works in log space (``log=True`` returns natural logarithms), because
binomial coefficients like C(7129, 5) and powers like 2^-n overflow or underflow
doubles long before the probabilities themselves are uninteresting.

Wendel (1962) / Cover (1965), thesis 2.5.4: n points drawn from a rotationally
symmetric distribution in R^d lie in one half-space through the origin (are linearly
separable *without bias*, whatever their labels) with probability

    P_{d,n} = 2^(1-n) sum_{j=0}^{d-1} C(n-1, j)   for n > d,   1 otherwise.

Cover's function-counting theorem gives the same number for *any* n points in general
position with labels drawn uniformly from all 2^n labellings. A hyperplane *with* bias
in R^d is a hyperplane without bias on the points (x, 1) in R^(d+1), so for uniformly
random labels the probability of separability with bias is P_{d+1,n}
(``fit_intercept=True`` below).

The related growth function of linear classifiers without bias (thesis 3.4) is
G_d(n) = 2^n P_{d,n}.
"""

import numbers
from itertools import combinations

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import special
from sklearn.utils import check_array

from .exceptions import DataValidationError
from .lp.separability import minimum_slack_hyperplane
from .utils import seed_chunks

__all__ = [
    "prob_separable",
    "prob_separable_single_feature",
    "prob_separable_subspace_bounds",
    "prob_separable_subspace_mc",
    "subset_separability",
    "is_linearly_separable",
    "growth_function",
    "vc_dimension_selection",
    "log_binom",
]

_LOG2 = np.log(2.0)
# bdtr keeps full relative accuracy down to about 1e-300; below that it underflows and
# the exact log-sum of the binomial terms takes over.
_UNDERFLOW = np.log(1e-280)


def _check_counts(name, value, minimum=1):
    """Integers from ``minimum`` to 2**53 (exact in double precision; a count beyond 2**63
    wrapped to a negative int64), or a clear error naming the argument."""
    arr = np.asarray(value)
    if arr.dtype.kind == "O" and all(isinstance(v, numbers.Integral) for v in arr.flat):  # beyond uint64
        arr = arr.astype(np.float64)
    if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
        arr = np.minimum(arr, 2.0**54).astype(np.int64)  # beyond int64: still refused below
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise DataValidationError(f"{name} must be an integer (or an array of integers); got {value!r}.")
    if np.any(arr < minimum) or np.any(arr > 2**53):
        bound = f"at least {minimum}" if np.any(arr < minimum) else "at most 2**53"
        raise DataValidationError(f"{name} must be {bound}; got {value!r}.")
    return arr.astype(np.int64)


def _is_scalar(*values):
    return all(np.ndim(v) == 0 for v in values)


def _finish(log_values, log, scalar):
    out = log_values if log else np.exp(log_values)
    return float(out) if scalar else out


def log_binom(n, k):
    """Natural log of the binomial coefficient C(n, k) (``-inf`` where k > n).

    Parameters
    ----------
    n, k : int or array of int
        C(n, k).

    Returns
    -------
    float or ndarray
        log C(n, k).

    Examples
    --------
    >>> from sfmlearn.theory import log_binom
    >>> round(float(log_binom(5, 2)), 6)   # log 10
    2.302585
    """
    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        out = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
    return np.where((k < 0) | (k > n), -np.inf, out)


def _log_wendel(n, d):
    """log P_{d,n} for integer arrays n, d >= 1 (broadcast)."""
    shape = np.broadcast_shapes(np.shape(n), np.shape(d))
    n, d = (a.ravel() for a in np.broadcast_arrays(n, d))
    out = np.zeros(n.shape)
    below = n > d  # otherwise P = 1
    with np.errstate(divide="ignore"):
        out[below] = np.log(special.bdtr(d[below] - 1, n[below] - 1, 0.5))
    for i in np.flatnonzero(below & (out < _UNDERFLOW)):
        # Far lower tail: sum the exact terms C(n-1, j) 2^(1-n), j < d, in log space.
        m = n[i] - 1
        out[i] = special.logsumexp(log_binom(m, np.arange(d[i]))) - m * _LOG2
    return out.reshape(shape)


def prob_separable(n, d, *, fit_intercept=False, log=False):
    """Probability P_{d,n} that n random points in R^d are linearly separable.

    Thesis 2.5.4 (Wendel 1962):  P_{d,n} = 2^(1-n) sum_{j=0}^{d-1} C(n-1, j) for n > d,
    and 1 for n <= d. It holds for any rotationally symmetric distribution (e.g. the
    standard normal) and any labels, and for any points in general position with
    uniformly random labels (Cover 1965). With ``fit_intercept=True`` the hyperplane
    may have a bias, which adds one dimension: the result is P_{d+1,n} (random labels).

    Parameters
    ----------
    n, d : int or array of int
        Number of samples and of features (broadcast against each other).
    fit_intercept : bool, default=False
        Hyperplanes with bias (the thesis' P_{d,n} is without bias).
    log : bool, default=False
        Return the natural logarithm.

    Returns
    -------
    float or ndarray
        P_{d,n} (its logarithm with ``log=True``).

    Examples
    --------
    >>> from sfmlearn.theory import prob_separable
    >>> float(prob_separable(4, 2))   # 4 points in the plane: half of the labellings
    0.5
    >>> print(f"{prob_separable(38, 2):.3g}")   # leukemia's 38 samples, 2 fixed genes
    2.76e-10
    """
    n_arr = _check_counts("n", n)
    d_arr = _check_counts("d", d) + int(bool(fit_intercept))
    return _finish(_log_wendel(n_arr, d_arr), log, _is_scalar(n, d))


def prob_separable_single_feature(n, d, *, log=False):
    """Probability P_{1,d,n} that random data is separable (no bias) in one of d features.

    Thesis 2.5.4: the d events "separable along feature i" are independent with
    probability P_{1,n} = 2^(1-n) each (all y_i x_ij of one sign), so

        P_{1,d,n} = 1 - (1 - 2^(1-n))^d = sum_{i=1}^d (-1)^(i+1) C(d, i) 2^(i(1-n)).

    Computed as -expm1(d log1p(-2^(1-n))), accurate when the result is tiny or near 1.

    Parameters
    ----------
    n, d : int or array of int
        Number of samples and of features.
    log : bool, default=False
        Return the natural logarithm.

    Returns
    -------
    float or ndarray
        P_{1,d,n} (its logarithm with ``log=True``).

    Examples
    --------
    >>> from sfmlearn.theory import prob_separable_single_feature
    >>> print(f"{prob_separable_single_feature(38, 7129):.3g}")   # leukemia's shape
    5.19e-08
    """
    n_arr = _check_counts("n", n)
    d_arr = _check_counts("d", d)
    with np.errstate(divide="ignore"):
        log_none = d_arr * np.log1p(-np.exp2(1.0 - n_arr))  # log P(no single feature works)
        value = -np.expm1(log_none)
        out = np.log(value) if log else value
    return float(out) if _is_scalar(n, d) else out


def prob_separable_subspace_bounds(n, d, k, *, fit_intercept=False, log=False):
    """Lower and upper bounds on P_{k,d,n}, separability in some k of d features.

    Thesis eq. (2.3): P_{k,n} <= P_{k,d,n} <= min(1, P_{d,n}, C(d, k) P_{k,n}).
    The lower bound is the chance for one fixed k-subset, the upper one the union
    bound over all C(d, k) subsets, capped by separability in all d features.
    With ``fit_intercept=True`` every P_{m,n} becomes P_{m+1,n} (see :func:`prob_separable`).

    Returns
    -------
    (lower, upper) : tuple of floats or arrays
        The bounds (their logarithms with ``log=True``).

    Parameters
    ----------
    n, d, k : int or array of int
        Number of samples, of features, and the subset size.
    fit_intercept : bool, default=False
        Hyperplanes with bias.
    log : bool, default=False
        Return the natural logarithms of both bounds.

    Examples
    --------
    >>> from sfmlearn.theory import prob_separable_subspace_bounds
    >>> lower, upper = prob_separable_subspace_bounds(38, 7129, 2)   # 2 of 7129 genes
    >>> print(f"{lower:.2g} <= P <= {upper:.2g}")
    2.8e-10 <= P <= 0.007
    """
    n_arr = _check_counts("n", n)
    d_arr = _check_counts("d", d)
    k_arr = _check_counts("k", k)
    if np.any(k_arr > d_arr):
        raise DataValidationError(f"k must not exceed d (a subset of the features); got k={k!r}, d={d!r}.")
    extra = int(bool(fit_intercept))
    log_lower = _log_wendel(n_arr, k_arr + extra)
    log_union = log_binom(d_arr, k_arr) + log_lower
    log_upper = np.minimum(np.minimum(0.0, _log_wendel(n_arr, d_arr + extra)), log_union)
    scalar = _is_scalar(n, d, k)
    return _finish(log_lower, log, scalar), _finish(log_upper, log, scalar)


def growth_function(n, d, *, log=False):
    """Growth function G_d(n) of linear classifiers without bias in R^d (thesis 3.4).

    G_d(n) = 2^n for n <= d, else 2 sum_{j=0}^{d-1} C(n-1, j): the largest number of
    labellings of n points that hyperplanes through the origin realise
    (Cover 1965, Sauer 1972). Equal to 2^n P_{d,n}. Use ``log=True`` for large n.

    Parameters
    ----------
    n, d : int or array of int
        Number of points and dimension.
    log : bool, default=False
        Return the natural logarithm.

    Returns
    -------
    float or ndarray
        G_d(n) (its logarithm with ``log=True``).

    Examples
    --------
    >>> from sfmlearn.theory import growth_function
    >>> round(float(growth_function(4, 2)))   # 8 of the 16 labellings of 4 points
    8
    """
    n_arr = _check_counts("n", n)
    d_arr = _check_counts("d", d)
    return _finish(n_arr * _LOG2 + _log_wendel(n_arr, d_arr), log, _is_scalar(n, d))


def vc_dimension_selection(d, k):
    """Upper bound h* on the VC dimension of choosing k of d features + a linear classifier.

    Thesis 3.4: the growth function of selecting k of d features and then classifying
    without bias is at most C(d, k) G_k(n), so the VC dimension is at most the largest
    n with 2^n <= C(d, k) G_k(n), i.e. with C(d, k) P_{k,n} >= 1 (the thesis solves
    2^h* = C(d,k) 2 sum_{j<k} C(h*-1, j) numerically). For k = 1 this is exactly
    h = 1 + floor(log2 d). The bound is loose: h* may exceed d, the VC dimension with
    all features (thesis Fig. 3.5).

    Parameters
    ----------
    d : int or array of int
        Number of features to choose from.
    k : int or array of int
        Number of features chosen.

    Returns
    -------
    int or ndarray of int
        h*.

    Examples
    --------
    >>> from sfmlearn.theory import vc_dimension_selection
    >>> int(vc_dimension_selection(1024, 1)), int(vc_dimension_selection(7129, 2))
    (11, 30)
    """
    d_arr = _check_counts("d", d)
    k_arr = _check_counts("k", k)
    if np.any(k_arr > d_arr):
        raise DataValidationError(f"k must not exceed d; got k={k!r}, d={d!r}.")
    d_arr, k_arr = np.broadcast_arrays(d_arr, k_arr)
    log_subsets = log_binom(d_arr, k_arr)
    tol = 1e-12  # equality 2^n = C(d,k) G_k(n) counts as shattering (k = 1, d = 2^m)

    def shatters(n):
        return log_subsets + _log_wendel(n, k_arr) >= -tol

    # C(d,k) P_{k,n} is non-increasing in n: bracket the last n where it is >= 1, bisect.
    lo = k_arr.copy()  # P_{k,k} = 1, so n = k always shatters
    hi = 2 * k_arr + 2
    while np.any(grow := shatters(hi)):
        lo = np.where(grow, hi, lo)
        hi = np.where(grow, 2 * hi, hi)
    while np.any(open_ := hi - lo > 1):
        mid = (lo + hi) // 2
        ok = shatters(mid)
        lo = np.where(open_ & ok, mid, lo)
        hi = np.where(open_ & ~ok, mid, hi)
    return int(lo) if _is_scalar(d, k) else lo


def is_linearly_separable(X, y, *, fit_intercept=True):
    """Whether a hyperplane separates the two classes of (X, y) without error.

    The LP test of thesis 2.5.4 (Yogananda et al. 2007): minimise sum_i xi_i subject to
    y_i (w . x_i + b) + xi_i >= 1, xi >= 0; the data are separable iff the optimum is 0.
    Solved by :func:`sfmlearn.lp.separability.minimum_slack_hyperplane` (HiGHS), whose
    solution is checked against the constraints. ``fit_intercept=False`` asks for a
    hyperplane through the origin (b = 0), as in P_{d,n}.

    ``y`` may hold one or two distinct labels (the larger one is the positive class).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points to separate.
    y : array-like of shape (n_samples,)
        Their labels (one or two distinct values).
    fit_intercept : bool, default=True
        Allow a bias b (False: hyperplanes through the origin).

    Returns
    -------
    bool
        True when the minimum total slack is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.theory import is_linearly_separable
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    >>> is_linearly_separable(X, [0, 0, 1, 1])   # XOR
    False
    >>> is_linearly_separable(X, [0, 1, 0, 1])
    True
    """
    X = check_array(X, accept_sparse=("csr", "csc"), dtype=np.float64)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise DataValidationError(
            f"y must hold one label per row of X; got y of shape {y.shape} for X of shape {X.shape}."
        )
    classes, index = np.unique(y, return_inverse=True)
    if classes.size > 2:
        raise DataValidationError(f"y has {classes.size} classes; separability is defined for two.")
    y_signed = np.where(index == classes.size - 1, 1.0, -1.0)
    _, _, xi = minimum_slack_hyperplane(X, y_signed, fit_intercept=fit_intercept)
    return bool(xi.sum() == 0.0)


def _separable_in_some_subset(X, y, k):
    """One Monte-Carlo trial of thesis Fig. 2.8: is (X, y) separable without bias in a k-subset?"""
    n, d = X.shape
    if k >= n:
        return True  # n <= k points in general position lie in an open half-space
    Z = X * y[:, None]
    if k == 1:
        # Separable along feature j without bias iff all y_i x_ij share one sign.
        return bool(np.any(np.all(Z > 0, axis=0) | np.all(Z < 0, axis=0)))
    if not is_linearly_separable(X, y, fit_intercept=False):
        return False  # not separable in all d features, so in no subset (P_{k,d,n} <= P_{d,n})
    if k == d:
        return True
    for subset in combinations(range(d), k):
        if is_linearly_separable(X[:, list(subset)], y, fit_intercept=False):
            return True  # the thesis stops at the first separable subset
    return False


def _mc_trials(n, d, k, seeds):
    hits = 0
    y = np.where(np.arange(n) < n // 2, 1.0, -1.0)  # two balanced classes (thesis 2.5.4)
    for seed in seeds:
        X = np.random.default_rng(seed).standard_normal((n, d))
        hits += _separable_in_some_subset(X, y, k)
    return hits


def prob_separable_subspace_mc(n, d, k, n_trials=1000, random_state=None, *, n_jobs=None):
    """Monte-Carlo estimate of P_{k,d,n} (thesis 2.5.4, Fig. 2.8).

    Each trial draws n standard-normal points in R^d, splits them into two balanced
    classes and tests, subset by subset, whether they are separable without bias in
    some k of the d features, stopping at the first separable subset. The test is
    the LP of :func:`is_linearly_separable`, with two exact shortcuts: for k = 1 a
    feature separates without bias iff all y_i x_ij have one sign, and data that are
    not separable in all d features are separable in no subset (one LP decides).
    The enumeration visits up to C(d, k) subsets per trial, so keep C(d, k) small.

    Trials run in parallel with joblib (``n_jobs``); every trial has its own seed
    derived from ``random_state``, so the estimate does not depend on ``n_jobs``.

    Returns
    -------
    float
        The fraction of separable trials.

    Parameters
    ----------
    n, d, k : int
        Number of samples, of features, and the subset size.
    n_trials : int, default=1000
        Number of random data sets.
    random_state : int, Generator or None
        Seeds the trials.
    n_jobs : int or None
        Parallel jobs (joblib).

    Examples
    --------
    >>> from sfmlearn.theory import prob_separable_subspace_mc
    >>> float(prob_separable_subspace_mc(8, 4, 2, n_trials=50, random_state=0))
    0.24
    """
    for name, value in (("n", n), ("d", d), ("k", k), ("n_trials", n_trials)):
        if not isinstance(value, numbers.Integral) or value < 1:
            raise DataValidationError(f"{name} must be a positive integer; got {value!r}.")
    if k > d:
        raise DataValidationError(f"k must not exceed d; got k={k}, d={d}.")
    if n < 2:
        raise DataValidationError(f"n must be at least 2 (one sample per class); got {n}.")
    hits = Parallel(n_jobs=n_jobs)(
        delayed(_mc_trials)(n, d, k, chunk) for chunk in seed_chunks(random_state, n_trials, n_jobs)
    )
    return sum(hits) / n_trials


def subset_separability(n, d, k_values=None, *, monte_carlo=0, random_state=None):
    """Incidental separability of random data of shape n x d, one row per subset size k.

    Columns, for k in ``k_values`` (default 1 ... min(5, d)):

    * ``p_fixed_subset`` -- P_{k,n}, separability (without bias) in one fixed k-subset;
    * ``upper_bound`` / ``upper_bound_with_bias`` -- the upper bound of thesis eq. (2.3)
      on separability in *some* k of the d features, without and with a bias
      (:func:`prob_separable_subspace_bounds`);
    * ``exact`` -- P_{1,d,n} for k = 1 (:func:`prob_separable_single_feature`), NaN
      otherwise;
    * ``vc_bound`` -- h*, the VC bound of selecting k of d features (thesis 3.4);
    * ``monte_carlo`` (only with ``monte_carlo`` trials) -- the simulated estimate
      (:func:`prob_separable_subspace_mc`, which enumerates C(d, k) subsets per trial).

    Returns
    -------
    pandas.DataFrame
        One row per k, the columns above.

    Parameters
    ----------
    n, d : int
        Number of samples and of features.
    k_values : sequence of int, optional
        Subset sizes (default 1 ... min(5, d)).
    monte_carlo : int, default=0
        Number of Monte-Carlo trials per k (0: none).
    random_state : int, Generator or None
        Seeds the Monte-Carlo trials.

    Examples
    --------
    >>> from sfmlearn.theory import subset_separability
    >>> table = subset_separability(38, 7129, [1, 2])
    >>> print(table[["k", "upper_bound", "vc_bound"]].round(3).to_string(index=False))
     k  upper_bound  vc_bound
     1        0.000        13
     2        0.007        30
    """
    k_values = [k for k in range(1, 6) if k <= d] if k_values is None else list(k_values)
    rows = []
    for k in k_values:
        lower, upper = prob_separable_subspace_bounds(n, d, k)
        _, upper_bias = prob_separable_subspace_bounds(n, d, k, fit_intercept=True)
        row = {"k": k, "p_fixed_subset": lower, "upper_bound": upper, "upper_bound_with_bias": upper_bias,
               "exact": prob_separable_single_feature(n, d) if k == 1 else np.nan,
               "vc_bound": vc_dimension_selection(d, k)}
        if monte_carlo:
            row["monte_carlo"] = prob_separable_subspace_mc(n, d, k, monte_carlo, random_state=random_state)
        rows.append(row)
    return pd.DataFrame(rows)
