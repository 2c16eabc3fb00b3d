"""Synthetic data of the P-SVM chapter (Hochreiter & Obermayer 2006; PSVM 3.1, 3.2, 5.1, 5.2).

Labels are -1/+1 and the relevant features are the first columns, so the truth is known
without extra return values. N(mu, s) below means mean mu and standard deviation s (as
in Weston et al.'s N(0, 20) probes, which :func:`make_weston` also reads as a standard
deviation). Arguments are checked before any drawing, with scikit-learn's
``validate_params``.
"""

import numpy as np
from sklearn.utils import check_random_state

from ._arguments import at_least, checked, one_of
from ._docs import datasets_doc

__all__ = ["make_psvm_nonlinear", "make_psvm_redundancy", "make_weston_modes"]

# PSVM 3.1, left table: t = f1 + f2, and f1 is uncorrelated with t.
_CANCEL = np.array([[-2.0, 3.0, 1.0], [2.0, -3.0, -1.0], [-2.0, 1.0, -1.0], [2.0, -1.0, 1.0]])
# PSVM 3.1, right table: t = f2 + f3, and f1 has the largest correlation with t.
_REDUNDANT = np.array([[0.0, -1.0, 0.0, -1.0], [1.0, 1.0, 0.0, 1.0],
                       [-1.0, 0.0, -1.0, -1.0], [1.0, 0.0, 1.0, 1.0]])

REDUNDANCY_TOYS = ("cancel", "redundant", "table1_top", "table1_bottom")


def _two_group_toy(n_samples, group_size, n_features, indicative_mean, rng):
    """PSVM 3.2: two redundant groups of relevant features, one indicative per sample.

    Labels +-1 with probability 1/2; with probability 1/2 group 1 (features
    1..group_size) is class-indicative, else group 2; indicative features are
    y N(mean_j, 1) (``indicative_mean`` is a scalar or one mean per group member), the
    other group N(0, 1), probes N(0, 20); finally every label is switched with
    probability 0.2.
    """
    y = np.where(rng.random(n_samples) < 0.5, 1.0, -1.0)
    X = rng.standard_normal((n_samples, n_features))
    n_relevant = 2 * group_size
    X[:, n_relevant:] *= 20.0
    first = rng.random(n_samples) < 0.5
    for rows, cols in ((first, slice(0, group_size)), (~first, slice(group_size, n_relevant))):
        X[rows, cols] = y[rows, None] * (indicative_mean + X[rows, cols])
    flip = rng.random(n_samples) < 0.2
    y[flip] = -y[flip]
    return X, y


@checked(toy=one_of(REDUNDANCY_TOYS), n_samples=at_least(1))
def make_psvm_redundancy(toy="table1_top", n_samples=100, *, random_state=None):
    """The redundancy toys of PSVM 3.1 and 3.2 (Table 1).

    The toys:

        ``"cancel"``: the 4 x 2 table of PSVM 3.1 (left) with real target t = f1 + f2;
        f1 has zero correlation with t, yet the P-SVM selects it because it cancels
        part of f2. ``"redundant"``: the 4 x 3 table (right), t = f2 + f3; f1 has the
        largest correlation with t (0.9) but is not selected because it is correlated
        with both others. These two are fixed tables (``n_samples`` and
        ``random_state`` are ignored).

        ``"table1_top"``: 100 features; with probability 1/2 features 1-3 are
        y N(j, 1) (j = 1, 2, 3) and features 4-6 N(0, 1), otherwise features 4-6 are
        y N(j - 3, 1) and 1-3 N(0, 1); features 7-100 are probes N(0, 20); labels are
        switched with probability 0.2. The six relevant features are mutually redundant.

        ``"table1_bottom"``: 1000 features; either features 1-30 or 31-60 are
        indicative, y N(2, 1), the other group N(0, 1); 940 probes N(0, 20); labels
        switched with probability 0.2.

    The chapter does not state the number of samples of the Table 1 toys; it is
    ``n_samples``.

    Parameters
    ----------
    toy : {"cancel", "redundant", "table1_top", "table1_bottom"}, default="table1_top"
        Which toy (above).
    n_samples : int, default=100
        Number of samples of the Table 1 toys.
    random_state : int, Generator or None
        Seed of the Table 1 toys.

    Returns
    -------
    X : ndarray
        The samples; the relevant features are the first 6 (top) or 60 (bottom) columns.
    y : ndarray
        The target t for the fixed tables, labels -1/+1 for the Table 1 toys.

    Examples
    --------
    >>> from sfmlearn.datasets import make_psvm_redundancy
    >>> X, t = make_psvm_redundancy("redundant")
    >>> X.shape, t.tolist()
    ((4, 3), [-1.0, 1.0, -1.0, 1.0])
    """
    if toy == "cancel":
        return _CANCEL[:, :2].copy(), _CANCEL[:, 2].copy()
    if toy == "redundant":
        return _REDUNDANT[:, :3].copy(), _REDUNDANT[:, 3].copy()
    rng = check_random_state(random_state)
    if toy == "table1_top":
        return _two_group_toy(n_samples, 3, 100, np.arange(1.0, 4.0), rng)
    return _two_group_toy(n_samples, 30, 1000, 2.0, rng)


