"""Boundary extrapolation of the Gaussian pyramid (thesis 5.1, Figure 5.1, eq. 5.2).

Every extension sample q gets g(q) = phi(q - c)^T (A^T A)^{-1} A^T b, the polynomial of
the boundary mode (constant, multilinear or quadratic) fitted to the block b of known
samples nearest to q; :mod:`sfmlearn.imaging.pyramid` describes the modes.
"""

from itertools import combinations

import numpy as np
from scipy.ndimage import distance_transform_edt

from ..exceptions import DataValidationError

BOUNDARY_MODES = ("replicate", "circular", "linear", "quadratic")
PAD = 2  # samples added per side: half the kernel length
BLOCK_EDGE = {"replicate": 1, "linear": 2, "quadratic": 5}
CHUNK = 1 << 21  # block samples gathered at once (bounds the memory to 16 MB)



def fill(values, known, targets, boundary, box):
    """Return ``values`` with g(q) written into every target sample q.

    g(q) = phi(q - c)^T (A^T A)^{-1} A^T b: the polynomial of the boundary mode fitted by
    least squares (exactly, for replicate and linear) to the block b of known samples
    chosen for q, evaluated at q. A is the same for every block, so the fit is one small
    matrix. ``box`` = per-axis (first, last) known index when the known samples form a
    box (the nearest block is then a clamp; the callers check first that a block fits in
    it, so that the error can name their grid); otherwise the nearest block is found with
    a Euclidean distance transform.
    """
    ndim = known.ndim
    edge = BLOCK_EDGE[boundary]
    half = (edge - 1) // 2
    offsets = np.indices((edge,) * ndim).reshape(ndim, -1).T  # block grid, first corner 0
    solve = np.linalg.pinv(basis(boundary, offsets - half))  # (A^T A)^{-1} A^T
    points = np.argwhere(targets)
    if box is None:
        corners = nearest_block_corners(known, edge, half, points)
    else:
        first = np.array([lo for lo, _ in box])
        last = np.array([hi for _, hi in box]) - edge + 1
        corners = np.clip(points - half, first, last)
    values = np.ascontiguousarray(values)
    flat = values.reshape(-1, values.shape[-1])  # a view: writes go into ``values``
    strides = np.array([int(np.prod(known.shape[a + 1:])) for a in range(ndim)])
    # targets at the same position relative to their block share their weights
    relative = points - corners - half
    low = relative.min(axis=0, initial=0)
    keys = np.ravel_multi_index((relative - low).T, relative.max(axis=0, initial=0) - low + 1)
    _, representative, pattern = np.unique(keys, return_index=True, return_inverse=True)
    pattern_weights = basis(boundary, relative[representative]) @ solve
    chunk = max(1, CHUNK // (len(offsets) * values.shape[-1]))
    for start in range(0, len(points), chunk):
        rows = slice(start, start + chunk)
        block = flat[(corners[rows] @ strides)[:, None] + offsets @ strides]
        weights = pattern_weights[pattern.ravel()[rows]]
        flat[points[rows] @ strides] = np.einsum("tk,tkc->tc", weights, block)
    return values


def basis(boundary, coords):
    """Polynomial terms of a boundary mode at the given coordinates (rows)."""
    n, ndim = coords.shape
    if boundary == "replicate":
        return np.ones((n, 1))
    if boundary == "linear":  # multilinear: every product of distinct coordinates
        return np.column_stack([
            np.prod(coords[:, list(axes)], axis=1)
            for order in range(ndim + 1) for axes in combinations(range(ndim), order)
        ]).astype(float)
    columns = [np.ones(n)] + [coords[:, a] for a in range(ndim)]
    columns += [coords[:, a] ** 2 for a in range(ndim)]
    columns += [coords[:, a] * coords[:, b] for a, b in combinations(range(ndim), 2)]
    return np.column_stack(columns).astype(float)


def nearest_block_corners(known, edge, half, points):
    """First corner of the edge^D block inside ``known`` whose centre is nearest each point."""
    fits = min(known.shape) >= edge
    complete = window_all(known, edge) if fits else None  # indexed by first corner
    if not fits or not complete.any():
        raise DataValidationError(
            f"the mask has no {'x'.join([str(edge)] * known.ndim)} block of samples to "
            "extrapolate from. Use a larger mask or a boundary mode that needs smaller "
            "blocks ('linear': 2 per axis, 'replicate': 1)."
        )
    centres = np.zeros(known.shape, dtype=bool)
    centres[tuple(slice(half, half + n) for n in complete.shape)] = complete
    _, nearest = distance_transform_edt(~centres, return_indices=True)
    return nearest[(slice(None),) + tuple(points.T)].T - half


def window_all(array, edge):
    """For every window of ``edge`` samples per axis: are all of them True? (separable)"""
    out = array
    for axis in range(array.ndim):
        out = np.lib.stride_tricks.sliding_window_view(out, edge, axis=axis).all(axis=-1)
    return out
