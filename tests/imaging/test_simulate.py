import numpy as np
import pandas as pd
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.simulate import block_response, mni152_mask, simulate_fmri
from sfmlearn.imaging.volumes import VolumeMask, downsample_mask


@pytest.fixture(scope="module")
def grid():
    return downsample_mask(mni152_mask(), 2)


def test_bundled_mask_is_the_documented_mni152_grid():
    mask = mni152_mask()
    assert mask.shape == (50, 59, 48) and mask.n_voxels == 29398
    np.testing.assert_allclose(mask.voxel_size, 4.0)


def test_buttonpress_design_shape_and_truth(grid):
    sim = simulate_fmri("buttonpress", mask=grid, n_participants=3, n_runs=2, random_state=0)
    assert sim.X.shape == (3 * 2 * 2, grid.n_voxels)
    table = sim.table()
    assert (table.groupby(["participant", "label"]).size() == 2).all()
    # the informative voxels are the hand clusters, not the SMA cluster active in both
    assert 0 < sim.truth.sum() < 0.2 * grid.n_voxels
    sma = np.linalg.norm(grid.coordinates() - [0.0, -4.0, 60.0], axis=1) < 4
    hand = sim.truth_for("left", "right")
    assert not hand[sma].any()
    assert hand.sum() > 0


def test_signal_lies_in_the_truth(grid):
    sim = simulate_fmri("buttonpress", mask=grid, n_participants=4, n_runs=4, noise=0.2,
                        participant_noise=0.0, effect_size=3.0, random_state=1)
    left = sim.X[sim.labels == "left"].mean(axis=0)
    right = sim.X[sim.labels == "right"].mean(axis=0)
    difference = np.abs(left - right)
    assert difference[sim.truth].max() > 5 * difference[~sim.truth].max()


def test_same_seed_same_data(grid):
    a = simulate_fmri(mask=grid, n_participants=2, n_runs=1, random_state=3)
    b = simulate_fmri(mask=grid, n_participants=2, n_runs=1, random_state=3)
    np.testing.assert_array_equal(a.X, b.X)


def test_time_slices_follow_the_block_response(grid):
    sim = simulate_fmri(mask=grid, n_participants=2, n_runs=1, time_slices=(-2.0, 6.0, 30.0),
                        random_state=0)
    assert sim.X.shape[0] == 2 * 2 * 3 and set(sim.times) == {-2.0, 6.0, 30.0}
    h = block_response(np.array([-2.0, 0.0, 6.0, 14.0, 60.0]))
    assert h[0] == 0 and h[1] == 0 and 0 < h[2] <= 1 and abs(h[4]) < 0.01


def test_save_writes_a_user_like_directory(grid, tmp_path):
    sim = simulate_fmri(mask=grid, n_participants=2, n_runs=1, random_state=0)
    samples = sim.save(tmp_path)
    table = pd.read_csv(samples)
    mask = VolumeMask.load(tmp_path / "mask.nii.gz")
    X = mask.transform([str(tmp_path / p) for p in table["image"]])
    np.testing.assert_allclose(X, sim.X, rtol=1e-6, atol=1e-6)  # float32 files
    assert list(table["label"]) == list(sim.labels)


def test_bad_design_is_refused(grid):
    with pytest.raises(DataValidationError, match="design"):
        simulate_fmri("faces", mask=grid)
    with pytest.raises(DataValidationError, match="two conditions"):
        simulate_fmri("buttonpress", mask=grid, conditions=("a", "b", "c"))


@pytest.mark.parametrize("conditions", ["sad", b"sad"])
def test_a_single_string_of_conditions_is_refused_not_read_letter_by_letter(grid, conditions):
    """"sad" became the three conditions 's', 'a', 'd'."""
    with pytest.raises(DataValidationError, match=r"sequence of names, e.g. \('joy', 'anger'\); got the single "
                                                  r"string b?'sad', which would be one condition per letter"):
        simulate_fmri("emotion", mask=grid, conditions=conditions)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_participants": 0}, "n_participants must be a positive integer; got 0"),
    ({"n_runs": 0}, "n_runs must be a positive integer; got 0"),
    ({"conditions": ()}, "at least two distinct names"),
    ({"design": "emotion", "n_clusters": 0}, "n_clusters must be a positive integer; got 0"),
    ({"design": "emotion", "cluster_radius": 0.0}, "cluster_radius must be a positive number"),
])
def test_zero_is_an_error_not_the_default(grid, kwargs, message):
    """0 used to fall back silently on the design's default (``0 or default``)."""
    with pytest.raises(DataValidationError, match=message):
        simulate_fmri(mask=grid, random_state=0, **kwargs)


def test_bundled_mask_equals_nilearns():
    """imaging/data/README.md: the bundled mask is nilearn's 4 mm MNI152 brain mask."""
    datasets = pytest.importorskip("nilearn.datasets")
    reference = datasets.load_mni152_brain_mask(resolution=4)
    bundled = mni152_mask()
    np.testing.assert_array_equal(bundled.data, np.asarray(reference.dataobj) > 0)
    np.testing.assert_allclose(bundled.affine, reference.affine)
