"""The LP test of separability, the Monte-Carlo estimate built on it, and the table that
sets both beside the exact bounds."""

import numbers
from itertools import combinations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.utils import check_array

from ..exceptions import DataValidationError
from ..lp.separability import minimum_slack_hyperplane
from ..optim.conditioning import remove_offset
from ..utils import seed_chunks
from ._counting import (prob_separable_single_feature, prob_separable_subspace_bounds,
                        vc_dimension_selection)

__all__ = ["is_linearly_separable", "prob_separable_subspace_mc", "subset_separability"]


def is_linearly_separable(X, y, *, fit_intercept=True, solver="auto"):
    """Whether a hyperplane separates the two classes of (X, y) without error.

    The LP test of thesis 2.5.4 (Yogananda et al. 2007): minimise sum_i xi_i subject to
    y_i (w . x_i + b) + xi_i >= 1, xi >= 0; the data are separable iff the optimum is 0.
    Solved by :func:`sfmlearn.lp.separability.minimum_slack_hyperplane`, whose solution
    is checked against the constraints. ``fit_intercept=False`` asks for a hyperplane
    through the origin (b = 0), as in P_{d,n}. The answer depends neither on the unit of
    X nor, with a bias, on an offset added to X: the LP sees X divided by its largest
    magnitude, after centring dense X that lies far from the origin compared with its
    spread (:func:`sfmlearn.optim.conditioning.remove_offset`; the bias absorbs the shift).

    ``y`` may hold one or two distinct labels (the larger one is the positive class).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The points to separate.
    y : array-like of shape (n_samples,)
        Their labels (one or two distinct values).
    fit_intercept : bool, default=True
        Allow a bias b (False: hyperplanes through the origin).
    solver : str or engine, default="auto"
        The LP engine: "auto" (HiGHS), "scipy" (``scipy.optimize.linprog``, a cross-check
        when an answer fails its checks), or any name or engine that
        :func:`sfmlearn.lp.make_engine` takes.

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
    if fit_intercept and not sp.issparse(X):
        X, _ = remove_offset(X)  # the bias absorbs the shift; sparse data keep their zeros
    _, _, xi = minimum_slack_hyperplane(_unit_scaled(X), y_signed, fit_intercept=fit_intercept, solver=solver)
    return bool(xi.sum() == 0.0)


def _unit_scaled(X):
    """X (dense or sparse) divided by its largest magnitude; all-zero X unchanged.

    A positive factor changes no separating hyperplane, only its scale: with margin 1,
    X * 1e-9 needs weights near 1e9 (beyond the solver's feasibility tolerance) and
    X * 1e20 coefficients HiGHS takes for infinite. On values in [-1, 1] the margin-1
    weights are of the data's own order. An offset is the caller's to remove first:
    with 1e8 added, the values here all lie near 1 and HiGHS stopped 'Unbounded'.
    """
    largest = np.abs(X.data if sp.issparse(X) else X).max(initial=0.0)
    return X / largest if largest > 0 else X


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
