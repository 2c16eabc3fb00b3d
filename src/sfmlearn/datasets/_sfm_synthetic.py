"""Synthetic benchmarks of the SFM papers (NC 2-3; thesis 2.5, 3.1, 4.2).

Labels are -1/+1 as in the papers, and the relevant features are always the first
columns (``X[:, :n_relevant]`` / ``X[:, :6]``), so the truth is known without extra
return values. Arguments are checked before any drawing, with scikit-learn's ``validate_params``.
"""

import numpy as np
from sklearn.utils import check_random_state

from ..lp.separability import minimum_slack_hyperplane
from ._arguments import (FLAG, FRACTION, NON_NEGATIVE, POSITIVE, InvalidParameterError, at_least, check_at_most,
                         checked)
from ._docs import datasets_doc

__all__ = [
    "make_basic", "make_weston", "make_nonseparable", "NONSEPARABLE_SCENARIOS",
    "make_random_labels", "make_separable_subspace",
]


#: The constraints of the data's shape (samples, features, the relevant ones).
SHAPE = {"n_samples": at_least(2), "n_features": at_least(1), "n_relevant": at_least(1)}


def _check_relevant(n_relevant, n_features):
    check_at_most(n_relevant, "n_relevant", n_features, "n_features",
                  "the relevant features are a subset of all features")


def _balanced_labels(n_samples, positive_fraction, rng):
    n_pos = int(round(positive_fraction * n_samples))
    if not 0 < n_pos < n_samples:
        raise InvalidParameterError(
            f"positive_fraction={positive_fraction} leaves a class empty at n_samples={n_samples}."
        )
    y = np.r_[np.ones(n_pos), -np.ones(n_samples - n_pos)]
    return y[rng.permutation(n_samples)]


@checked(**SHAPE, class_distance=NON_NEGATIVE, positive_fraction=FRACTION, separable=FLAG)
@datasets_doc
def make_basic(n_samples=100, n_features=100, n_relevant=5, *, class_distance=0.3,
               positive_fraction=0.6, separable=True, random_state=None):
    """The basic experiment of NC 3.1 / thesis 4.2.1.

    The first ``n_relevant`` features are drawn as N(mu y, 1) with mu = ``class_distance``,
    the others as N(0, 1). With ``separable=True`` every sample with
    y * sum_{j < k} x_j <= 0 (the wrong side of the true hyperplane w = (1,...,1, 0,...))
    is redrawn from its class until none is left (NC 3.1), so the classes are separable
    within the relevant features. NC uses ``positive_fraction=0.6`` (60 % vs 40 %), the
    thesis 0.5; both use d = 100 and mu = 0.3.

    Parameters
    ----------
    n_samples : int, default=100
        Number of samples.
    %(relevant_features)s
    positive_fraction : float, default=0.6
        Fraction of samples in class +1.
    separable : bool, default=True
        Redraw samples on the wrong side of the true hyperplane.
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, n_features)
        The samples; ``X[:, :n_relevant]`` are the relevant features.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.

    Examples
    --------
    >>> from sfmlearn.datasets import make_basic
    >>> X, y = make_basic(n_samples=60, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((60, 100), [-1.0, 1.0])
    """
    _check_relevant(n_relevant, n_features)
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


@checked(n_samples=SHAPE["n_samples"], n_noise=at_least(0), noise_std=NON_NEGATIVE, separable=FLAG)
@datasets_doc
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

    Parameters
    ----------
    n_samples : int, default=100
        Number of samples.
    n_noise : int, default=1000
        Number of noise features after the six relevant ones.
    noise_std : float, default=20.0
        Standard deviation of the noise features.
    separable : bool, default=True
        Redraw samples until the six relevant features separate the classes (training
        sets); False for test sets.
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, 6 + n_noise)
        The samples; ``X[:, :6]`` are the relevant features.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.

    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=30, n_noise=100, random_state=0)
    >>> X.shape
    (30, 106)
    >>> support = SupportFeatureMachine().fit(X, y).get_support()
    >>> bool(support[:6].any()), int(support[6:].sum())
    (True, 0)
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


