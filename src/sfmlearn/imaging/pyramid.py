"""Gaussian pyramid with boundary extrapolation and illumination correction (thesis 5.1).

The pyramid (Burt & Adelson) low-pass filters with the separable binomial kernel
h = [1 4 6 4 1]/16 along every spatial axis and works level by level:

    reduce:  G_{i+1} = (down 2)(h * G_i),               (down 2) f(x) = f(2x)
    expand:  G'_{i-1} = 2^D h * ((up 2) G'_i),           D = number of spatial axes

(2^D = 4 for images, 8 for volumes). ``lowpass`` reduces ``levels`` times and expands
back to the input grid (G'_0), ``correct_illumination`` returns f' = f - G'_0 + mean(f).

The 5-tap filter needs two samples beyond every border. How they are made is the
*boundary mode* (thesis 5.1, Figure 5.1):

* in ``reduce`` the image is extended by 2 samples per side and the new samples are
  extrapolated from the image before filtering;
* in ``expand`` the zero-interleaved image is filtered first; the first and last two
  samples of every axis (those whose 5-neighbourhood leaves the image) are then
  recomputed by extrapolation from the inner samples.

Boundary modes (each extension sample q gets g(q) from a block P_q of known samples):

``replicate``
    the nearest known sample.
``circular``
    the image is periodic (x mod m). In ``expand`` the zero-interleaved image is
    filtered periodically. Exact only when every axis length is divisible by
    2**levels; not available with a mask.
``linear``
    the thesis' two-sample rule g = f(p0) + (f(p0) - f(p1)) * |q - p0| along the axis
    that leaves the image, where p0 is the border sample and p1 its inner neighbour.
    In the corners, where several axes leave the image, it is applied along every
    axis in turn, i.e. g is the multilinear interpolant of the 2 x 2 (x 2) block of
    known samples nearest to q. This is exact for every (multi)linear function; the
    thesis' corner rule (the diagonal neighbour times a distance) is not even exact
    for a plane, and the corners never influence the experiment of thesis 5.2.
``quadratic``
    the least-squares second-order polynomial
    (1, x, y, x^2, y^2, xy; in 3-D 1, x, y, z, x^2, y^2, z^2, xy, xz, yz)
    fitted to the 5 x 5 (x 5) block of known samples nearest to q, evaluated at q
    (thesis 5.1: beta = (A^T A)^{-1} A^T b).

Arbitrary masks (thesis eq. 5.2): samples outside the mask are not data; every
outside sample within 2 samples of the mask is extrapolated with the same rules, where
P_q is the block (one sample, 2^D block, 5^D block) lying entirely inside the mask whose
centre is nearest to q in the Euclidean distance (for the 2^D block: whose first
corner is nearest). For a rectangular mask this is exactly the rectangular rule above.
In ``expand`` the in-mask samples whose 5-neighbourhood leaves the mask are recomputed
from the others, so at every level but the coarsest the mask must hold a block of 6
(linear) or 9 (quadratic) samples per axis; otherwise an error names the level.
The mask of level i+1 is the mask of level i subsampled like the image,
``mask[::2, ::2]``; outside its mask an output is NaN (``lowpass``) or the input
(``correct_illumination``).

Odd sizes: ``reduce`` keeps the samples at even positions, so an axis of length m
becomes ceil(m / 2) long; ``expand`` needs the target shape and puts the coarse samples
back at the even positions (ceil(m / 2) == coarse length is required).

Arrays: ``image`` has one, two or three spatial axes (any number works) and optionally
one channel axis (``channel_axis``; colour images are corrected channel by channel).
All arithmetic is float64 and vectorised; the extrapolation touches only the samples
next to the border or mask. ``lowpass`` and ``correct_illumination`` work on the values
divided by a power of two near their largest magnitude and multiply the result back,
which is exact and keeps images with values near the float64 limit from overflowing; a
result beyond that limit is refused.
"""

import numpy as np

