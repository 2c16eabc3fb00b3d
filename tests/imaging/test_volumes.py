import time

import nibabel as nib
import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.pyramid import reduce as pyramid_reduce
from sfmlearn.imaging.volumes import VolumeMask, downsample, downsample_mask, load_images


@pytest.fixture
def mask():
    data = np.zeros((8, 6, 4), dtype=bool)
    data[1:7, 1:5, 0:3] = True
    affine = np.diag([3.0, 3.0, 3.0, 1.0])
    affine[:3, 3] = [-10.0, 5.0, 2.0]
    return VolumeMask(data, affine)


def test_matrix_and_volumes_round_trip_in_c_order(mask):
    rng = np.random.default_rng(0)
    volumes = rng.standard_normal(mask.shape + (5,))
    X = mask.matrix(volumes)
    assert X.shape == (5, mask.n_voxels)
    i, j, k = np.argwhere(mask.data)[3]
    assert X[2, 3] == volumes[i, j, k, 2]
    back = mask.volumes(X, fill=np.nan)
    np.testing.assert_array_equal(back[mask.data], volumes[mask.data])
    assert np.isnan(back[~mask.data]).all()


def test_nifti_round_trip_and_grid_check(mask, tmp_path):
    values = np.arange(mask.n_voxels, dtype=float)
    nib.save(mask.inverse_transform(values), tmp_path / "w.nii.gz")
    np.testing.assert_allclose(mask.transform(str(tmp_path / "w.nii.gz"))[0], values)
    shifted = mask.affine.copy()
    shifted[0, 3] += 1.0
    nib.save(nib.Nifti1Image(np.zeros(mask.shape, np.float32), shifted), tmp_path / "o.nii.gz")
    with pytest.raises(DataValidationError, match=r"same shape, affines differing by up to 1 mm"):
        mask.transform(str(tmp_path / "o.nii.gz"))
    with pytest.raises(DataValidationError, match="not on the grid"):
        load_images([str(tmp_path / "w.nii.gz"), nib.Nifti1Image(np.zeros((2, 2, 2)), mask.affine)])


def test_nan_inside_the_mask_is_refused(mask):
    volumes = np.zeros(mask.shape)
    volumes[2, 2, 1] = np.nan
    with pytest.raises(DataValidationError, match=r"NaN.*\(first: map 1, voxel \(2, 2, 1\)\)"):  # maps from 1
        mask.matrix(volumes)


def test_written_maps_keep_the_masks_space(mask, tmp_path):
    image = mask.image()
    image.set_sform(mask.affine, code=4)  # MNI
    image.set_qform(mask.affine, code=4)
    nib.save(image, tmp_path / "mni_mask.nii.gz")
    loaded = VolumeMask.load(str(tmp_path / "mni_mask.nii.gz"))
    written = loaded.inverse_transform(np.ones(loaded.n_voxels)).header
    assert (int(written["sform_code"]), int(written["qform_code"])) == (4, 4)
    assert downsample(np.zeros(mask.shape), loaded, 1)[1].space_code == 4


def test_masks_of_other_formats_or_undefined_codes_are_in_scanner_space(mask):
    inside = mask.data.astype(np.float32)
    assert VolumeMask.load(nib.MGHImage(inside, mask.affine)).space_code == 1  # no NIfTI codes at all
    image = nib.Nifti1Image(inside, mask.affine)
    image.header["sform_code"] = 7  # no NIfTI space
    assert VolumeMask.load(image).space_code == 1
    with pytest.raises(DataValidationError, match="space_code must be a NIfTI space code"):
        VolumeMask(mask.data, mask.affine, 0)  # code 0 would drop the affine from the written maps


def test_downsample_level_one_subsamples_with_doubled_voxels(mask):
    volumes = np.random.default_rng(1).standard_normal(mask.shape)
    coarse, coarse_mask = downsample(volumes, mask, 1)
    np.testing.assert_array_equal(coarse_mask.data, mask.data[::2, ::2, ::2])
    np.testing.assert_allclose(coarse_mask.voxel_size, 2 * mask.voxel_size)
    np.testing.assert_allclose(coarse_mask.affine[:3, 3], mask.affine[:3, 3])
    inside = coarse_mask.data
    np.testing.assert_array_equal(coarse[inside], volumes[::2, ::2, ::2][inside])
    assert np.isnan(coarse[~inside]).all()


def test_downsample_level_two_is_a_pyramid_reduce_on_a_full_mask():
    full = VolumeMask(np.ones((16, 16, 16), dtype=bool), np.eye(4))
    # a linear ramp: the binomial filter with linear extrapolation keeps it exactly
    ramp = np.add.outer(np.add.outer(np.arange(16.0), 2 * np.arange(16.0)), np.zeros(16))
    coarse, coarse_mask = downsample(ramp, full, 2)
    assert coarse.shape == (4, 4, 4) and coarse_mask.n_voxels == 64
    np.testing.assert_allclose(coarse, pyramid_reduce(ramp[::2, ::2, ::2], boundary="linear"))
    np.testing.assert_allclose(coarse, ramp[::4, ::4, ::4], atol=1e-9)


def test_downsample_mask_refuses_levels_that_empty_it(mask):
    assert downsample_mask(mask, 0).n_voxels == mask.n_voxels
    with pytest.raises(DataValidationError):
        downsample_mask(mask, 5)


