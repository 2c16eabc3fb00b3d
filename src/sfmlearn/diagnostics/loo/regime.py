"""Where (n, d, C) sits relative to the border of "infinite-dimensional" LOO (thesis 4.1).

A two-norm soft-margin SVM with softness C on d unit-variance features behaves like a
hard-margin SVM on d + 1/C features (thesis eq. 2.5); from about d_poly(n) = a0 + a1 n +
a2 n^2 (effective) dimensions on, leave-one-out of a hard-margin SVM on random data
behaves as if d were infinite (thesis Fig. 4.1).
"""

from dataclasses import dataclass

import numpy as np

from ...exceptions import DataValidationError
from .._docs import diagnostics_doc
from ..._validation import check_count
from .._checks import check_nonneg

__all__ = [
    "INFINITE_BORDER_COEF",
    "LOORegime",
    "behaves_infinite_dimensional",
    "effective_dimension",
    "fit_infinite_border",
    "infinite_border_points",
    "infinite_dimension_border",
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



@diagnostics_doc
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
    %(softness_variance)s

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
    C = check_nonneg("C", C, positive=True)
    var = check_nonneg("feature_variance", feature_variance, positive=True)
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
    n = check_count("n", n, 4)
    d = check_count("d", d, 1)
    d_eff = effective_dimension(d, C, feature_variance=feature_variance)
    border = infinite_dimension_border(n, coef)
    return LOORegime(n, d, None if C is None else float(C), float(d_eff), float(border), bool(d_eff >= border))


@diagnostics_doc
def behaves_infinite_dimensional(n, d, C=None, *, feature_variance=1.0):
    """True when (n, d, C) lies beyond the thesis-4.1 border (see :func:`loo_regime`).

    Parameters
    ----------
    n, d : int
        Sample size and number of features.
    %(softness_variance)s

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