@checked(n_samples=at_least(2), n_features=at_least(20))
@datasets_doc
def make_weston_modes(n_samples=600, n_features=2000, *, random_state=None):
    """The "Weston data" of PSVM 5.1 (Table 2): 20 relevant features in five modes.

    Exactly half of the samples per class (the chapter: 600 points, 300 per class; the
    label order is shuffled). Each sample gets a mode l from {0, 4, 8, 12, 16} uniformly
    at random; its four indicative features are x_{l+tau} ~ y N(2, 0.5 tau),
    tau = 1..4 (standard deviations 0.5, 1, 1.5, 2); the other 16 of the first 20
    features are N(0, 1); features 21..``n_features`` are probes N(0, 20). Each relevant
    feature is indicative for only a fifth of the samples. The chapter uses 100 random
    samples for selection and training and the remaining 500 for testing.

    Parameters
    ----------
    n_samples : int, default=600
        Number of samples (half per class).
    n_features : int, default=2000
        Number of features (the first 20 relevant).
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, n_features)
        The samples; ``X[:, :20]`` are the relevant features.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.

    Examples
    --------
    >>> from sfmlearn.datasets import make_weston_modes
    >>> X, y = make_weston_modes(n_samples=100, n_features=200, random_state=0)
    >>> X.shape, int((y > 0).sum())
    ((100, 200), 50)
    """
    rng = check_random_state(random_state)
    n_pos = n_samples // 2
    y = np.r_[np.ones(n_pos), -np.ones(n_samples - n_pos)][rng.permutation(n_samples)]
    X = rng.standard_normal((n_samples, n_features))
    X[:, 20:] *= 20.0
    mode = 4 * rng.randint(0, 5, size=n_samples)
    tau = np.arange(1, 5)
    rows = np.arange(n_samples)[:, None]
    cols = mode[:, None] + tau - 1
    X[rows, cols] = y[:, None] * (2.0 + 0.5 * tau * X[rows, cols])
    return X, y


NONLINEAR_TASKS = ("A", "B")


@checked(task=one_of(NONLINEAR_TASKS), n_samples=at_least(1), n_features=at_least(2))
@datasets_doc
def make_psvm_nonlinear(task="A", n_samples=500, n_features=100, *, random_state=None):
    """The nonlinear toys of PSVM 5.2: targets from x1 and x2 that no linear selector sees.

    x_ij ~ N(0, 1); task ``"A"``: y = x1^2 + x2^2, task ``"B"``: y = x1 x2 (an XOR);
    then y is thresholded into [-1, 1] (y > 1 -> 1, y < -1 -> -1). The correlation of y
    with x1 and x2 is zero in both tasks (odd moments of the Gaussian vanish).

    Parameters
    ----------
    task : {"A", "B"}, default="A"
        The target: ``"A"`` x1^2 + x2^2, ``"B"`` x1 x2.
    n_samples : int, default=500
        Number of samples.
    n_features : int, default=100
        Number of features (the first two are relevant).
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, n_features)
        The samples; ``X[:, :2]`` are the relevant features.
    y : ndarray of shape (n_samples,)
        The real target, clipped to [-1, 1].

    Examples
    --------
    >>> from sfmlearn.datasets import make_psvm_nonlinear
    >>> X, y = make_psvm_nonlinear("B", n_samples=50, n_features=5, random_state=0)
    >>> X.shape, float(y.min()), float(y.max())
    ((50, 5), -1.0, 1.0)
    """
    rng = check_random_state(random_state)
    X = rng.standard_normal((n_samples, n_features))
    y = X[:, 0] ** 2 + X[:, 1] ** 2 if task == "A" else X[:, 0] * X[:, 1]
    return X, np.clip(y, -1.0, 1.0)
