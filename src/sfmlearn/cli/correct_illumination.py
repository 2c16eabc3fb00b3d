"""``sfmlearn correct-illumination``: remove smooth illumination gradients (thesis 5).

Pictures (PNG, JPEG, TIFF; read with Pillow) are corrected channel by channel and written
back with the input's sample type (values outside its range are clipped and counted); an
alpha channel is passed through. NIfTI images (.nii, .nii.gz; nibabel) keep their affine
and header and are written as float32 (:func:`sfmlearn.analysis.illumination.correct_illumination_file`).

The output is checked before any work (not the input or the mask, not a symbolic link,
in a writable folder) and written atomically, so a failed run leaves an existing file
as it was. Pictures larger than Pillow's decompression-bomb limit
(``PIL.Image.MAX_IMAGE_PIXELS``, about 89 million pixels) are refused.
"""

from ..analysis.names import BOUNDARY_MODES
from ._common import CLIError, add_overwrite_argument, at_least, check_new_file


HELP = "remove smooth illumination gradients (vignetting) from an image or volume"
DESCRIPTION = ("Subtract the Gaussian-pyramid low-pass image and add back the mean\n"
               "intensity, f' = f - G'0 + mean(f) (Klement, SFM thesis 5.1). The pyramid\n"
               "extrapolates the image beyond its border in every filtering step, which\n"
               "avoids the dark border artefacts of the usual replicate or circular boundaries.")
EXAMPLES = ("sfmlearn correct-illumination texture.png flat.png",
            "sfmlearn correct-illumination scan.tif out.tif --levels 4 --boundary linear",
            "sfmlearn correct-illumination t1.nii.gz t1_flat.nii.gz --mask brain.nii.gz")


def add_arguments(p):
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
    add_overwrite_argument(p)


def run(args):
    from ..analysis.illumination import correct_illumination_file, image_kind, image_suffixes

    kind = image_kind(args.input)
    if image_kind(args.output) != kind:
        raise CLIError(f"{args.output}: write the result as a {kind} file like the input "
                       f"(suffixes: {', '.join(image_suffixes(kind))})")
    check_new_file(args.output, inputs=[args.input, args.mask], what="output",
                   example=f"corrected{image_suffixes(kind)[0]}")
    summary = correct_illumination_file(args.input, args.output, kind=kind, levels=args.levels,
                                        boundary=args.boundary, mask=args.mask,
                                        match_histogram=args.match_histogram)
    print(f"{args.input} -> {args.output}: {summary}, {args.levels} levels, "
          f"{args.boundary} boundary")
    return 0
