"""FMRIData: choosing two classes, coarser pyramid levels with the truth, selected voxels."""

import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.simulate import simulate_fmri
from sfmlearn.imaging.volumes import VolumeMask, downsample_mask
from sfmlearn.mvpa import FMRIData, selected_voxels
from sfmlearn.selection import SupportFeatureMachine


@pytest.fixture(scope="module")
def emotion(coarse_mask):
    return simulate_fmri("emotion", mask=coarse_mask, n_participants=3, n_runs=2, random_state=0)


def test_from_simulation_keeps_the_pair_and_its_truth(emotion):
    data = FMRIData.from_simulation(emotion, ["joy", "fear"])
    assert sorted(set(data.labels)) == ["fear", "joy"]
    assert data.X.shape == (3 * 2 * 2, emotion.mask.n_voxels)
    np.testing.assert_array_equal(data.truth, emotion.truth_for("joy", "fear"))
    assert data.simulation is emotion and data.level == 0


def test_from_simulation_defaults_to_the_first_two_conditions(buttonpress, emotion):
    assert sorted(set(FMRIData.from_simulation(emotion).labels)) == sorted(emotion.conditions[:2])
    two = FMRIData.from_simulation(buttonpress)
    np.testing.assert_array_equal(two.truth, buttonpress.truth)  # two conditions: every informative voxel
    assert len(two.labels) == len(buttonpress.labels)


def test_from_simulation_refuses_an_unknown_condition(emotion):
    """Regression: an unknown --classes with --simulate used to end in a traceback."""
    with pytest.raises(DataValidationError, match=r"--classes \['xx'\] not among the labels"):
        FMRIData.from_simulation(emotion, ["joy", "xx"], option="--classes")


def _data(labels, n_voxels=5):
    mask = VolumeMask(np.ones((n_voxels, 1, 1), dtype=bool), np.eye(4))
    labels = np.asarray(labels)
    return FMRIData("test", mask, np.arange(labels.size * n_voxels, dtype=float).reshape(labels.size, -1),
                    labels, np.arange(labels.size))


def test_two_classes_selects_rows_and_needs_a_choice_for_more_labels():
    data = _data(["a", "b", "c", "a"])
    chosen = data.two_classes(["a", "c"])
    assert chosen.labels.tolist() == ["a", "c", "a"] and chosen.groups.tolist() == [0, 2, 3]
    np.testing.assert_array_equal(chosen.X, data.X[[0, 2, 3]])
    with pytest.raises(DataValidationError, match=r"found labels \['a', 'b', 'c'\]; classes must name two"):
        data.two_classes()
    with pytest.raises(DataValidationError, match=r"classes \['z'\] not among the labels"):
        data.two_classes(["a", "z"])
    with pytest.raises(DataValidationError, match=r"--classes must name two different labels; got \['a', 'a'\]"):
        data.two_classes(["a", "a"], option="--classes")
    pair = _data(["a", "b"])
    assert pair.two_classes() is pair
    with pytest.raises(DataValidationError, match="every map has the label 'a'; decoding needs maps of two classes"):
        _data(["a", "a"]).two_classes()  # not "--classes must name two of them": no --classes can help


def test_at_level_moves_the_truth_with_the_maps(buttonpress, coarse_mask):
    data = FMRIData.from_simulation(buttonpress)
    coarse = data.at_level(1)
    assert coarse.level == 1 and coarse.X.shape == (data.X.shape[0], coarse.mask.n_voxels)
    assert coarse.mask.n_voxels < coarse_mask.n_voxels
    # a coarse voxel is informative iff the fine voxel it samples (every second one) is
    fine_truth = VolumeMask(coarse_mask.volumes(data.truth, fill=False), coarse_mask.affine)
    np.testing.assert_array_equal(coarse.truth, downsample_mask(fine_truth, 1).data[coarse.mask.data])
    assert data.at_level(0) is data


def test_at_level_names_the_option_when_too_coarse(buttonpress):
    with pytest.raises(DataValidationError, match="--level 9 is too coarse for this mask"):
        FMRIData.from_simulation(buttonpress).at_level(9, option="--level")


def test_selected_voxels_are_ordered_and_placed_by_the_affine(buttonpress):
    data = FMRIData.from_simulation(buttonpress)
    sfm = SupportFeatureMachine().fit(data.X, data.labels)
    table = selected_voxels(data.mask, sfm)
    assert sorted(table["voxel"]) == np.flatnonzero(sfm.support_).tolist()
    assert (np.diff(np.abs(table["weight_scaled"])) <= 0).all()
    np.testing.assert_array_equal(table[["i", "j", "k"]], data.mask.voxel_indices[table["voxel"]])
    np.testing.assert_allclose(table[["x_mm", "y_mm", "z_mm"]], data.mask.coordinates()[table["voxel"]])
    np.testing.assert_array_equal(table["weight"], sfm.coef_[0, table["voxel"]])
