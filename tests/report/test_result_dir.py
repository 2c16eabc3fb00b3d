"""Reports of result directories (summary.json + PNG + CSV), as sfmlearn fmri will write them."""

import base64
import json
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sfmlearn.report import report_from_result_dir, result_dir_report


def _png(path, value):
    fig = Figure(figsize=(2, 2))
    fig.subplots().imshow(np.full((4, 4), value))
    fig.savefig(path)
    return path.read_bytes()


def _embedded(text):
    return [base64.b64decode(s) for s in re.findall(r'src="data:image/png;base64,([^"]+)"', text)]


@pytest.fixture
def result_dir(tmp_path):
    (tmp_path / "maps").mkdir()
    pngs = {"maps/weights.png": _png(tmp_path / "maps" / "weights.png", 1.0),
            "curve.png": _png(tmp_path / "curve.png", 0.0)}
    pd.DataFrame({"participant": ["p1", "p2"], "accuracy": [0.75, 0.875]}).to_csv(tmp_path / "folds.csv", index=False)
    summary = {
        "title": "fMRI decoding: faces vs houses",
        "description": "Leave-one-participant-out SFM.",
        "summary": {"participants": 2, "voxels": 39912},
        "mean_accuracy": 0.8125,
        "solver": {"engine": "highs", "tolerance": 1e-9},
        "per_class": [{"class": "face", "n": 12}, {"class": "house", "n": 12}],
        "sections": [{"title": "Brain maps", "id": "maps", "text": "Weights of the selected voxels.",
                      "figures": [{"path": "maps/weights.png", "caption": "SFM weights, participant 1"}]}],
        "figures": ["curve.png"],
        "tables": [{"path": "folds.csv", "caption": "accuracy per left-out participant"}],
    }
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    return tmp_path, pngs


def test_every_listed_figure_and_table_is_in_the_report(result_dir):
    folder, pngs = result_dir
    out = report_from_result_dir(folder)
    assert out == folder / "report.html"
    text = out.read_text(encoding="utf-8")
    ids = re.findall(r'<section id="([^"]+)"', text)
    assert ids == ["summary", "solver", "per-class", "maps", "tables", "figures"]
    assert _embedded(text) == [pngs["maps/weights.png"], pngs["curve.png"]]
    assert "SFM weights, participant 1" in text and "accuracy per left-out participant" in text
    assert "<td>p2</td>" in text and '<td class="num">0.875</td>' in text
    assert "39912" in text and "0.8125" in text and "Leave-one-participant-out SFM." in text
    assert "<td>house</td>" in text


def test_output_path_can_be_chosen(result_dir, tmp_path_factory):
    folder, _ = result_dir
    out = tmp_path_factory.mktemp("elsewhere") / "x.html"
    assert report_from_result_dir(folder, out) == out and out.exists()
    assert not (folder / "report.html").exists()


def test_missing_listed_figure_is_named(result_dir):
    folder, _ = result_dir
    (folder / "curve.png").unlink()
    with pytest.raises(FileNotFoundError, match="curve.png"):
        result_dir_report(folder)


def test_without_a_list_every_png_and_csv_is_shown_and_said_so(tmp_path):
    png = _png(tmp_path / "a.png", 0.5)
    pd.DataFrame({"k": [1]}).to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "summary.json").write_text(json.dumps({"n_samples": 10}))
    text = result_dir_report(tmp_path).to_html()
    assert _embedded(text) == [png]
    assert text.count("summary.json lists no figures or tables") == 2
    assert re.findall(r'<section id="([^"]+)"', text) == ["summary", "tables", "figures"]


def test_non_png_figures_are_listed_not_embedded(tmp_path):
    (tmp_path / "map.nii.gz").write_bytes(b"\x00")
    (tmp_path / "summary.json").write_text(json.dumps({"figures": ["map.nii.gz"]}))
    text = result_dir_report(tmp_path).to_html()
    assert "map.nii.gz is not embedded" in text and not _embedded(text)


@pytest.mark.parametrize("content, message", [
    (None, "has no summary.json"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"sections": [{"text": "x"}]}', "needs a title"),
    ('{"figures": [{"caption": "x"}]}', "needs a path"),
])
def test_broken_summaries_give_clear_errors(tmp_path, content, message):
    if content is not None:
        (tmp_path / "summary.json").write_text(content)
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        result_dir_report(tmp_path)


def test_a_stray_unreadable_file_is_skipped_with_a_warning_naming_it(tmp_path):
    pd.DataFrame({"k": [1]}).to_csv(tmp_path / "good.csv", index=False)
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "fake.png").write_text("not a png")
    (tmp_path / "summary.json").write_text(json.dumps({"title": "T"}))
    with pytest.warns(UserWarning) as caught:
        text = result_dir_report(tmp_path).to_html()
    warned = sorted(str(w.message) for w in caught)
    assert len(warned) == 2 and "empty.csv is not shown" in warned[0] and "fake.png is not shown" in warned[1]
    assert all("summary.json does not list it" in message for message in warned)
    assert "Not shown (found in the folder, not readable): empty.csv." in text and "<th scope=\"col\">k</th>" in text


def test_a_listed_unreadable_table_is_still_an_error(tmp_path):
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "summary.json").write_text(json.dumps({"tables": ["empty.csv"]}))
    with pytest.raises(ValueError, match="summary.json lists the table empty.csv"):
        result_dir_report(tmp_path)


def test_the_maps_a_section_lists_are_named_and_must_exist(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "w.nii.gz").write_bytes(b"\x00")
    summary = {"sections": [{"title": "R", "maps": [{"path": "maps/w.nii.gz", "caption": "weights"}]}]}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    text = result_dir_report(tmp_path).to_html()
    assert "<td>maps/w.nii.gz</td><td>weights</td>" in text
    summary["sections"][0]["maps"].append("maps/gone.nii.gz")
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(FileNotFoundError, match="lists the map maps/gone.nii.gz"):
        result_dir_report(tmp_path)


@pytest.mark.parametrize("content, message", [
    ("\ufeff" + json.dumps({"title": "With a byte-order mark"}), None),
    ('{"title": "cut sh', "damaged or was cut short; rerun the command that wrote it"),
])
def test_a_byte_order_mark_is_read_and_a_cut_summary_says_the_fix(tmp_path, content, message):
    (tmp_path / "summary.json").write_text(content, encoding="utf-8")
    if message is None:
        assert result_dir_report(tmp_path).title == "With a byte-order mark"
    else:
        with pytest.raises(ValueError, match=message):
            result_dir_report(tmp_path)


def test_a_summary_that_is_a_folder_says_the_fix(tmp_path):
    (tmp_path / "summary.json").mkdir()
    with pytest.raises(ValueError, match="is a folder, not a JSON summary; remove it and rerun the command"):
        result_dir_report(tmp_path)
