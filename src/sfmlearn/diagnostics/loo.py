"""When leave-one-out cross-validation of a linear SVM lies (thesis 2.5.5, 4.1).

With few samples in many dimensions the points sit on the vertices of a regular
simplex (thesis 2.5.2) and leave-one-out (LOO) cross-validation of an SVM breaks:

* random labels (Theorem 2.5.1): the LOO error of a hard-margin SVM tends to 1, not
  to the chance level 0.5, as d grows for fixed n - the left-out sample always belongs
  to the class that just became the smaller one;
* two real classes (Theorem 2.5.2, Hall et al. 2005): with per-feature mean variances
  sigma^2, tau^2 and squared mean distance per feature mu^2, a class of k samples against
  one of l samples, sigma^2/k >= tau^2/l: as d -> infinity every new sample is classified
  correctly if mu^2 > sigma^2/k - tau^2/l, otherwise every new sample goes to the second
  class. Under LOO the class sizes differ by one, so below a critical sample size the
  LOO error tends to 1 although the classes differ;
* soft margin (thesis eq. 2.5): a two-norm soft-margin SVM with softness C on d unit-
  variance features behaves like a hard-margin SVM on d + 1/C features.

The simulations here reproduce thesis Fig. 2.9 and 4.1-4.3 exactly but cheaply: only
the Gram matrix matters, and the Gram matrix of n standard-normal points in R^d is
Wishart(d, I_n), sampled through its Bartlett factor in O(n^2) whatever d is (a class
mean shift gets one extra coordinate by rotation invariance). LOO then uses the exact
shortcut of :mod:`._svm_loo` instead of n QPs.
"""

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator

from .._validation import check_binary_problem
from ..exceptions import DataValidationError, NotSeparableError
from ..utils import seed_chunks, spawn_seeds
from ._svm_loo import LOSSES, svm_loo_decisions
from .sampling import sample_embedded_classes

__all__ = [
    "loo_error",
    "simulate_loo_error",
    "loo_error_grid",
    "asymptotic_loo_error",
    "critical_sample_size",
    "effective_dimension",
    "infinite_border_points",
    "fit_infinite_border",
    "infinite_dimension_border",
    "behaves_infinite_dimensional",
    "INFINITE_BORDER_COEF",
    "LOORegime",
    "loo_regime",
]

#: (a0, a1, a2) of the fitted border d_poly(n) = a0 + a1 n + a2 n^2 between regular and
#: infinite-dimension-like behaviour of a hard-margin SVM's LOO error on random data
#: (thesis 4.1, Fig. 4.1). The thesis does not print its coefficients; these come from
#: our own simulation done as the thesis describes (n = 4, 6, ..., 14; 10 log-spaced d
#: per decade in [10, 1e5]; 100 runs; lowest d whose mean LOO error exceeds 0.99;
#: least squares on those 6 points), produced by
#: ``sfmlearn reproduce thesis-fig4.1`` (see docs/guide/theory.md). It gives
#: d_poly(20) = 41700; the thesis reads "approximately d = 50000" off its Fig. 4.1.
#: Fitted on n <= 14 and checked against the simulated border up to n = 26
#: (beyond that the border lies above d = 1e5, outside the simulated grid).
INFINITE_BORDER_COEF = (3927.79, -1586.81, 173.835)


def _check_int(name, value, minimum):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise DataValidationError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _check_nonneg(name, value, positive=False):
    if not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise DataValidationError(f"{name} must be a finite {kind} number; got {value!r}.")
    return float(value)


def _check_svm(C, loss):
    if loss not in LOSSES:
        raise DataValidationError(f"loss must be one of {LOSSES}; got {loss!r}.")
    return None if C is None else _check_nonneg("C", C, positive=True)


