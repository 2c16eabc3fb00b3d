"""The ground-truth problems of ML05 5.1 (Figs. 1 and 2).

Labels are -1/+1 and depend on the first two features only; the ``n_noise`` further
features are drawn from the same distribution and carry no information, so a selector
should return exactly columns 0 and 1. ML05 uses n = 64 random points in R^4 (two noise
features) and does not state the sampling distribution; both generators draw uniformly
on a box (documented per function). Arguments are checked before any drawing, with
scikit-learn's ``validate_params``.
"""

import numpy as np
from sklearn.utils import check_random_state

from ._arguments import POSITIVE, InvalidParameterError, at_least, checked
from ._docs import datasets_doc

__all__ = ["make_quadratic_circle", "make_chessboard"]

#: The constraints of the sizes: samples, and noise features after the two true ones.
SIZES = {"n_samples": at_least(2), "n_noise": at_least(0)}


def _check_circle_fits(radius, half_width):
    """Refuse a circle that holds the whole box of the features: every label would be -1."""
    corner = half_width * np.sqrt(2.0)
    if radius >= corner:
        raise InvalidParameterError(
            f"radius={radius} leaves no point outside the circle: the features are uniform on "
            f"[-{half_width}, {half_width}], whose corners lie {corner:.3g} from the centre; use a radius "
            f"below {corner:.3g} or a larger half_width.")


@checked(**SIZES, radius=POSITIVE, half_width=POSITIVE)
@datasets_doc
def make_quadratic_circle(n_samples=64, n_noise=2, *, radius=1.0, half_width=1.5,
                          random_state=None):
    """ML05 Fig. 1: y = sgn(x_1^2 + x_2^2 - radius^2), not linearly separable.

    All 2 + ``n_noise`` features are uniform on [-half_width, half_width]; with the
    defaults about 35 % of the points fall inside the circle (y = -1), the unequal class
    sizes of ML05 Fig. 1. Points exactly on the circle get y = +1.

    Parameters
    ----------
    %(ml05_sizes)s
    radius : float, default=1.0
        Radius of the circle (> 0 and below the corners' distance half_width * sqrt(2),
        so that both classes can occur).
    half_width : float, default=1.5
        Features are uniform on [-half_width, half_width] (> 0).
    %(seed_then_returns)s
    %(two_features_and_noise)s
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} (-1 inside the circle).

    Examples
    --------
    >>> from sfmlearn.datasets import make_quadratic_circle
    >>> X, y = make_quadratic_circle(random_state=0)
    >>> inside = X[:, 0] ** 2 + X[:, 1] ** 2 < 1.0     # within the unit circle
    >>> X.shape, bool((y[inside] == -1).all())
    ((64, 4), True)
    """
    _check_circle_fits(radius, half_width)
    rng = check_random_state(random_state)
    X = rng.uniform(-half_width, half_width, size=(n_samples, 2 + n_noise))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 - radius**2 >= 0, 1.0, -1.0)
    return X, y


@checked(**SIZES, n_cells=at_least(2), cell_size=POSITIVE)
@datasets_doc
def make_chessboard(n_samples=64, n_noise=2, *, n_cells=2, cell_size=2.0, random_state=None):
    """ML05 Fig. 2: (y + 1)/2 = (floor(x_1 / 2) mod 2) XOR (floor(x_2 / 2) mod 2).

    All features are uniform on [0, n_cells * cell_size), so the first two span an
    ``n_cells`` x ``n_cells`` board of squares of side ``cell_size`` (2 in ML05). Neither
    feature alone carries information. The default 2 x 2 board (XOR) is the size 64
    samples can resolve: on 3 x 3 and 4 x 4 boards a Gaussian SVM on the two true
    features stayed near chance (test accuracy 0.50-0.60 in our runs).

    Parameters
    ----------
    %(ml05_sizes)s
    n_cells : int, default=2
        Squares per side of the board.
    cell_size : float, default=2.0
        Side of a square.
    %(seed_then_returns)s
    %(two_features_and_noise)s
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.

    Examples
    --------
    >>> from sfmlearn.datasets import make_chessboard
    >>> X, y = make_chessboard(n_cells=3, random_state=0)   # a 3 x 3 board of 2 x 2 squares
    >>> X.shape, bool(X[:, :2].max() < 6.0)
    ((64, 4), True)
    """
    rng = check_random_state(random_state)
    X = rng.uniform(0.0, n_cells * cell_size, size=(n_samples, 2 + n_noise))
    cells = np.floor(X[:, :2] / cell_size).astype(int) % 2
    y = np.where(cells[:, 0] ^ cells[:, 1], 1.0, -1.0)
    return X, y
