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
refused. :func:`read_nifti` reads a NIfTI image and its data as float64; :func:`nifti_data`
reads the data of an image loaded from a file, refusing before any allocation a header that
claims more data than the file can hold (:func:`check_nifti_size`).

A file that cannot be read or written as such raises
:class:`~sfmlearn.exceptions.DataValidationError` naming it; a missing or unreadable file
(an ``OSError`` with an errno) is raised as it is.
"""

import io
import math
import os
import warnings

import numpy as np

from ..exceptions import DataValidationError
from ..outputs.atomic import atomic_path

__all__ = ["NIFTI_SUFFIXES", "PICTURE_FORMATS", "PICTURE_SUFFIXES", "check_float_range", "check_nifti_size",
           "check_picture_writable", "image_kind", "nifti_data", "picture_mask", "read_nifti", "read_picture",
           "to_dtype", "write_picture"]

#: Picture suffixes and the Pillow format each is written in.
PICTURE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}
PICTURE_SUFFIXES = tuple(PICTURE_FORMATS)
NIFTI_SUFFIXES = (".nii", ".nii.gz")
#: Picture modes converted before reading, and the mode they become.
_CONVERTIBLE = {"1": "L", "P": "RGBA", "PA": "RGBA", "CMYK": "RGB", "YCbCr": "RGB",
                "LAB": "RGB", "HSV": "RGB"}
_SUPPORTED = ("L", "LA", "RGB", "RGBA", "I;16", "I;16L", "I;16B", "I", "F")
#: Largest factor by which gzip (deflate) data can grow when decompressed (zlib's documented limit).
GZIP_MAX_RATIO = 1032
#: Suffixes of the files nibabel decompresses with gzip.
GZIP_SUFFIXES = (".gz", ".mgz")


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


def to_dtype(values, dtype, *, what="the corrected image", clip=True):
    """``(values in dtype, number clipped)``: rounded to an integer type, or cast to a float type.

    Rounded values beyond an integer type's range are clipped to it and counted, or, with
    ``clip=False``, refused; NaN, which no integer type holds, is refused. Values beyond a
    float type's range are refused (:func:`check_float_range`), not cast to infinity.
    ``what`` names the values in the errors.
    """
    dtype = np.dtype(dtype)
    if dtype.kind not in "iuf":
        raise ValueError(f"the type to write {what} in must be an integer or float type; got {dtype}")
    if dtype.kind == "f":
        check_float_range(values, dtype, what)
        return values.astype(dtype), 0
    info = np.iinfo(dtype)
    rounded = np.rint(values)
    n_nan = int(np.count_nonzero(np.isnan(rounded)))
    if n_nan:
        raise DataValidationError(f"{what} holds {n_nan} NaN values, which the integer type {dtype} cannot "
                                  "store; replace them or write a float type (e.g. float32)")
    outside = (rounded < info.min) | (rounded > info.max)
    clipped = int(np.count_nonzero(outside))
    if clipped and not clip:
        raise DataValidationError(
            f"{what} holds values from {np.min(values):.6g} to {np.max(values):.6g}, beyond the range of "
            f"{dtype} ({info.min}..{info.max}); write a wider type (e.g. float32) or rescale the values")
    return np.clip(rounded, info.min, info.max).astype(dtype), clipped


def read_nifti(path):
    """``(image, data)``: the nibabel image of ``path`` and its data as float64."""
    import nibabel as nib

    try:
        image = nib.load(path)
        data = nifti_data(image, path, dtype=np.float64)
    except (FileNotFoundError, DataValidationError):
        raise
    except Exception as exc:  # nibabel raises many types for corrupt files
        raise DataValidationError(f"{path}: cannot read it as NIfTI ({type(exc).__name__}: {exc})") from exc
    return image, data


def nifti_data(image, name, dtype=None):
    """The data of ``image``, loaded from a file by nibabel: as stored, or as the float ``dtype``.

    The header is checked against the file first (:func:`check_nifti_size`), and running
    out of memory is said in words; ``name`` names the file in the errors.
    """
    check_nifti_size(image, name)
    try:
        return np.asanyarray(image.dataobj) if dtype is None else image.get_fdata(dtype=dtype)
    except MemoryError as exc:
        shape = image.dataobj.shape
        itemsize = np.dtype(image.get_data_dtype() if dtype is None else dtype).itemsize
        raise DataValidationError(
            f"{name}: not enough memory to read its {' x '.join(map(str, shape))} data "
            f"({_in_words(math.prod(shape) * itemsize)}); crop or downsample the image first, or use a "
            "machine with more memory") from exc


def check_nifti_size(image, name):
    """Refuse, before its data are read, an image whose header claims more data than its file holds.

    nibabel allocates the data a header announces before it finds the file too short, so a
    damaged header of a few hundred bytes can take gigabytes first. An uncompressed file
    must hold the header's data offset plus shape x item size bytes; a gzip file
    decompresses to at most :data:`GZIP_MAX_RATIO` times its size. Other compressions
    (bzip2, zstd) reach far higher ratios and are not checked. ``name`` names the file.
    """
    from nibabel.openers import ImageOpener

    proxy = image.dataobj
    if not hasattr(proxy, "offset"):  # formats that do not store the data as one raw block
        return
    data_file = image.file_map["image"].filename
    file_bytes = os.path.getsize(data_file)
    data_bytes = math.prod(proxy.shape) * np.dtype(proxy.dtype).itemsize
    suffix = os.path.splitext(str(data_file))[1].lower()
    if suffix in GZIP_SUFFIXES:
        room = GZIP_MAX_RATIO * file_bytes
        holds = f"a gzip file of {_in_words(file_bytes)} decompresses to at most {_in_words(room)}"
    elif suffix in ImageOpener.compress_ext_map:
        return
    else:
        room = file_bytes - proxy.offset
        holds = f"the file holds {_in_words(max(room, 0))} after the header's data offset ({proxy.offset})"
    if data_bytes > room:
        raise DataValidationError(
            f"{name}: its header claims a {' x '.join(map(str, proxy.shape))} {np.dtype(proxy.dtype)} image "
            f"({_in_words(data_bytes)} of data), but {holds}: the file is truncated or its header is damaged; "
            "write or download it again")


def _in_words(n_bytes):
    """A byte count for messages: ``'2.05 GB'``, ``'416 bytes'``."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= size:
            return f"{n_bytes / size:.3g} {unit}"
    return f"{n_bytes} bytes"
