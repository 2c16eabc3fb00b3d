"""The pyramid's options and masks are checked before any work, with messages that say the fix."""

import time
import warnings

import nibabel as nib
import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging import correct_illumination, expand, extend, lowpass, reduce
from sfmlearn.imaging.pyramid import check_correction_options

IMAGE = 100 + 0.5 * np.indices((64, 64))[1]


@pytest.mark.parametrize("boundary, last", [("quadratic", 3), ("replicate", 4), ("circular", 6)])
def test_a_huge_number_of_levels_fails_at_once(boundary, last):
    """The levels are built only until the first that does not fit, however many are asked for."""
    start = time.perf_counter()
    with pytest.raises(DataValidationError, match=rf"10000000 pyramid levels are too many .* Use levels <= {last} "):
        correct_illumination(IMAGE, 10**7, boundary)
    assert time.perf_counter() - start < 0.5


def test_circular_levels_stop_at_one_sample_per_axis():
    """64 x 64 halves to 1 x 1 at level 6: that level is the last one with anything to reduce."""
    assert lowpass(IMAGE, 6, "circular").shape == IMAGE.shape
    with pytest.raises(DataValidationError, match="level 6 is 1x1 samples, but one sample per axis cannot be reduced"):
        lowpass(IMAGE, 7, "circular")


def test_circular_boundary_with_a_mask_is_a_data_validation_error():
    """A DataValidationError, so that the command line reports it in one line."""
    with pytest.raises(DataValidationError, match="'circular' boundary .* cannot be used with a mask; use 'linear'"):
        correct_illumination(IMAGE, 2, "circular", mask=np.ones(IMAGE.shape, bool))
    with pytest.raises(DataValidationError, match="cannot be used with a mask"):
        check_correction_options(2, "circular", masked=True)


@pytest.mark.parametrize("mask, message", [
    (np.full(IMAGE.shape, np.nan), "the mask holds 4096 NaN values, which are neither inside nor outside"),
    (np.where(IMAGE > 110, 1.0, np.nan), "NaN values.*; set them to 0 .outside. or 1 .inside."),
    (np.full(IMAGE.shape, "a"), "mask must hold booleans or numbers"),
])
def test_masks_with_nan_or_without_numbers_are_refused(mask, message):
    """NaN != 0 would count as inside; refusing it is the only answer that is not silently wrong."""
    with pytest.raises(DataValidationError, match=message):
        correct_illumination(IMAGE, 2, "linear", mask=mask)


@pytest.mark.parametrize("call, message", [
    (lambda: correct_illumination(IMAGE, True), "levels must be a non-negative integer; got True"),
    (lambda: lowpass(IMAGE, False), "levels must be a non-negative integer; got False"),
    (lambda: correct_illumination(IMAGE, 2, match_histogram="no"), "match_histogram must be True or False; got 'no'"),
    (lambda: correct_illumination(np.dstack([IMAGE] * 3), 2, channel_axis=True), "channel_axis=True is not an axis"),
    (lambda: check_correction_options(np.int64(2), "quadratic", match_histogram=1), "match_histogram must be True"),
])
def test_bool_counts_and_non_bool_flags_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_check_correction_options_returns_the_levels():
    assert check_correction_options(np.int64(3), "linear", masked=True, match_histogram=np.bool_(True)) == 3


NIFTI = nib.Nifti1Image(np.ones(IMAGE.shape + (1,), np.float32), np.eye(4))
READ_IT = r"pass a numpy array; read a file into one first \(e.g. nibabel.load\(path\).get_fdata\(\)\)"