from ..exceptions import DataValidationError
from ._boundary import BOUNDARY_MODES, PAD, fill, window_all
from ._docs import imaging_doc
from ._histogram import match_central_histogram
from ._image_checks import (
    channels_last,
    check_blocks_fit,
    check_boundary,
    check_flag,
    check_level_fits,
    check_levels,
    check_mask,
    check_mask_left,
    check_shape,
    check_values,
    prepare,
    restore_channels,
)
from ._scaling import power_of_two_scale, unscaled

__all__ = [
    "BOUNDARY_MODES",
    "check_correction_options",
    "correct_illumination",
    "expand",
    "extend",
    "lowpass",
    "reduce",
    "reduce_mask",
]

KERNEL = np.array([1.0, 4.0, 6.0, 4.0, 1.0]) / 16.0


# ----------------------------------------------------------------------------- public API


def extend(image, boundary="quadratic", *, mask=None, channel_axis=None):
    """Extend an image by 2 samples on each side of every spatial axis (thesis 5.1).

    Parameters
    ----------
    image : array of shape ``(*spatial)`` or with one channel axis
        The image or volume.
    boundary : {"replicate", "circular", "linear", "quadratic"}
        How the new samples are computed (see the module docstring).
    mask : bool array of the spatial shape, optional
        Samples where it is False are not data: they, and the new border samples, are
        extrapolated from the in-mask samples when they lie within 2 samples of the mask
        (thesis eq. 5.2) and are NaN farther away.
    channel_axis : int, optional
        Axis holding colour channels (not extended; channels are independent).

    Returns
    -------
    ndarray of float64
        Every spatial axis 4 samples longer.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.imaging import extend
    >>> extend(np.arange(5.0), "linear")
    array([-2., -1.,  0.,  1.,  2.,  3.,  4.,  5.,  6.])
    >>> extend(np.arange(5.0), "replicate")
    array([0., 0., 0., 1., 2., 3., 4., 4., 4.])
    """
    values, mask, channel_axis = prepare(image, mask, channel_axis, boundary, operation="extend")
    return restore_channels(_extend(values, mask, boundary), channel_axis)


@imaging_doc
def reduce(image, boundary="quadratic", *, mask=None, channel_axis=None):
    """One pyramid reduction G_{i+1} = (down 2)(h * G_i) with boundary extrapolation.

    Each spatial axis of length m becomes ceil(m / 2) long (the samples at even positions
    of the filtered image are kept). With ``mask``, the result is NaN outside
    ``reduce_mask(mask)``. Works for 2-D images, colour images (``channel_axis``) and
    3-D volumes; this is the operation of the fMRI downsampling of thesis 6.4.4 with
    ``boundary="linear"``.

    Parameters
    ----------
    image : array of shape ``(*spatial)`` or with one channel axis
        The image or volume.
    %(boundary_mask_channels)s

    Returns
    -------
    ndarray of float64
        Every spatial axis ceil(m / 2) long.

    Examples
    --------
    >>> import numpy as np
    >>> image = 100 + 0.5 * np.mgrid[0:64, 0:64][1]   # brighter to the right
    >>> from sfmlearn.imaging import reduce
    >>> reduce(image).shape
    (32, 32)
    """
    values, mask, channel_axis = prepare(image, mask, channel_axis, boundary, operation="reduce")
    return restore_channels(_reduce(values, mask, boundary), channel_axis)


