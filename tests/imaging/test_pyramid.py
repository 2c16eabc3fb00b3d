"""Gaussian pyramid with boundary extrapolation (thesis 5.1) and its illumination correction."""

import numpy as np
import pytest
from scipy import ndimage

from sfmlearn.exceptions import DataValidationError
from sfmlearn.experiments.vignetting import PUBLISHED, border_error, vignetting_image
from sfmlearn.imaging import (
    BOUNDARY_MODES,
    correct_illumination,
    expand,
    extend,
    lowpass,
    reduce,
    reduce_mask,
)

H2 = np.outer([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]) / 256.0  # the 5 x 5 binomial kernel
EXTRAPOLATING = ("linear", "quadratic")


def plane(shape, offset=0):
    """A linear ramp with a different slope along every axis (and a mixed term)."""
    grids = np.indices(shape, dtype=float) - offset
    ramp = 7.0 + sum((a + 1.5) * (-1) ** a * g for a, g in enumerate(grids))
    return ramp + 0.05 * grids[0] * grids[-1]


# ----------------------------------------------------------------------- boundary modes


def test_1d_extension_matches_hand_computed_values():
    f = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
    np.testing.assert_array_equal(extend(f, "replicate"), [1, 1, 1, 2, 4, 8, 16, 32, 32, 32])
    np.testing.assert_array_equal(extend(f, "circular"), [16, 32, 1, 2, 4, 8, 16, 32, 1, 2])
    # f(p0) + (f(p0) - f(p1)) * distance
    np.testing.assert_allclose(extend(f, "linear"), [-1, 0, 1, 2, 4, 8, 16, 32, 48, 64],
                               rtol=1e-13, atol=1e-13)
    # least-squares parabola through the 5 nearest samples, worked out by hand:
    # left block 1 2 4 8 16 at u=-2..2 -> 6.2 + 3.6u + 8/7 (u^2 - 2): u=-3 -> 3.4, u=-4 -> 7.8
    # right block 2 4 8 16 32 -> 12.4 + 7.2u + 16/7 (u^2 - 2): u=3 -> 50, u=4 -> 73.2
    np.testing.assert_allclose(extend(f, "quadratic"),
                               [7.8, 3.4, 1, 2, 4, 8, 16, 32, 50, 73.2], rtol=1e-12)


def test_2d_linear_extension_edges_and_corners():
    f = np.arange(30.0).reshape(5, 6) ** 1.5  # not linear, so every rule shows
    e = extend(f, "linear")
    # edges: the thesis' two-sample rule along the leaving axis
    np.testing.assert_allclose(e[2:-2, 1], 2 * f[:, 0] - f[:, 1])
    np.testing.assert_allclose(e[2:-2, 0], 3 * f[:, 0] - 2 * f[:, 1])
    np.testing.assert_allclose(e[-1, 2:-2], 3 * f[-1] - 2 * f[-2])
    # corners: the bilinear interpolant of the nearest 2 x 2 block, e.g. at (-2, -1)
    a, b, c, d = f[0, 0], f[0, 1], f[1, 0], f[1, 1]  # f(y, x)
    y, x = -2.0, -1.0
    bilinear = a + (b - a) * x + (c - a) * y + (a - b - c + d) * x * y
    np.testing.assert_allclose(e[0, 1], bilinear)


def test_2d_replicate_and_circular_match_numpy_pad():
    f = np.random.default_rng(0).normal(size=(6, 7))
    np.testing.assert_array_equal(extend(f, "replicate"), np.pad(f, 2, mode="edge"))
    np.testing.assert_array_equal(extend(f, "circular"), np.pad(f, 2, mode="wrap"))


def test_quadratic_extension_is_the_least_squares_fit_of_the_nearest_block():
    f = np.random.default_rng(1).normal(size=(9, 8))
    e = extend(f, "quadratic")
    yy, xx = np.mgrid[0:5, 0:5].astype(float)
    design = np.column_stack([np.ones(25), xx.ravel(), yy.ravel(), xx.ravel() ** 2,
                              yy.ravel() ** 2, (xx * yy).ravel()])
    # (row, col) in original coordinates -> top-left corner of its nearest 5 x 5 block
    for (r, c), (r0, c0) in {(-1, 3): (0, 1), (-2, -1): (0, 0), (10, 9): (4, 3),
                             (4, -2): (2, 0), (1, 8): (0, 3)}.items():
        beta, *_ = np.linalg.lstsq(design, f[r0:r0 + 5, c0:c0 + 5].ravel(), rcond=None)
        x, y = c - c0, r - r0
        expected = beta @ [1, x, y, x * x, y * y, x * y]
        assert e[r + 2, c + 2] == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("ndim", [2, 3])