@pytest.mark.parametrize("call, message", [
    (lambda: correct_illumination(NIFTI, 1), rf"image must be numeric; got a Nifti1Image: {READ_IT}"),
    (lambda: correct_illumination("scan.nii.gz", 1), rf"image must be numeric; got a str: {READ_IT}"),
    (lambda: lowpass(IMAGE + 1j, 1), r"got an array of dtype complex128: take their magnitude first \(numpy.abs\)"),
    (lambda: correct_illumination(IMAGE, 1, mask=NIFTI), rf"mask must hold booleans or numbers .*got a Nifti1Image: "
                                                         rf"{READ_IT}"),
])
def test_an_image_or_mask_that_is_not_an_array_of_numbers_is_told_how_to_pass_one(call, message):
    """A nibabel image or a file name was "got dtype object" or "mask shape ()", without the fix."""
    with pytest.raises(DataValidationError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: expand(np.ones((2, 2)), (3, 3)),
     r"expand with the 'quadratic' boundary needs at least 9 samples per axis \(it recomputes the 2 border samples "
     r"per side from blocks of 5 inside them\); got target shape \(3, 3\)\. Use a larger image or a boundary mode "
     r"that needs fewer samples \('replicate', 'circular', 'linear'\)"),
    (lambda: reduce(np.ones((2, 2))), r"reduce with the 'quadratic' boundary needs at least 5 samples per axis \(it "
                                      r"extrapolates from blocks of 5 samples per axis\); got spatial shape \(2, 2\)"),
    (lambda: extend(np.ones(1), "linear"), r"extend with the 'linear' boundary needs at least 2 samples .* shape "
                                           r"\(1,\)\. .* fewer samples \('replicate', 'circular'\)"),
    (lambda: expand(np.ones((3, 3)), (5, 5), "linear"), r"expand with the 'linear' boundary needs at least 6"),
])
def test_too_small_grids_of_the_single_steps_name_the_step_and_no_levels(call, message):
    """extend and reduce blamed "expand" and advised "fewer levels"; expand spoke of -1 samples."""
    with pytest.raises(DataValidationError, match=message) as error:
        call()
    assert "level" not in str(error.value)


def test_the_single_steps_work_on_the_smallest_grids_they_need():
    assert reduce(np.ones((1, 1)), "replicate").shape == (1, 1)
    np.testing.assert_allclose(expand(np.ones((3, 3)), (6, 6), "linear"), 1.0)
    assert extend(np.ones(5)).shape == (9,)


def test_a_small_mask_in_the_pyramid_points_to_fewer_levels_and_in_a_single_step_not():
    mask = np.pad(np.ones((14, 14), bool), 13)
    with pytest.raises(DataValidationError, match=r"pyramid level 2 \(10x10 samples\): the mask has no 5x5 block .* "
                                                  r"Or use levels <= 2\."):
        lowpass(np.ones(mask.shape), 3, mask=mask)
    with pytest.raises(DataValidationError, match=r"no 5x5 block .*'replicate': 1\)\.$"):
        reduce(np.ones((16, 16)), mask=np.eye(16))


@pytest.mark.parametrize("value", [1e304, 1.7e308])
def test_values_near_the_float64_limit_are_corrected_not_made_infinite(value):
    """The mean of 90 000 samples of 1e304 overflowed: the result was all infinite."""
    image = np.full((300, 300), value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        corrected = correct_illumination(image, 3)
        low = lowpass(image, 3)
    np.testing.assert_allclose(corrected, value, rtol=1e-13)
    np.testing.assert_allclose(low, value, rtol=1e-13)


def test_a_result_beyond_the_float64_range_is_refused():
    """Near the limit a correction can exceed it: f - G'_0 + mean(f) at a bright edge."""
    step = np.where(np.indices((64, 64))[1] < 16, -1.7e308, 1.7e308)
    with pytest.raises(DataValidationError, match=r"beyond the range of float64 .*rescale the image first"):
        correct_illumination(step, 2)
    assert np.isfinite(correct_illumination(step / 4, 2)).all()  # rescaled as the message says, it works


def test_scaling_leaves_ordinary_results_bit_for_bit_unchanged():
    """The values are divided by a power of two, which changes only their exponent."""
    mask = np.ones(IMAGE.shape, bool)
    mask[:5, :7] = False
    image = IMAGE + np.random.default_rng(0).random(IMAGE.shape)
    for factor in (1.0, 2.0**-40, 2.0**40):
        np.testing.assert_array_equal(correct_illumination(image * factor, 2, mask=mask),
                                      correct_illumination(image, 2, mask=mask) * factor)
