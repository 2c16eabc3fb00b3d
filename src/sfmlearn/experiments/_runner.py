"""Run one registered result: its table, its figure and its comparison with the paper.

The experiment modules differ in their options (some take ``repetitions``, some
``n_jobs``, some neither); :func:`call_with_context` passes each the subset of the
shared options (:class:`Context`) its function accepts, so a registry entry needs no
adapter code. :func:`compare` turns a table into the rows that carry a published number
-- ours, published, the gap ``ours - published`` and whether the two agree -- which is
what ``sfmlearn reproduce`` prints and ``docs/results.md`` shows.
"""

import importlib
import inspect
import time
import traceback
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["Context", "Outcome", "call_with_context", "compare", "compute", "default_keys"]


@dataclass(frozen=True)
class Context:
    """Options shared by every result: quick mode, repetitions, parallel jobs, seed."""

    quick: bool = False
    repetitions: int | None = None
    n_jobs: int = 1
    random_state: int = 0


@dataclass
class Outcome:
    """What running one result produced (``error`` set instead when it failed)."""

    result: object
    context: Context
    table: pd.DataFrame = field(default_factory=pd.DataFrame)
    comparison: pd.DataFrame = field(default_factory=pd.DataFrame)
    figure: object = None
    seconds: float = float("nan")
    notices: list = field(default_factory=list)
    error: str | None = None
    traceback: str | None = None

    @property
    def misses(self):
        """Comparison rows where ours and the published number disagree."""
        if self.comparison.empty or "agrees" not in self.comparison:
            return self.comparison.iloc[0:0]
        return self.comparison[self.comparison["agrees"].eq(False)]


def call_with_context(function, context, options):
    """Call ``function`` with ``options`` plus the context fields it accepts.

    Returns (value, notices): a notice says when ``--repetitions`` or ``--n-jobs`` was
    given but the function has no such option.
    """
    accepted = inspect.signature(function).parameters
    shared = {"quick": context.quick, "repetitions": context.repetitions,
              "n_jobs": context.n_jobs, "random_state": context.random_state}
    kwargs = {name: value for name, value in shared.items() if name in accepted}
    notices = []
    if context.repetitions is not None and "repetitions" not in accepted:
        notices.append("--repetitions ignored: this result has no repetitions option")
    if context.n_jobs != 1 and "n_jobs" not in accepted:
        notices.append("--n-jobs ignored: this result runs in one process")
    return function(**kwargs, **dict(options)), notices


def _quick_notice(table, result, context):
    if not context.quick or result.quick == "":
        return None
    if result.quick:
        return f"--quick: {result.quick}"
    runs = table.attrs.get("repetitions")
    if runs is None and "runs" in table:
        runs = int(table["runs"].min())
    detail = f" ({runs} runs per point)" if runs is not None else ""
    return (f"--quick: fewer repetitions and smaller grids than the full run{detail}; "
            "expect noisier numbers")


def compute(result, context, cache=None):
    """Run ``result`` (a registry entry) under ``context``; never raises, see ``Outcome.error``.

    ``cache`` (a dict) lets several entries that share one experiment call (e.g. NC
    Fig. 2 and thesis Fig. 4.8) run it once.
    """
    outcome = Outcome(result, context)
    started = time.perf_counter()
    try:
        table = _table(result, context, cache, outcome.notices)
        outcome.table = table
        notice = _quick_notice(table, result, context)
        if notice:
            outcome.notices.insert(0, notice)
        outcome.comparison = (result.compare or compare)(table, result)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # tight_layout on tiny figures
            outcome.figure = result.figure(table, context) if result.figure else _default_figure(outcome)
    except Exception as exc:  # one failing result must not stop `reproduce all`
        outcome.error = f"{type(exc).__name__}: {exc}"
        outcome.traceback = traceback.format_exc()
    outcome.seconds = time.perf_counter() - started
    return outcome


def _table(result, context, cache, notices):
    if result.function is None:
        return pd.DataFrame()
    key = (result.module, result.function, tuple(sorted(result.options.items())), context)
    if cache is not None and key in cache:
        table, cached_notices = cache[key]
        notices.append("table shared with an earlier result of this run (computed once)")
    else:
        module = importlib.import_module(f"sfmlearn.experiments.{result.module}")
        table, cached_notices = call_with_context(getattr(module, result.function), context, result.options)
        if not isinstance(table, pd.DataFrame):
            raise TypeError(f"{result.module}.{result.function} returned {type(table).__name__}, "
                            "not a DataFrame")
        if cache is not None:
            cache[key] = (table, cached_notices)
    notices.extend(cached_notices)
    return table


def _default_figure(outcome):
    if outcome.comparison.empty:
        return None
    from ..plotting.comparison import plot_ours_vs_published

    return plot_ours_vs_published(outcome.comparison, title=outcome.result.title)


def default_keys(table, ours):
    """The columns that identify a row: those left of ``ours`` (the tables put them first)."""
    columns = list(table.columns)
    return columns[:columns.index(ours)] if ours in columns else []


def compare(table, result):
    """Rows with a published number: keys, ours, published, gap (ours - published), agrees.

    ``agrees``: |gap| <= max(atol + rtol |published|, 2 se) with the entry's tolerances
    and, where the table has ``ours_std`` and ``runs``, the standard error
    se = ours_std / sqrt(runs) of our mean (a difference within two standard errors is
    Monte-Carlo noise); or the entry's own ``agrees(table)`` when it has one. A ``note``
    column of the table is carried along.
    """
    ours, published = result.ours, result.published
    if table.empty or published not in table or ours not in table:
        return pd.DataFrame()
    mask = pd.to_numeric(table[published], errors="coerce").notna().to_numpy()
    if not mask.any():
        return pd.DataFrame()
    keys = list(result.keys) if result.keys else default_keys(table, ours)
    rows = table.loc[mask, keys].copy()
    rows["ours"] = table.loc[mask, ours].astype(float)
    rows["published"] = table.loc[mask, published].astype(float)
    rows["gap"] = rows["ours"] - rows["published"]
    if result.agrees is not None:
        rows["agrees"] = np.asarray(result.agrees(table), dtype=bool)[mask]
    else:
        tolerance = result.atol + result.rtol * rows["published"].abs()
        if {"ours_std", "runs"} <= set(table.columns):
            se = table.loc[mask, "ours_std"].astype(float) / np.sqrt(table.loc[mask, "runs"].astype(float))
            tolerance = np.fmax(tolerance, 2 * se)
        rows["agrees"] = rows["gap"].abs() <= tolerance
    if "note" in table:
        rows["note"] = table.loc[mask, "note"]
    return rows.reset_index(drop=True)
