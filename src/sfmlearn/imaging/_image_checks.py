"""Checks of the pyramid's inputs: numeric image, channel axis, mask, shape, levels, options.

Every public function of :mod:`sfmlearn.imaging.pyramid` validates through these before
any work and works on float64 values with the channels on a trailing axis.
"""

from numbers import Integral

import numpy as np

from ..exceptions import DataValidationError
from ._boundary import BLOCK_EDGE, BOUNDARY_MODES, PAD



def prepare(image, mask, channel_axis, boundary, operation=None):
    """Validate; return float64 values with a trailing channel axis, the mask, the axis.

    ``operation`` ("extend" or "reduce") is the extrapolating step about to run on the
    image; without a mask, its grid must fit the boundary mode's block (:func:`check_blocks_fit`).
    """
    check_boundary(boundary, masked=mask is not None)
    values, channel_axis = channels_last(image, channel_axis)
    mask = check_mask(mask, values.shape[:-1])
    check_values(values, mask)
    if operation is not None and mask is None:
        check_blocks_fit(values.shape[:-1], boundary, operation)
    return values, mask, channel_axis


def numeric_array(value, name, expected):
    """``value`` as an array of booleans or real numbers; otherwise an error that says how to pass one.

    A file name or a nibabel image becomes a 0-d array of text or objects; the error names
    its type and says to read the file into an array first. ``expected`` words what
    ``name`` must hold.
    """
    array = np.asarray(value)
    if array.dtype.kind in "biuf":
        return array
    got = f"a {type(value).__name__}" if array.ndim == 0 else f"an array of dtype {array.dtype}"
    fix = ("take their magnitude first (numpy.abs)" if array.dtype.kind == "c" else
           "pass a numpy array; read a file into one first (e.g. nibabel.load(path).get_fdata())")
    raise DataValidationError(f"{name} must {expected}; got {got}: {fix}.")


def channels_last(image, channel_axis):
    values = numeric_array(image, "image", "be numeric").astype(np.float64)
    if channel_axis is None:
        values = values[..., None]
    else:
        if (isinstance(channel_axis, bool) or not isinstance(channel_axis, Integral)
                or not -values.ndim <= channel_axis < values.ndim):
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


def check_boundary(boundary, *, masked=False):
    """A known boundary mode, and not 'circular' with a mask (a periodic image has no mask).

    The combination is refused as a :class:`DataValidationError`, as a mask file of the
    ``correct-illumination`` command would be: the user fixes it by a choice of option.
    """
    if boundary not in BOUNDARY_MODES:
        raise ValueError(f"boundary must be one of {BOUNDARY_MODES}; got {boundary!r}.")
    if masked and boundary == "circular":
        raise DataValidationError(
            "the 'circular' boundary assumes a periodic rectangular image and cannot be "
            "used with a mask; use 'linear' or 'quadratic'."
        )


def check_values(values, mask):
    inside = values if mask is None else values[mask]
    if not np.isfinite(inside).all():
        where = "" if mask is None else " inside the mask"
        raise DataValidationError(
            f"image contains {int((~np.isfinite(inside)).sum())} NaN or infinite values"
            f"{where}. Replace them, or exclude them with a mask."
        )


def check_mask(mask, shape):
    """The mask as booleans (non-zero samples are inside) of the image's spatial ``shape``.

    NaN is refused rather than counted as inside (NaN != 0), and so are values that are
    not numbers, which have no "non-zero".
    """
    if mask is None:
        return None
    mask = numeric_array(mask, "mask", "hold booleans or numbers (non-zero is inside)")
    if mask.shape != tuple(shape):
        raise DataValidationError(
            f"mask shape {mask.shape} does not match the image's spatial shape {tuple(shape)}."
        )
    n_nan = int(np.count_nonzero(np.isnan(mask))) if mask.dtype.kind == "f" else 0
    if n_nan:
        raise DataValidationError(
            f"the mask holds {n_nan} NaN values, which are neither inside nor outside (samples are "
            "inside where the mask is non-zero); set them to 0 (outside) or 1 (inside) first."
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
    """``levels`` as an int: a whole number >= 0 (True and False are not counts)."""
    if isinstance(levels, bool) or not isinstance(levels, Integral) or levels < 0:
        raise ValueError(f"levels must be a non-negative integer; got {levels!r}.")
    return int(levels)


def check_flag(value, name):
    """``value`` as a bool; anything but True or False (e.g. the string "no") is refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def samples_needed(boundary, *, expanding):
    """Samples per axis an unmasked grid needs to extrapolate its border in ``boundary`` mode.

    The extrapolation fits the mode's block (``BLOCK_EDGE`` samples per axis) into the
    grid; ``expand`` recomputes the ``PAD`` border samples per side of its target from the
    samples inside them, so its target needs ``2 * PAD`` more. 'circular' needs no block.
    """
    if boundary == "circular":
        return 1
    return BLOCK_EDGE[boundary] + (2 * PAD if expanding else 0)


def check_blocks_fit(shape, boundary, operation):
    """Fail before any work if ``operation`` ("extend", "reduce" or "expand", unmasked) has no
    block of samples to extrapolate from on its grid: the image's spatial ``shape``, or the
    target shape of expand."""
    expanding = operation == "expand"
    needed = samples_needed(boundary, expanding=expanding)
    if min(shape) >= needed:
        return
    edge = BLOCK_EDGE[boundary]
    why = (f"it recomputes the {PAD} border samples per side from blocks of {edge} inside them" if expanding
           else f"it extrapolates from blocks of {edge} samples per axis")
    others = ", ".join(repr(mode) for mode in BOUNDARY_MODES if samples_needed(mode, expanding=expanding) < needed)
    raise DataValidationError(
        f"{operation} with the '{boundary}' boundary needs at least {needed} samples per axis ({why}); "
        f"got {'target' if expanding else 'spatial'} shape {tuple(shape)}. Use a larger image or a boundary "
        f"mode that needs fewer samples ({others})."
    )


def check_level_fits(shape, level, levels, first_shape, boundary):
    """Fail before any work if pyramid ``level`` (of ``shape``) cannot be reduced and expanded onto.

    Every level but the coarsest is expanded onto, which extrapolates its two border
    samples per side from blocks of the samples inside them; the circular boundary needs
    no block, but a level of one sample per axis has nothing left to reduce.
    """
    needed = samples_needed(boundary, expanding=True)
    if min(shape) >= needed and max(shape) > 1:
        return
    need = f"needs at least {needed} per axis" if min(shape) < needed else "one sample per axis cannot be reduced"
    raise DataValidationError(
        f"{levels} pyramid levels are too many for spatial shape {tuple(first_shape)} with the "
        f"'{boundary}' boundary: level {level} is {'x'.join(map(str, shape))} samples, but {need}. "
        f"Use levels <= {level} or another boundary mode."
    )


def check_mask_left(mask, level):
    """Fail before any work if the mask of pyramid ``level`` holds no sample."""
    if mask is not None and not mask.any():
        raise DataValidationError(
            f"the mask has no samples left at pyramid level {level} (each level keeps "
            f"every second sample). Use fewer than {level} levels or a larger mask."
        )


def restore_channels(values, channel_axis):
    if channel_axis is None:
        return values[..., 0]
    return np.moveaxis(values, -1, channel_axis)
