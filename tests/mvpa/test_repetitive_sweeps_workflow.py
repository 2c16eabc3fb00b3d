import numpy as np

from sfmlearn import SupportFeatureMachine
from sfmlearn.imaging.simulate import simulate_fmri
from sfmlearn.mvpa import analyse, decode, level_sweep, repetitive_decoding, time_slice_sweep


def test_first_repetition_is_the_fold_sfm(buttonpress):
    sim = buttonpress
    rep = repetitive_decoding(sim.X, sim.labels, sim.participants, max_repetitions=3)
    single = decode(sim.X, sim.labels, sim.participants, SupportFeatureMachine())
    assert rep.rankings.shape == (4, sim.X.shape[1])
    first = np.array([e[0] for e in rep.sfm_errors])
    np.testing.assert_allclose(first, 1 - single.folds["accuracy"].to_numpy())
    for path, ranking, support in zip(rep.paths, rep.rankings, single.supports):
        assert path.n_repetitions <= 3
        # the first subset is the fold SFM's support, and ranks are 1..n_ranked
        assert set(path.subsets[0]) == set(np.flatnonzero(support))
        assert np.sort(ranking[ranking <= path.sizes.sum()]).tolist() == \
            list(range(1, path.sizes.sum() + 1))


def test_time_slice_sweep_tracks_the_response(coarse_mask):
    sim = simulate_fmri("buttonpress", mask=coarse_mask, n_participants=4, n_runs=2,
                        effect_size=5.0, time_slices=(-2.0, 6.0), random_state=1)
    table = time_slice_sweep(sim.X, sim.labels, sim.participants, sim.times,
                             SupportFeatureMachine()).set_index("time")
    assert list(table["n_maps"]) == [16, 16]
    # before the response (h(-2 s) = 0) the maps carry no information
    assert table.loc[6.0, "accuracy"] > table.loc[-2.0, "accuracy"]


def test_level_sweep_coarsens_the_grid(buttonpress):
    sim = buttonpress
    volumes = sim.mask.volumes(sim.X)
    table = level_sweep(volumes, sim.mask, sim.labels, sim.participants,
                        SupportFeatureMachine(), levels=(0, 1))
    assert table.loc[0, "n_voxels"] == sim.mask.n_voxels
    assert table.loc[1, "n_voxels"] < table.loc[0, "n_voxels"]
    assert table.loc[1, "voxel_size"] == 2 * table.loc[0, "voxel_size"]


def test_analyse_combines_every_step(buttonpress):
    sim = buttonpress
    stages = set()
    result = analyse(sim.X, sim.labels, sim.participants, informative_every=2,
                     max_repetitions=6, random_subset_repeats=2, n_permutations=2,
                     progress=lambda stage, done, total: stages.add(stage))
    assert {"decoding", "rSFM", "SVM", "permutations", "random subsets"} <= stages
    assert result.decoding.accuracy > 0.75  # effect size 4: the clusters decode
    assert result.n_voxels == sim.X.shape[1] and result.n_groups == 4
    assert len(result.overlap) == 6 and set(result.consistency) == set(result.overlap["q"])
    assert result.rsfm.ranking_.shape == (sim.X.shape[1],)
    assert result.repetitive.informative is not None
    # the largest group differences lie on the truth, and |t| is larger there
    assert sim.truth[np.argsort(-np.abs(result.tmap.difference))[:3]].all()
    assert np.abs(result.tmap.t[sim.truth]).mean() > np.abs(result.tmap.t[~sim.truth]).mean()


def test_a_participant_without_one_class_is_refused_before_the_decoding(buttonpress, monkeypatch):
    """The paired t-test's requirement failed only after every decoding fold had run."""
    import pytest

    from sfmlearn.exceptions import DataValidationError
    from sfmlearn.mvpa import workflow

    sim = buttonpress
    groups = np.array([f"{p}" for p in sim.participants], dtype=object)
    lone = np.flatnonzero(sim.labels == np.unique(sim.labels)[0])[0]
    groups[lone] = "99"  # one map of one class on its own, as runs that hold one class each
    monkeypatch.setattr(workflow, "decode", lambda *a, **k: pytest.fail("decoded before the check"))
    with pytest.raises(DataValidationError, match=r"participant '99' has no map of class '.+'; the paired t-test "
                                                  r"needs both classes for every participant: give the "
                                                  r"participants as groups"):
        analyse(sim.X, sim.labels, groups)


def test_the_first_sfm_error_of_folds_without_repetitions_is_nan_without_a_warning():
    """A soft base whose first subset fails its chance test in every fold keeps no
    repetition; the mean of nothing warned 'Mean of empty slice' through the command line."""
    import warnings

    from sfmlearn.mvpa.repetitive import RepetitiveDecoding

    empty = RepetitiveDecoding(groups=[1, 2], paths=[None, None], rankings=np.zeros((2, 3), dtype=int),
                               sfm_errors=[np.array([]), np.array([])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(empty.first_sfm_error)
    assert RepetitiveDecoding(groups=[1, 2], paths=[None, None], rankings=np.zeros((2, 3), dtype=int),
                              sfm_errors=[np.array([0.2, 0.3]), np.array([])]).first_sfm_error == 0.2
