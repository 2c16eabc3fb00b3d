"""A report from a result directory described by its ``summary.json``.

Any analysis that writes its figures (PNG) and tables (CSV/TSV) into a folder can get
an HTML report with one call, :func:`report_from_result_dir`, if the folder holds a
``summary.json`` of this shape (every key optional)::

    {
      "title": "fMRI decoding: Haxby, faces vs houses",
      "description": "One paragraph saying what was run.",
      "summary": {"participants": 6, "voxels": 39912, "accuracy": 0.83},
      "sections": [
        {"title": "Brain maps", "text": "...", "facts": {...},
         "figures": [{"path": "maps/weights.png", "caption": "SFM weights"}],
         "tables": [{"path": "folds.csv", "caption": "per participant"}]}
      ],
      "figures": ["curve.png", {"path": "other.png", "caption": "..."}],
      "tables": ["scores.csv"]
    }

Paths are relative to the folder. Top-level ``figures``/``tables`` go into sections
"Figures"/"Tables". Any other top-level key is shown too: numbers, strings and lists
in the "Summary" table, dictionaries and lists of records as tables of their own. If the summary names no
figure or table at all, every PNG and CSV in the folder is shown (and the report says
so). A JSON file written by ``sfmlearn select --json`` or ``sfmlearn repeat --json``
(recognised by its keys) gives the same report as ``--report`` on those commands,
without the figure of the informative-fraction estimate.
"""

import json
from pathlib import Path

import pandas as pd

from .analyses import repeat_report, select_report
from .html import Report

__all__ = ["report_from_result_dir", "result_dir_report"]

_SPECIAL = {"title", "description", "summary", "sections", "figures", "tables"}


def _read_summary(source):
    source = Path(source)
    path = source / "summary.json" if source.is_dir() else source
    if not path.exists():
        if source.is_dir():
            raise FileNotFoundError(f"{source} has no summary.json; a result directory needs one "
                                    "(see sfmlearn report --help for its format)")
        raise FileNotFoundError(f"no such file or directory: {source}")
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc})") from exc
    if not isinstance(summary, dict):
        raise ValueError(f"{path} must hold a JSON object (keys title, summary, sections, figures, tables)")
    return path.parent, summary


def _entries(items, kind, path_key="path"):
    """Normalise a list of paths or {path, caption} objects."""
    if isinstance(items, (str, dict)):
        items = [items]
    out = []
    for item in items or []:
        if isinstance(item, str):
            item = {path_key: item}
        if not isinstance(item, dict) or path_key not in item:
            raise ValueError(f"summary.json: every entry of '{kind}' needs a path; got {item!r}")
        out.append(item)
    return out


def _is_scalar(value):
    return value is None or isinstance(value, (str, int, float, bool))


def _humanise(key):
    """``n_voxels`` -> ``N voxels``; other capitals kept (``SVM error`` stays)."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _add_figures(section, folder, figures):
    for entry in _entries(figures, "figures"):
        path = folder / entry["path"]
        caption = entry.get("caption") or entry.get("title") or Path(entry["path"]).stem.replace("_", " ")
        if path.suffix.lower() != ".png":
            section.add_text(f"{entry['path']} is not embedded: only PNG figures can be "
                             "(open it next to this report).", note=True)
            continue
        if not path.is_file():
            raise FileNotFoundError(f"summary.json lists the figure {entry['path']}, but {path} does not exist")
        section.add_figure(path, caption=caption)


def _add_tables(section, folder, tables):
    for entry in _entries(tables, "tables"):
        path = folder / entry["path"]
        if not path.is_file():
            raise FileNotFoundError(f"summary.json lists the table {entry['path']}, but {path} does not exist")
        sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
        caption = entry.get("caption") or entry.get("title") or Path(entry["path"]).name
        section.add_table(pd.read_csv(path, sep=sep), caption=caption, max_rows=entry.get("max_rows", 200))


def _fill(section, folder, spec):
    if spec.get("text"):
        section.add_text(spec["text"])
    if spec.get("facts"):
        section.add_facts(spec["facts"])
    _add_tables(section, folder, spec.get("tables"))
    _add_figures(section, folder, spec.get("figures"))


def result_dir_report(source):
    """Build (not write) the :class:`Report` of a result directory or result JSON file.

    Parameters
    ----------
    source : path
        A folder with ``summary.json`` (format in the module docstring), or a JSON file
        (a ``summary.json`` elsewhere, or the output of ``sfmlearn select/repeat --json``).

    Returns
    -------
    Report
    """
    folder, summary = _read_summary(source)
    if {"selected", "train_accuracy"} <= summary.keys():
        return select_report(summary, subtitle=f"from {source}")
    if {"ranking", "subsets"} <= summary.keys():
        return repeat_report(summary, subtitle=f"from {source}")

    report = Report(str(summary.get("title") or f"Results: {folder.resolve().name}"),
                    subtitle=f"from {folder}")
    facts = dict(summary.get("summary") or {})
    groups, records = {}, {}
    for key, value in summary.items():
        if key in _SPECIAL:
            continue
        if isinstance(value, dict):
            groups[key] = value
        elif _is_scalar(value) or all(_is_scalar(v) for v in value):
            facts[key] = value
        elif all(isinstance(v, dict) for v in value):
            records[key] = value
    if summary.get("description") or facts:
        overview = report.section("Summary", anchor="summary")
        if summary.get("description"):
            overview.add_text(summary["description"])
        if facts:
            overview.add_facts({_humanise(k): v for k, v in facts.items()})
    for key, value in groups.items():
        report.section(_humanise(key)).add_facts(
            {_humanise(k): v if _is_scalar(v) or isinstance(v, list) else json.dumps(v) for k, v in value.items()})
    for key, value in records.items():
        report.section(_humanise(key)).add_table(pd.DataFrame(value), max_rows=200)

    sections = summary.get("sections") or []
    for spec in sections:
        if not isinstance(spec, dict) or "title" not in spec:
            raise ValueError(f"summary.json: every entry of 'sections' needs a title; got {spec!r}")
        _fill(report.section(spec["title"], anchor=spec.get("id")), folder, spec)
    listed = bool(summary.get("tables") or summary.get("figures")
                  or any(s.get("tables") or s.get("figures") for s in sections))
    if summary.get("tables"):
        _add_tables(report.section("Tables", anchor="tables"), folder, summary["tables"])
    if summary.get("figures"):
        _add_figures(report.section("Figures", anchor="figures"), folder, summary["figures"])
    if not listed:
        tables = sorted(p.name for p in folder.glob("*.csv"))
        figures = sorted(p.name for p in folder.glob("*.png"))
        if tables or figures:
            note = "summary.json lists no figures or tables; every CSV and PNG file in the folder is shown."
            if tables:
                _add_tables(report.section("Tables", anchor="tables").add_text(note, note=True), folder, tables)
            if figures:
                _add_figures(report.section("Figures", anchor="figures").add_text(note, note=True), folder, figures)
    return report


def report_from_result_dir(source, out=None):
    """Write the HTML report of a result directory; returns the path written.

    Parameters
    ----------
    source : path
        Folder with a ``summary.json`` (see the module docstring), or a result JSON file.
    out : path, optional
        Where to write; default ``report.html`` inside the folder (next to the file).

    Returns
    -------
    pathlib.Path
    """
    source = Path(source)
    if out is None:
        out = (source if source.is_dir() else source.parent) / "report.html"
    return result_dir_report(source).write(out)