def test_quadratic_extension_is_exact_for_second_order_polynomials(ndim):
    rng = np.random.default_rng(ndim)
    shape = (7, 9, 8)[:ndim]
    coef = rng.normal(size=(ndim, ndim))

    def poly(grids):
        return 3.0 + sum(g * (a + 1) for a, g in enumerate(grids)) + sum(
            coef[a, b] * grids[a] * grids[b] for a in range(ndim) for b in range(a, ndim))

    padded_grids = np.indices(tuple(n + 4 for n in shape), dtype=float) - 2
    np.testing.assert_allclose(extend(poly(np.indices(shape, dtype=float)), "quadratic"),
                               poly(padded_grids), atol=1e-9)


def test_unknown_boundary_is_rejected():
    with pytest.raises(ValueError, match="boundary must be one of"):
        reduce(np.ones((8, 8)), "mirror")


# ------------------------------------------------------------------------ reduce / expand


@pytest.mark.parametrize("shape,coarse", [((8, 10), (4, 5)), ((7, 11), (4, 6)),
                                          ((9, 6, 13), (5, 3, 7))])
def test_reduce_and_expand_shapes(shape, coarse):
    image = np.random.default_rng(0).normal(size=shape)
    small = reduce(image, "replicate")
    assert small.shape == coarse
    assert expand(small, shape, "replicate").shape == shape


def test_expand_rejects_a_shape_that_does_not_reduce_to_the_image():
    with pytest.raises(DataValidationError, match="ceil"):
        expand(np.ones((4, 5)), (10, 10), "linear")


