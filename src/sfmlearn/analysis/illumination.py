"""Illumination correction of an image file: f' = f - G'_0 + mean(f) (thesis 5.1).

:func:`correct_illumination_file` reads a picture (PNG, JPEG, TIFF) or a NIfTI image
(:mod:`sfmlearn.imaging.images`), removes its smooth illumination gradients with the
Gaussian pyramid (:func:`sfmlearn.imaging.correct_illumination`, boundary extrapolated in
every filtering step) and writes the result. Pictures are corrected channel by channel
and written back with the input's sample type (values outside its range are clipped and
counted); an alpha channel is passed through. NIfTI images keep their affine and header
and are written as float32; a 4-D series is corrected volume by volume, and axes of
length 1 (a single slice stored as X x Y x 1) are not treated as spatial.
"""

import numpy as np

from ..exceptions import DataValidationError
from ..imaging import correct_illumination
from ..imaging.images import (NIFTI_SUFFIXES, PICTURE_SUFFIXES, image_kind, picture_mask, read_nifti, read_picture,
                              to_dtype, write_picture)
from ..outputs.atomic import save_nifti

__all__ = ["correct_illumination_file", "image_kind", "image_suffixes"]


def image_suffixes(kind):
    """The file suffixes of ``kind`` ("NIfTI" or "picture", :func:`image_kind`)."""
    return NIFTI_SUFFIXES if kind == "NIfTI" else PICTURE_SUFFIXES


def correct_illumination_file(source, target, *, kind, levels=5, boundary="quadratic", mask=None,
                              match_histogram=False):
    """Correct the image ``source`` and write it to ``target``; returns a summary for people.

    Parameters
    ----------
    source, target : path
        Input and output of the same ``kind`` ("picture" or "NIfTI",
        :func:`~sfmlearn.imaging.images.image_kind`); ``target`` is written atomically.
    levels : int
        Pyramid depth: gradients wider than about 2**levels samples are removed.
    boundary : str
        Border extrapolation (:data:`sfmlearn.imaging.BOUNDARY_MODES`).
    mask : path, optional
        Correct only inside this mask (non-zero samples; opaque pixels of a picture with
        transparency), on the input's grid.
    match_histogram : bool
        Then match the histogram to the input's central part.

    Returns
    -------
    str
        The size corrected ("640 x 480 pixels x 3 channels, ..."), clipped values and mask.
    """
    options = {"levels": levels, "boundary": boundary, "match_histogram": match_histogram}
    if kind == "NIfTI":
        return _correct_nifti(source, target, mask, options)
    return _correct_picture(source, target, mask, options)


def _correct_picture(source, target, mask_path, options):
    array, has_alpha = read_picture(source)
    colour = array[..., :-1] if has_alpha else array
    if colour.ndim == 3 and colour.shape[-1] == 1:
        colour = colour[..., 0]
    mask = picture_mask(mask_path, colour.shape[:2]) if mask_path else None
    result = _correct(colour, mask, options, channel_axis=-1 if colour.ndim == 3 else None)
    out, clipped = to_dtype(result, array.dtype)
    if has_alpha:
        out = np.concatenate([out.reshape(out.shape[:2] + (-1,)), array[..., -1:]], axis=-1)
    if has_alpha and str(target).lower().endswith((".jpg", ".jpeg")):
        raise DataValidationError(f"{target}: JPEG cannot store the input's alpha channel; write PNG or TIFF")
    write_picture(out, target)
    summary = f"{colour.shape[1]} x {colour.shape[0]} pixels"
    if colour.ndim == 3:
        summary += f" x {colour.shape[2]} channels"
    if clipped:
        info = np.iinfo(array.dtype)
        summary += f", {clipped} values clipped to {info.min}..{info.max}"
    return summary + _mask_summary(mask)


def _correct_nifti(source, target, mask_path, options):
    image, data = read_nifti(source)
    if data.ndim not in (2, 3, 4):
        raise DataValidationError(f"{source}: expected a 2-D or 3-D image or a 4-D series; "
                                  f"got {data.ndim} dimensions {data.shape}")
    grid = data.shape[:3]
    series = data.ndim == 4
    mask = None
    if mask_path:
        _, mask_data = read_nifti(mask_path)
        if mask_data.shape[:3] != grid or mask_data.ndim > 3 and mask_data.shape[3] != 1:
            raise DataValidationError(f"{mask_path}: mask grid {mask_data.shape} differs from the input's {grid}")
        mask = mask_data.reshape(grid) != 0
    # axes of length 1 are not spatial (a single slice stored as X x Y x 1)
    spatial = tuple(n for n in grid if n > 1)
    values = data.reshape(spatial + ((data.shape[3],) if series else ()))
    result = _correct(values, None if mask is None else mask.reshape(spatial), options,
                      channel_axis=-1 if series else None)
    header = image.header.copy()
    header.set_data_dtype(np.float32)
    save_nifti(type(image)(result.reshape(data.shape).astype(np.float32), image.affine, header), target)
    summary = " x ".join(map(str, data.shape))
    if series:
        summary += " (volumes corrected one by one)"
    return summary + _mask_summary(mask)


def _correct(values, mask, options, channel_axis):
    return correct_illumination(values, options["levels"], options["boundary"], mask=mask,
                                match_histogram=options["match_histogram"], channel_axis=channel_axis)


def _mask_summary(mask):
    if mask is None:
        return ""
    return f", {int(mask.sum())} of {mask.size} samples inside the mask"