def test_downsample_mask_to_a_huge_level_fails_at_once_at_the_single_voxel():
    """8 x 8 x 8 is one voxel at level 3; asking for far more levels fails there, not after them."""
    full = VolumeMask(np.ones((8, 8, 8), bool), np.eye(4))
    assert downsample_mask(full, 3).shape == (1, 1, 1)
    start = time.perf_counter()
    with pytest.raises(DataValidationError, match="single voxel at level 3.*use level <= 3"):
        downsample_mask(full, 10**6)
    assert time.perf_counter() - start < 0.5


def test_maps_of_complex_or_record_values_and_a_mask_with_nan_are_refused():
    """Complex maps lost their imaginary part with only a ComplexWarning; a NaN in a mask
    array counted as inside (NaN != 0)."""
    affine = np.eye(4)
    mask = VolumeMask(np.ones((2, 2, 2)), affine)
    with pytest.raises(DataValidationError, match="hold complex128 values; sfmlearn decodes real numbers"):
        mask.matrix(np.ones((2, 2, 2, 3)) * (1 + 1j))
    rgb = np.zeros((2, 2, 2, 3), dtype=[("R", "u1"), ("G", "u1"), ("B", "u1")])
    with pytest.raises(DataValidationError, match="sfmlearn decodes real numbers"):
        mask.matrix(rgb)
    with_nan = np.ones((2, 2, 2))
    with_nan[0, 0, 0] = np.nan
    with pytest.raises(DataValidationError, match="the mask contains NaN values"):
        VolumeMask(with_nan, affine)
    with pytest.raises(DataValidationError, match="selects no voxel .* check that it is the mask"):
        VolumeMask(np.zeros((2, 2, 2)), affine)


def test_a_mask_file_of_many_float_values_warns_that_every_non_zero_voxel_is_inside(tmp_path):
    import warnings

    affine = np.eye(4)
    probability = np.full((3, 3, 3), 1e-6)
    probability[1, 1, 1] = 0.9
    nib.save(nib.Nifti1Image(probability, affine), tmp_path / "prob.nii.gz")
    with pytest.warns(UserWarning, match="2 different non-zero values .* threshold it first"):
        assert VolumeMask.load(tmp_path / "prob.nii.gz").n_voxels == 27
    nib.save(nib.Nifti1Image((probability > 0.5).astype(np.float32), affine), tmp_path / "binary.nii.gz")
    nib.save(nib.Nifti1Image(np.arange(27, dtype=np.int16).reshape(3, 3, 3), affine), tmp_path / "atlas.nii.gz")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a binary mask and an atlas of labels say nothing
        assert VolumeMask.load(tmp_path / "binary.nii.gz").n_voxels == 1
        assert VolumeMask.load(tmp_path / "atlas.nii.gz").n_voxels == 26


def test_maps_whose_squares_overflow_are_refused_in_words():
    """Values near 1e300 ended in scikit-learn's 'Input X contains NaN' from the SVM's scaler."""
    mask = VolumeMask(np.ones((2, 2, 2)), np.eye(4))
    with pytest.raises(DataValidationError, match=r"values up to 1e\+300 inside the mask: their squares overflow"):
        mask.matrix(np.full((2, 2, 2, 3), 1e300))
    assert mask.matrix(np.full((2, 2, 2, 3), 1e100)).max() == 1e100


def test_an_image_off_the_masks_grid_is_named_against_the_mask(tmp_path):
    """The first image set the grid, so a list starting with the odd one blamed the good one."""
    mask = VolumeMask(np.ones((2, 2, 2)), np.eye(4))
    good, odd = tmp_path / "good.nii.gz", tmp_path / "odd.nii.gz"
    nib.save(nib.Nifti1Image(np.ones((2, 2, 2)), np.eye(4)), good)
    nib.save(nib.Nifti1Image(np.ones((3, 2, 2)), np.eye(4)), odd)
    with pytest.raises(DataValidationError, match=r"odd.nii.gz is not on the grid of the mask"):
        mask.transform([odd, good])
    with pytest.raises(DataValidationError, match=r"odd.nii.gz is not on the grid of the mask"):
        mask.transform([good, odd])
    assert mask.transform([good, good]).shape == (2, 8)


@pytest.mark.parametrize("value, dtype, message", [
    (300, np.uint8, r"the map holds values from 0 to 300, beyond the range of uint8 \(0..255\); write a wider type"),
    (-1.5, np.uint8, r"values from -1.5 to 0, beyond the range of uint8"),
    (np.nan, np.int16, r"the map holds 8 NaN values, which the integer type int16 cannot store"),
    (1e39, np.float32, r"the map holds values up to 1e\+39, beyond the range of float32"),
])
def test_maps_refuse_values_their_dtype_cannot_hold(value, dtype, message):
    """300 became 44 in uint8, -1.5 became 255, NaN 0 in int16 and 1e39 infinity in float32."""
    mask = VolumeMask(np.pad(np.ones((2, 2, 2), bool), 1), np.eye(4))
    with pytest.raises(DataValidationError, match=message):
        mask.inverse_transform(np.full(8, value), dtype=dtype)


def test_integer_maps_are_rounded_and_fill_must_fit_too():
    mask = VolumeMask(np.pad(np.ones((2, 2, 2), bool), 1), np.eye(4))
    image = mask.inverse_transform(np.array([0.4, 0.6, 1.5, 2, 3, 4, 254.6, 7]), dtype=np.uint8)
    assert image.get_data_dtype() == np.uint8
    assert sorted(np.asarray(image.dataobj)[mask.data].tolist()) == [0, 1, 2, 2, 3, 4, 7, 255]
    with pytest.raises(DataValidationError, match="values from -1 to 7, beyond the range of uint8"):
        mask.inverse_transform(np.arange(8), fill=-1, dtype=np.uint8)
