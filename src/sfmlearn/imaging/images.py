"""Image files in and out: pictures (PNG, JPEG, TIFF; Pillow) and NIfTI volumes (nibabel).

Pictures are read as arrays (H x W, or H x W x C with an alpha channel last) in their own
sample type (:func:`read_picture`, modes Pillow can only convert to RGB/RGBA first) and
written back atomically (:func:`write_picture`); :func:`to_dtype` rounds and clips
results to an integer sample type and counts the clipped values; :func:`picture_mask` is
a picture's mask (its opaque pixels, or its non-zero ones). Pictures larger than Pillow's
decompression-bomb limit (``PIL.Image.MAX_IMAGE_PIXELS``, about 89 million pixels) are
refused. :func:`read_nifti` reads a NIfTI image and its data as float64.

A file that cannot be read or written as such raises
:class:`~sfmlearn.exceptions.DataValidationError` naming it; a missing or unreadable file
(an ``OSError`` with an errno) is raised as it is.
"""

import warnings

import numpy as np

from ..exceptions import DataValidationError
from ..outputs.atomic import atomic_path

__all__ = ["NIFTI_SUFFIXES", "PICTURE_SUFFIXES", "image_kind", "picture_mask", "read_nifti", "read_picture",
           "to_dtype", "write_picture"]

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
NIFTI_SUFFIXES = (".nii", ".nii.gz")
#: Picture modes converted before reading, and the mode they become.
_CONVERTIBLE = {"1": "L", "P": "RGBA", "PA": "RGBA", "CMYK": "RGB", "YCbCr": "RGB",
                "LAB": "RGB", "HSV": "RGB"}
_SUPPORTED = ("L", "LA", "RGB", "RGBA", "I;16", "I;16L", "I;16B", "I", "F")


def image_kind(path):
    """``"NIfTI"`` or ``"picture"`` by the suffix of ``path``; DataValidationError for others."""
    name = str(path).lower()
    if name.endswith(NIFTI_SUFFIXES):
        return "NIfTI"
    if name.endswith(PICTURE_SUFFIXES):
        return "picture"
    raise DataValidationError(f"{path}: unknown file type; use {', '.join(PICTURE_SUFFIXES + NIFTI_SUFFIXES)}")


def _pillow():
    try:
        from PIL import Image
    except ImportError as exc:
        raise DataValidationError("reading PNG/JPEG/TIFF needs Pillow: pip install pillow") from exc
    return Image


def read_picture(path):
    """The picture as an array (H x W, or H x W x C with alpha last) and whether it has alpha."""
    Image = _pillow()
    try:
        with warnings.catch_warnings():  # above the limit Pillow only warns; refuse it too
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            return _picture_array(Image, path)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise DataValidationError(f"{path}: larger than Pillow's safety limit of {Image.MAX_IMAGE_PIXELS} "
                                  f"pixels ({exc}); crop or downscale it first") from exc


def _picture_array(Image, path):
    try:
        with Image.open(path) as picture:
            if getattr(picture, "n_frames", 1) > 1:
                raise DataValidationError(f"{path}: has {picture.n_frames} frames/pages; "
                                          "only single-frame pictures are supported")
            if picture.mode in _CONVERTIBLE:
                target = _CONVERTIBLE[picture.mode]
                if target == "RGBA" and picture.mode == "P" and "transparency" not in picture.info:
                    target = "RGB"
                picture = picture.convert(target)
            if picture.mode not in _SUPPORTED:
                raise DataValidationError(f"{path}: unsupported picture mode {picture.mode}; "
                                          "convert it to RGB or greyscale first")
            array = np.array(picture)
            has_alpha = picture.mode in ("LA", "RGBA")
    except DataValidationError:
        raise
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:  # missing, unreadable: said as such
            raise
        raise DataValidationError(f"{path}: cannot read it as a picture ({exc})") from exc
    return array.astype(array.dtype.newbyteorder("=")), has_alpha


def write_picture(array, path):
    """Write ``array`` as the picture ``path`` (format by suffix; JPEG at quality 95), atomically."""
    Image = _pillow()
    options = {"quality": 95} if str(path).lower().endswith((".jpg", ".jpeg")) else {}
    try:
        with atomic_path(path) as temporary:
            Image.fromarray(array).save(temporary, **options)
    except (ValueError, KeyError, TypeError) as exc:
        raise DataValidationError(f"{path}: cannot write a {array.dtype} picture there ({exc})") from exc
    except OSError as exc:
        if exc.errno is not None:  # disk full, no permission: reported as such
            raise
        raise DataValidationError(f"{path}: cannot write a {array.dtype} picture there ({exc})") from exc
    return path


def picture_mask(path, shape):
    """The mask picture ``path`` as booleans (opaque pixels, or non-zero ones) of ``shape`` (H, W)."""
    array, has_alpha = read_picture(path)
    if has_alpha:
        mask = array[..., -1] > 0
    else:
        mask = (array.reshape(array.shape[:2] + (-1,)) != 0).any(axis=-1)
    if mask.shape != tuple(shape):
        raise DataValidationError(f"{path}: mask is {mask.shape[1]} x {mask.shape[0]} pixels, the input "
                                  f"{shape[1]} x {shape[0]}")
    return mask


def to_dtype(values, dtype):
    """``(values in dtype, number clipped)``: rounded and clipped to an integer type, or cast floats."""
    if dtype.kind == "f":
        return values.astype(dtype), 0
    info = np.iinfo(dtype)
    rounded = np.rint(values)
    clipped = int(np.count_nonzero((rounded < info.min) | (rounded > info.max)))
    return np.clip(rounded, info.min, info.max).astype(dtype), clipped


def read_nifti(path):
    """``(image, data)``: the nibabel image of ``path`` and its data as float64."""
    import nibabel as nib

    try:
        image = nib.load(path)
        data = image.get_fdata(dtype=np.float64)
    except FileNotFoundError:
        raise
    except Exception as exc:  # nibabel raises many types for corrupt files
        raise DataValidationError(f"{path}: cannot read it as NIfTI ({type(exc).__name__}: {exc})") from exc
    return image, data
