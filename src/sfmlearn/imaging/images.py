"""Image files in and out: pictures (PNG, JPEG, TIFF; Pillow) and NIfTI volumes (nibabel).

Pictures are read as arrays (H x W, or H x W x C with an alpha channel last) in their own
sample type (:func:`read_picture`, modes Pillow can only convert to RGB/RGBA first) and
written back atomically (:func:`write_picture`); :func:`check_picture_writable` tells
before any work whether the output's format can store the picture's sample type and
channels; :func:`to_dtype` rounds and clips results to an integer sample type and counts
the clipped values, and refuses values beyond the range of a float type
(:func:`check_float_range`); :func:`picture_mask` is
a picture's mask (its opaque pixels, or its non-zero ones). Pictures larger than Pillow's
decompression-bomb limit (``PIL.Image.MAX_IMAGE_PIXELS``, about 89 million pixels) are
refused. :func:`read_nifti` reads a NIfTI image and its data as float64.

A file that cannot be read or written as such raises
:class:`~sfmlearn.exceptions.DataValidationError` naming it; a missing or unreadable file
(an ``OSError`` with an errno) is raised as it is.
"""

import io
import os
import warnings

import numpy as np

from ..exceptions import DataValidationError
from ..outputs.atomic import atomic_path

__all__ = ["NIFTI_SUFFIXES", "PICTURE_FORMATS", "PICTURE_SUFFIXES", "check_float_range", "check_picture_writable",
           "image_kind", "picture_mask", "read_nifti", "read_picture", "to_dtype", "write_picture"]

#: Picture suffixes and the Pillow format each is written in.
PICTURE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}
PICTURE_SUFFIXES = tuple(PICTURE_FORMATS)
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


def _format(path):
    """The Pillow format of a picture path (by its suffix)."""
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix not in PICTURE_FORMATS:
        raise DataValidationError(f"{path}: unknown picture type; use {', '.join(PICTURE_SUFFIXES)}")
    return PICTURE_FORMATS[suffix]


def _save(Image, array, target, format_name):
    """Save ``array`` to ``target`` (a path or a file object) in ``format_name``; JPEG at quality 95."""
    options = {"quality": 95} if format_name == "JPEG" else {}
    Image.fromarray(array).save(target, format=format_name, **options)


def _can_store(Image, sample, format_name):
    """Whether Pillow writes the 1 x 1 picture ``sample`` in ``format_name`` (its mode's support)."""
    try:
        _save(Image, sample, io.BytesIO(), format_name)
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def check_picture_writable(path, array):
    """Refuse, before any work, a picture ``path`` whose format cannot store ``array``'s kind.

    The kind is the sample type and the channels (grey, colour, with alpha) of the picture
    ``array`` (H x W or H x W x C); the error names the suffixes whose formats can store it.
    """
    Image = _pillow()
    format_name = _format(path)
    sample = np.zeros((1, 1) + array.shape[2:], dtype=array.dtype)
    if _can_store(Image, sample, format_name):
        return
    suffixes = {}  # format -> its first suffix
    for suffix, name in PICTURE_FORMATS.items():
        suffixes.setdefault(name, suffix)
    able = [suffix for name, suffix in suffixes.items() if _can_store(Image, sample, name)]
    instead = f"write {' or '.join(able)} instead" if able else "convert the picture first"
    channels = array.shape[2] if array.ndim == 3 else 1
    kind = f"{'grey' if channels < 3 else 'colour'} {array.dtype} pictures"
    if channels in (2, 4):
        kind += " with an alpha channel"
    raise DataValidationError(f"{path}: {format_name} cannot store {kind} like the input; {instead}")


def write_picture(array, path):
    """Write ``array`` as the picture ``path`` (format by suffix; JPEG at quality 95), atomically."""
    Image = _pillow()
    format_name = _format(path)
    try:
        with atomic_path(path) as temporary:
            _save(Image, array, temporary, format_name)
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


def check_float_range(values, dtype, what):
    """Refuse finite ``values`` beyond the range of the float type ``dtype``.

    Cast to ``dtype`` they would become infinite; ``what`` names them in the error.
    """
    limit = float(np.finfo(dtype).max)
    largest = float(np.max(np.abs(values), where=np.isfinite(values), initial=0.0))
    if largest > limit:
        raise DataValidationError(
            f"{what} holds values up to {largest:.3g}, beyond the range of {np.dtype(dtype)} (+-{limit:.3g}), the "
            "type the result is written in; rescale the image first (e.g. divide it by its largest value)")


def to_dtype(values, dtype):
    """``(values in dtype, number clipped)``: rounded and clipped to an integer type, or cast floats.

    Values beyond a float type's range are refused (:func:`check_float_range`), not cast to
    infinity.
    """
    if dtype.kind == "f":
        check_float_range(values, dtype, "the corrected image")
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
