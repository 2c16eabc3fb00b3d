"""Checks of the pyramid's inputs: numeric image, channel axis, mask, shape, levels.

Every public function of :mod:`sfmlearn.imaging.pyramid` validates through these before
any work and works on float64 values with the channels on a trailing axis.
"""

from numbers import Integral

import numpy as np

from ..exceptions import DataValidationError
from ._boundary import BLOCK_EDGE, BOUNDARY_MODES, PAD



def prepare(image, mask, channel_axis, boundary):
    """Validate; return float64 values with a trailing channel axis, the mask, the axis."""
    values, channel_axis = channels_last(image, channel_axis)
    mask = check_mask(mask, values.shape[:-1], boundary)
    check_values(values, mask, boundary)
    return values, mask, channel_axis


def channels_last(image, channel_axis):
    values = np.asarray(image)
    if values.dtype.kind not in "biuf":
        raise DataValidationError(f"image must be numeric; got dtype {values.dtype}.")
    values = values.astype(np.float64)
    if channel_axis is None:
        values = values[..., None]
    else:
        if not isinstance(channel_axis, Integral) or not -values.ndim <= channel_axis < values.ndim:
            raise ValueError(
                f"channel_axis={channel_axis!r} is not an axis of an image with "
                f"{values.ndim} dimensions."
            )
        channel_axis = int(channel_axis) % values.ndim
        values = np.moveaxis(values, channel_axis, -1)
    if values.ndim < 2 or 0 in values.shape:
        raise DataValidationError(
            f"image must have at least one non-empty spatial axis; got shape {np.shape(image)}."
        )
    return values, channel_axis


def check_values(values, mask, boundary):
    if boundary not in BOUNDARY_MODES:
        raise ValueError(f"boundary must be one of {BOUNDARY_MODES}; got {boundary!r}.")
    inside = values if mask is None else values[mask]
    if not np.isfinite(inside).all():
        where = "" if mask is None else " inside the mask"
        raise DataValidationError(
            f"image contains {int((~np.isfinite(inside)).sum())} NaN or infinite values"
            f"{where}. Replace them, or exclude them with a mask."
        )


def check_mask(mask, shape, boundary):
    if mask is None:
        return None
    if boundary == "circular":
        raise ValueError(
            "the 'circular' boundary assumes a periodic rectangular image and cannot be "
            "used with a mask; use 'linear' or 'quadratic'."
        )
    mask = np.asarray(mask)
    if mask.shape != tuple(shape):
        raise DataValidationError(
            f"mask shape {mask.shape} does not match the image's spatial shape {tuple(shape)}."
        )
    mask = mask != 0
    if not mask.any():
        raise DataValidationError("mask is empty: it selects no sample of the image.")
    return mask


def check_shape(shape):
    try:
        shape = tuple(int(n) for n in shape)
    except TypeError as exc:
        raise ValueError(f"shape must be a sequence of axis lengths; got {shape!r}.") from exc
    if not shape or min(shape) < 1:
        raise ValueError(f"shape must hold positive axis lengths; got {shape}.")
    return shape


def check_levels(levels):
    if not isinstance(levels, Integral) or levels < 0:
        raise ValueError(f"levels must be a non-negative integer; got {levels!r}.")
    return int(levels)


def check_pyramid_fits(shapes, masks, boundary):
    """Fail before any work if a level is too small for the boundary mode's blocks."""
    # every level but the coarsest is expanded onto, which extrapolates its two border
    # samples per side from blocks of the samples inside them
    needed = 1 if boundary == "circular" else BLOCK_EDGE[boundary] + 2 * PAD
    for level, shape in enumerate(shapes[:-1]):
        if min(shape) < needed:
            raise DataValidationError(
                f"{len(shapes) - 1} pyramid levels are too many for spatial shape "
                f"{shapes[0]} with the '{boundary}' boundary: level {level} is "
                f"{'x'.join(map(str, shape))} samples, but needs at least {needed} per axis. "
                f"Use levels <= {level} or another boundary mode."
            )
    for level, mask in enumerate(masks):
        if mask is not None and not mask.any():
            raise DataValidationError(
                f"the mask has no samples left at pyramid level {level} (each level keeps "
                f"every second sample). Use fewer than {level} levels or a larger mask."
            )


def restore_channels(values, channel_axis):
    if channel_axis is None:
        return values[..., 0]
    return np.moveaxis(values, -1, channel_axis)
