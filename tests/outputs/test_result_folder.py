"""ResultFolder: maps, figures and tables written atomically, listed, and read back safely."""

import json

import nibabel as nib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sfmlearn.outputs import ResultFolder, read_summary


@pytest.fixture
def written(tmp_path):
    folder = ResultFolder(tmp_path / "out")
    image = nib.Nifti1Image(np.arange(8, dtype=np.float32).reshape(2, 2, 2), np.eye(4))
    fig = Figure(figsize=(1, 1))
    fig.subplots().plot([0, 1])
    frame = pd.DataFrame({"fold": [1, 2], "accuracy": [0.5, 0.75]})
    paths = (folder.add_map("weights", image, "the weights"), folder.add_figure("curve", fig, "a curve"),
             folder.add_table("folds", frame, "per fold"))
    summary = folder.write_summary({"title": "t", "summary": {"n": np.int64(3), "accuracy": np.float64(0.5),
                                                              "missing": np.float64("nan")},
                                    "maps": folder.maps, "figures": folder.figures, "tables": folder.tables})
    return folder, paths, summary, image, frame


def test_writes_files_under_their_kind_and_lists_them(written):
    folder, paths, summary, _, _ = written
    assert paths == ("maps/weights.nii.gz", "figures/curve.png", "tables/folds.csv")
    assert [e["path"] for e in folder.maps + folder.figures + folder.tables] == list(paths)
    assert all((folder.path / p).is_file() for p in paths)
    assert summary["figures"] == [{"path": "figures/curve.png", "caption": "a curve"}]


def test_summary_is_written_in_json_types(written):
    folder, _, summary, _, _ = written
    assert summary["summary"] == {"n": 3, "accuracy": 0.5, "missing": None}
    assert type(summary["summary"]["n"]) is int
    assert json.loads((folder.path / "summary.json").read_text()) == summary


def test_round_trip_reads_back_what_was_written(written):
    folder, paths, summary, image, frame = written
    again = ResultFolder.open(folder.path)
    assert again.summary == summary
    pd.testing.assert_frame_equal(again.read_table("tables/folds.csv"), frame)
    np.testing.assert_array_equal(again.read_map("maps/weights.nii.gz").get_fdata(), image.get_fdata())
    assert again.inputs == [folder.path / "summary.json", folder.path / "tables/folds.csv",
                            folder.path / "maps/weights.nii.gz"]
    assert ResultFolder.open(folder.path / "summary.json").summary == summary


@pytest.mark.parametrize("listed", ["../secret.csv", "/etc/passwd", "link.csv"])
def test_listed_paths_outside_the_folder_are_refused(written, listed):
    folder = written[0]
    (folder.path.parent / "secret.csv").write_text("a\n1\n")
    (folder.path / "link.csv").symlink_to(folder.path.parent / "secret.csv")
    again = ResultFolder.open(folder.path)
    assert not again.inside(listed)
    with pytest.raises(ValueError, match="lies outside"):
        again.read_table(listed)


def test_missing_and_unreadable_files_say_which(written, tmp_path):
    folder = written[0]
    with pytest.raises(FileNotFoundError, match="lists the table tables/gone.csv"):
        ResultFolder.open(folder.path).read_table("tables/gone.csv")
    with pytest.raises(FileNotFoundError, match="has no summary.json"):
        read_summary(tmp_path)
    (tmp_path / "summary.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="must hold a JSON object"):
        read_summary(tmp_path)
