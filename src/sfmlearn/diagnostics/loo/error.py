"""The exact leave-one-out error of a linear SVM, on your data or simulated (thesis 2.5.5, 4.1).

The simulations reproduce thesis Fig. 2.9 and 4.1-4.3 exactly but cheaply: only the
Gram matrix matters, and the Gram matrix of n standard-normal points in R^d is
Wishart(d, I_n), sampled through its Bartlett factor in O(n^2) whatever d is (a class
mean shift gets one extra coordinate by rotation invariance). LOO then uses the exact
shortcut of :mod:`sfmlearn.diagnostics._svm_loo` instead of n QPs.
"""

import numpy as np
import pandas as pd
from joblib import delayed
from sklearn.base import BaseEstimator

from ..._validation import check_binary_problem
from ...exceptions import DataValidationError, NotSeparableError
from ...utils import seed_chunks, spawn_seeds
from ...utils.parallel import Parallel
from .._docs import diagnostics_doc
from .._svm_loo import svm_loo_decisions
from ..sampling import sample_embedded_classes
from ..._validation import check_count
from .._checks import check_nonneg, check_svm

__all__ = ["loo_error", "simulate_loo_error", "loo_error_grid"]


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
        Your samples, any number of features (only their inner products matter).
    y : array-like of shape (n_samples,)
        Their two class labels.
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
    C = check_svm(C, loss)
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
    return (check_nonneg("mu2", mu2), check_nonneg("sigma2", sigma2, positive=True),
            check_nonneg("tau2", tau2, positive=True), check_svm(C, loss),
            check_count("n_runs", n_runs, 1))


def _hard_margin_defined(n, d, C):
    """n random points with bias are separable (almost surely) iff d >= n - 1."""
    return C is not None or d >= n - 1


@diagnostics_doc
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
    %(loo_model)s
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
    n, d = check_count("n", n, 4), check_count("d", d, 1)
    mu2, sigma2, tau2, C, n_runs = _check_model(mu2, sigma2, tau2, C, loss, n_runs)
    if not _hard_margin_defined(n, d, C):
        raise DataValidationError(
            f"a hard-margin SVM needs separable training sets, which n = {n} random points "
            f"are only guaranteed to be for d >= n - 1 = {n - 1}; got d = {d}. Use a larger d "
            "or a soft margin (pass C)."
        )
    parts = Parallel(n_jobs=n_jobs, what="chunks of leave-one-out runs")(
        delayed(_runs)(n, d, mu2, sigma2, tau2, C, loss, normalize, chunk)
        for chunk in seed_chunks(random_state, n_runs, n_jobs)
    )
    return np.concatenate(parts)


@diagnostics_doc
def loo_error_grid(n_values, d_values, *, mu2=0.0, sigma2=1.0, tau2=1.0, C=None, loss="hinge",
                   normalize=False, n_runs=100, random_state=None, n_jobs=None):
    """Mean LOO error over a grid of sample sizes and dimensions (thesis Fig. 4.1-4.3).

    Cells where a hard margin is undefined (d < n - 1) hold NaN. Every cell has its own
    seed from ``random_state``; cells run in parallel with joblib.

    Parameters
    ----------
    n_values, d_values : sequence of int
        Sample sizes and dimensions of the grid.
    %(loo_model)s
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
    cells = [(check_count("n", int(n), 4), check_count("d", int(d), 1)) for n in n_values for d in d_values]
    mu2, sigma2, tau2, C, n_runs = _check_model(mu2, sigma2, tau2, C, loss, n_runs)
    seeds = spawn_seeds(random_state, len(cells))
    valid = [_hard_margin_defined(n, d, C) for n, d in cells]
    results = Parallel(n_jobs=n_jobs, what="cells of the grid")(
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
