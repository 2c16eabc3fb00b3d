"""A report from a result directory described by its ``summary.json``.

Any analysis that writes its figures (PNG) and tables (CSV/TSV) into a folder can get
an HTML report with one call, :func:`report_from_result_dir`, if the folder holds a
``summary.json`` in the format of :mod:`sfmlearn.outputs.result_folder` (every key optional;
``sfmlearn fmri`` and ``sfmlearn reproduce`` write one). A report embeds only files inside the folder: an absolute
path, a ``../`` or a symbolic link whose target lies outside the folder is refused
(``ValueError``). Top-level ``figures``/``tables`` go into sections "Figures"/"Tables".
Any other top-level key is shown too: numbers, strings and lists in the "Summary"
table, dictionaries and lists of records as tables of their own. The NIfTI maps a
section lists (``"maps"``, as ``sfmlearn reproduce`` writes them) are named with their
captions (a report embeds no volumes). If the summary names no figure or table at all,
every PNG and CSV in the folder is shown (and the report says so); such a file found
in the folder that cannot be read is skipped with a warning naming it. A JSON file
written by ``sfmlearn select --json``, ``sfmlearn repeat --json`` or ``sfmlearn panel
--json`` (recognised by its keys) gives the same report as ``--report`` on those
commands, without the figure of the informative-fraction estimate.

Every mistyped or missing entry (``"sections": 3``, a caption that is not text, a table
that is not CSV) raises ``ValueError`` naming the key; a listed file that does not exist
raises ``FileNotFoundError``. The numbers of a saved select or repeat result are checked
before they are shown (:func:`~sfmlearn.report.saved_results.check_saved_result`). The
report's ``inputs`` lists summary.json, every file it embeds and every other file inside
the folder that the summary names.
"""

import json
import warnings
from pathlib import Path

import pandas as pd

from ..outputs.atomic import OutputPathError, same_file
from ..outputs.result_folder import (TABLE_SEPARATORS, ResultFolder, listed_files, summary_sections,
                                      summary_text)
from .analyses import repeat_report, select_report
from .compare import compare_report
from .html import Report
from .panel import panel_report
from .saved_results import DamagedResultError, check_saved_result

__all__ = ["report_from_result_dir", "result_dir_report"]

_SPECIAL = {"title", "description", "summary", "sections", "figures", "tables"}


def _one_line(exc):
    return " ".join(str(exc).split())


def _is_scalar(value):
    return value is None or isinstance(value, (str, int, float, bool))