def loo_error(X, y, *, C=None, loss="hinge"):
    """Exact leave-one-out error of a linear SVM on your data (thesis 2.5.5).

    E = (1/n) sum_i [sign f_{-i}(x_i) != y_i], f_{-i} trained without sample i
    (a decision value of exactly 0 counts as an error). Hard margin for ``C=None``
    (the data must be linearly separable), else the soft margin with softness C:
    ``loss="hinge"`` minimises 1/2 |w|^2 + C sum xi_i (scikit-learn's
    SVC(kernel="linear", C=C)); ``"squared_hinge"`` minimises 1/2 |w|^2 + C/2 sum xi_i^2,
    the hard margin on the kernel K + I/C of thesis eq. 2.5 (liblinear's LinearSVC
    writes C sum xi^2 and penalises the intercept, so it is not the same model).
    Works on the Gram matrix: for d > n the data are first reduced to n coordinates by
    a QR decomposition (inner products kept).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        Two class labels.
    C : float or None, default=None
        Softness (None: hard margin).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The soft-margin loss.

    Returns
    -------
    float
        The leave-one-out error E.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.diagnostics import loo_error
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 0.0], [4.0, 1.0]])
    >>> float(loo_error(X, [0, 0, 1, 1]))
    0.0
    """
    X, y_signed, _ = check_binary_problem(BaseEstimator(), X, y, accept_sparse=False, min_samples=4)
    C = _check_svm(C, loss)
    X = np.asarray(X, dtype=np.float64)
    if X.shape[1] > X.shape[0]:
        X = np.linalg.qr(X.T, mode="r").T  # X X' = R' R
    try:
        decisions, _ = svm_loo_decisions(X, y_signed, C=C, loss=loss)
    except NotSeparableError:
        raise NotSeparableError(
            "The classes of X are not linearly separable, so a hard-margin SVM has no "
            "solution. Pass a softness C for a soft-margin SVM."
        ) from None
    return float(np.mean(np.sign(decisions) != y_signed))


def _runs(n, d, mu2, sigma2, tau2, C, loss, normalize, seeds):
    n_neg = n // 2
    errors = np.empty(len(seeds))
    for r, seed in enumerate(seeds):
        E, y = sample_embedded_classes(n - n_neg, n_neg, d, mu2=mu2, sigma2=sigma2, tau2=tau2,
                                       random_state=seed)
        if normalize:
            E = E / np.sqrt(d)
        decisions, _ = svm_loo_decisions(E, y, C=C, loss=loss)
        errors[r] = np.mean(np.sign(decisions) != y)
    return errors


def _check_model(mu2, sigma2, tau2, C, loss, n_runs):
    return (_check_nonneg("mu2", mu2), _check_nonneg("sigma2", sigma2, positive=True),
            _check_nonneg("tau2", tau2, positive=True), _check_svm(C, loss),
            _check_int("n_runs", n_runs, 1))


def _hard_margin_defined(n, d, C):
    """n random points with bias are separable (almost surely) iff d >= n - 1."""
    return C is not None or d >= n - 1


def simulate_loo_error(n, d, *, mu2=0.0, sigma2=1.0, tau2=1.0, C=None, loss="hinge",
                       normalize=False, n_runs=100, random_state=None, n_jobs=None):
    """LOO errors of a linear SVM on simulated Gaussian two-class data (thesis 4.1).

    n samples (classes of n - n//2 and n//2) in d dimensions drawn as in
    :func:`sample_embedded_classes`; ``mu2=0`` is the random-label setting of thesis
    Fig. 2.9 / 4.1, ``mu2=1/30`` that of Fig. 4.2 / 4.3. Runs are parallelised with
    joblib and seeded one by one from ``random_state`` (results do not depend on
    ``n_jobs``). The hard margin (``C=None``) needs d >= n - 1. ``normalize=True``
    divides every feature by sqrt(d) (squared norms about 1 instead of d), which leaves
    the hard margin unchanged but makes a softness C of order 1 matter (thesis Fig. 4.3).

    Parameters
    ----------
    n : int
        Sample size.
    d : int
        Number of features.
    mu2 : float, default=0.0
        Mean squared mean difference per feature (0: random labels).
    sigma2, tau2 : float, default=1.0
        Per-feature variances of the two classes.
    C : float or None, default=None
        Softness (None: hard margin).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The soft-margin loss.
    normalize : bool, default=False
        Divide every feature by sqrt(d).
    n_runs : int, default=100
        Number of simulated data sets.
    random_state : int, Generator or None
        Seeds the runs.
    n_jobs : int or None
        Parallel runs (joblib).

    Returns
    -------
    ndarray of shape (n_runs,)
        The LOO error of every run.

    Examples
    --------
    >>> from sfmlearn.diagnostics import simulate_loo_error
    >>> simulate_loo_error(8, 200, n_runs=5, random_state=0)   # random labels: far above 0.5
    array([0.625, 0.875, 1.   , 1.   , 0.625])
    """
    n, d = _check_int("n", n, 4), _check_int("d", d, 1)
    mu2, sigma2, tau2, C, n_runs = _check_model(mu2, sigma2, tau2, C, loss, n_runs)
    if not _hard_margin_defined(n, d, C):
        raise DataValidationError(
            f"a hard-margin SVM needs separable training sets, which n = {n} random points "
            f"are only guaranteed to be for d >= n - 1 = {n - 1}; got d = {d}. Use a larger d "
            "or a soft margin (pass C)."
        )
    parts = Parallel(n_jobs=n_jobs)(
        delayed(_runs)(n, d, mu2, sigma2, tau2, C, loss, normalize, chunk)
        for chunk in seed_chunks(random_state, n_runs, n_jobs)
    )
    return np.concatenate(parts)


