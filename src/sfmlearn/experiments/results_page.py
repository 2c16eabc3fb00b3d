"""Reproduced results for readers: their files, ``docs/results.md`` and summary.json sections.

:func:`write_outputs` writes a result's tidy table, its comparison with the paper and
its figure; :func:`results_markdown` the ``docs/results.md`` page of many results;
:func:`result_section` and :func:`result_record` describe one result in the
summary.json of a result folder (:mod:`sfmlearn.outputs.result_folder`), which
``sfmlearn report`` renders. Built from :class:`~sfmlearn.experiments.runner.Outcome`
objects only; all explanations come from the registry entries (``Result.notes``), so
regenerating a page never loses text written by hand.
"""

import math

import numpy as np
import pandas as pd

from ..outputs.atomic import save_figure, write_csv
from ._docs import experiments_doc

__all__ = ["markdown_table", "output_names", "result_record", "result_section", "results_markdown",
           "write_outputs"]

MAX_ROWS = 40
#: What the comparison of ours with the published numbers shows.
COMPARISON_CAPTION = ("Ours next to the published numbers. agrees: the published value lies within two "
                      "standard errors se of ours (z = gap / se), or, for deterministic results, ours rounds "
                      "to it; rows without a standard error are not judged (judged_by).")


def _cell(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "**no**"
    if isinstance(value, (float, np.floating)):
        return f"{value:.4g}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(frame, max_rows=MAX_ROWS):
    """A GitHub-flavoured Markdown table (first ``max_rows`` rows, a line saying how many were cut)."""
    if frame.empty:
        return "_(empty)_\n"
    shown = frame.head(max_rows)
    lines = ["| " + " | ".join(str(c) for c in shown.columns) + " |",
             "|" + "|".join("---" for _ in shown.columns) + "|"]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in shown.itertuples(index=False)]
    if len(frame) > max_rows:
        lines.append(f"\n_{len(frame) - max_rows} more rows in the CSV._")
    return "\n".join(lines) + "\n"


@experiments_doc
def write_outputs(outcome, directory):
    """Write ``ID.csv`` (the tidy table), ``ID.comparison.csv`` (ours next to the published
    numbers, where the paper gives some) and ``ID.png`` (the figure) into ``directory``.

    Parameters
    ----------
    outcome : Outcome
        What :func:`compute` returned.
    directory : pathlib.Path
        Where to write (created if missing).

    Returns
    -------
    dict
        ``{"csv": path, "comparison": path, "png": path}``, the paths written.

    Examples
    --------
    %(separability_outcome)s
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.experiments import write_outputs
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_outputs(outcome, Path(folder))
    ...     print(sorted(path.name for path in paths.values()))
    ['thesis-sep-bounds.comparison.csv', 'thesis-sep-bounds.csv', 'thesis-sep-bounds.png']
    """
    directory.mkdir(parents=True, exist_ok=True)
    table, comparison, figure = (directory / name for name in output_names(outcome.result))
    paths = {}
    if not outcome.table.empty:
        paths["csv"] = write_csv(outcome.table, table, index=False)
    if not outcome.comparison.empty:  # the key columns identify a row, as on the results page
        paths["comparison"] = write_csv(outcome.comparison.drop(columns="cell", errors="ignore"), comparison,
                                        index=False)
    if outcome.figure is not None:
        paths["png"] = save_figure(outcome.figure, figure, dpi=100)
    return paths


def output_names(result):
    """The names :func:`write_outputs` may give the files of ``result``: table, comparison, figure."""
    return f"{result.id}.csv", f"{result.id}.comparison.csv", f"{result.id}.png"


def _n_judged(outcome):
    return int(outcome.comparison.get("agrees", pd.Series(dtype=object)).isin([True, False]).sum())


def _status(outcome):
    if outcome.error:
        return "failed"
    if outcome.comparison.empty:
        return "no published numbers"
    agrees = outcome.comparison.get("agrees", pd.Series(dtype=object))
    n_judged = _n_judged(outcome)
    if n_judged == 0:
        return "not judged"
    misses = len(outcome.misses)
    unjudged = len(agrees) - n_judged
    return f"{n_judged - misses}/{n_judged} agree" + (f", {unjudged} not judged" if unjudged else "")


def _section(outcome, figure_dir):
    result = outcome.result
    lines = [f"## {result.id}: {result.title}", "",
             f"*{result.reference}* · module `sfmlearn.experiments.{result.module}` · "
             f"`sfmlearn reproduce {result.id}` · {outcome.seconds:.0f} s", ""]
    lines += [f"> {notice}" for notice in outcome.notices]
    if outcome.notices:
        lines.append("")
    if outcome.error:
        return lines + [f"**Failed:** `{outcome.error}`", ""]
    if outcome.comparison.empty:
        lines += ["The paper gives no number for this result; compare the figure and the table "
                  f"(`{figure_dir}/{result.id}.csv`).", ""]
        if not outcome.table.empty:
            lines += [markdown_table(outcome.table, max_rows=15)]
    else:
        lines += [COMPARISON_CAPTION, "", markdown_table(outcome.comparison.drop(columns="cell", errors="ignore"))]
    if outcome.figure is not None:
        lines += [f"![{result.id}]({figure_dir}/{result.id}.png)", ""]
    verdict = _explanation(outcome, strong="**")
    return lines + [verdict, ""] if verdict else lines


