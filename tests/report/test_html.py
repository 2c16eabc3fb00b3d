"""The Report builder: sections and contents, embedded figures, escaping, no external resources."""

import base64
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from sfmlearn.report import Report


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.sections, self.links, self.images, self.cells = [], [], [], [], []
        self._in_cell = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "section":
            self.sections.append(attrs["id"])
        elif tag == "a":
            self.links.append(attrs.get("href"))
        elif tag == "img":
            self.images.append(attrs["src"])
        self._in_cell = tag == "td"

    def handle_data(self, data):
        if self._in_cell:
            self.cells.append(data)
            self._in_cell = False


def _parse(text):
    parser = _Collect()
    parser.feed(text)
    return parser


def _figure():
    fig = Figure(figsize=(3, 2))
    fig.subplots().plot([0, 1], [1, 0])
    return fig


def test_sections_appear_in_order_with_contents_links_to_each():
    report = Report("T")
    for title in ("Data", "Selected features", "Data"):
        report.section(title).add_text("x")
    parsed = _parse(report.to_html())
    assert parsed.sections == ["data", "selected-features", "data-2"]
    assert parsed.links == ["#data", "#selected-features", "#data-2"]


def test_figures_are_embedded_png_and_nothing_is_loaded_from_outside(tmp_path):
    png = tmp_path / "f.png"
    _figure().savefig(png)
    report = Report("T")
    report.section("Figures").add_figure(_figure(), caption="from a Figure").add_figure(png).add_figure(png.read_bytes())
    text = report.to_html()
    parsed = _parse(text)
    assert len(parsed.images) == 3
    for src in parsed.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    assert base64.b64decode(parsed.images[1].split(",", 1)[1]) == png.read_bytes()
    assert not {"script", "link", "iframe"} & set(parsed.tags)
    assert all(link.startswith("#") for link in parsed.links)
    assert not re.search(r"https?://|url\(|@import", text)  # base64 has no ':' or '('


def test_non_png_figures_are_refused_with_the_reason(tmp_path):
    svg = tmp_path / "f.svg"
    svg.write_text("<svg/>")
    section = Report("T").section("S")
    with pytest.raises(ValueError, match="not a PNG"):
        section.add_figure(svg)
    with pytest.raises(FileNotFoundError, match="missing.png"):
        section.add_figure(tmp_path / "missing.png")


def test_text_and_tables_are_escaped_and_formatted():
    report = Report("<b>title</b>")
    section = report.section("S")
    section.add_text("a < b & c")
    section.add_table(pd.DataFrame({"name": ["<x>", "y"], "w": [1 / 3, np.nan], "ok": [True, False]}))
    text = report.to_html()
    assert "<b>title</b>" not in text and "&lt;b&gt;title&lt;/b&gt;" in text
    assert "a &lt; b &amp; c" in text
    cells = _parse(text).cells
    assert cells[:2] == ["<x>", "0.3333"]  # the parser unescapes; 4 significant digits
    assert '<td class="num">0.3333</td>' in text and "<td>yes</td>" in text


def test_long_tables_are_cut_with_a_note():
    section = Report("T").section("S")
    section.add_table(pd.DataFrame({"i": np.arange(50)}), max_rows=10)
    text = Report("T").to_html()  # a different report is unaffected
    assert "more rows" not in text
    html = section.to_html()
    assert html.count("<tr>") == 11 and "40 more rows not shown." in html


def test_write_needs_an_existing_folder(tmp_path):
    report = Report("T")
    path = report.write(tmp_path / "r.html")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        report.write(tmp_path / "no" / "r.html")
