"""The exact probabilities, bounds and VC bound of the package docstring, in log space."""

import numbers

import numpy as np
from scipy import special

from ..exceptions import DataValidationError

__all__ = ["growth_function", "log_binom", "prob_separable", "prob_separable_single_feature",
           "prob_separable_subspace_bounds", "vc_dimension_selection"]

_LOG2 = np.log(2.0)
# bdtr keeps full relative accuracy down to about 1e-300; below that it underflows and
# the exact log-sum of the binomial terms takes over.
_UNDERFLOW = np.log(1e-280)
# Up to this min(k, n - k), log C(n, k) is a sum of the logs of its factors (log_binom).
_SUMMED_FACTORS = 20


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

    Accurate to a few units in the last place for every n up to 2**53. With
    m = min(k, n - k), C(n, k) = prod_{i=1}^m (1 + (n - m) / i): up to m = 20 the logs
    of these factors are summed; beyond, log Gamma(n + 1) - log Gamma(n - m + 1) comes
    from Stirling's series (:func:`_log_rising`). Subtracting two gammaln values near
    n log n instead would lose log C(10^15, 1) = 34.54 to 32.0.

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
    n, k = np.broadcast_arrays(np.asarray(n, dtype=np.float64), np.asarray(k, dtype=np.float64))
    m = np.minimum(k, n - k)
    summed = (m >= 0) & (m <= _SUMMED_FACTORS)
    series = m > _SUMMED_FACTORS
    out = np.full(n.shape, -np.inf)  # k < 0 or k > n
    i = np.arange(1, _SUMMED_FACTORS + 1)
    factors = np.log1p((n[summed] - m[summed])[:, None] / i)
    out[summed] = np.where(i <= m[summed][:, None], factors, 0.0).sum(axis=1)
    out[series] = _log_rising(n[series] - m[series] + 1, m[series]) - special.gammaln(m[series] + 1)
    return out


def _log_rising(a, m):
    """log Gamma(a + m) - log Gamma(a) for a > _SUMMED_FACTORS, without cancellation.

    Stirling's series, log Gamma(x) = (x - 1/2) log x - x + log(2 pi) / 2 + tail(x),
    subtracted term by term: (a - 1/2) log1p(m / a) + m log(a + m) - m + tail(a + m) -
    tail(a). The tail to 1/x^9 is exact in double precision for x > 20.
    """
    def tail(x):
        inverse_square = 1.0 / (x * x)
        return (1 / 12 - inverse_square * (1 / 360 - inverse_square * (
            1 / 1260 - inverse_square * (1 / 1680 - inverse_square / 1188)))) / x

    return (a - 0.5) * np.log1p(m / a) + m * np.log(a + m) - m + tail(a + m) - tail(a)


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

    Computed from the hazard h = -log1p(-2^(1-n)) as -expm1(-d h), accurate when the
    result is tiny or near 1; its logarithm is log(d h) - d h / 2 when d h is tiny, with
    log h = (1 - n) log 2 where 2^(1-n) underflows, so it stays finite (n > 1075).

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
    one_feature = np.exp2(1.0 - n_arr)  # P_{1,n}; 0 where it underflows
    with np.errstate(divide="ignore", invalid="ignore"):  # n = 1: h = inf and P = 1
        hazard = -np.log1p(-one_feature)
        log_total = np.log(d_arr) + np.where(one_feature > 0, np.log(hazard), (1.0 - n_arr) * _LOG2)
        total = np.where(one_feature > 0, d_arr * hazard, np.exp(log_total))  # d h
        value = -np.expm1(-total)
        out = np.where(log_total < -20, log_total - total / 2, np.log(value)) if log else value
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
    2^h* = C(d,k) 2 sum_{j<k} C(h*-1, j) numerically, as here). For k = 1 it is exactly
    h = 1 + floor(log2 d), which is returned as such: in log space d = 2^m - 1 and 2^m
    are closer than rounding from m = 47 on. The bound is loose: h* may exceed d, the
    VC dimension with all features (thesis Fig. 3.5).

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
    # Equality 2^n = C(d,k) G_k(n) counts as shattering: a tolerance of some 50 units in
    # the last place of log C(d, k), far above the rounding of both logs.
    tol = 1e-14 * np.maximum(1.0, log_subsets)

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
    h = np.where(k_arr == 1, np.frexp(d_arr.astype(np.float64))[1], lo)  # d = f 2^e, 1/2 <= f < 1
    return int(h) if _is_scalar(d, k) else h