def _explanation(outcome, strong=""):
    """How many judged rows differ and why (the entry's notes), or the notes alone; "" without notes."""
    notes = outcome.result.notes
    misses = outcome.misses
    if len(misses):
        gaps = pd.to_numeric(misses.get("gap", pd.Series(dtype=float)), errors="coerce").abs()
        largest = f"; largest |gap| {gaps.max():.4g}" if gaps.notna().any() else ""
        return (f"{strong}{len(misses)} of {_n_judged(outcome)} judged rows differ{largest}.{strong} "
                f"Why: {notes or 'no explanation recorded.'}")
    return f"Notes: {notes}" if notes else ""


@experiments_doc
def result_section(outcome, files, command, own=()):
    """One result as a section of a result folder's summary.json (the format of
    :mod:`sfmlearn.outputs.result_folder`): its facts, the explanation of the gaps, and
    the comparison, the tidy table, the figure and the files the experiment wrote itself
    as listed files.

    Parameters
    ----------
    outcome : Outcome
        What :func:`compute` returned.
    files : dict
        ``{"csv", "comparison", "png"}``: the paths written (:func:`write_outputs`),
        relative to the folder.
    command : str
        The command that reruns this result alone.
    own : sequence of dict
        ``{"kind", "path", "caption"}`` of the files the experiment wrote itself
        (``Outcome.files``), their paths relative to the folder: figures join the
        result's figure, maps are listed under ``maps``.

    Returns
    -------
    dict
        ``{"id", "title", "text", "facts", "tables", "figures"}``, and ``maps`` when the
        experiment wrote some.

    Examples
    --------
    %(separability_outcome)s
    >>> from sfmlearn.experiments.results_page import result_section
    >>> section = result_section(outcome, {"csv": "thesis-sep-bounds.csv",
    ...                                    "comparison": "thesis-sep-bounds.comparison.csv"},
    ...                          "sfmlearn reproduce thesis-sep-bounds --quick")
    >>> section["facts"]["status"], [table["path"] for table in section["tables"]]
    ('1/1 agree', ['thesis-sep-bounds.comparison.csv', 'thesis-sep-bounds.csv'])
    """
    result = outcome.result
    facts = {"published in": result.reference, "status": _status(outcome), "command": command,
             "run time": f"{outcome.seconds:.1f} s"}
    facts.update({f"note {number}": notice for number, notice in enumerate(outcome.notices, 1)})
    texts = [_explanation(outcome)]
    if outcome.comparison.empty:
        shown = " and ".join(name for name, key in (("the figure", "png"), ("the table", "csv")) if key in files)
        texts.insert(0, "The paper gives no number for this result" + (f"; compare {shown}." if shown else "."))
    text = f"Failed: {outcome.error}" if outcome.error else " ".join(filter(None, texts))
    tables = [{"path": files[key], "caption": caption, "max_rows": MAX_ROWS}
              for key, caption in (("comparison", COMPARISON_CAPTION),
                                   ("csv", f"{files.get('csv')}: the experiment's tidy table"))
              if key in files]
    figures = [{"path": files["png"], "caption": f"{files['png']}: {result.title} ({result.reference})"}] \
        if "png" in files else []
    listed = {kind: [{"path": entry["path"], "caption": entry["caption"]} for entry in own if entry["kind"] == kind]
              for kind in ("figures", "maps")}
    section = {"id": result.id, "title": f"{result.id}: {result.title}", "text": text, "facts": facts,
               "tables": tables, "figures": figures + listed["figures"]}
    return {**section, "maps": listed["maps"]} if listed["maps"] else section


def result_record(outcome):
    """One row of the overview of reproduced results: ID, reference, status, quick or full, seconds."""
    result = outcome.result
    return {"id": result.id, "reference": result.reference, "status": _status(outcome),
            "mode": "quick" if outcome.context.quick else "full", "seconds": round(outcome.seconds, 1)}


@experiments_doc
def results_markdown(outcomes, *, mode, total_seconds, figure_dir="results", command="sfmlearn reproduce all"):
    """The whole ``results.md``: summary table, then one section per result.

    Parameters
    ----------
    outcomes : sequence of Outcome
        What :func:`compute` returned, in page order.
    mode : str
        "quick" or "full" (stated on the page).
    total_seconds : float
        Run time of everything (stated on the page).
    figure_dir : str, default="results"
        Folder of the figures, relative to the page.
    command : str, default="sfmlearn reproduce all"
        The command the page says generated it.

    Returns
    -------
    str
        The Markdown page.

    Examples
    --------
    %(separability_outcome)s
    >>> from sfmlearn.experiments import results_markdown
    >>> results_markdown([outcome], mode="quick", total_seconds=1.0).splitlines()[0]
    '# Reproduced results'
    """
    summary = pd.DataFrame([{"ID": f"[{o.result.id}](#{_anchor(o.result)})", "reference": o.result.reference,
                             "status": _status(o), "seconds": round(o.seconds)} for o in outcomes])
    lines = ["# Reproduced results", "",
             f"Generated by `{command}` ({mode}) in {total_seconds / 60:.1f} minutes; do not edit by hand "
             "(explanations live in `sfmlearn/experiments/registry.py`). Each result can be rerun "
             "alone with `sfmlearn reproduce ID [--quick] [--repetitions N] [--n-jobs J] [--out DIR]`.", "",
             markdown_table(summary, max_rows=len(summary) or 1)]
    for outcome in outcomes:
        lines += _section(outcome, figure_dir)
    return "\n".join(lines).rstrip() + "\n"


def _anchor(result):
    """GitHub's heading anchor for "## ID: title"."""
    text = f"{result.id}: {result.title}".lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")
