"""Image files: whether a format can store a picture, results within their type's range, NIfTI sizes."""

import gzip

import nibabel as nib
import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.images import check_float_range, check_picture_writable, read_nifti, to_dtype
from sfmlearn.imaging.volumes import VolumeMask, load_image

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


def test_integer_types_refuse_nan_and_out_of_range_values_unless_clipping():
    out, clipped = to_dtype(np.array([1.4, 300.0, -7.0]), np.uint8)
    assert out.tolist() == [1, 255, 0] and clipped == 2
    with pytest.raises(DataValidationError, match=r"the map holds values from -7 to 300, beyond the range of uint8 "
                                                  r"\(0..255\); write a wider type"):
        to_dtype(np.array([1.4, 300.0, -7.0]), np.uint8, what="the map", clip=False)
    with pytest.raises(DataValidationError, match="holds 1 NaN values, which the integer type int16 cannot store"):
        to_dtype(np.array([1.0, np.nan]), np.int16)
    with pytest.raises(ValueError, match="the type to write the map in must be an integer or float type; got bool"):
        to_dtype(np.array([1.0]), bool, what="the map")


def _nifti_claiming(path, shape):
    """A NIfTI file whose header claims a float32 image of ``shape`` but that holds 64 bytes of data."""
    header = nib.Nifti1Header()
    header.set_data_shape(shape)
    header.set_data_dtype(np.float32)
    header.set_data_offset(352)
    content = header.binaryblock + bytes(4) + bytes(64)  # header, extension flag, data
    path.write_bytes(gzip.compress(content) if path.suffix == ".gz" else content)
    return path


@pytest.mark.parametrize("name, room", [
    ("big.nii", r"the file holds 64 bytes after the header's data offset \(352\)"),
    ("big.nii.gz", r"a gzip file of \d+ bytes decompresses to at most [\d.]+ kB"),
])
@pytest.mark.parametrize("read, prefix", [
    (read_nifti, ""), (load_image, "image "), (VolumeMask.load, "mask "),
])
def test_a_header_claiming_more_data_than_the_file_holds_is_refused_before_allocating(tmp_path, name, room, read,
                                                                                      prefix):
    """800^3 floats were allocated (2 GB) before nibabel found the file too short; 2000^3 ran out of
    memory and said nothing ("not a readable NIfTI image ()")."""
    path = _nifti_claiming(tmp_path / name, (2000, 2000, 2000))
    with pytest.raises(DataValidationError, match=rf"^{prefix}.*{name}: its header claims a 2000 x 2000 x 2000 float32 "
                                                  rf"image \(32 GB of data\), but {room}: the file is truncated or "
                                                  r"its header is damaged; write or download it again"):
        read(path)


@pytest.mark.parametrize("name", ["ok.nii", "ok.nii.gz", "ok.img"])
def test_complete_files_pass_the_size_check(tmp_path, name):
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    image_type = nib.Nifti1Pair if name.endswith(".img") else nib.Nifti1Image
    nib.save(image_type(data, np.eye(4)), tmp_path / name)
    np.testing.assert_array_equal(read_nifti(tmp_path / name)[1], data)
    np.testing.assert_array_equal(load_image(tmp_path / name).get_fdata(), data)


def test_running_out_of_memory_is_said_in_words(tmp_path, monkeypatch):
    nib.save(nib.Nifti1Image(np.zeros((2, 3, 4), np.float32), np.eye(4)), tmp_path / "ok.nii")

    def out_of_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(nib.Nifti1Image, "get_fdata", out_of_memory)
    with pytest.raises(DataValidationError, match=r"ok.nii: not enough memory to read its 2 x 3 x 4 data "
                                                  r"\(192 bytes\); crop or downsample the image first"):
        read_nifti(tmp_path / "ok.nii")