@pytest.mark.parametrize("boundary", BOUNDARY_MODES)
def test_dc_gain_is_one(boundary):
    shape = (12, 16, 20) if boundary == "quadratic" else (8, 12, 10)
    constant = np.full(shape, 3.25)
    np.testing.assert_allclose(reduce(constant, boundary), 3.25, rtol=1e-13)
    coarse = tuple((n + 1) // 2 for n in shape)
    np.testing.assert_allclose(expand(np.full(coarse, 3.25), shape, boundary), 3.25, rtol=1e-13)


@pytest.mark.parametrize("boundary,mode", [("replicate", "nearest"), ("circular", "wrap")])
def test_reduce_equals_scipy_filtering_then_subsampling(boundary, mode):
    image = np.random.default_rng(2).normal(size=(13, 10))
    expected = ndimage.correlate(image, H2, mode=mode)[::2, ::2]
    np.testing.assert_allclose(reduce(image, boundary), expected, atol=1e-13)


def test_expand_interior_is_4h_of_the_upsampled_image_and_border_is_extrapolated():
    coarse = np.random.default_rng(3).normal(size=(6, 5))
    shape = (12, 9)
    upsampled = np.zeros(shape)
    upsampled[::2, ::2] = coarse
    filtered = 4 * ndimage.correlate(upsampled, H2, mode="constant")
    for boundary in ("replicate", "linear", "quadratic"):
        fine = expand(coarse, shape, boundary)
        np.testing.assert_allclose(fine[2:-2, 2:-2], filtered[2:-2, 2:-2], atol=1e-13)
        # the two samples next to every border come from the inner image (thesis Fig. 5.1)
        np.testing.assert_allclose(fine, extend(filtered[2:-2, 2:-2], boundary), atol=1e-12)
    circular = expand(coarse, shape[:1] + (10,), "circular")
    upsampled = np.zeros((12, 10))
    upsampled[::2, ::2] = coarse
    np.testing.assert_allclose(circular, 4 * ndimage.correlate(upsampled, H2, mode="wrap"),
                               atol=1e-13)


# ------------------------------------------------------------------ low-pass and ramps


@pytest.mark.parametrize("boundary", EXTRAPOLATING)
@pytest.mark.parametrize("shape,levels", [((96, 80), 4), ((101, 75), 4), ((40, 36, 44), 2)])
def test_extrapolation_reproduces_the_lowpass_of_a_ramp_exactly(boundary, shape, levels):
    ramp = plane(shape)
    np.testing.assert_allclose(lowpass(ramp, levels, boundary), ramp, atol=1e-9)
    np.testing.assert_allclose(correct_illumination(ramp, levels, boundary), ramp.mean(),
                               atol=1e-9)


@pytest.mark.parametrize("boundary", ["replicate", "circular"])
def test_replicate_and_circular_bend_the_lowpass_of_a_ramp_at_the_border(boundary):
    ramp = plane((96, 80))
    error = np.abs(lowpass(ramp, 2, boundary) - ramp)
    assert error[:, :4].max() > 1.0 and error[:4].max() > 1.0  # at the borders
    assert error[32:64, 32:48].max() < 1e-9  # far inside, the boundary does not matter


def test_lowpass_levels_zero_is_the_identity_and_too_many_levels_fail_clearly():
    image = np.random.default_rng(4).normal(size=(48, 50))
    np.testing.assert_array_equal(lowpass(image, 0), image)
    # levels 0..3 are 48x50, 24x25, 12x13, 6x7; expanding onto 6x7 needs 9 for quadratic
    with pytest.raises(DataValidationError, match=r"level 3 is 6x7 .* Use levels <= 3"):
        lowpass(image, 4, "quadratic")
    assert lowpass(image, 4, "linear").shape == image.shape  # linear needs 6 samples


def test_bad_input_is_rejected_with_clear_messages():
    with pytest.raises(DataValidationError, match="NaN"):
        lowpass(np.full((20, 20), np.nan), 1)
    with pytest.raises(ValueError, match="levels"):
        lowpass(np.ones((20, 20)), -1)
    with pytest.raises(DataValidationError, match="numeric"):
        lowpass(np.array([["a"] * 20] * 20), 1)


# --------------------------------------------------------------------------------- masks


def _disc(shape, radius):
    yy, xx = np.indices(shape)
    return (yy - shape[0] / 2) ** 2 + (xx - shape[1] / 2) ** 2 < radius**2


@pytest.mark.parametrize("boundary", ["replicate", "linear", "quadratic"])
def test_rectangular_mask_gives_the_rectangular_result(boundary):
    rng = np.random.default_rng(5)
    big = rng.normal(size=(60, 70))
    mask = np.zeros(big.shape, dtype=bool)
    mask[8:56, 8:64] = True  # offsets divisible by 2**levels: both pyramids keep the same grid
    inside = lowpass(big, 3, boundary, mask=mask)[8:56, 8:64]
    np.testing.assert_allclose(inside, lowpass(big[8:56, 8:64], 3, boundary), atol=1e-10)


@pytest.mark.parametrize("boundary", EXTRAPOLATING)
def test_arbitrary_mask_reproduces_a_ramp_and_never_reads_outside(boundary):
    shape = (90, 100)
    mask = _disc(shape, 40) & ~_disc(shape, 12)  # a ring: concave and convex borders
    ramp = plane(shape)
    garbage = np.where(mask, ramp, np.nan)
    result = lowpass(garbage, 2, boundary, mask=mask)
    np.testing.assert_allclose(result[mask], ramp[mask], atol=1e-9)
    assert np.isnan(result[~mask]).all()
    corrected = correct_illumination(garbage, 2, boundary, mask=mask)
    np.testing.assert_allclose(corrected[mask], ramp[mask].mean(), atol=1e-9)
    assert np.isnan(corrected[~mask]).all()  # outside: the input, untouched


def test_mask_extension_uses_the_nearest_in_mask_samples():
    f = np.arange(1.0, 26.0).reshape(5, 5)
    mask = np.zeros((5, 5), dtype=bool)
    mask[1:4, 1:4] = True
    mask[1, 3] = False  # an L-shaped notch
    e = extend(f, "replicate", mask=mask)[2:-2, 2:-2]  # back to original coordinates
    assert e[1, 3] in (f[1, 2], f[2, 3])  # the notch: one of its two nearest samples
    assert e[0, 2] == f[1, 2]
    assert e[0, 0] == f[1, 1]
    assert e[4, 4] == f[3, 3]
    np.testing.assert_array_equal(e[mask], f[mask])
    far = extend(np.ones((12, 12)), "replicate", mask=_disc((12, 12), 2))
    assert np.isnan(far[0, 0])  # beyond 2 samples from the mask: undefined


def test_reduce_with_mask_is_nan_outside_the_reduced_mask():
    mask = _disc((40, 40), 15)
    small = reduce(plane((40, 40)), "linear", mask=mask)
    np.testing.assert_array_equal(np.isnan(small), ~reduce_mask(mask))
    kept = reduce_mask(mask)
    np.testing.assert_allclose(small[kept], plane((40, 40))[::2, ::2][kept], atol=1e-9)


def test_mask_errors_are_clear():
    image = np.ones((30, 30))
    with pytest.raises(ValueError, match="circular"):
        lowpass(image, 1, "circular", mask=np.ones((30, 30), bool))
    with pytest.raises(DataValidationError, match="does not match"):
        lowpass(image, 1, mask=np.ones((30, 31), bool))
    with pytest.raises(DataValidationError, match="empty"):
        lowpass(image, 1, mask=np.zeros((30, 30), bool))
    thin = np.zeros((30, 30), bool)
    thin[10:13, :] = True  # three rows: no 5 x 5 block for the quadratic fit
    with pytest.raises(DataValidationError, match="no 5x5 block"):
        lowpass(image, 1, "quadratic", mask=thin)
    with pytest.raises(DataValidationError, match="NaN or infinite values inside the mask"):
        lowpass(np.full((30, 30), np.inf), 1, mask=_disc((30, 30), 10))


# ------------------------------------------------------------------- colour and 3-D data


def test_colour_channels_are_corrected_independently():
    rng = np.random.default_rng(6)
    rgb = 100 + rng.normal(size=(48, 64, 3)).cumsum(axis=1)
    together = correct_illumination(rgb, 3, "quadratic", channel_axis=-1)
    for c in range(3):
        np.testing.assert_allclose(together[..., c],
                                   correct_illumination(rgb[..., c], 3, "quadratic"), atol=1e-12)
    first = correct_illumination(np.moveaxis(rgb, -1, 0), 3, "quadratic", channel_axis=0)
    np.testing.assert_allclose(np.moveaxis(first, 0, -1), together, atol=1e-12)


def test_volume_is_filtered_along_all_three_axes():
    volume = np.zeros((20, 20, 20))
    volume[10, 10, 10] = 1.0
    small = reduce(volume, "linear")
    # the impulse response of the separable 5x5x5 binomial at the kept positions
    h3 = np.einsum("i,j,k->ijk", *[np.array([1, 4, 6, 4, 1]) / 16.0] * 3)
    np.testing.assert_allclose(small[4:7, 4:7, 4:7], h3[::2, ::2, ::2], atol=1e-15)
    assert small.sum() == pytest.approx(1 / 8)  # DC gain 1 over 8x fewer samples


def test_volume_reduce_with_mask_and_linear_extrapolation_for_fmri_downsampling():
    shape = (30, 36, 30)
    zz, yy, xx = np.indices(shape)
    brain = ((zz - 15) / 13) ** 2 + ((yy - 18) / 16) ** 2 + ((xx - 15) / 13) ** 2 < 1
    ramp = plane(shape)
    small = reduce(np.where(brain, ramp, 0.0), "linear", mask=brain)
    kept = reduce_mask(brain)
    np.testing.assert_allclose(small[kept], ramp[::2, ::2, ::2][kept], atol=1e-9)


# ------------------------------------------------------------------ histogram matching


def test_histogram_matching_maps_monotonically_onto_the_central_histogram():
    rng = np.random.default_rng(7)
    image = 80 + 40 * rng.random((64, 64)) + np.linspace(0, 60, 64)[None, :]
    plain = correct_illumination(image, 3, "linear")
    matched = correct_illumination(image, 3, "linear", match_histogram=True)
    order = np.argsort(plain, axis=None, kind="stable")
    assert np.all(np.diff(matched.ravel()[order]) >= 0)  # same ranking as without matching
    centre = image[16:48, 16:48].ravel()
    np.testing.assert_allclose(np.quantile(matched, [0.1, 0.5, 0.9]),
                               np.quantile(centre, [0.1, 0.5, 0.9]), atol=0.5)
    assert matched.min() >= centre.min() and matched.max() <= centre.max()


# ---------------------------------------------------------- thesis 5.2: the vignetting image


def test_vignetting_image_follows_the_cosine_fourth_law():
    image = vignetting_image()
    assert image.shape == (1024, 1280)
    # pixel (row 512, column 0): x = -18 + 36/2560 mm, y = 12/1024 mm, f = 10 mm
    x, y = -18 + 36 / 2560, 12 / 1024
    assert image[512, 0] == pytest.approx(200 * np.cos(np.arctan(np.hypot(x, y) / 10)) ** 4)
    assert image.max() == pytest.approx(200, rel=1e-5)


def test_vignetting_border_error_is_far_smaller_with_extrapolation_in_the_published_order():
    image = vignetting_image()
    error = {b: max(border_error(correct_illumination(image, 5, b))) for b in PUBLISHED}
    # published 4.35 -> 0.36 -> 0.08 (thesis Figure 5.2)
    assert error["replicate"] > 3 * error["linear"] > 3 * error["quadratic"]
    # "both reduce the intensity change to less than 1 at the boundary", replicate does not
    assert error["linear"] < 1 and error["quadratic"] < 1 < error["replicate"]