def loo_error_grid(n_values, d_values, *, mu2=0.0, sigma2=1.0, tau2=1.0, C=None, loss="hinge",
                   normalize=False, n_runs=100, random_state=None, n_jobs=None):
    """Mean LOO error over a grid of sample sizes and dimensions (thesis Fig. 4.1-4.3).

    Cells where a hard margin is undefined (d < n - 1) hold NaN. Every cell has its own
    seed from ``random_state``; cells run in parallel with joblib.

    Parameters
    ----------
    n_values, d_values : sequence of int
        Sample sizes and dimensions of the grid.
    mu2 : float, default=0.0
        Mean squared mean difference per feature (0: random labels).
    sigma2, tau2 : float, default=1.0
        Per-feature variances of the two classes.
    C : float or None, default=None
        Softness (None: hard margin).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The soft-margin loss.
    normalize : bool, default=False
        Divide every feature by sqrt(d).
    n_runs : int, default=100
        Simulated data sets per cell.
    random_state : int, Generator or None
        Seeds the cells.
    n_jobs : int or None
        Parallel cells (joblib).

    Returns
    -------
    pandas.DataFrame
        One row per (n, d): columns n, d, C, loss, mu2, loo_error (mean over runs),
        loo_error_std, n_runs.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_error_grid
    >>> grid = loo_error_grid([6, 8], [50, 200], n_runs=20, random_state=0)
    >>> grid[["n", "d", "loo_error"]].round(2).to_dict("list")
    {'n': [6, 6, 8, 8], 'd': [50, 200, 50, 200], 'loo_error': [0.81, 0.83, 0.71, 0.81]}
    """
    cells = [(_check_int("n", int(n), 4), _check_int("d", int(d), 1)) for n in n_values for d in d_values]
    mu2, sigma2, tau2, C, n_runs = _check_model(mu2, sigma2, tau2, C, loss, n_runs)
    seeds = spawn_seeds(random_state, len(cells))
    valid = [_hard_margin_defined(n, d, C) for n, d in cells]
    results = Parallel(n_jobs=n_jobs)(
        delayed(_runs)(n, d, mu2, sigma2, tau2, C, loss, normalize, seeds[c].spawn(n_runs))
        for c, (n, d) in enumerate(cells) if valid[c]
    )
    results = iter(results)
    rows = []
    for ok, (n, d) in zip(valid, cells):
        errors = next(results) if ok else np.full(n_runs, np.nan)
        rows.append({"n": n, "d": d, "C": np.nan if C is None else C, "loss": loss, "mu2": mu2,
                     "loo_error": errors.mean(), "loo_error_std": errors.std(), "n_runs": n_runs})
    return pd.DataFrame(rows)


def _correct_in_limit(mu2, var_own, size_own, var_other, size_other):
    """Theorem 2.5.2: probability that a new sample of the 'own' class is classified correctly as d -> inf.

    If own plays X (var_own/size_own >= var_other/size_other), it is 1 when
    mu2 > var_own/size_own - var_other/size_other and 0 when mu2 is smaller; at equality
    the theorem does not decide and the decision is a coin flip (0.5; our simulations
    at d = 1e7 confirm it). If own plays Y, it is 1 either way.
    """
    own, other = var_own / size_own, var_other / size_other
    if own < other:
        return 1.0
    gap = mu2 - (own - other)
    if abs(gap) <= 1e-12 * max(own, mu2):
        return 0.5
    return 1.0 if gap > 0 else 0.0


