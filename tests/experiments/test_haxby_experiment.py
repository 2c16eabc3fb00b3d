import nibabel as nib
import numpy as np
import pytest

from sfmlearn.experiments import haxby
from sfmlearn.outputs import ResultFolder


@pytest.mark.slow
def test_quick_haxby_decodes_faces_and_writes_weights(tmp_path):
    folder = ResultFolder(tmp_path)
    table = haxby.run(quick=True, out=folder)
    assert set(table["mask"]) == {"slice", "brain"}
    faces = table[(table["mask"] == "slice") & (table["method"] == "SFM (soft, C=1)")]
    assert faces["accuracy"].item() > 0.8  # faces vs houses are easy in ventral cortex
    assert faces["mean_selected"].item() < 50
    image = nib.load(tmp_path / faces["nifti"].item())
    assert np.count_nonzero(image.get_fdata()) == faces["all_runs_selected"].item()
    assert [entry["path"] for entry in folder.maps] == list(dict.fromkeys(table["nifti"]))
