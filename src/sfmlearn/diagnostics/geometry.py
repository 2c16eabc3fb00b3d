"""Distance concentration and hubness: is your data "high-dimensional" yet? (thesis 2.5.2-2.5.3)

As d grows with n fixed, points drawn at random take a deterministic shape (Hall et
al. 2005): all norms and pairwise distances become equal (relative to their size), all
pairwise angles approach 90 degrees, the points sit on the vertices of a regular
simplex. Nearest-neighbour and distance-based methods lose their meaning, and some
points ("hubs") appear among the k nearest neighbours of many others (Radovanovic et
al. 2010). These functions measure both effects on your data:

* :func:`relative_variance` - RV = sqrt(var(v)) / mean(v) (thesis 2.5.2; François et
  al. 2007); :func:`norm_concentration` applies it to the L_p norms of the samples.
  Values near 0 mean concentration.
* :func:`angle_statistics` - pairwise angles between the sample vectors.
* :func:`k_occurrence` / :func:`hubness` - N_k(x), the number of times x is among the k
  nearest neighbours of the other points, and the skewness of its distribution
  (about 0 without hubs, large and positive with hubs).
* :func:`concentration_curves` - thesis Fig. 2.5 for random data of any dimension.
"""

import numpy as np
import pandas as pd
from scipy.spatial.distance import pdist
from scipy.stats import skew
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_array

from ..exceptions import DataValidationError
from ..utils import spawn_seeds
from .._validation import check_count
from ._checks import check_nonneg
from ._docs import diagnostics_doc
from .sampling import sample_embedded_classes

__all__ = [
    "relative_variance",
    "norm_concentration",
    "pairwise_angles",
    "angle_statistics",
    "k_occurrence",
    "hubness",
    "concentration_curves",
]


def _check_data(X, min_samples=2):
    X = check_array(X, dtype=np.float64, ensure_min_samples=min_samples)
    return X