def expand(image, shape, boundary="quadratic", *, mask=None, channel_axis=None):
    """One pyramid expansion G'_{i-1} = 2^D h * ((up 2) G'_i) onto the grid ``shape``.

    ``shape`` is the spatial shape of the finer level; every axis must satisfy
    ceil(shape[a] / 2) == image.shape[a]. The two samples next to every border (or, with
    ``mask``, the in-mask samples within 2 samples of the mask's edge) are recomputed by
    extrapolation from the inner samples (thesis Figure 5.1, steps 12-13). ``mask`` is the
    mask of the *finer* level; the coarse image is read only on ``reduce_mask(mask)``.

    Parameters
    ----------
    image : array of shape ``(*spatial)`` or with one channel axis
        The coarse level.
    shape : tuple of int
        Spatial shape of the finer level.
    boundary : {"replicate", "circular", "linear", "quadratic"}, default="quadratic"
        Boundary extrapolation (module docstring).
    mask : bool array of the spatial shape, optional
        The samples of the finer level that are data (thesis eq. 5.2).
    channel_axis : int, optional
        Axis holding colour channels (processed independently).

    Returns
    -------
    ndarray of float64
        The expanded image on the grid ``shape``.

    Examples
    --------
    >>> import numpy as np
    >>> image = 100 + 0.5 * np.mgrid[0:64, 0:64][1]   # brighter to the right
    >>> from sfmlearn.imaging import expand, reduce
    >>> expand(reduce(image), image.shape).shape
    (64, 64)
    """
    shape = check_shape(shape)
    check_boundary(boundary, masked=mask is not None)
    values, channel_axis = channels_last(image, channel_axis)
    coarse_shape = values.shape[:-1]
    if len(shape) != len(coarse_shape) or any(
        (n + 1) // 2 != c for n, c in zip(shape, coarse_shape)
    ):
        raise DataValidationError(
            f"cannot expand spatial shape {coarse_shape} onto {shape}: every target length n "
            "must satisfy ceil(n / 2) == the coarse length (the shape the image had before "
            "reduce)."
        )
    mask = check_mask(mask, shape)
    if mask is None:
        check_blocks_fit(shape, boundary, "expand")
    check_values(values, None if mask is None else reduce_mask(mask))
    return restore_channels(_expand(values, shape, mask, boundary), channel_axis)


def reduce_mask(mask):
    """The mask of the next coarser pyramid level: ``mask[::2, ::2(, ::2)]``.

    A coarse sample is inside iff the fine sample it is taken from (the one at the even
    position) is inside, so ``reduce(image, mask=mask)`` is defined exactly on it.

    Parameters
    ----------
    mask : bool array of 2 or 3 dimensions
        The mask of the finer level.

    Returns
    -------
    ndarray of bool
        The coarse mask.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.imaging import reduce_mask
    >>> reduce_mask(np.ones((5, 5), bool)).shape
    (3, 3)
    """
    mask = np.asarray(mask)
    if mask.ndim == 0:
        raise DataValidationError("mask must be an array of the image's spatial shape.")
    return (mask != 0)[(slice(None, None, 2),) * mask.ndim]


@imaging_doc
def lowpass(image, levels=5, boundary="quadratic", *, mask=None, channel_axis=None):
    """Low-frequency part G'_0 of ``image``: ``levels`` reductions, then as many expansions.

    Thesis 5.1, Figure 5.1 steps 1-16. ``levels=0`` returns the image unchanged. With
    ``mask`` the result is NaN outside the mask. The image must be large enough for the
    boundary mode at the coarsest level (an error says how many levels fit).

    Parameters
    ----------
    image : array of shape ``(*spatial)`` or with one channel axis
        The image or volume.
    levels : int, default=5
        Number of reductions (and expansions).
    %(boundary_mask_channels)s

    Returns
    -------
    ndarray of float64
        G'_0, on the grid of ``image``.

    Examples
    --------
    >>> import numpy as np
    >>> image = 100 + 0.5 * np.mgrid[0:64, 0:64][1]   # brighter to the right
    >>> from sfmlearn.imaging import lowpass
    >>> bool(np.allclose(lowpass(image, 3), image))   # quadratic extrapolation keeps a ramp
    True
    """
    levels = check_levels(levels)
    values, mask, channel_axis = prepare(image, mask, channel_axis, boundary)
    scale = power_of_two_scale(values if mask is None else values[mask])
    low = _lowpass(values / scale, levels, mask, boundary)
    return restore_channels(unscaled(low, scale), channel_axis)


