import pytest

from sfmlearn.experiments import fmri_simulation


@pytest.mark.slow
def test_quick_simulation_recovers_the_truth():
    table = fmri_simulation.run(quick=True)
    get = table.set_index(["quantity", "method", "q"])["value"]
    nan = float("nan")
    assert get[("accuracy", "SFM", nan)] > 0.6
    truth = table.loc[table["quantity"] == "true informative fraction", "value"].item()
    estimate = get[("informative fraction estimate", "rSFM", nan)]
    assert truth / 3 < estimate < 3 * truth
    overlap = table[table["quantity"] == "overlap with t-map top set [%]"]
    assert (overlap["value"] > overlap["chance"]).all()
    recall = table[(table["quantity"] == "recall of the truth [%]") & (table["method"] == "rSFM")]
    assert (recall["value"] > recall["chance"]).all()
