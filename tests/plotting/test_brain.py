import numpy as np
import pandas as pd
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.volumes import VolumeMask
from sfmlearn.outputs.atomic import TEMPORARY_PREFIX
from sfmlearn.plotting import brain


@pytest.fixture
def mask():
    data = np.zeros((6, 5, 4), dtype=bool)
    data[1:5, 1:4, :3] = True  # three occupied axial slices
    return VolumeMask(data, np.diag([2.0, 2.0, 2.0, 1.0]))


def test_montage_draws_occupied_slices_with_mni_z(mask):
    values = np.arange(mask.n_voxels, dtype=float)
    fig = brain.slice_montage(mask, values, title="t", label="value", symmetric=True)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == ["z = 0 mm", "z = 2 mm", "z = 4 mm"]
    images = [im for ax in fig.axes for im in ax.get_images()]
    # the map layer of every slice uses the symmetric range
    assert images[1].get_clim() == (-values.max(), values.max())


def test_threshold_hides_zero_weights(mask):
    values = np.zeros(mask.n_voxels)
    values[0] = 2.0
    fig = brain.slice_montage(mask, values, threshold=0.0)
    layer = fig.axes[0].get_images()[1].get_array()
    assert layer.count() == 1  # only the selected voxel is drawn on the first slice


def test_overlap_montage_counts(mask):
    a = np.zeros(mask.n_voxels, bool)
    b = np.zeros(mask.n_voxels, bool)
    a[:3], b[2:5] = True, True
    fig = brain.overlap_montage(mask, a, b)
    text = " ".join(t.get_text() for t in fig.texts)
    assert "only (2)" in text and "both (1)" in text


def test_bars_and_boxplot_build():
    table = pd.DataFrame({"q": [1.0, 50.0], "overlap": [40.0, 70.0], "overlap_sd": [5.0, 2.0],
                          "expected": [1.0, 50.0], "published_overlap": [53.0, 77.6]})
    ax = brain.overlap_bars(table).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1 %", "50 %"]
    subsets = pd.DataFrame({"size": [1, 1, 4], "repeat": [0, 1, 0], "error": [0.5, 0.4, 0.2]})
    ax = brain.random_subsets_boxplot(subsets, sfm_error=0.1).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "4"]


def test_montages_refuse_no_slices_one_name_and_sets_of_other_lengths(mask):
    values, members = np.zeros(mask.n_voxels), np.ones(mask.n_voxels, bool)
    with pytest.raises(DataValidationError, match=r"n_slices must be an integer >= 1; got 0"):
        brain.slice_montage(mask, values, n_slices=0)
    with pytest.raises(DataValidationError, match=r"n_slices must be an integer >= 1; got 0"):
        brain.overlap_montage(mask, members, members, n_slices=0)
    with pytest.raises(DataValidationError, match=r"names has 1 entry for 2 voxel sets"):
        brain.overlap_montage(mask, members, members, names=("rSFM",))
    with pytest.raises(DataValidationError,
                       match=rf"second has {mask.n_voxels - 1} entries for {mask.n_voxels} in-mask voxels"):
        brain.overlap_montage(mask, members, members[1:])


def test_a_glass_brain_without_a_suffix_is_a_png_of_that_name(mask, tmp_path):
    pytest.importorskip("nilearn")
    path = tmp_path / "brain"
    assert brain.glass_brain(mask.inverse_transform(np.linspace(-1, 1, mask.n_voxels)), path) is True
    assert path.read_bytes().startswith(b"\x89PNG")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]