def correct_illumination(image, levels=5, boundary="quadratic", *, mask=None,
                         match_histogram=False, channel_axis=None):
    """Remove smooth illumination gradients: f' = f - G'_0 + mean(f) (thesis 5.1).

    G'_0 = ``lowpass(image, levels, boundary)`` is the expanded low-pass image; mean(f)
    is the mean of the input (over the mask, per channel), so the corrected image keeps
    the input's intensity level. Colour images are corrected channel by channel
    (``channel_axis``, e.g. -1 for H x W x 3).

    Parameters
    ----------
    image : array of shape ``(*spatial)`` or with one channel axis
        The image or volume.
    levels : int
        Pyramid depth (5 in the thesis' experiments on 1280 x 1024 and 1392 x 1040 images).
    boundary : {"replicate", "circular", "linear", "quadratic"}
        Boundary extrapolation; "linear" and "quadratic" avoid the border darkening that
        "replicate" and "circular" cause (thesis 5.2).
    mask : bool array of the spatial shape, optional
        Correct only the samples inside; outside samples are returned unchanged and never
        read (thesis eq. 5.2).
    match_histogram : bool
        Afterwards map the corrected values (per channel, inside the mask) so that their
        histogram matches that of the input's central part — the middle half of every
        spatial axis, the central quarter of an image — as in the thesis' texture
        experiment (5.2). This undoes the histogram change the correction may cause,
        e.g. with saturated pixels.
    channel_axis : int, optional
        Axis holding colour channels (corrected independently).

    Returns
    -------
    ndarray of float64 with the input's shape.

    Examples
    --------
    >>> import numpy as np
    >>> image = 100 + 0.5 * np.mgrid[0:64, 0:64][1]   # brighter to the right
    >>> from sfmlearn.imaging import correct_illumination
    >>> corrected = correct_illumination(image, levels=3)
    >>> round(float(np.ptp(image)), 1), round(float(np.ptp(corrected)), 6)   # the ramp is gone
    (31.5, 0.0)
    """
    levels = check_correction_options(levels, boundary, masked=mask is not None,
                                      match_histogram=match_histogram)
    values, mask, channel_axis = prepare(image, mask, channel_axis, boundary)
    inside = np.ones(values.shape[:-1], dtype=bool) if mask is None else mask
    scale = power_of_two_scale(values[inside])
    scaled = values / scale
    low = _lowpass(scaled, levels, mask, boundary)
    result = scaled[inside] - low[inside] + scaled[inside].mean(axis=0)
    if match_histogram:
        result = match_central_histogram(result, scaled, mask)
    corrected = values.copy()
    corrected[inside] = unscaled(result, scale)
    return restore_channels(corrected, channel_axis)


def check_correction_options(levels=5, boundary="quadratic", *, masked=False, match_histogram=False):
    """Refuse bad options of :func:`correct_illumination` before any image is read.

    For callers that read the image themselves (the ``correct-illumination`` command), so
    that a bad option or combination ('circular' with a mask) fails before the reading and
    the work; :func:`correct_illumination` checks the same.

    Parameters
    ----------
    levels : int
        Pyramid depth, a whole number >= 0 (not a bool).
    boundary : str
        One of :data:`BOUNDARY_MODES`.
    masked : bool
        Whether a mask will be given.
    match_histogram : bool
        The flag of :func:`correct_illumination` (True or False only).

    Returns
    -------
    int
        ``levels``.

    Examples
    --------
    >>> from sfmlearn.imaging.pyramid import check_correction_options
    >>> check_correction_options(3, "linear", masked=True)
    3
    """
    check_boundary(boundary, masked=masked)
    check_flag(match_histogram, "match_histogram")
    return check_levels(levels)


# -------------------------------------------------------------------------- pyramid steps