def asymptotic_loo_error(n_pos, n_neg, mu2, *, sigma2=1.0, tau2=1.0):
    """Limit (d -> infinity) of the LOO error of a hard-margin SVM (thesis 2.5.5, 4.1).

    Class +1 has n_pos samples with mean variance sigma2, class -1 n_neg samples with
    tau2, mean squared mean difference per feature mu2. Leaving out a +1 sample trains on
    n_pos - 1 against n_neg samples; Theorem 2.5.2 then says whether the left-out sample
    is classified correctly or assigned to the other class (see :func:`_correct_in_limit`
    for the undecided boundary case). The limit is 1 for random labels (mu2 = 0,
    Theorem 2.5.1).

    Parameters
    ----------
    n_pos, n_neg : int
        Class sizes.
    mu2 : float
        Mean squared mean difference per feature.
    sigma2, tau2 : float, default=1.0
        Per-feature variances of class +1 and class -1.

    Returns
    -------
    float
        The limit LOO error.

    Examples
    --------
    >>> from sfmlearn.diagnostics import asymptotic_loo_error
    >>> asymptotic_loo_error(10, 10, 0.0), asymptotic_loo_error(10, 10, 1.0)
    (1.0, 0.0)
    """
    n_pos = _check_int("n_pos", n_pos, 2)
    n_neg = _check_int("n_neg", n_neg, 2)
    mu2 = _check_nonneg("mu2", mu2)
    sigma2 = _check_nonneg("sigma2", sigma2, positive=True)
    tau2 = _check_nonneg("tau2", tau2, positive=True)
    wrong_pos = 1.0 - _correct_in_limit(mu2, sigma2, n_pos - 1, tau2, n_neg)
    wrong_neg = 1.0 - _correct_in_limit(mu2, tau2, n_neg - 1, sigma2, n_pos)
    return (n_pos * wrong_pos + n_neg * wrong_neg) / (n_pos + n_neg)


def critical_sample_size(mu2, *, sigma2=1.0, tau2=1.0):
    """Largest balanced sample size n whose LOO error does not tend to 0 as d -> infinity.

    Thesis 4.1: for balanced classes, leave-one-out trains on n/2 - 1 against n/2
    samples, and by Theorem 2.5.2 the limit LOO error is 1 while
    mu2 < sigma2/(n/2 - 1) - tau2/(n/2) (0.5 at equality); with sigma2 = tau2 = 1 and
    mu2 = 1/30 this gives n = 12 (LOO error -> 1 for n < 12, -> 0.5 at n = 12, where the
    thesis says 1, and -> 0 for n > 12); ``inf`` for mu2 = 0 (random labels: the
    LOO error tends to 1 for every n). For a two-norm soft margin on data divided by
    sqrt(d) (``normalize=True`` in the simulations), pass sigma2 + 1/C and tau2 + 1/C:
    the softness adds 1/C to every squared norm (thesis eq. 2.5), which acts like
    per-feature noise of variance 1/C that does not separate the classes.

    Parameters
    ----------
    mu2 : float
        Mean squared mean difference per feature.
    sigma2, tau2 : float, default=1.0
        Per-feature variances of the two classes.

    Returns
    -------
    float
        The critical n (``inf`` for mu2 = 0).

    Examples
    --------
    >>> from sfmlearn.diagnostics import critical_sample_size
    >>> critical_sample_size(1 / 30), critical_sample_size(0.0)
    (12, inf)
    """
    mu2 = _check_nonneg("mu2", mu2)
    if mu2 == 0:
        return np.inf
    # For m - 1 > max(sigma2, tau2) / mu2 both LOO cases are correct: search below that.
    m_max = int(np.ceil(max(sigma2, tau2) / mu2)) + 2
    last = 0
    for m in range(2, m_max + 1):
        if asymptotic_loo_error(m, m, mu2, sigma2=sigma2, tau2=tau2) > 0:
            last = 2 * m
    return last


