"""A self-contained HTML report: one file, inline CSS, figures embedded as base64 PNG.

:class:`Report` collects sections in order; each :class:`Section` holds paragraphs,
key-value facts, tables and figures. :meth:`Report.write` produces one HTML file with
no external resources (no scripts, fonts, stylesheets or images loaded from anywhere),
so it can be mailed to a colleague or opened offline. The layout has a table of
contents and a readable maximum width for laptop screens.

Example
-------
>>> report = Report("My analysis")
>>> summary = report.section("Data")
>>> _ = summary.add_facts({"samples": 38, "features": 7129})
>>> _ = summary.add_text("Leukemia training split (Golub et al. 1999).")
>>> html = report.to_html()
"""

import base64
import datetime
import html
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .._version import __version__
from ..outputs.atomic import write_text

__all__ = ["Report", "Section"]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

_CSS = """
:root { --ink: #1d232b; --muted: #5b6675; --line: #d9dee5; --accent: #1f5f99; --soft: #f4f6f9; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 28px 24px 64px; }
header { border-bottom: 2px solid var(--accent); margin-bottom: 18px; padding-bottom: 8px; }
h1 { font-size: 1.75rem; margin: 0 0 4px; }
.subtitle { color: var(--muted); margin: 0; }
h2 { font-size: 1.3rem; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 22px 0 6px; }
nav.toc { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px 18px; }
nav.toc h2 { font-size: 1rem; margin: 0 0 4px; border: 0; padding: 0; }
nav.toc ol { margin: 0; padding-left: 22px; }
nav.toc ol.long { columns: 2; column-gap: 32px; }
nav.toc a { color: var(--accent); text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
p { margin: 8px 0; }
.note { background: #fff8e6; border-left: 4px solid #e0a800; padding: 8px 12px; margin: 10px 0; }
.table-wrap { overflow-x: auto; margin: 10px 0; width: fit-content; max-width: 100%; }
.table-wrap.tall { max-height: 460px; overflow-y: auto; }
table { border-collapse: collapse; font-size: 0.92rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: var(--muted); padding: 4px 0; caption-side: top; }
th, td { padding: 4px 12px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: var(--soft); position: sticky; top: 0; }
td.num { text-align: right; }
table.facts th { font-weight: 600; color: var(--muted); white-space: nowrap; }
figure { margin: 14px 0; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 4px; }
footer { margin-top: 48px; color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); padding-top: 8px; }
"""


def _slug(text, taken):
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, k = base, 2
    while slug in taken:
        slug, k = f"{base}-{k}", k + 1
    taken.add(slug)
    return slug


def _format_value(value):
    """A readable cell: 4 significant digits for floats, blanks for missing values."""
    if value is None or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple, np.ndarray)):
        return ", ".join(_format_value(v) for v in value)
    return str(value)


def _png_bytes(figure):
    """PNG bytes of a matplotlib Figure, a PNG file path, or PNG bytes."""
    if isinstance(figure, Figure):
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=110)
        return buffer.getvalue()
    if isinstance(figure, (bytes, bytearray)):
        data = bytes(figure)
        source = "the given bytes"
    else:
        path = Path(figure)
        if not path.is_file():
            raise FileNotFoundError(f"figure file not found: {path}")
        data = path.read_bytes()
        source = str(path)
    if not data.startswith(_PNG_SIGNATURE):
        raise ValueError(f"{source} is not a PNG image; save figures as .png to embed them")
    return data


