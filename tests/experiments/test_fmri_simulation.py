import pytest

from sfmlearn.experiments import fmri_simulation


def _value(table, quantity, method=""):
    return table.loc[(table["quantity"] == quantity) & (table["method"] == method), "value"].item()


@pytest.mark.slow
def test_quick_simulation_recovers_the_truth():
    table = fmri_simulation.run(quick=True)
    assert _value(table, "accuracy", "SFM") > 0.6
    truth = _value(table, "true informative fraction")
    estimate = _value(table, "informative fraction estimate", "rSFM")
    assert truth / 3 < estimate < 3 * truth
    overlap = table[table["quantity"] == "overlap with t-map top set [%]"]
    assert (overlap["value"] > overlap["chance"]).all()
    recall = table[(table["quantity"] == "recall of the truth [%]") & (table["method"] == "rSFM")]
    assert (recall["value"] > recall["chance"]).all()