#: Presets of :func:`make_nonseparable` for the four scenarios of thesis Fig. 4.8 /
#: NC Fig. 2. The figure's parameters are not in the text; these follow everything the
#: text states (see :func:`make_nonseparable`). Use as
#: ``make_nonseparable(**NONSEPARABLE_SCENARIOS[2], random_state=0)``.
NONSEPARABLE_SCENARIOS = {
    1: {"n_samples": 50, "n_features": 30, "n_relevant": 20, "class_distance": 0.3},
    2: {"n_samples": 200, "n_features": 100, "n_relevant": 5, "class_distance": 0.3},
    3: {"n_samples": 50, "n_features": 200, "n_relevant": 5, "class_distance": 0.65},
    4: {"n_samples": 50, "n_features": 200, "n_relevant": 5, "class_distance": 0.3},
}


@checked(**SHAPE, class_distance=NON_NEGATIVE)
@datasets_doc
def make_nonseparable(n_samples=200, n_features=100, n_relevant=5, *, class_distance=0.3,
                      random_state=None):
    """Overlapping Gaussian classes of the soft-SFM experiment (thesis 4.2.3, NC 3.3).

    Two classes of equal probability: exactly half of the samples in each class (one
    more in one of them when ``n_samples`` is odd), in random order. The first
    ``n_relevant`` features are x_j ~ N(mu y, 1) with mu = ``class_distance``, the
    others are noise x_j ~ N(0, 1). Nothing is resampled: the class distributions
    overlap (the Bayes error is Phi(-mu sqrt(k))), which is what "non-separable" means
    here. A finite sample in all n_features can still be linearly separable unless
    n_samples is well above 2 n_features (Cover's capacity, thesis 2.5.4) -- draws of
    all four presets below were, as NC 3.3 notes for scenarios 3 and 4 -- so these
    data call for the soft SFM, which trades features against training errors.
    Training and test sets are drawn the same way: call the function twice with
    different seeds.

    The four scenarios of thesis Fig. 4.8 / NC Fig. 2 are in
    :data:`NONSEPARABLE_SCENARIOS`. Their exact (n, d, k) are only in the figure, not
    in the text, so these presets are our choice, consistent with every statement of
    the text: (1) many relevant, few irrelevant, n > d: 20 relevant of 30, n = 50 --
    the text's "at most 7 out of 20" relevant features found; (2) few relevant, many
    irrelevant, n > d: 5 of 100, n = 200, mu = 0.3 -- the text's optimum selects about
    5.4 features, 87 % of them relevant, with a test error of 27.6 % against a Bayes
    error of 25.1 % for k = 5; (3) and (4) more irrelevant features and fewer
    samples, n < d: 5 of 200, n = 50, with mu = 0.65 (test error "well below chance")
    and mu = 0.3 (never "well below chance").

    Returns ``X`` of shape (n_samples, n_features) and ``y`` in {-1, +1}; the truly
    relevant features are ``X[:, :n_relevant]``.

    Parameters
    ----------
    n_samples : int, default=200
        Number of samples.
    %(relevant_features)s
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, n_features)
        The samples; ``X[:, :n_relevant]`` are the relevant features.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}, half of each.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.datasets import make_nonseparable
    >>> X, y = make_nonseparable(random_state=0)
    >>> X.shape, int((y > 0).sum())
    ((200, 100), 100)
    """
    _check_relevant(n_relevant, n_features)
    rng = check_random_state(random_state)
    y = _balanced_labels(n_samples, 0.5, rng)
    X = rng.standard_normal((n_samples, n_features))
    X[:, :n_relevant] += class_distance * y[:, None]
    return X, y


