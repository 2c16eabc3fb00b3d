"""``sfmlearn correct-illumination``: remove smooth illumination gradients (thesis 5).

Pictures (PNG, JPEG, TIFF; read with Pillow) are corrected channel by channel and written
back with the input's sample type (values outside its range are clipped and counted); an
alpha channel is passed through. NIfTI images (.nii, .nii.gz; nibabel) keep their affine
and header and are written as float32; a 4-D series is corrected volume by volume, and
axes of length 1 (a single slice stored as X x Y x 1) are not treated as spatial.

The output is checked before any work (not the input or the mask, not a symbolic link,
in a writable folder) and written atomically, so a failed run leaves an existing file
as it was. Pictures larger than Pillow's decompression-bomb limit
(``PIL.Image.MAX_IMAGE_PIXELS``, about 89 million pixels) are refused.
"""

import argparse
import warnings

import numpy as np

from ..imaging import BOUNDARY_MODES, correct_illumination
from ..outputs.atomic import atomic_path, check_output_file, save_nifti
from ._common import CLIError, at_least

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
NIFTI_SUFFIXES = (".nii", ".nii.gz")
_CONVERTIBLE = {"1": "L", "P": "RGBA", "PA": "RGBA", "CMYK": "RGB", "YCbCr": "RGB",
                "LAB": "RGB", "HSV": "RGB"}
_SUPPORTED = ("L", "LA", "RGB", "RGBA", "I;16", "I;16L", "I;16B", "I", "F")


def register(subparsers):
    p = subparsers.add_parser(
        "correct-illumination",
        help="remove smooth illumination gradients (vignetting) from an image or volume",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Subtract the Gaussian-pyramid low-pass image and add back the mean\n"
        "intensity, f' = f - G'0 + mean(f) (Klement, SFM thesis 5.1). The pyramid\n"
        "extrapolates the image beyond its border in every filtering step, which\n"
        "avoids the dark border artefacts of the usual replicate or circular boundaries.",
        epilog="Examples:  sfmlearn correct-illumination texture.png flat.png\n"
        "           sfmlearn correct-illumination scan.tif out.tif --levels 4 --boundary linear\n"
        "           sfmlearn correct-illumination t1.nii.gz t1_flat.nii.gz --mask brain.nii.gz",
    )
    p.add_argument("input", help="PNG, JPEG or TIFF picture, or NIfTI (.nii, .nii.gz) image")
    p.add_argument("output", help="where to write the result (same kind of file as the input; "
                   "never the input itself or a symbolic link)")
    p.add_argument("--levels", type=at_least(0), default=5,
                   help="pyramid depth: gradients wider than about 2**levels pixels are "
                   "removed (default 5)")
    p.add_argument("--boundary", choices=BOUNDARY_MODES, default="quadratic",
                   help="border extrapolation (default quadratic; replicate and circular "
                   "darken the border)")
    p.add_argument("--mask", help="correct only inside this mask (non-zero samples; for a "
                   "picture with transparency, its opaque pixels); same grid as the input")
    p.add_argument("--match-histogram", action="store_true",
                   help="then match the histogram to the input's central part")
    p.set_defaults(func=run)


def run(args):
    kind = _kind(args.input)
    if _kind(args.output) != kind:
        raise CLIError(f"{args.output}: write the result as a {kind} file like the input "
                       f"(suffixes: {', '.join(_suffixes(kind))})")
    check_output_file(args.output, inputs=[args.input, args.mask], what="output",
                      example=f"corrected{_suffixes(kind)[0]}")
    if kind == "NIfTI":
        summary = _run_nifti(args)
    else:
        summary = _run_picture(args)
    print(f"{args.input} -> {args.output}: {summary}, {args.levels} levels, "
          f"{args.boundary} boundary")
    return 0


def _kind(path):
    name = str(path).lower()
    if name.endswith(NIFTI_SUFFIXES):
        return "NIfTI"
    if name.endswith(PICTURE_SUFFIXES):
        return "picture"
    raise CLIError(f"{path}: unknown file type; use {', '.join(PICTURE_SUFFIXES + NIFTI_SUFFIXES)}")


def _suffixes(kind):
    return NIFTI_SUFFIXES if kind == "NIfTI" else PICTURE_SUFFIXES


# ------------------------------------------------------------------------------- pictures


def _pillow():
    try:
        from PIL import Image
    except ImportError as exc:
        raise CLIError("reading PNG/JPEG/TIFF needs Pillow: pip install pillow") from exc
    return Image


def _open_picture(path):
    """The picture as an array (H x W, or H x W x C with alpha last) and its alpha flag."""
    Image = _pillow()
    try:
        with warnings.catch_warnings():  # above the limit Pillow only warns; refuse it too
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            return _picture_array(Image, path)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise CLIError(f"{path}: larger than Pillow's safety limit of {Image.MAX_IMAGE_PIXELS} pixels "
                       f"({exc}); crop or downscale it first") from exc