def effective_dimension(d, C=None, *, feature_variance=1.0):
    """Dimension a soft-margin SVM behaves like on random data: d + 1/(C var) (thesis 2.5.5).

    The two-norm soft margin uses the kernel x_i . x_j + delta_ij / C (thesis eq. 2.5).
    For d features of variance ``feature_variance`` (1 in the thesis) the squared norms
    are about d var, so adding 1/C to them acts like 1/(C var) extra features. The
    thesis expects the same behaviour, without a closed form, for the one-norm soft
    margin. ``C=None`` (hard margin) returns d.

    Parameters
    ----------
    d : int or float
        Number of features.
    C : float or None, default=None
        Softness (None: hard margin).
    feature_variance : float, default=1.0
        Variance of the features.

    Returns
    -------
    float
        d + 1/(C var), or d for the hard margin.

    Examples
    --------
    >>> from sfmlearn.diagnostics import effective_dimension
    >>> effective_dimension(100, C=0.1), effective_dimension(100)
    (110.0, 100.0)
    """
    d = np.asarray(d, dtype=np.float64)
    if C is None:
        return d if d.ndim else float(d)
    C = _check_nonneg("C", C, positive=True)
    var = _check_nonneg("feature_variance", feature_variance, positive=True)
    out = d + 1.0 / (C * var)
    return out if out.ndim else float(out)


def infinite_border_points(grid, threshold=0.99):
    """For each n of a :func:`loo_error_grid` table, the lowest d whose mean LOO error exceeds ``threshold``.

    Thesis 4.1 ("for each sample size we picked the lowest dimensionality such that the
    corresponding average error exceeds 0.99"). Sample sizes that never exceed it are
    left out.

    Parameters
    ----------
    grid : pandas.DataFrame
        The output of :func:`loo_error_grid`.
    threshold : float, default=0.99
        Mean LOO error that counts as "infinite-dimensional".

    Returns
    -------
    pandas.DataFrame
        Columns n, d.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_error_grid
    >>> grid = loo_error_grid([6, 8], [50, 200], n_runs=20, random_state=0)
    >>> from sfmlearn.diagnostics import infinite_border_points
    >>> infinite_border_points(grid, threshold=0.7).to_dict("list")
    {'n': [6, 8], 'd': [50, 50]}
    """
    above = grid[grid["loo_error"] > threshold]
    return above.groupby("n", as_index=False)["d"].min().sort_values("n", ignore_index=True)


def fit_infinite_border(points, n_fit=6):
    """Least-squares fit d_poly(n) = a0 + a1 n + a2 n^2 on the first ``n_fit`` border points (thesis 4.1).

    Parameters
    ----------
    points : pandas.DataFrame
        Columns n, d (:func:`infinite_border_points`).
    n_fit : int, default=6
        Number of points (smallest n first) the polynomial is fitted to.

    Returns
    -------
    tuple of 3 floats
        (a0, a1, a2).

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.diagnostics import fit_infinite_border
    >>> points = pd.DataFrame({"n": [4, 6, 8, 10], "d": [100, 400, 900, 1600]})
    >>> [round(a, 6) for a in fit_infinite_border(points, n_fit=4)]   # 25 (n - 2)^2
    [100.0, -100.0, 25.0]
    """
    first = points.sort_values("n").head(n_fit)
    if len(first) < 3:
        raise DataValidationError(
            f"need at least 3 border points to fit a 2nd-order polynomial; got {len(first)}. "
            "Extend the d grid so that more sample sizes reach the threshold."
        )
    n = first["n"].to_numpy(dtype=float)
    design = np.column_stack([np.ones_like(n), n, n**2])
    coef, *_ = np.linalg.lstsq(design, first["d"].to_numpy(dtype=float), rcond=None)
    return tuple(float(c) for c in coef)


def infinite_dimension_border(n, coef=INFINITE_BORDER_COEF):
    """d_poly(n) = a0 + a1 n + a2 n^2: from about this many (effective) dimensions on,
    LOO of a hard-margin SVM on random data behaves as if d were infinite (thesis 4.1).

    A heuristic border, not an exact law (the thesis says so too); ``coef`` defaults to
    our refit :data:`INFINITE_BORDER_COEF`.

    Parameters
    ----------
    n : int, float or array
        Sample size(s).
    coef : tuple of 3 floats, default=INFINITE_BORDER_COEF
        (a0, a1, a2).

    Returns
    -------
    float or ndarray
        d_poly(n).

    Examples
    --------
    >>> from sfmlearn.diagnostics import infinite_dimension_border
    >>> round(float(infinite_dimension_border(10)), 2)
    5443.19
    """
    n = np.asarray(n, dtype=np.float64)
    out = coef[0] + coef[1] * n + coef[2] * n**2
    return out if out.ndim else float(out)


