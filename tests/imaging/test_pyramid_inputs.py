"""The pyramid's options and masks are checked before any work, with messages that say the fix."""

import time

import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging import correct_illumination, lowpass
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