def _picture_array(Image, path):
    try:
        with Image.open(path) as picture:
            if getattr(picture, "n_frames", 1) > 1:
                raise CLIError(f"{path}: has {picture.n_frames} frames/pages; "
                               "only single-frame pictures are supported")
            if picture.mode in _CONVERTIBLE:
                target = _CONVERTIBLE[picture.mode]
                if target == "RGBA" and picture.mode == "P" and "transparency" not in picture.info:
                    target = "RGB"
                picture = picture.convert(target)
            if picture.mode not in _SUPPORTED:
                raise CLIError(f"{path}: unsupported picture mode {picture.mode}; "
                               "convert it to RGB or greyscale first")
            array = np.array(picture)
            has_alpha = picture.mode in ("LA", "RGBA")
    except CLIError:
        raise
    except (OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:  # missing, unreadable: said as such
            raise
        raise CLIError(f"{path}: cannot read it as a picture ({exc})") from exc
    return array.astype(array.dtype.newbyteorder("=")), has_alpha


def _run_picture(args):
    array, has_alpha = _open_picture(args.input)
    colour = array[..., :-1] if has_alpha else array
    if colour.ndim == 3 and colour.shape[-1] == 1:
        colour = colour[..., 0]
    mask = _picture_mask(args.mask, colour.shape[:2]) if args.mask else None
    result = _correct(colour, mask, args, channel_axis=-1 if colour.ndim == 3 else None)
    out, clipped = _to_dtype(result, array.dtype)
    if has_alpha:
        out = np.concatenate([out.reshape(out.shape[:2] + (-1,)), array[..., -1:]], axis=-1)
    if has_alpha and str(args.output).lower().endswith((".jpg", ".jpeg")):
        raise CLIError(f"{args.output}: JPEG cannot store the input's alpha channel; "
                       "write PNG or TIFF")
    Image = _pillow()
    options = {"quality": 95} if str(args.output).lower().endswith((".jpg", ".jpeg")) else {}
    try:
        with atomic_path(args.output) as temporary:
            Image.fromarray(out).save(temporary, **options)
    except (ValueError, KeyError, TypeError) as exc:
        raise CLIError(f"{args.output}: cannot write a {out.dtype} picture there ({exc})") from exc
    except OSError as exc:
        if exc.errno is not None:  # disk full, no permission: reported as such
            raise
        raise CLIError(f"{args.output}: cannot write a {out.dtype} picture there ({exc})") from exc
    summary = f"{colour.shape[1]} x {colour.shape[0]} pixels"
    if colour.ndim == 3:
        summary += f" x {colour.shape[2]} channels"
    if clipped:
        info = np.iinfo(array.dtype)
        summary += f", {clipped} values clipped to {info.min}..{info.max}"
    return summary + _mask_summary(mask)


def _picture_mask(path, shape):
    array, has_alpha = _open_picture(path)
    if has_alpha:
        mask = array[..., -1] > 0
    else:
        mask = (array.reshape(array.shape[:2] + (-1,)) != 0).any(axis=-1)
    if mask.shape != tuple(shape):
        raise CLIError(f"{path}: mask is {mask.shape[1]} x {mask.shape[0]} pixels, the input "
                       f"{shape[1]} x {shape[0]}")
    return mask


def _to_dtype(values, dtype):
    """Round and clip to an integer type (count the clipped values), or cast floats."""
    if dtype.kind == "f":
        return values.astype(dtype), 0
    info = np.iinfo(dtype)
    rounded = np.rint(values)
    clipped = int(np.count_nonzero((rounded < info.min) | (rounded > info.max)))
    return np.clip(rounded, info.min, info.max).astype(dtype), clipped


# ---------------------------------------------------------------------------------- NIfTI


def _load_nifti(path):
    import nibabel as nib

    try:
        image = nib.load(path)
        data = image.get_fdata(dtype=np.float64)
    except FileNotFoundError:
        raise
    except Exception as exc:  # nibabel raises many types for corrupt files
        raise CLIError(f"{path}: cannot read it as NIfTI ({type(exc).__name__}: {exc})") from exc
    return image, data


def _run_nifti(args):
    image, data = _load_nifti(args.input)
    if data.ndim not in (2, 3, 4):
        raise CLIError(f"{args.input}: expected a 2-D or 3-D image or a 4-D series; "
                       f"got {data.ndim} dimensions {data.shape}")
    grid = data.shape[:3]
    series = data.ndim == 4
    mask = None
    if args.mask:
        _, mask_data = _load_nifti(args.mask)
        if mask_data.shape[:3] != grid or mask_data.ndim > 3 and mask_data.shape[3] != 1:
            raise CLIError(f"{args.mask}: mask grid {mask_data.shape} differs from the input's "
                           f"{grid}")
        mask = mask_data.reshape(grid) != 0
    # axes of length 1 are not spatial (a single slice stored as X x Y x 1)
    spatial = tuple(n for n in grid if n > 1)
    values = data.reshape(spatial + ((data.shape[3],) if series else ()))
    result = _correct(values, None if mask is None else mask.reshape(spatial), args,
                      channel_axis=-1 if series else None)
    header = image.header.copy()
    header.set_data_dtype(np.float32)
    out = type(image)(result.reshape(data.shape).astype(np.float32), image.affine, header)
    save_nifti(out, args.output)
    summary = " x ".join(map(str, data.shape))
    if series:
        summary += " (volumes corrected one by one)"
    return summary + _mask_summary(mask)


# ----------------------------------------------------------------------------------- both


def _correct(values, mask, args, channel_axis):
    return correct_illumination(values, args.levels, args.boundary, mask=mask,
                                match_histogram=args.match_histogram,
                                channel_axis=channel_axis)


def _mask_summary(mask):
    if mask is None:
        return ""
    return f", {int(mask.sum())} of {mask.size} samples inside the mask"