def _humanise(key):
    """``n_voxels`` -> ``N voxels``; other capitals kept (``SVM error`` stays)."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _add_figures(section, folder, figures):
    for entry in listed_files(figures, "figures"):
        caption = entry.get("caption") or entry.get("title") or Path(entry["path"]).stem.replace("_", " ")
        if Path(entry["path"]).suffix.lower() != ".png":
            section.add_text(f"{entry['path']} is not embedded: only PNG figures can be "
                             "(open it next to this report).", note=True)
            continue
        section.add_figure(folder.file(entry["path"], "figure"), caption=str(caption))


def _add_tables(section, folder, tables):
    for entry in listed_files(tables, "tables"):
        if Path(entry["path"]).suffix.lower() not in TABLE_SEPARATORS:
            section.add_text(f"{entry['path']} is not shown: only CSV/TSV tables can be "
                             "(open it next to this report).", note=True)
            continue
        table = folder.read_table(entry["path"])
        caption = entry.get("caption") or entry.get("title") or Path(entry["path"]).name
        section.add_table(table, caption=str(caption), max_rows=entry.get("max_rows", 200))


def _add_maps(section, folder, maps):
    """The listed NIfTI maps by name and caption (each checked to lie in the folder)."""
    entries = listed_files(maps, "maps")
    if not entries:
        return
    for entry in entries:
        folder.file(entry["path"], "map")  # inside the folder, and there
    rows = [{"map": entry["path"], "caption": entry.get("caption") or ""} for entry in entries]
    section.add_table(pd.DataFrame(rows), caption="NIfTI maps in the result folder (open them in a viewer; "
                                                  "a report embeds no volumes)")


def _fill(section, folder, spec):
    if spec.get("text"):
        section.add_text(str(spec["text"]))
    if spec.get("facts"):
        section.add_facts(spec["facts"])
    _add_tables(section, folder, spec.get("tables"))
    _add_figures(section, folder, spec.get("figures"))
    _add_maps(section, folder, spec.get("maps"))


_ANALYSES = {"compare": ({"comparison", "class_counts"}, compare_report),
             "select": ({"selected", "train_accuracy"}, select_report),
             "repeat": ({"ranking", "subsets"}, repeat_report),
             "panel": ({"panel", "dotplot", "confusion_matrix"}, panel_report)}


def _analysis_report(summary, path, source):
    """The report of a saved ``sfmlearn select/repeat/panel/compare --json`` result, or None for other JSON."""
    for command, (keys, build) in _ANALYSES.items():
        if keys <= summary.keys():
            try:
                check_saved_result(command, summary, path)
                report = build(summary, subtitle=f"from {source}")
            except DamagedResultError:  # impossible numbers: its own message
                raise
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                detail = f"missing key {exc.args[0]!r}" if isinstance(exc, KeyError) else _one_line(exc)
                raise ValueError(f"{path} looks like the output of 'sfmlearn {command} --json' but is "
                                 f"incomplete or altered ({detail}); write it again with that command") from exc
            report.inputs = [path]
            return report
    return None


def result_dir_report(source):
    """Build (not write) the :class:`Report` of a result directory or result JSON file.

    Parameters
    ----------
    source : path
        A folder with ``summary.json`` (format in the module docstring), or a JSON file
        (a ``summary.json`` elsewhere, or the output of ``sfmlearn select/repeat/panel/compare
        --json``).

    Returns
    -------
    Report
        Its ``inputs`` are summary.json, the files it embeds and every other file inside the
        folder the summary names.

    Examples
    --------
    >>> import tempfile
    >>> import pandas as pd
    >>> from sfmlearn.outputs import ResultFolder
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = ResultFolder(folder.name)
    >>> _ = out.add_table("folds", pd.DataFrame({"fold": [1, 2], "accuracy": [0.9, 1.0]}), "per fold")
    >>> _ = out.write_summary({"title": "Demo", "summary": {"accuracy": 0.95}, "tables": out.tables})
    >>> from sfmlearn.report import result_dir_report
    >>> report = result_dir_report(folder.name)
    >>> report.title, [section.title for section in report.sections]
    ('Demo', ['Summary', 'Tables'])
    >>> folder.cleanup()
    """
    folder = ResultFolder.open(source)
    summary = folder.summary
    analysis = _analysis_report(summary, folder.inputs[0], source)
    if analysis is not None:
        return analysis
    title = summary_text(summary.get("title"), "'title'")
    description = summary_text(summary.get("description"), "'description'")
    if summary.get("summary") is not None and not isinstance(summary["summary"], dict):
        raise ValueError(f"summary.json: 'summary' must be an object {{\"label\": value}}; "
                         f"got {json.dumps(summary['summary'])[:80]}")
    sections = summary_sections(summary)

    report = Report(title or f"Results: {folder.path.resolve().name}", subtitle=f"from {folder.path}")
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
    if description or facts:
        overview = report.section("Summary", anchor="summary")
        if description:
            overview.add_text(description)
        if facts:
            overview.add_facts({_humanise(k): v for k, v in facts.items()})
    for key, value in groups.items():
        report.section(_humanise(key)).add_facts(
            {_humanise(k): v if _is_scalar(v) or isinstance(v, list) else json.dumps(v) for k, v in value.items()})
    for key, value in records.items():
        report.section(_humanise(key)).add_table(pd.DataFrame(value), max_rows=200)

    for spec in sections:
        _fill(report.section(str(spec["title"]), anchor=spec.get("id")), folder, spec)
    listed = bool(summary.get("tables") or summary.get("figures")
                  or any(s.get("tables") or s.get("figures") for s in sections))
    if summary.get("tables"):
        _add_tables(report.section("Tables", anchor="tables"), folder, summary["tables"])
    if summary.get("figures"):
        _add_figures(report.section("Figures", anchor="figures"), folder, summary["figures"])
    if not listed:
        _add_every_file(report, folder)
    report.inputs = folder.inputs + folder.mentioned()
    return report


def _add_every_file(report, folder):
    """Without a list: every CSV and PNG directly in the folder (links leaving it are skipped).

    Nothing asked for these files, so one that cannot be read (an empty CSV, a PNG that is
    none) is skipped with a warning and a note naming it; only listed files are errors.
    """
    note = "summary.json lists no figures or tables; every CSV and PNG file in the folder is shown."
    for pattern, title, add in (("*.csv", "Tables", _add_tables), ("*.png", "Figures", _add_figures)):
        found = sorted(p.name for p in folder.path.glob(pattern))
        if not found:
            continue
        section = report.section(title, anchor=title.lower()).add_text(note, note=True)
        outside = [name for name in found if not folder.inside(name)]
        if outside:
            section.add_text(f"Not shown (links to files outside the folder): {', '.join(outside)}.", note=True)
        unreadable = []
        for name in found:
            if name not in outside and not _added(add, section, folder, name):
                unreadable.append(name)
        if unreadable:
            section.add_text(f"Not shown (found in the folder, not readable): {', '.join(unreadable)}.", note=True)


def _added(add, section, folder, name):
    """Whether the file ``name`` that the folder holds but the summary does not list could be
    added to ``section``; when not, a warning names it (with the reader's reason, if any)."""
    try:
        add(section, folder, [name])
    except (ValueError, OSError) as exc:
        kind = "CSV table" if name.lower().endswith(".csv") else "PNG image"
        detail = f" ({_one_line(exc.__cause__)})" if exc.__cause__ else ""
        warnings.warn(f"{folder.path / name} is not shown: it is in the folder but not a readable {kind}{detail}, "
                      "and summary.json does not list it; remove it, or list a readable file", UserWarning,
                      stacklevel=2)
        return False
    return True


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
        The report written (one self-contained HTML file).

    Raises
    ------
    OutputPathError
        When ``out`` is one of the report's inputs.

    Examples
    --------
    A folder whose summary.json lists nothing: the report shows every CSV in it.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import write_json, write_text
    >>> from sfmlearn.report import report_from_result_dir
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = write_text(folder / "scores.csv", "fold,accuracy" + chr(10) + "1,0.9" + chr(10))
    >>> _ = write_json(folder / "summary.json", {"title": "Scores"})
    >>> written = report_from_result_dir(folder)
    >>> written.name, "scores.csv" in written.read_text(encoding="utf-8")
    ('report.html', True)
    """
    source = Path(source)
    if out is None:
        out = (source if source.is_dir() else source.parent) / "report.html"
    report = result_dir_report(source)
    for used in report.inputs:
        if same_file(out, used):
            raise OutputPathError(f"the report {out} would overwrite its input {used}; choose another name")
    return report.write(out)