class Section:
    """One titled part of a :class:`Report`; its ``add_*`` methods return the section.

    Made by :meth:`Report.section`, which appends it to the report.

    Parameters
    ----------
    title : str
        The section heading (also its entry in the table of contents).
    anchor : str
        Its HTML id, unique in the report (the link target of the table of contents).

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.report import Report
    >>> section = Report("Demo").section("Selected genes")
    >>> _ = (section.add_text("Two genes separate the classes.")
    ...      .add_table(pd.DataFrame({"gene": ["X95735", "M27891"], "weight": [1.5, -0.75]})))
    >>> html = section.to_html()
    >>> html.startswith('<section id="selected-genes"><h2>Selected genes</h2>'), "<td>X95735</td>" in html
    (True, True)
    """

    def __init__(self, title, anchor):
        self.title = title
        self.anchor = anchor
        self._blocks = []

    def add_text(self, text, *, note=False):
        """A paragraph of plain text (escaped); ``note=True`` highlights it as a caveat."""
        css = ' class="note"' if note else ""
        self._blocks.append(f"<p{css}>{html.escape(str(text))}</p>")
        return self

    def add_heading(self, text):
        """A sub-heading inside the section."""
        self._blocks.append(f"<h3>{html.escape(str(text))}</h3>")
        return self

    def add_facts(self, facts, *, caption=None):
        """A two-column table of ``{label: value}`` pairs (values formatted for reading)."""
        rows = "".join(f"<tr><th scope=\"row\">{html.escape(str(k))}</th>"
                       f"<td>{html.escape(_format_value(v))}</td></tr>" for k, v in facts.items())
        cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
        self._blocks.append(f'<div class="table-wrap"><table class="facts">{cap}{rows}</table></div>')
        return self

    def add_table(self, data, *, caption=None, max_rows=None):
        """A table from a DataFrame (or anything ``pandas.DataFrame`` accepts).

        Numbers are right-aligned with 4 significant digits; long tables scroll inside
        a box. ``max_rows`` keeps the first rows and says how many were left out.
        """
        frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
        shown = frame if max_rows is None else frame.head(max_rows)
        numeric = [pd.api.types.is_numeric_dtype(shown[c]) and not pd.api.types.is_bool_dtype(shown[c])
                   for c in shown.columns]
        head = "".join(f"<th scope=\"col\">{html.escape(str(c))}</th>" for c in shown.columns)
        cell = ('<td class="num">{}</td>', "<td>{}</td>")
        body = "".join(
            "<tr>" + "".join(cell[not num].format(html.escape(_format_value(v))) for v, num in zip(row, numeric))
            + "</tr>"
            for row in shown.itertuples(index=False, name=None)
        )
        cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
        tall = " tall" if len(shown) > 15 else ""
        self._blocks.append(f'<div class="table-wrap{tall}"><table>{cap}<thead><tr>{head}</tr></thead>'
                            f"<tbody>{body}</tbody></table></div>")
        if len(shown) < len(frame):
            self.add_text(f"{len(frame) - len(shown)} more rows not shown.")
        return self

    def add_figure(self, figure, *, caption=None, alt=None):
        """Embed a figure: a matplotlib ``Figure``, the path of a PNG file, or PNG bytes."""
        encoded = base64.b64encode(_png_bytes(figure)).decode("ascii")
        alt_text = html.escape(alt or caption or self.title, quote=True)
        cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        self._blocks.append(f'<figure><img src="data:image/png;base64,{encoded}" alt="{alt_text}">{cap}</figure>')
        return self

    def to_html(self):
        return (f'<section id="{self.anchor}"><h2>{html.escape(self.title)}</h2>'
                + "\n".join(self._blocks) + "</section>")


class Report:
    """An HTML report built section by section and written as one self-contained file.

    Parameters
    ----------
    title : str
        The page title and heading.
    subtitle : str, optional
        One line under the title (e.g. the command that produced the report).

    Examples
    --------
    A report with a table of facts and a figure, written to a temporary folder:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from matplotlib.figure import Figure
    >>> from sfmlearn.report import Report
    >>> report = Report("My analysis", subtitle="written by a doctest")
    >>> report.section("Data").add_facts({"samples": 38, "features": 7129})  # doctest: +ELLIPSIS
    <sfmlearn.report.html.Section object at ...>
    >>> figure = Figure(figsize=(3, 2))
    >>> _ = figure.subplots().plot([0, 1], [0, 1])
    >>> _ = report.section("Figure").add_figure(figure, caption="A line")
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = report.write(Path(folder.name) / "report.html")
    >>> text = path.read_text(encoding="utf-8")
    >>> [s.anchor for s in report.sections], 'src="data:image/png;base64,' in text
    (['data', 'figure'], True)
    >>> folder.cleanup()
    """

    def __init__(self, title, subtitle=None):
        self.title = title
        self.subtitle = subtitle
        self.sections = []
        #: Files the report was built from (a result directory's summary.json, figures,
        #: tables); a caller refuses to write the report over any of them.
        self.inputs = []
        self._anchors = set()

    def section(self, title, anchor=None):
        """Append a new section and return it; ``anchor`` is its HTML id (from the title by default)."""
        anchor = _slug(anchor or title, self._anchors)
        section = Section(title, anchor)
        self.sections.append(section)
        return section

    def to_html(self):
        toc = "".join(f'<li><a href="#{s.anchor}">{html.escape(s.title)}</a></li>' for s in self.sections)
        subtitle = f'<p class="subtitle">{html.escape(self.subtitle)}</p>' if self.subtitle else ""
        long = ' class="long"' if len(self.sections) > 5 else ""
        created = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(self.title)}</title><style>{_CSS}</style></head><body><main>"
            f"<header><h1>{html.escape(self.title)}</h1>{subtitle}</header>"
            f'<nav class="toc" id="contents"><h2>Contents</h2><ol{long}>{toc}</ol></nav>'
            + "\n".join(s.to_html() for s in self.sections)
            + f"<footer>Created {html.escape(created)} by sfmlearn {html.escape(__version__)}.</footer>"
            "</main></body></html>\n"
        )

    def write(self, path):
        """Write the report to ``path`` (UTF-8) and return the path.

        The file is written atomically (:func:`sfmlearn.outputs.atomic.atomic_path`): a failed
        write leaves an existing report as it was.
        """
        path = Path(path)
        if path.parent and not path.parent.exists():
            raise FileNotFoundError(f"cannot write the report: folder {path.parent} does not exist")
        return write_text(path, self.to_html())
