"""Whether two images lie on one voxel grid, and what differs when they do not.

Images meet in two layers that may not import each other: :mod:`sfmlearn.imaging`
(a user's volumes and masks) and :mod:`sfmlearn.datasets` (the shipped Haxby slice
with a user's mask). Both refuse images on another grid by this one rule: the same
spatial shape, and affines (voxel to mm) that agree to :data:`AFFINE_TOL` mm.

Examples
--------
>>> import numpy as np
>>> from sfmlearn.utils.grids import grid_difference, same_grid
>>> shifted = np.eye(4)
>>> shifted[0, 3] = 0.5   # half a millimetre
>>> same_grid((4, 4, 4), np.eye(4), (4, 4, 4), np.eye(4)), same_grid((4, 4, 4), shifted, (4, 4, 4), np.eye(4))
(True, False)
>>> grid_difference((4, 4, 4), shifted, (4, 4, 4), np.eye(4))
'same shape, affines differing by up to 0.5 mm (tolerance 0.001)'
"""

import numpy as np

__all__ = ["AFFINE_TOL", "affine_gap", "grid_difference", "same_grid"]

#: Two images are on the same grid if their affines agree to this many mm.
AFFINE_TOL = 1e-3


def affine_gap(affine, other_affine):
    """The largest difference between two affines, in mm.

    Parameters
    ----------
    affine, other_affine : array-like of shape (4, 4)
        Voxel-to-mm matrices.

    Returns
    -------
    float
        The largest absolute difference of their entries; inf when one is no 4 x 4 matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.utils.grids import affine_gap
    >>> affine_gap(np.eye(4), 2 * np.eye(4)), affine_gap(np.eye(4), np.eye(3))
    (1.0, inf)
    """
    affine, other_affine = np.asarray(affine, dtype=np.float64), np.asarray(other_affine, dtype=np.float64)
    if affine.shape != (4, 4) or other_affine.shape != (4, 4):
        return np.inf
    return float(np.max(np.abs(affine - other_affine)))


def same_grid(shape, affine, other_shape, other_affine):
    """Whether two voxel grids are one: the same spatial shape, affines within :data:`AFFINE_TOL`.

    Parameters
    ----------
    shape, other_shape : tuple of int
        The spatial shapes (3 numbers).
    affine, other_affine : array-like of shape (4, 4)
        Their voxel-to-mm matrices.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.utils.grids import same_grid
    >>> same_grid((2, 2, 2), np.eye(4), (2, 2, 2), np.eye(4) + 1e-4)
    True
    >>> same_grid((2, 2, 2), np.eye(4), (2, 2, 3), np.eye(4))
    False
    """
    return tuple(shape) == tuple(other_shape) and affine_gap(affine, other_affine) <= AFFINE_TOL


def grid_difference(shape, affine, other_shape, other_affine):
    """What differs between two voxel grids, in words, for an error message.

    Parameters
    ----------
    shape, other_shape : tuple of int
        The spatial shapes (3 numbers).
    affine, other_affine : array-like of shape (4, 4)
        Their voxel-to-mm matrices.

    Returns
    -------
    str
        The two shapes when they differ, else the affines' largest gap and the tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.utils.grids import grid_difference
    >>> grid_difference((2, 2, 2), np.eye(4), (2, 2, 3), np.eye(4))
    'shape (2, 2, 2) vs (2, 2, 3)'
    """
    if tuple(shape) != tuple(other_shape):
        return f"shape {tuple(int(n) for n in shape)} vs {tuple(int(n) for n in other_shape)}"
    return (f"same shape, affines differing by up to {affine_gap(affine, other_affine):.3g} mm "
            f"(tolerance {AFFINE_TOL:g})")