@checked(n_samples=SHAPE["n_samples"], n_features=SHAPE["n_features"], positive_fraction=FRACTION)
@datasets_doc
def make_random_labels(n_samples=20, n_features=1000, *, positive_fraction=0.5,
                       random_state=None):
    """Random Gaussian data with random labels (thesis 2.5.4-2.5.5).

    Every feature is x_j ~ N(0, 1) and the labels are assigned at random, independently
    of X: ``round(positive_fraction * n_samples)`` samples get +1, the others -1. No
    feature carries information, so anything a method finds is chance: with d > n the
    data are almost surely linearly separable (thesis 2.5.4), and the leave-one-out
    error of a hard-margin SVM tends to 1 as d grows (thesis 2.5.5, Theorem 2.5.1).
    Use it to measure incidental separability and the chance level of a pipeline.

    Parameters
    ----------
    n_samples : int, default=20
        Number of samples.
    n_features : int, default=1000
        Number of features.
    positive_fraction : float, default=0.5
        Fraction of samples labelled +1.
    %(seed_then_returns)s
    X : ndarray of shape (n_samples, n_features)
        Standard-normal samples.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}, independent of X.

    Examples
    --------
    >>> from sfmlearn.theory import is_linearly_separable
    >>> from sfmlearn.datasets import make_random_labels
    >>> X, y = make_random_labels(n_samples=20, n_features=1000, random_state=0)
    >>> is_linearly_separable(X, y)   # d > n: random labels separate
    True
    """
    rng = check_random_state(random_state)
    y = _balanced_labels(n_samples, positive_fraction, rng)
    return rng.standard_normal((n_samples, n_features)), y


def _subspace_weights(n_relevant, rng):
    """Unit normal on the relevant features: random signs, magnitudes in [0.5, 1.5]."""
    w = rng.choice([-1.0, 1.0], n_relevant) * rng.uniform(0.5, 1.5, n_relevant)
    return w / np.linalg.norm(w)


def _draw_with_margin(y, w, margin, rng):
    """Rows x ~ N(0, I) conditioned on y_i (x_i . w) >= margin (w a unit vector).

    Rows with |x . w| < margin are redrawn; the others are reflected through the
    hyperplane when on the wrong side. The reflection preserves N(0, I), so each class
    is exactly the standard normal restricted to its half-space beyond the margin.
    """
    X = rng.standard_normal((y.size, w.size))
    t = X @ w
    while (inside := np.abs(t) < margin).any():
        X[inside] = rng.standard_normal((inside.sum(), w.size))
        t[inside] = X[inside] @ w
    flip = np.sign(t) != y
    X[flip] -= 2.0 * t[flip, None] * w
    return X


def _witness_pairs(w, margin, n_noise, rng):
    """For each relevant j a +1/-1 pair that differs in feature j only, on the margin.

    Both points share a random point u of the hyperplane u . w = 0 and one noise vector;
    they are u +- (margin / w_j) e_j, so (x . w) = +-margin. No feature set without j
    can separate them: they coincide there.
    """
    k = w.size
    g = rng.standard_normal((k, k))
    u = g - np.outer(g @ w, w)
    step = np.diag(margin / w)
    noise = rng.standard_normal((k, n_noise))
    X = np.vstack([np.hstack([u + step, noise]), np.hstack([u - step, noise])])
    return X, np.r_[np.ones(k), -np.ones(k)]


