"""``sfmlearn correct-illumination`` on pictures and NIfTI images."""

import nibabel as nib
import numpy as np
import pytest

from sfmlearn.cli import main
from sfmlearn.imaging import correct_illumination

Image = pytest.importorskip("PIL.Image")


def vignetted(shape=(96, 128), peak=220.0):
    yy, xx = np.indices(shape, dtype=float)
    r2 = ((yy - shape[0] / 2) / shape[0]) ** 2 + ((xx - shape[1] / 2) / shape[1]) ** 2
    texture = 10 * np.sin(xx / 3) * np.cos(yy / 5)
    return peak * (1 - 1.2 * r2) + texture


def test_grey_png_is_corrected_and_written_as_8_bit(tmp_path, capsys):
    picture = np.rint(vignetted()).astype(np.uint8)
    Image.fromarray(picture).save(tmp_path / "in.png")
    assert main(["correct-illumination", str(tmp_path / "in.png"), str(tmp_path / "out.png"),
                 "--levels", "3"]) == 0
    out = np.array(Image.open(tmp_path / "out.png"))
    expected = np.clip(np.rint(correct_illumination(picture, 3, "quadratic")), 0, 255)
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.uint8
    assert "128 x 96 pixels" in capsys.readouterr().out


def test_rgba_png_keeps_alpha_and_uses_it_as_mask(tmp_path):
    rgb = np.stack([vignetted(), 0.7 * vignetted(), 0.4 * vignetted()], axis=-1)
    alpha = np.full(rgb.shape[:2], 255, np.uint8)
    alpha[:20, :30] = 0
    rgba = np.concatenate([np.rint(rgb).astype(np.uint8), alpha[..., None]], axis=-1)
    Image.fromarray(rgba).save(tmp_path / "in.png")
    assert main(["correct-illumination", str(tmp_path / "in.png"), str(tmp_path / "out.png"),
                 "--levels", "2", "--boundary", "linear", "--mask", str(tmp_path / "in.png")]) == 0
    out = np.array(Image.open(tmp_path / "out.png"))
    np.testing.assert_array_equal(out[..., 3], alpha)
    np.testing.assert_array_equal(out[:20, :30, :3], rgba[:20, :30, :3])  # outside: untouched
    expected = correct_illumination(rgba[..., :3], 2, "linear", mask=alpha > 0, channel_axis=-1)
    np.testing.assert_array_equal(out[..., :3], np.clip(np.rint(expected), 0, 255))


def test_16_bit_tiff_stays_16_bit(tmp_path):
    picture = np.rint(vignetted(peak=40000.0)).astype(np.uint16)
    Image.fromarray(picture).save(tmp_path / "in.tif")
    assert main(["correct-illumination", str(tmp_path / "in.tif"), str(tmp_path / "out.tif"),
                 "--levels", "2"]) == 0
    out = np.array(Image.open(tmp_path / "out.tif"))
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(out, np.rint(correct_illumination(picture, 2, "quadratic")))


def _nifti(data, path, dtype=None):
    affine = np.array([[-3.0, 0, 0, 90], [0, 3, 0, -126], [0, 0, 3, -72], [0, 0, 0, 1]])
    image = nib.Nifti1Image(data if dtype is None else data.astype(dtype), affine)
    image.header["descrip"] = b"sfmlearn test"
    nib.save(image, path)
    return image


def test_nifti_volume_keeps_affine_and_header_and_respects_mask(tmp_path):
    rng = np.random.default_rng(0)
    shape = (36, 40, 32)
    zz, yy, xx = np.indices(shape)
    volume = 1000 + 5.0 * xx + 3.0 * yy * zz / 10 + rng.normal(size=shape)
    brain = ((zz - 18) / 17) ** 2 + ((yy - 20) / 19) ** 2 + ((xx - 16) / 15) ** 2 < 1
    source = _nifti(volume, tmp_path / "in.nii.gz", np.int16)
    _nifti(brain.astype(np.uint8), tmp_path / "mask.nii.gz")
    assert main(["correct-illumination", str(tmp_path / "in.nii.gz"),
                 str(tmp_path / "out.nii.gz"), "--levels", "2", "--boundary", "linear",
                 "--mask", str(tmp_path / "mask.nii.gz")]) == 0
    out = nib.load(tmp_path / "out.nii.gz")
    np.testing.assert_array_equal(out.affine, source.affine)
    assert out.header["descrip"].item() == b"sfmlearn test"
    assert out.get_data_dtype() == np.float32
    data = source.get_fdata()
    expected = correct_illumination(data, 2, "linear", mask=brain)
    np.testing.assert_allclose(out.get_fdata(), expected, rtol=1e-6)
    np.testing.assert_array_equal(out.get_fdata()[~brain], data[~brain])


def test_nifti_series_and_single_slice(tmp_path):
    rng = np.random.default_rng(1)
    series = 50 + rng.normal(size=(24, 28, 20, 3)).cumsum(axis=0)
    _nifti(series, tmp_path / "series.nii")
    assert main(["correct-illumination", str(tmp_path / "series.nii"),
                 str(tmp_path / "series_out.nii"), "--levels", "1"]) == 0
    out = nib.load(tmp_path / "series_out.nii").get_fdata()
    for t in range(3):
        np.testing.assert_allclose(out[..., t], correct_illumination(series[..., t], 1),
                                   rtol=1e-6)
    single = series[:, :, :1, 0]  # X x Y x 1: a slice
    _nifti(single, tmp_path / "slice.nii")
    assert main(["correct-illumination", str(tmp_path / "slice.nii"),
                 str(tmp_path / "slice_out.nii"), "--levels", "1"]) == 0
    out = nib.load(tmp_path / "slice_out.nii").get_fdata()
    assert out.shape == single.shape
    np.testing.assert_allclose(out[:, :, 0], correct_illumination(single[:, :, 0], 1), rtol=1e-6)


@pytest.mark.parametrize("setup,args,message", [
    ("broken.png", ["broken.png", "out.png"], "cannot read it as a picture"),
    ("broken.nii.gz", ["broken.nii.gz", "out.nii.gz"], "cannot read it as NIfTI"),
    ("good.png", ["good.png", "out.nii"], "write the result as a picture file"),
    ("good.png", ["good.png", "out.txt"], "unknown file type"),
    ("good.png", ["good.png", "out.png", "--levels", "-1"], "--levels must be 0 or more"),
    ("good.png", ["good.png", "out.png", "--levels", "9"], "Use levels <= 4"),
])
def test_bad_input_ends_with_one_line_and_exit_code_2(tmp_path, capsys, setup, args, message):
    if setup.startswith("broken"):
        (tmp_path / setup).write_bytes(b"\x1f\x8b not really an image")
    else:
        Image.fromarray(np.rint(vignetted()).astype(np.uint8)).save(tmp_path / setup)
    code = main(["correct-illumination"] + [str(tmp_path / a) if "." in a else a for a in args])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1
