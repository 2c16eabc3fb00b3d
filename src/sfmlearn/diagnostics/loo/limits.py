"""Limits of the leave-one-out error as d -> infinity (thesis 2.5.5, Theorems 2.5.1-2.5.2).

Random labels (Theorem 2.5.1): the LOO error of a hard-margin SVM tends to 1, not to
the chance level 0.5. Two real classes (Theorem 2.5.2, Hall et al. 2005): a class of k
samples with per-feature variance sigma^2 against one of l samples with tau^2,
sigma^2/k >= tau^2/l, squared mean distance per feature mu^2: every new sample is
classified correctly if mu^2 > sigma^2/k - tau^2/l, otherwise it goes to the second
class. Under LOO the class sizes differ by one, so below a critical sample size the LOO
error tends to 1 although the classes differ.
"""

import numpy as np

from ..._validation import check_count
from .._checks import check_nonneg

__all__ = ["asymptotic_loo_error", "critical_sample_size"]


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
    n_pos = check_count("n_pos", n_pos, 2)
    n_neg = check_count("n_neg", n_neg, 2)
    mu2 = check_nonneg("mu2", mu2)
    sigma2 = check_nonneg("sigma2", sigma2, positive=True)
    tau2 = check_nonneg("tau2", tau2, positive=True)
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
        Per-feature variances of the two classes (> 0).

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
    mu2 = check_nonneg("mu2", mu2)
    sigma2 = check_nonneg("sigma2", sigma2, positive=True)
    tau2 = check_nonneg("tau2", tau2, positive=True)
    if mu2 == 0:
        return np.inf
    # For m - 1 > max(sigma2, tau2) / mu2 both LOO cases are correct: search below that.
    m_max = int(np.ceil(max(sigma2, tau2) / mu2)) + 2
    last = 0
    for m in range(2, m_max + 1):
        if asymptotic_loo_error(m, m, mu2, sigma2=sigma2, tau2=tau2) > 0:
            last = 2 * m
    return last
