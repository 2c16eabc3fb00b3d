"""panel_report: the panel table, the held-out accuracy and the dot plot of ``sfmlearn panel``."""

import json
import re

import numpy as np
import pytest

from sfmlearn.analysis import TrainingData, run_panel
from sfmlearn.panels import make_cell_counts
from sfmlearn.report import panel_report


@pytest.fixture(scope="module")
def result():
    X, y, _ = make_cell_counts(240, 150, n_types=3, n_markers_per_type=3, fold_change=6.0, random_state=1)
    return run_panel(TrainingData("cells.h5ad", X, y, np.array([f"G{j}" for j in range(150)])), 6)


def _ids(text):
    return re.findall(r'<section id="([^"]+)"', text)


def test_the_report_shows_every_part_of_the_result(result):
    text = panel_report(result, subtitle="written by a test").to_html()
    assert _ids(text) == ["data", "panel", "accuracy", "dotplot"]
    assert all(f"<td>{row['gene']}</td>" in text for row in result.panel)
    assert all(f"<th scope=\"col\">predicted {t}</th>" in text for t in result.cell_types)
    for row, counts in zip(result.per_type, result.confusion_matrix):
        assert f"<td>{row['cell_type']}</td>" + "".join(f'<td class="num">{k}</td>' for k in counts) in text
    assert f"{100 * result.balanced_accuracy:.1f} %" in text and "written by a test" in text
    assert len(re.findall(r'<img src="data:image/png;base64,', text)) == 1
    assert "6 of 6 asked for" in text


def test_a_saved_json_gives_the_same_report(result):
    saved = json.loads(json.dumps(result.to_dict()))
    created = re.compile(r"Created [^<]*")
    assert created.sub("", panel_report(saved).to_html()) == created.sub("", panel_report(result).to_html())


def test_the_report_is_written_atomically(result, tmp_path):
    path = panel_report(result).write(tmp_path / "panel.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["panel.html"]
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        panel_report(result).write(tmp_path / "missing" / "panel.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["panel.html"]
