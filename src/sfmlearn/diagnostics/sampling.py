"""Gaussian samples in any dimension at the cost of n dimensions (thesis 2.5.2, 4.1).

Everything an SVM or a distance computes from n samples depends only on their Gram
matrix, and the Gram matrix of n standard-normal points in R^d is Wishart(d, I_n).
Drawing its Bartlett factor gives n coordinates with exactly that distribution, so
simulations at d = 10^5 or 10^9 cost the same as at d = n.
"""

import numpy as np

from ..exceptions import DataValidationError
from .._validation import check_count
from ._checks import check_nonneg

__all__ = ["sample_embedded_classes"]


def sample_embedded_classes(n_pos, n_neg, d, *, mu2=0.0, sigma2=1.0, tau2=1.0, random_state=None):
    """Coordinates with the exact Gram-matrix distribution of two Gaussian classes.

    Class +1 (n_pos samples) ~ N(0, sigma2 I_d), class -1 (n_neg) ~ N(delta, tau2 I_d)
    with ||delta||^2 = d mu2 (thesis 2.5.5: mu2 is the mean squared mean difference
    per feature; mu2 = 0 gives random labels). E E' is distributed as X X' for the
    d-dimensional data X:
    for d > n + 1 the noise is the Bartlett factor of Wishart(d - 1, I_n) (rows scaled
    by the class standard deviations) and the mean shift one extra coordinate, which
    is exact by rotation invariance. Cost O(n^2), independent of d.

    Parameters
    ----------
    n_pos, n_neg : int
        Class sizes (>= 0, not both 0).
    d : int
        Dimension of the data being represented (>= 1).
    mu2 : float, default=0.0
        Mean squared mean difference per feature (>= 0; 0: random labels).
    sigma2, tau2 : float, default=1.0
        Per-feature variances of class +1 and class -1 (> 0).
    random_state : int, Generator or None
        Seed.

    Returns
    -------
    E : ndarray of shape (n_pos + n_neg, min(d, n_pos + n_neg + 1))
        Coordinates whose Gram matrix is distributed as that of the d-dimensional data.
    y : ndarray of shape (n_pos + n_neg,)
        Labels, +1 first.

    Examples
    --------
    >>> from sfmlearn.diagnostics import sample_embedded_classes
    >>> E, y = sample_embedded_classes(3, 3, 1000, random_state=0)
    >>> E.shape, y.tolist()
    ((6, 7), [1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    """
    n_pos, n_neg, d, mu2, sigma2, tau2 = _check_model(n_pos, n_neg, d, mu2, sigma2, tau2)
    rng = np.random.default_rng(random_state)
    n = n_pos + n_neg
    y = np.r_[np.ones(n_pos), -np.ones(n_neg)]
    scale = np.sqrt(np.where(y > 0, sigma2, tau2))
    shift = np.where(y > 0, 0.0, np.sqrt(d * mu2))
    if d <= n + 1:
        E = rng.standard_normal((n, d)) * scale[:, None]
        E[:, 0] += shift
        return E, y
    # Bartlett: L lower triangular, L_ii^2 ~ chi2(m - i) (i = 0..n-1), L_ij ~ N(0, 1) below.
    m = d - 1
    L = np.tril(rng.standard_normal((n, n)), -1)
    L[np.diag_indices(n)] = np.sqrt(rng.chisquare(m - np.arange(n)))
    first = rng.standard_normal(n) * scale + shift
    return np.column_stack([first, L * scale[:, None]]), y


def _check_model(n_pos, n_neg, d, mu2, sigma2, tau2):
    """The arguments of :func:`sample_embedded_classes`, checked: class sizes >= 0 (not
    both 0), d >= 1, mu2 >= 0, variances > 0, all finite."""
    n_pos, n_neg = check_count("n_pos", n_pos, 0), check_count("n_neg", n_neg, 0)
    if n_pos + n_neg == 0:
        raise DataValidationError("n_pos and n_neg are both 0; give at least one sample.")
    return (n_pos, n_neg, check_count("d", d, 1), check_nonneg("mu2", mu2),
            check_nonneg("sigma2", sigma2, positive=True), check_nonneg("tau2", tau2, positive=True))
