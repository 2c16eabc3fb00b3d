"""Illumination correction of an image file: f' = f - G'_0 + mean(f) (thesis 5.1).

:func:`correct_illumination_file` reads a picture (PNG, JPEG, TIFF) or a NIfTI image
(:mod:`sfmlearn.imaging.images`), removes its smooth illumination gradients with the
Gaussian pyramid (:func:`sfmlearn.imaging.correct_illumination`, boundary extrapolated in
every filtering step) and writes the result. Pictures are corrected channel by channel
and written back with the input's sample type (values outside its range are clipped and
counted); an alpha channel is passed through. NIfTI images keep their affine and header
and are written as float32; a 4-D series is corrected volume by volume, and axes of
length 1 (a single slice stored as X x Y x 1) are not treated as spatial.

Everything that can be checked before the correction is: the options (the 'circular'
boundary takes no mask) before the input is read, then whether the output's format can
store the picture's sample type and channels, whether a NIfTI image's values fit float32,
and whether a NIfTI mask lies on the input's grid (same shape, ignoring trailing axes of
length 1 as NIfTI does, and the same affine to 0.001 mm).
"""

import numpy as np

from ..exceptions import DataValidationError
from ..imaging import correct_illumination
from ..imaging.images import (NIFTI_SUFFIXES, PICTURE_SUFFIXES, check_float_range, check_picture_writable,
                              image_kind, picture_mask, read_nifti, read_picture, to_dtype, write_picture)
from ..imaging.pyramid import check_correction_options
from ..outputs.atomic import save_nifti
from ..utils.grids import grid_difference, same_grid

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
    check_correction_options(levels, boundary, masked=mask is not None, match_histogram=match_histogram)
    options = {"levels": levels, "boundary": boundary, "match_histogram": match_histogram}
    if kind == "NIfTI":
        return _correct_nifti(source, target, mask, options)
    return _correct_picture(source, target, mask, options)


def _correct_picture(source, target, mask_path, options):
    array, has_alpha = read_picture(source)
    check_picture_writable(target, array)
    colour = array[..., :-1] if has_alpha else array
    if colour.ndim == 3 and colour.shape[-1] == 1:
        colour = colour[..., 0]
    mask = picture_mask(mask_path, colour.shape[:2]) if mask_path else None
    size = f"{colour.shape[1]} x {colour.shape[0]} pixels"
    if colour.ndim == 3:
        size += f" x {colour.shape[2]} channels"
    result = _correct(colour, mask, options, channel_axis=-1 if colour.ndim == 3 else None,
                      where=f"{source} ({size})")
    out, clipped = to_dtype(result, array.dtype)
    if has_alpha:
        out = np.concatenate([out.reshape(out.shape[:2] + (-1,)), array[..., -1:]], axis=-1)
    write_picture(out, target)
    summary = size
    if clipped:
        info = np.iinfo(array.dtype)
        summary += f", {clipped} values clipped to {info.min}..{info.max}"
    return summary + _mask_summary(mask)


def _correct_nifti(source, target, mask_path, options):
    image, data = read_nifti(source)
    if data.ndim not in (2, 3, 4):
        raise DataValidationError(f"{source}: expected a 2-D or 3-D image or a 4-D series; "
                                  f"got {data.ndim} dimensions {data.shape}")
    check_float_range(data, np.float32, source)
    grid = _grid(data.shape[:3])
    mask = _read_mask(mask_path, image, grid, source) if mask_path else None
    # axes of length 1 are not spatial (a single slice stored as X x Y x 1); one voxel is one sample
    spatial = tuple(n for n in grid if n > 1) or (1,)
    series = data.ndim == 4
    values = data.reshape(spatial + ((data.shape[3],) if series else ()))
    size = " x ".join(map(str, data.shape))
    result = _correct(values, None if mask is None else mask.reshape(spatial), options,
                      channel_axis=-1 if series else None, where=f"{source} ({size})")
    out, _ = to_dtype(result.reshape(data.shape), np.dtype(np.float32))
    header = image.header.copy()
    header.set_data_dtype(np.float32)
    save_nifti(type(image)(out, image.affine, header), target)
    if series:
        size += " (volumes corrected one by one)"
    return size + _mask_summary(mask)


def _grid(shape):
    """The three spatial lengths of a NIfTI shape; missing trailing axes have length 1, as in NIfTI."""
    return tuple(shape[:3]) + (1,) * (3 - len(shape[:3]))


def _read_mask(mask_path, image, grid, source):
    """The values of the NIfTI mask ``mask_path``, of shape ``grid``; refused unless it is one
    volume on the grid of ``image`` (same spatial shape and affine)."""
    mask_image, mask_data = read_nifti(mask_path)
    if any(n != 1 for n in mask_data.shape[3:]):
        raise DataValidationError(f"{mask_path}: a mask is one volume; got shape {mask_data.shape}")
    mask_grid = _grid(mask_data.shape)
    if not same_grid(mask_grid, mask_image.affine, grid, image.affine):
        difference = grid_difference(mask_grid, mask_image.affine, grid, image.affine)
        raise DataValidationError(
            f"{mask_path}: the mask is not on the grid of {source} ({difference}); resample it onto the "
            "input's grid first, e.g. nilearn.image.resample_to_img(mask, image, interpolation='nearest')")
    return mask_data.reshape(grid)


def _correct(values, mask, options, channel_axis, where):
    """The corrected values; an error in the data names ``where`` (the file and its size)."""
    try:
        return correct_illumination(values, options["levels"], options["boundary"], mask=mask,
                                    match_histogram=options["match_histogram"], channel_axis=channel_axis)
    except DataValidationError as exc:
        raise DataValidationError(f"{where}: {exc}") from exc


def _mask_summary(mask):
    if mask is None:
        return ""
    return f", {np.count_nonzero(mask)} of {mask.size} samples inside the mask"
