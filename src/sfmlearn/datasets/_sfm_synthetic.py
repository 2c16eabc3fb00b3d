"""Synthetic benchmarks of the SFM papers (NC 3, thesis 4.2).

Labels are -1/+1 as in the papers, and the relevant features are always the first
columns (``X[:, :n_relevant]`` / ``X[:, :6]``), so the truth is known without extra
return values.
"""

import numpy as np
from sklearn.utils import check_random_state

from ..lp.separability import minimum_slack_hyperplane

__all__ = ["make_basic", "make_weston"]


def _balanced_labels(n_samples, positive_fraction, rng):
    n_pos = int(round(positive_fraction * n_samples))
    if not 0 < n_pos < n_samples:
        raise ValueError(
            f"positive_fraction={positive_fraction} leaves a class empty at n_samples={n_samples}."
        )
    y = np.r_[np.ones(n_pos), -np.ones(n_samples - n_pos)]
    return y[rng.permutation(n_samples)]


def make_basic(n_samples=100, n_features=100, n_relevant=5, *, class_distance=0.3,
               positive_fraction=0.6, separable=True, random_state=None):
    """The basic experiment of NC 3.1 / thesis 4.2.1.

    The first ``n_relevant`` features are drawn as N(mu y, 1) with mu = ``class_distance``,
    the others as N(0, 1). With ``separable=True`` every sample with
    y * sum_{j < k} x_j <= 0 (the wrong side of the true hyperplane w = (1,...,1, 0,...))
    is redrawn from its class until none is left (NC 3.1), so the classes are separable
    within the relevant features. NC uses ``positive_fraction=0.6`` (60 % vs 40 %), the
    thesis 0.5; both use d = 100 and mu = 0.3.

    Returns ``X`` of shape (n_samples, n_features) and ``y`` in {-1, +1}; the truly
    relevant features are ``X[:, :n_relevant]``.
    """
    if not 1 <= n_relevant <= n_features:
        raise ValueError(f"n_relevant must be in [1, n_features]; got {n_relevant}.")
    rng = check_random_state(random_state)
    y = _balanced_labels(n_samples, positive_fraction, rng)
    X = rng.standard_normal((n_samples, n_features))
    X[:, :n_relevant] += class_distance * y[:, None]
    if separable:
        bad = y * X[:, :n_relevant].sum(axis=1) <= 0
        while bad.any():
            X[bad, :n_relevant] = rng.standard_normal((bad.sum(), n_relevant)) + class_distance * y[bad, None]
            bad = y * X[:, :n_relevant].sum(axis=1) <= 0
    return X, y


def _weston_relevant(y, rng):
    """The six relevant features of Weston et al. (2003) for labels y."""
    n = y.size
    relevant = rng.standard_normal((n, 6))
    first_mode = rng.random(n) < 0.7
    shift = np.arange(1.0, 4.0)
    # Mode 1 (p = 0.7): x_1..3 = y N(i, 1); mode 2 (p = 0.3): x_4..6 = y N(i - 3, 1).
    relevant[first_mode, :3] = y[first_mode, None] * (shift + relevant[first_mode, :3])
    relevant[~first_mode, 3:] = y[~first_mode, None] * (shift + relevant[~first_mode, 3:])
    return relevant


def make_weston(n_samples=100, n_noise=1000, *, noise_std=20.0, separable=True,
                random_state=None):
    """The Weston et al. (2003) benchmark as used in NC 3.2 / thesis 4.2.2 (Table 1).

    Two equally sized classes. With probability 0.7 features 1-3 are y N(i, 1)
    (i = 1, 2, 3) and features 4-6 are N(0, 1); with probability 0.3 the roles swap
    (features 4-6 are y N(i - 3, 1)). The ``n_noise`` remaining features are N(0, 20^2)
    (standard deviation ``noise_std`` = 20). The six relevant features are redundant.

    With ``separable=True`` (training sets in the papers) the six relevant features
    separate the classes: the minimum-slack hyperplane of the separability LP is
    computed and every sample it cannot place correctly (slack > 0) is redrawn from its
    class, until the LP certifies separability. Test sets use ``separable=False``.

    Returns ``X`` of shape (n_samples, 6 + n_noise) and ``y`` in {-1, +1}; the truly
    relevant features are ``X[:, :6]``.
    """
    rng = check_random_state(random_state)
    y = _balanced_labels(n_samples, 0.5, rng)
    relevant = _weston_relevant(y, rng)
    if separable:
        while True:
            _, _, slack = minimum_slack_hyperplane(relevant, y)
            bad = slack > 0
            if not bad.any():
                break
            relevant[bad] = _weston_relevant(y[bad], rng)
    noise = noise_std * rng.standard_normal((n_samples, n_noise))
    return np.hstack([relevant, noise]), y