def relative_variance(values):
    """RV = sqrt(var(v)) / E(v) (thesis 2.5.2): spread of positive quantities relative to their size.

    Parameters
    ----------
    values : array-like
        Non-negative quantities (norms, distances), not all 0.

    Returns
    -------
    float
        RV.

    Examples
    --------
    >>> from sfmlearn.diagnostics import relative_variance
    >>> round(float(relative_variance([1.0, 2.0, 3.0])), 4)
    0.4082
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size < 2 or not np.all(np.isfinite(v)):
        raise DataValidationError("relative_variance needs at least two finite values.")
    if np.any(v < 0):
        raise DataValidationError(
            "relative_variance measures non-negative quantities (norms, distances); got the negative value "
            f"{v.min():g}. Pass magnitudes, e.g. np.abs(values) or the norms of the samples.")
    mean = v.mean()
    if mean <= 0:
        raise DataValidationError(f"relative_variance needs values with a positive mean; got mean {mean:g}.")
    return float(v.std() / mean)


@diagnostics_doc
def norm_concentration(X, p=2.0):
    """Relative variance RV_{F,p} of the L_p norms of the samples (rows of X), thesis 2.5.2.

    ``p`` may be fractional (0 < p < 1; no longer a norm), which Aggarwal et al. (2001)
    found less prone to concentration than p = 2. RV tends to 0 as d grows.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The samples.
    p : float, default=2.0
        The exponent of the L_p norm.

    Returns
    -------
    float
        RV of the norms.

    Examples
    --------
    In 1000 dimensions the norms of Gaussian samples are all alike:

    %(gaussian_cloud)s
    >>> from sfmlearn.diagnostics import norm_concentration
    >>> round(float(norm_concentration(X)), 3)
    0.019
    """
    X = _check_data(X)
    p = check_nonneg("p", p, positive=True)
    norms = np.sum(np.abs(X) ** p, axis=1) ** (1.0 / p)
    return relative_variance(norms)


@diagnostics_doc
def pairwise_angles(X, *, center=False):
    """Angles (degrees) between all pairs of sample vectors, condensed like ``pdist``.

    Measured from the origin as in thesis Fig. 2.5 (for centred data pass ``center=True``
    to measure them from the sample mean). Zero vectors have no angle and are rejected.

    Parameters
    ----------
    %(samples_center)s

    Returns
    -------
    ndarray of shape (n_samples * (n_samples - 1) / 2,)
        The angles in degrees, in ``pdist`` order.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.diagnostics import pairwise_angles
    >>> pairwise_angles(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    array([90., 45., 45.])
    """
    X = _check_data(X)
    if center:
        X = X - X.mean(axis=0)
    norms = np.linalg.norm(X, axis=1)
    if np.any(norms == 0):
        raise DataValidationError("pairwise_angles: a sample is the zero vector (the origin); it has no angle.")
    cosines = 1.0 - pdist(X, metric="cosine")
    return np.degrees(np.arccos(np.clip(cosines, -1.0, 1.0)))


@diagnostics_doc
def angle_statistics(X, *, center=False):
    """Mean, standard deviation, minimum and maximum of the pairwise angles in degrees.

    Parameters
    ----------
    %(samples_center)s

    Returns
    -------
    dict
        ``mean``, ``std``, ``min``, ``max`` in degrees.

    Examples
    --------
    %(gaussian_cloud)s
    >>> from sfmlearn.diagnostics import angle_statistics
    >>> round(angle_statistics(X)["mean"])   # random vectors in 1000-D are nearly orthogonal
    90
    """
    angles = pairwise_angles(X, center=center)
    return {"mean": float(angles.mean()), "std": float(angles.std()),
            "min": float(angles.min()), "max": float(angles.max())}


@diagnostics_doc
def k_occurrence(X, k=5, *, metric="euclidean"):
    """N_k(x_i): how often sample i is among the k nearest neighbours of the other samples.

    Each sample's own position is excluded from its neighbour list; the counts sum to
    n k and have mean k (thesis 2.5.3).

    Parameters
    ----------
    %(neighbours)s

    Returns
    -------
    ndarray of int of shape (n_samples,)
        N_k of every sample.

    Examples
    --------
    %(gaussian_cloud)s
    >>> from sfmlearn.diagnostics import k_occurrence
    >>> counts = k_occurrence(X, 3)
    >>> int(counts.sum()), float(counts.mean())
    (30, 3.0)
    """
    X = _check_data(X, min_samples=3)
    k = check_count("k", k, 1)
    if k >= X.shape[0]:
        raise DataValidationError(f"k must be at most n_samples - 1 = {X.shape[0] - 1}; got {k}.")
    neighbours = NearestNeighbors(n_neighbors=k, metric=metric).fit(X).kneighbors(return_distance=False)
    return np.bincount(neighbours.ravel(), minlength=X.shape[0])


@diagnostics_doc
def hubness(X, k=5, *, metric="euclidean"):
    """Skewness of the N_k distribution (Radovanovic et al. 2010; thesis 2.5.3).

    About 0 (a Poisson-like N_k) in low dimensions; clearly positive when hubs exist.

    Parameters
    ----------
    %(neighbours)s

    Returns
    -------
    float
        The skewness of N_k.

    Examples
    --------
    A few samples of a high-dimensional Gaussian cloud are the nearest neighbours of many:

    %(gaussian_cloud)s
    >>> from sfmlearn.diagnostics import hubness
    >>> round(float(hubness(X, 3)), 2)
    0.73
    """
    return float(skew(k_occurrence(X, k, metric=metric)))


def _gram_geometry(E, d):
    """Normalised norms, distances, angles and eigenvalues from the coordinates E."""
    K = E @ E.T
    sq = np.diag(K)
    iu = np.triu_indices(K.shape[0], 1)
    dist2 = sq[:, None] + sq[None, :] - 2 * K
    cos = K[iu] / np.sqrt(sq[:, None] * sq[None, :])[iu]
    return {
        "norm": np.sqrt(sq / d),
        "distance": np.sqrt(np.maximum(dist2[iu], 0.0) / (2 * d)),
        "angle": np.degrees(np.arccos(np.clip(cos, -1, 1))),
        "eigenvalue": np.linalg.eigvalsh(K / d),
    }


def concentration_curves(d_values, n=10, n_runs=100, random_state=None):
    """Thesis Fig. 2.5: how n standard-normal points concentrate as d grows.

    For every d and run it measures the norms ||x_i|| / sqrt(d), the pairwise distances
    ||x_i - x_j|| / sqrt(2d), the pairwise angles (degrees) and the eigenvalues of the
    n x n matrix X X' / d (the non-zero spectrum of the sample second-moment matrix per
    feature), and records their mean, minimum and maximum. All four tend to 1 (angles to
    90) as d -> infinity. The normalisation makes the limits visible on one scale; the
    thesis plots the same quantities. Gram matrices are drawn exactly in O(n^2) per run
    (:func:`~sfmlearn.diagnostics.sampling.sample_embedded_classes`), so any d is cheap.

    Parameters
    ----------
    d_values : sequence of int
        Dimensions (whole numbers >= 1, at least one).
    n : int, default=10
        Number of points (>= 2).
    n_runs : int, default=100
        Runs per dimension (>= 1).
    random_state : int, Generator or None
        Seeds the runs.

    Returns
    -------
    pandas.DataFrame
        Columns d, quantity, mean, min, max (each averaged over the runs).

    Examples
    --------
    >>> from sfmlearn.diagnostics import concentration_curves
    >>> curves = concentration_curves([10, 1000], n=5, n_runs=3, random_state=0)
    >>> angles = curves[curves.quantity == "angle"]
    >>> angles[["d", "min", "max"]].round(1).to_dict("list")
    {'d': [10, 1000], 'min': [63.6, 86.7], 'max': [108.4, 91.4]}
    """
    n, n_runs = check_count("n", n, 2), check_count("n_runs", n_runs, 1)
    d_values = [check_count("every d", d, 1) for d in d_values]
    if not d_values:
        raise DataValidationError("d_values is empty; give at least one dimension.")
    seeds = spawn_seeds(random_state, len(d_values))
    rows = []
    for d, seed in zip(d_values, seeds):
        stats = {}
        for run_seed in seed.spawn(n_runs):
            E, _ = sample_embedded_classes(n, 0, d, random_state=run_seed)
            for name, values in _gram_geometry(E, d).items():
                stats.setdefault(name, []).append((values.mean(), values.min(), values.max()))
        for name, triples in stats.items():
            mean, low, high = np.mean(triples, axis=0)
            rows.append({"d": d, "quantity": name, "mean": mean, "min": low, "max": high})
    table = pd.DataFrame(rows)
    table.attrs["n"] = int(n)
    return table
