"""``docs/results.md``: every reproduced result, ours next to the published numbers.

Built from :class:`~sfmlearn.experiments.runner.Outcome` objects only; all
explanations come from the registry entries (``Result.notes``), so regenerating the
file never loses text written by hand.
"""

import math

import numpy as np
import pandas as pd

from ..outputs.atomic import save_figure, write_csv
from ._docs import experiments_doc

__all__ = ["markdown_table", "results_markdown", "write_outputs"]

MAX_ROWS = 40


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
    """Write ``ID.csv`` (the tidy table) and ``ID.png`` (the figure) into ``directory``.

    Parameters
    ----------
    outcome : Outcome
        What :func:`compute` returned.
    directory : pathlib.Path
        Where to write (created if missing).

    Returns
    -------
    dict
        ``{"csv": path, "png": path}``, the paths written.

    Examples
    --------
    %(separability_outcome)s
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.experiments import write_outputs
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_outputs(outcome, Path(folder))
    ...     print(sorted(path.name for path in paths.values()))
    ['thesis-sep-bounds.csv', 'thesis-sep-bounds.png']
    """
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    if not outcome.table.empty:
        paths["csv"] = directory / f"{outcome.result.id}.csv"
        write_csv(outcome.table, paths["csv"], index=False)
    if outcome.figure is not None:
        paths["png"] = directory / f"{outcome.result.id}.png"
        save_figure(outcome.figure, paths["png"], dpi=100)
    return paths


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
        lines += ["Ours next to the published numbers. `agrees`: the published value lies within two "
                  "standard errors `se` of ours (z = gap / se), or, for deterministic results, ours "
                  "rounds to it; rows without a standard error are not judged (`judged_by`).", "",
                  markdown_table(outcome.comparison.drop(columns="cell", errors="ignore"))]
    if outcome.figure is not None:
        lines += [f"![{result.id}]({figure_dir}/{result.id}.png)", ""]
    misses = outcome.misses
    if len(misses):
        gaps = pd.to_numeric(misses.get("gap", pd.Series(dtype=float)), errors="coerce").abs()
        largest = f"; largest |gap| {gaps.max():.4g}" if gaps.notna().any() else ""
        lines += [f"**{len(misses)} of {_n_judged(outcome)} judged rows differ{largest}.** "
                  f"Why: {result.notes or 'no explanation recorded.'}", ""]
    elif result.notes:
        lines += [f"Notes: {result.notes}", ""]
    return lines


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
