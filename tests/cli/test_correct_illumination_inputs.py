"""``sfmlearn correct-illumination``: inputs, masks and outputs refused before the work, in one line."""

import time

import nibabel as nib
import numpy as np
import pytest

from sfmlearn.analysis import illumination
from sfmlearn.cli import main

Image = pytest.importorskip("PIL.Image")

AFFINE = np.array([[2.0, 0, 0, -10], [0, 3, 0, 20], [0, 0, 4, 5], [0, 0, 0, 1]])


def _nifti(path, data, affine=AFFINE):
    nib.save(nib.Nifti1Image(np.asarray(data), affine), path)
    return str(path)


def _ramp(shape):
    return 100.0 + 2.0 * np.indices(shape)[0] + np.indices(shape)[-1]


def _fails(args, capsys):
    """The one error line of a run that must exit with code 2."""
    code = main(["correct-illumination", *map(str, args)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def no_correction(monkeypatch):
    """Fail the test if any correction is computed: the error must come before the work."""
    def refuse(*args, **kwargs):
        raise AssertionError("the correction ran before the error")
    monkeypatch.setattr(illumination, "correct_illumination", refuse)


def test_values_beyond_float32_are_refused_before_the_work(tmp_path, capsys, no_correction):
    volume = _ramp((12, 12, 12))
    volume[0, 0, 0] = 1e40
    err = _fails([_nifti(tmp_path / "in.nii.gz", volume), tmp_path / "out.nii.gz", "--levels", "0"], capsys)
    assert "values up to 1e+40" in err and "float32" in err and "rescale the image" in err
    assert not (tmp_path / "out.nii.gz").exists()


def test_circular_boundary_with_a_mask_is_refused_before_the_input_is_read(tmp_path, capsys):
    err = _fails([tmp_path / "missing.png", tmp_path / "out.png", "--boundary", "circular",
                  "--mask", tmp_path / "mask.png"], capsys)
    assert "'circular' boundary" in err and "cannot be used with a mask" in err and "use 'linear'" in err


def test_a_huge_levels_value_fails_at_once(tmp_path, capsys):
    Image.fromarray(np.uint8(_ramp((64, 64)))).save(tmp_path / "in.png")
    start = time.perf_counter()
    err = _fails([tmp_path / "in.png", tmp_path / "out.png", "--levels", "100000000"], capsys)
    assert time.perf_counter() - start < 5 and "too many" in err and "Use levels <= 3" in err


def test_a_mask_on_another_grid_of_the_same_shape_is_refused(tmp_path, capsys, no_correction):
    shifted = AFFINE.copy()
    shifted[:3, 3] += [5.0, 0.0, 0.0]
    source = _nifti(tmp_path / "in.nii.gz", _ramp((12, 12, 12)))
    mask = _nifti(tmp_path / "mask.nii.gz", np.ones((12, 12, 12), np.uint8), shifted)
    err = _fails([source, tmp_path / "out.nii.gz", "--levels", "1", "--mask", mask], capsys)
    assert f"{mask}: the mask is not on the grid of {source}" in err
    assert "affines differing by up to 5 mm" in err and "resample_to_img" in err


@pytest.mark.parametrize("image_shape, mask_shape", [((16, 16, 1), (16, 16)), ((16, 16), (16, 16, 1)),
                                                     ((16, 16, 1, 2), (16, 16))])
def test_a_single_slice_and_its_mask_are_one_grid_with_or_without_the_length_1_axis(
        tmp_path, capsys, image_shape, mask_shape):
    inside = np.zeros(mask_shape, np.uint8)
    inside[2:14, 2:14] = 1
    values = _ramp(image_shape)
    source = _nifti(tmp_path / "in.nii.gz", values)
    mask = _nifti(tmp_path / "mask.nii.gz", inside)
    assert main(["correct-illumination", source, str(tmp_path / "out.nii.gz"), "--levels", "1",
                 "--boundary", "linear", "--mask", mask]) == 0
    assert "144 of 256 samples inside the mask" in capsys.readouterr().out
    out = np.asarray(nib.load(tmp_path / "out.nii.gz").dataobj)
    outside = inside.reshape(16, 16) == 0
    assert out.shape == image_shape
    np.testing.assert_array_equal(out.reshape(16, 16, -1)[outside], values.reshape(16, 16, -1)[outside])


def test_a_mask_with_nan_is_refused(tmp_path, capsys):
    inside = np.ones((12, 12, 12))
    inside[3, 3, 3] = np.nan
    source = _nifti(tmp_path / "in.nii.gz", _ramp((12, 12, 12)))
    err = _fails([source, tmp_path / "out.nii.gz", "--levels", "1", "--boundary", "linear",
                  "--mask", _nifti(tmp_path / "mask.nii.gz", inside)], capsys)
    assert "the mask holds 1 NaN values" in err and "set them to 0 (outside) or 1 (inside)" in err


def test_a_single_voxel_is_corrected_at_level_0_like_a_single_pixel(tmp_path, capsys):
    source = _nifti(tmp_path / "one.nii.gz", np.full((1, 1, 1), 7.0, np.float32))
    assert main(["correct-illumination", source, str(tmp_path / "out.nii.gz"), "--levels", "0"]) == 0
    assert np.asarray(nib.load(tmp_path / "out.nii.gz").dataobj).tolist() == [[[7.0]]]
    capsys.readouterr()
    err = _fails([source, tmp_path / "out5.nii.gz"], capsys)
    assert f"{source} (1 x 1 x 1): 5 pyramid levels are too many" in err and "Use levels <= 0" in err
    assert "shape ()" not in err


@pytest.mark.parametrize("picture, target, message", [
    (np.zeros((32, 32, 4), np.uint8), "out.jpg", "JPEG cannot store colour uint8 pictures with an alpha channel"),
    (np.zeros((32, 32), np.float32), "out.png", "PNG cannot store grey float32 pictures like the input; write .tif"),
    (np.zeros((32, 32), np.uint16), "out.jpg", "JPEG cannot store grey uint16 pictures like the input; write .png or"),
])
def test_an_output_format_that_cannot_store_the_result_is_refused_before_the_work(
        tmp_path, capsys, no_correction, picture, target, message):
    source = tmp_path / ("in.tif" if picture.dtype == np.float32 else "in.png")
    Image.fromarray(picture).save(source)
    err = _fails([source, tmp_path / target, "--levels", "1"], capsys)
    assert message in err
    assert not (tmp_path / target).exists()