def _pyramid_grids(shape, levels, mask, boundary):
    """Spatial shapes and masks of the levels 0 .. ``levels``, checked before any work.

    Built level by level, the first level too small for the boundary mode (or left without
    mask samples) ends the check: every level halves each axis, so however many levels
    are asked for, at most about log2 of the longest axis are built before the error.
    """
    shapes, masks = [tuple(shape)], [mask]
    for level in range(levels):
        check_level_fits(shapes[-1], level, levels, shape, boundary)
        shapes.append(tuple((n + 1) // 2 for n in shapes[-1]))
        masks.append(None if mask is None else reduce_mask(masks[-1]))
        check_mask_left(masks[-1], level + 1)
    return shapes, masks


def _lowpass(values, levels, mask, boundary):
    shapes, masks = _pyramid_grids(values.shape[:-1], levels, mask, boundary)
    current = values
    level = 0
    try:
        for level in range(levels):
            current = _reduce(current, masks[level], boundary)
        for level in reversed(range(levels)):
            current = _expand(current, shapes[level], masks[level], boundary)
    except DataValidationError as exc:  # say where in the pyramid it happened, and that fewer levels avoid it
        fewer = f" Or use levels <= {level}." if level else ""  # no levels: no correction at all
        raise DataValidationError(f"pyramid level {level} ({'x'.join(map(str, shapes[level]))} "
                                  f"samples): {exc}{fewer}") from exc
    return current


def _reduce(values, mask, boundary):
    filtered = _filter_valid(_extend(values, mask, boundary))
    coarse = np.ascontiguousarray(filtered[(slice(None, None, 2),) * (values.ndim - 1)])
    if mask is not None:
        coarse[~reduce_mask(mask)] = np.nan
    return coarse


def _expand(values, shape, mask, boundary):
    ndim = len(shape)
    upsampled = np.zeros(tuple(shape) + values.shape[-1:])
    upsampled[(slice(None, None, 2),) * ndim] = values
    pad_mode = "wrap" if boundary == "circular" else "constant"
    padded = np.pad(upsampled, [(PAD, PAD)] * ndim + [(0, 0)], mode=pad_mode)
    fine = _filter_valid(padded) * 2.0**ndim
    if boundary == "circular":
        return fine
    inside = np.ones(shape, dtype=bool) if mask is None else mask
    # samples whose whole 5^D neighbourhood lies inside were filtered from data only
    reliable = window_all(np.pad(inside, PAD, constant_values=False), 2 * PAD + 1)
    fine[~reliable] = np.nan
    box = [(PAD, n - 1 - PAD) for n in shape] if mask is None else None
    return fill(fine, reliable, inside & ~reliable, boundary, box)


def _extend(values, mask, boundary):
    ndim = values.ndim - 1
    pad = [(PAD, PAD)] * ndim + [(0, 0)]
    if boundary == "circular":
        return np.pad(values, pad, mode="wrap")
    padded = np.pad(values, pad, constant_values=np.nan)
    inner = (slice(PAD, -PAD),) * ndim
    known = np.zeros(padded.shape[:-1], dtype=bool)
    if mask is None:
        known[inner] = True
        box = [(PAD, n + PAD - 1) for n in values.shape[:-1]]
        targets = ~known
    else:
        known[inner] = mask
        padded[~known] = np.nan
        box = None
        near = ~window_all(np.pad(~known, PAD, constant_values=True), 2 * PAD + 1)
        targets = near & ~known
    return fill(padded, known, targets, boundary, box)


def _filter_valid(padded):
    """Separable binomial filter over every spatial axis, keeping only complete windows."""
    out = padded
    for axis in range(padded.ndim - 1):
        n = out.shape[axis] - 2 * PAD
        taps = [out[(slice(None),) * axis + (slice(k, k + n),)] for k in range(KERNEL.size)]
        out = ((taps[0] + taps[4]) * KERNEL[0] + (taps[1] + taps[3]) * KERNEL[1]
               + taps[2] * KERNEL[2])  # the kernel is symmetric
    return out
