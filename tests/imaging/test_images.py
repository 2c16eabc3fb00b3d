"""Image files: whether a format can store a picture, and float results within their type's range."""

import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.images import check_float_range, check_picture_writable, to_dtype

pytest.importorskip("PIL.Image")


@pytest.mark.parametrize("array, target, message", [
    (np.zeros((4, 4, 4), np.uint8), "out.jpg", "JPEG cannot store colour uint8 pictures with an alpha channel .* "
                                               "write .png or .tif instead"),
    (np.zeros((4, 4, 2), np.uint8), "out.jpeg", "JPEG cannot store grey uint8 pictures with an alpha channel"),
    (np.zeros((4, 4), np.float32), "out.png", "PNG cannot store grey float32 pictures .*; write .tif instead"),
    (np.zeros((4, 4), np.uint16), "out.jpg", "JPEG cannot store grey uint16 pictures .*; write .png or .tif instead"),
    (np.zeros((4, 4), np.int32), "out.png", "PNG cannot store grey int32 pictures .*; write .tif instead"),
])
def test_a_format_that_cannot_store_the_picture_is_named_with_those_that_can(array, target, message):
    with pytest.raises(DataValidationError, match=message):
        check_picture_writable(target, array)


@pytest.mark.parametrize("array, target", [
    (np.zeros((4, 4, 4), np.uint8), "out.png"), (np.zeros((4, 4), np.float32), "out.TIF"),
    (np.zeros((4, 4), np.uint16), "out.png"), (np.zeros((4, 4, 3), np.uint8), "out.jpg"),
])
def test_formats_that_store_the_picture_pass(array, target):
    assert check_picture_writable(target, array) is None


def test_float_values_beyond_float32_are_refused_not_made_infinite():
    values = np.array([1.0, -2e39, np.nan, np.inf])  # NaN and inf stay what they are
    with pytest.raises(DataValidationError, match=r"values up to 2e\+39, beyond the range of float32 .*rescale"):
        to_dtype(values, np.dtype(np.float32))
    out, clipped = to_dtype(np.array([1.0, -3e38, np.nan]), np.dtype(np.float32))
    assert out.dtype == np.float32 and np.isfinite(out[:2]).all() and clipped == 0
    check_float_range(np.array([np.inf, 3e38]), np.float32, "image")  # within range: no error