@dataclass(frozen=True)
class LOORegime:
    """Where (n, d, C) sits relative to the infinite-dimension border (see :func:`loo_regime`).

    Parameters
    ----------
    n, d : int
        Sample size and number of features.
    C : float or None
        Softness (None: hard margin).
    effective_dimension : float
        d + 1/(C var) (:func:`effective_dimension`).
    border_dimension : float
        d_poly(n) (:func:`infinite_dimension_border`).
    infinite_like : bool
        Whether the effective dimension is beyond the border.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_regime
    >>> regime = loo_regime(10, 100_000)
    >>> regime.infinite_like, round(regime.border_dimension)
    (True, 5443)
    """

    n: int
    d: int
    C: float | None
    effective_dimension: float
    border_dimension: float
    infinite_like: bool

    def __str__(self):
        soft = "" if self.C is None else f" (C = {self.C:g} adds 1/C: effective d = {self.effective_dimension:.4g})"
        if self.infinite_like:
            return (f"n = {self.n}, d = {self.d}{soft}: beyond the border d_poly(n) = "
                    f"{self.border_dimension:.4g}; leave-one-out of a linear SVM behaves as if "
                    "d were infinite (random-label LOO error near 1, not 0.5). Do not trust LOO here.")
        return (f"n = {self.n}, d = {self.d}{soft}: below the border d_poly(n) = "
                f"{self.border_dimension:.4g}; leave-one-out behaves like a finite-dimensional one.")


def loo_regime(n, d, C=None, *, feature_variance=1.0, coef=INFINITE_BORDER_COEF):
    """Does leave-one-out of an SVM on (n samples, d features, softness C) behave as if d = infinity?

    Compares the effective dimension d + 1/(C var) (:func:`effective_dimension`) with the
    border d_poly(n) fitted to random-data simulations (thesis 4.1, Fig. 4.1). Beyond the
    border, the LOO error of random labels is near 1 instead of 0.5, and for real classes
    it is near 0 or 1 depending on n (:func:`critical_sample_size`) - either way it says
    little about new data. The border was fitted for n = 4..14 and checked up to n = 26;
    larger n are an extrapolation (the thesis found it to hold).

    Parameters
    ----------
    n, d : int
        Sample size and number of features.
    C : float or None, default=None
        Softness of the SVM (None: hard margin).
    feature_variance : float, default=1.0
        Variance of the features (enters the effective dimension).
    coef : tuple of 3 floats, default=INFINITE_BORDER_COEF
        Coefficients of the border polynomial.

    Returns
    -------
    LOORegime
        Printable (``str``) with the verdict.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_regime
    >>> print(loo_regime(20, 1000))
    n = 20, d = 1000: below the border d_poly(n) = 4.173e+04; leave-one-out behaves like a finite-dimensional one.
    """
    n = _check_int("n", n, 4)
    d = _check_int("d", d, 1)
    d_eff = effective_dimension(d, C, feature_variance=feature_variance)
    border = infinite_dimension_border(n, coef)
    return LOORegime(n, d, None if C is None else float(C), float(d_eff), float(border), bool(d_eff >= border))


def behaves_infinite_dimensional(n, d, C=None, *, feature_variance=1.0):
    """True when (n, d, C) lies beyond the thesis-4.1 border (see :func:`loo_regime`).

    Parameters
    ----------
    n, d : int
        Sample size and number of features.
    C : float or None, default=None
        Softness (None: hard margin).
    feature_variance : float, default=1.0
        Variance of the features.

    Returns
    -------
    bool
        ``loo_regime(n, d, C).infinite_like``.

    Examples
    --------
    >>> from sfmlearn.diagnostics import behaves_infinite_dimensional
    >>> behaves_infinite_dimensional(10, 100_000), behaves_infinite_dimensional(10, 100)
    (True, False)
    """
    return loo_regime(n, d, C, feature_variance=feature_variance).infinite_like