@checked(**SHAPE, margin=POSITIVE, return_coef=FLAG)
def make_separable_subspace(n_samples=100, n_features=100, n_relevant=5, *, margin=0.1,
                            return_coef=False, random_state=None):
    """Classes linearly separable in exactly the first ``n_relevant`` features.

    A test bed with a known answer for the SFM's target (NC 2.2, thesis 3.1): the
    smallest feature set in which the classes are linearly separable. A unit normal w
    on the k = ``n_relevant`` relevant features gets random signs and magnitudes
    uniform in [0.5, 1.5] (before normalising). The other features are N(0, 1) noise.
    The samples are of two kinds, shuffled together:

    * n_samples - 2k ordinary samples, classes exactly balanced (one more in one class
      when the count is odd): relevant part x ~ N(0, I_k) conditioned on
      y (x . w) >= ``margin`` (drawn by rejecting |x . w| < margin and reflecting
      through the hyperplane, which preserves N(0, I));
    * k witness pairs: for each relevant feature j, one +1 and one -1 sample that
      coincide in every feature except j (a random point of the hyperplane plus
      +-(margin / w_j) e_j, and one shared noise vector), so (x . w) = +-margin.

    Guaranteed, and verified before returning: the hyperplane x . w = 0 (no bias)
    separates the classes with geometric margin exactly ``margin`` in the k relevant
    features -- certified by the separability LP
    (:func:`~sfmlearn.lp.separability.minimum_slack_hyperplane`, zero slack); and every
    feature set that separates the classes contains all k relevant features (witness
    pair j cannot be separated without feature j). So the relevant features are the
    unique smallest separating set, for every k -- no subset of fewer features, noise
    included, separates by chance. The price: the 2k witness samples are not i.i.d.
    Gaussian (they lie on the margin), so keep ``n_samples`` well above 2k when the
    sample distribution matters.

    Separability here is the usual strict one, y_i (w . x_i + b) > 0 for all i. A
    zero-margin relaxation that accepts points *on* the hyperplane, such as the hard
    SFM's LP constraint y_i (w . x_i + b) >= 0 (NC eq. 2.6), can satisfy a coincident
    witness pair by putting both points on its hyperplane, so it may report smaller
    sets without some relevant features (and then ties on those training points).
    Methods with a positive margin (Weston's zero-norm SVM, the separability LP, a
    hard-margin SVM) see exactly k.

    Parameters
    ----------
    n_samples, n_features, n_relevant : int
        Shape of X and the number k of relevant features (the first k columns);
        ``n_samples >= 2 * n_relevant`` (room for the witness pairs).
    margin : float, default=0.1
        Distance of the closest samples from the true hyperplane (> 0; in units of
        the noise standard deviation).
    return_coef : bool, default=False
        Also return the true unit normal (zero outside the first k entries).
    random_state : int, RandomState instance or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) in {-1, +1}
    coef : ndarray of shape (n_features,), only if ``return_coef``

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import minimum_support
    >>> from sfmlearn.datasets import make_separable_subspace
    >>> X, y = make_separable_subspace(40, 50, n_relevant=3, random_state=0)
    >>> minimum_support(X, y).support   # the unique smallest separating set
    array([0, 1, 2])
    """
    _check_relevant(n_relevant, n_features)
    if n_samples < 2 * n_relevant:
        raise InvalidParameterError(
            f"n_samples={n_samples} is too small for n_relevant={n_relevant}: the data "
            f"hold one witness pair per relevant feature, so n_samples >= {2 * n_relevant}."
        )
    rng = check_random_state(random_state)
    w = _subspace_weights(n_relevant, rng)
    X_pairs, y_pairs = _witness_pairs(w, margin, n_features - n_relevant, rng)
    n_free = n_samples - 2 * n_relevant
    y_free = np.r_[np.ones(n_free - n_free // 2), -np.ones(n_free // 2)][rng.permutation(n_free)]
    X_free = np.hstack([_draw_with_margin(y_free, w, margin, rng),
                        rng.standard_normal((n_free, n_features - n_relevant))])
    order = rng.permutation(n_samples)
    X, y = np.vstack([X_free, X_pairs])[order], np.r_[y_free, y_pairs][order]
    _, _, slack = minimum_slack_hyperplane(X[:, :n_relevant], y)
    if slack.any() or np.min(y * (X[:, :n_relevant] @ w)) < margin * (1 - 1e-9):
        raise RuntimeError("the relevant features do not separate the classes; please report")
    if return_coef:
        return X, y, np.r_[w, np.zeros(n_features - n_relevant)]
    return X, y
