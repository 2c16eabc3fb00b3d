import pytest

from sfmlearn.experiments import fmri_sweeps


@pytest.mark.slow
def test_quick_sweeps_follow_resolution_and_response():
    table = fmri_sweeps.run(quick=True)
    levels = table[table["sweep"] == "level"].set_index("level")
    assert list(levels["n_voxels"]) == sorted(levels["n_voxels"], reverse=True)
    assert levels.loc[1, "accuracy"] > levels.loc[3, "accuracy"]
    times = table[table["sweep"] == "time"].set_index("time")
    assert times.loc[14.0, "accuracy"] > times.loc[-2.0, "accuracy"] + 0.2
