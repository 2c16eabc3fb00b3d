"""Bad arguments to the MVPA functions fail at once, with messages that name the problem and the fix."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn import RepetitiveSFM, SupportFeatureMachine
from sfmlearn.datasets import make_toy_fmri
from sfmlearn.exceptions import DataValidationError
from sfmlearn.imaging.volumes import VolumeMask
from sfmlearn.mvpa import (FMRIData, analyse, decode, level_sweep, overlap_with_tmap, random_subset_svm,
                           repetitive_decoding, selected_voxels, time_slice_sweep)


@pytest.fixture(scope="module")
def toy():
    return make_toy_fmri(random_state=0)


@pytest.fixture(scope="module")
def mask():
    return VolumeMask(np.ones((5, 10, 1), bool), np.diag([3.0, 3.0, 3.0, 1.0]))  # 50 voxels


@pytest.mark.parametrize("option, error, words", [
    ({"quantiles": (150.0,)}, DataValidationError, "percentage"),
    ({"n_permutations": -1}, DataValidationError, "n_permutations must be an integer >= 0"),
    ({"n_permutations": 2.5}, DataValidationError, "n_permutations"),
    ({"random_subset_repeats": -2}, DataValidationError, "random_subset_repeats"),
    ({"informative_every": 0}, InvalidParameterError, "'informative_every' parameter of analyse"),
    ({"max_repetitions": 0}, InvalidParameterError, "'max_repetitions' parameter of analyse"),
])
def test_analyse_checks_every_option_before_any_fit(toy, option, error, words):
    X, y, groups = toy
    stages = []
    with pytest.raises(error, match=words):
        analyse(X, y, groups, **option, progress=lambda stage, done, total: stages.append(stage))
    assert stages == []


def test_level_sweep_checks_every_level_before_decoding(toy, mask):
    X, y, groups = toy
    decoded = []
    with pytest.raises(DataValidationError, match="level 9: cannot reduce"):
        level_sweep(mask.volumes(X), mask, y, groups, levels=(0, 9), progress=lambda done, total: decoded.append(done))
    assert decoded == []


@pytest.mark.parametrize("options", [{"max_repetitions": 0}, {"max_repetitions": 2.5}])
def test_repetitive_decoding_checks_as_the_repetitive_sfm(toy, options):
    X, y, groups = toy
    with pytest.raises(InvalidParameterError, match="'max_repetitions' parameter of repetitive_decoding"):
        repetitive_decoding(X, y, groups, **options)
    with pytest.raises(InvalidParameterError):
        RepetitiveSFM(**options).fit(X, y)


@pytest.mark.parametrize("options, ignored", [({"svm_Cs": [1.0]}, "svm_Cs"), ({"aggregate": "median"}, "aggregate")])
def test_estimate_options_without_the_estimate_are_refused(toy, options, ignored):
    X, y, groups = toy
    with pytest.raises(InvalidParameterError, match=f"{ignored} applies only to the informative-fraction.*"
                                                    "informative_every"):
        repetitive_decoding(X, y, groups, **options)


def test_sparse_maps_are_densified_everywhere(toy):
    X, y, groups = toy
    options = {"sizes": [1, 50], "n_repeats": 2, "random_state": 0}
    dense = random_subset_svm(X, y, groups, **options)
    assert random_subset_svm(sp.csr_matrix(X), y, groups, **options).equals(dense)
    analysis = analyse(sp.csr_matrix(X), y, groups, repetitive=False)
    assert analysis.svm.accuracy == pytest.approx(analyse(X, y, groups, repetitive=False).svm.accuracy)


def test_random_subset_options_are_checked(toy):
    X, y, groups = toy
    with pytest.raises(InvalidParameterError, match="'C' parameter of random_subset_svm"):
        random_subset_svm(X, y, groups, sizes=[2], n_repeats=1, C=0)
    with pytest.raises(DataValidationError, match=r"whole numbers of voxels in 1..50; got \[2.7\]"):
        random_subset_svm(X, y, groups, sizes=[2.7])
    with pytest.raises(DataValidationError, match="n_repeats must be an integer >= 1; got True"):
        random_subset_svm(X, y, groups, n_repeats=True)


def test_selected_voxels_needs_a_fit_on_the_masks_voxels(toy, mask):
    X, y, _ = toy
    with pytest.raises(DataValidationError, match="fitted on 20 features, the mask has 50 voxels.*mask.matrix"):
        selected_voxels(mask, SupportFeatureMachine().fit(X[:, 30:], y))
    with pytest.raises(DataValidationError, match="RepetitiveSFM has no scaled_coef_.*base estimator"):
        selected_voxels(mask, RepetitiveSFM(max_repetitions=1).fit(X, y))


def test_time_slice_sweep_names_the_problem(toy):
    X, y, groups = toy
    times = np.tile([2.5, 5.0], 12)
    with pytest.raises(DataValidationError, match="different lengths"):
        time_slice_sweep(X[:-2], y, groups, times)
    with pytest.raises(DataValidationError, match="one id per sample"):
        time_slice_sweep(X, y, groups[:-2], times)
    with pytest.raises(DataValidationError, match="times has 12 missing"):
        time_slice_sweep(X, y, groups, np.where(np.arange(24) % 2, np.nan, 1.0))
    one_group = np.where(times == 5.0, groups, 1)  # every map of slice 2.5 from participant 1
    with pytest.raises(DataValidationError, match="time slice 2.5: found 1 group"):
        time_slice_sweep(X, y, one_group, times)


def test_overlap_with_tmap_takes_p_as_a_list_of_one_per_voxel():
    rankings = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [2, 1, 4, 3, 6, 5, 8, 7, 10, 9]])
    t, p = np.arange(9.0, -1.0, -1.0), np.linspace(0.001, 0.9, 10)
    table = overlap_with_tmap(rankings, t, list(p), quantiles=(20.0,))
    assert table["p_threshold"].tolist() == pytest.approx([p[1]])
    with pytest.raises(DataValidationError, match="p must be a 1-D array of 10 values"):
        overlap_with_tmap(rankings, t, p[:5], quantiles=(20.0,))


def test_messages_show_plain_group_ids(toy):
    X, y, groups = toy
    with pytest.raises(DataValidationError, match="leaving out group 1 leaves one class") as caught:
        decode(X, y, np.where(y == "left", 1, groups + 1))  # group 1 holds every 'left' map
    assert "np.int64" not in str(caught.value)


def test_two_classes_accepts_labels_given_as_numbers(toy, mask):
    X, y, groups = toy
    data = FMRIData("toy", mask, X, np.where(y == "left", 1, 2), groups)
    assert data.two_classes([1, 2]).labels.tolist() == data.two_classes(["1", "2"]).labels.tolist()
