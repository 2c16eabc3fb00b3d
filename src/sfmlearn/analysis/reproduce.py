"""Rerun the papers' published results and compare them with the published numbers.

:func:`reproduce` computes every chosen result of the experiment registry
(:mod:`sfmlearn.experiments`) and writes a result folder: each result's tidy table,
its comparison with the paper and its figure, listed in ``summary.json`` (the format of
:mod:`sfmlearn.outputs.result_folder`, which ``sfmlearn report DIR`` renders) -- and,
for the whole set, the results page. The folder is filled as a whole when the run is
over (:func:`output_entries` names what a run owns in it). :class:`TimeLeft` estimates
how long a run still takes from the registry's expected times (:func:`expected_seconds`).
:func:`select_results`, :func:`parse_settings`, :func:`listing` and :class:`Context`
are the registry's own.
"""

import math
import shlex
import shutil
import time
from pathlib import Path

from .._version import __version__
from ..experiments import Context, compute, listing, parse_settings, results_markdown, select_results, write_outputs
from ..experiments.registry import expected_seconds
from ..experiments.results_page import output_names, result_record, result_section
from ..experiments.runner import call_key, writes_files
from ..outputs.atomic import create_output_dir, write_text
from ..outputs.output_paths import refuse_link, staged_output_dir
from ..outputs.result_folder import SUMMARY, ResultFolder, read_summary

__all__ = ["Context", "TimeLeft", "describe_seconds", "earlier_sections", "listing", "output_entries",
           "output_names", "parse_settings", "reproduce", "select_results"]

#: The value of a summary's ``generated_by`` that marks a folder ``sfmlearn reproduce`` wrote.
GENERATED_BY = "sfmlearn reproduce"


def describe_seconds(seconds):
    """A duration for people: ``"< 1 s"``, ``"40 s"``, ``"12 min"``, ``"1.5 h"``.

    Examples
    --------
    >>> from sfmlearn.analysis.reproduce import describe_seconds
    >>> [describe_seconds(s) for s in (0.2, 40, 150, 5400, float("nan"))]
    ['< 1 s', '40 s', '2.5 min', '1.5 h', 'unknown']
    """
    if math.isnan(seconds):
        return "unknown"
    if seconds < 1:
        return "< 1 s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.2g} min" if seconds < 600 else f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.2g} h"


class TimeLeft:
    """How long a run of ``results`` still takes, from the registry's expected times.

    A result expects its registered seconds (:func:`expected_seconds`, quick or full);
    one whose experiment call an earlier result of the run made already expects none
    (the table is shared). Those expectations are scaled by the pace of the run so far
    -- actual over expected seconds of the finished results -- so a busy machine or
    ``--repetitions`` stretch the estimate once the first results are in. A result
    without a registered time expects the mean actual time of the finished ones.

    Parameters
    ----------
    results : sequence of Result
        The results of the run, in order.
    quick : bool
        Whether the run is ``--quick``.
    clock : callable, default=time.perf_counter
        Seconds now (a test passes a fake clock).
    expected : sequence of float or None, optional
        Expected seconds of every result (default: the registry's).

    Examples
    --------
    Two results expected to take 10 s and 30 s; the first took 20 s, so the second is
    expected to take 60 s:

    >>> from sfmlearn.analysis.reproduce import TimeLeft
    >>> from sfmlearn.experiments import Result
    >>> now = [0.0]
    >>> left = TimeLeft([Result("a", "A", "ref", "m"), Result("b", "B", "ref", "n")], quick=True,
    ...                 clock=lambda: now[0], expected=[10.0, 30.0])
    >>> left.start(0); left.seconds_left()
    40.0
    >>> now[0] = 20.0; left.finish(); left.start(1); left.seconds_left()
    60.0
    """

    def __init__(self, results, quick, clock=time.perf_counter, expected=None):
        if expected is None:
            expected = [expected_seconds(result, quick) for result in results]
        calls = [call_key(result) for result in results]
        self.expected = [0.0 if key is not None and key in calls[:index] else seconds
                         for index, (key, seconds) in enumerate(zip(calls, expected))]
        self.clock = clock
        self.actual = []
        self.current, self.started = None, None

    def start(self, index):
        """Result ``index`` (from 0) begins now."""
        self.current, self.started = index, self.clock()

    def finish(self):
        """The current result is over."""
        self.actual.append(self.clock() - self.started)
        self.current = None

    def _pace(self):
        """Actual over expected seconds of the finished results that expected some (1 before any)."""
        pairs = [(actual, expected) for actual, expected in zip(self.actual, self.expected) if expected]
        expected = sum(e for _, e in pairs)
        return sum(a for a, _ in pairs) / expected if expected > 0 else 1.0

    def seconds_left(self):
        """Seconds until the last result is done, or None while nothing tells (no registered
        time for a result ahead and no result finished yet)."""
        start = len(self.actual)
        ahead = self.expected[start:]
        if any(seconds is None for seconds in ahead):
            if not self.actual:
                return None
            mean = sum(self.actual) / len(self.actual)
            ahead = [mean if seconds is None else seconds * self._pace() for seconds in ahead]
        else:
            ahead = [seconds * self._pace() for seconds in ahead]
        if self.current is not None and ahead:
            ahead[0] = max(ahead[0] - (self.clock() - self.started), 0.0)
        return float(sum(ahead))


def earlier_sections(out):
    """The sections of the summary.json an earlier ``sfmlearn reproduce`` wrote into ``out``.

    A run into the same folder keeps them (a result run again replaces its own), so the
    folder's summary lists every result it holds.

    Parameters
    ----------
    out : pathlib.Path
        The output folder.

    Returns
    -------
    list of tuple
        ``(record, section)`` of every result listed (its row of the overview and its
        section); empty when ``out`` has no summary.json.

    Raises
    ------
    ValueError
        When ``out/summary.json`` is unreadable or was written by another command (its
        files must not be mixed with these).
    """
    if not (out / SUMMARY).exists():
        return []
    path, summary = read_summary(out)
    if summary.get("generated_by") != GENERATED_BY:
        raise ValueError(f"{path} describes another result (not written by sfmlearn reproduce); "
                         "choose another --out")
    sections, records = summary.get("sections"), summary.get("results")
    if not isinstance(sections, list) or not isinstance(records, list) or \
            not all(isinstance(entry, dict) for entry in sections + records):
        raise ValueError(f"{path} lacks its list of results; remove it or choose another --out")
    by_id = {record.get("id"): record for record in records}
    return [(by_id[section.get("id")], section) for section in sections if section.get("id") in by_id]


def output_entries(results, everything=False):
    """The entries of the output folder a run of ``results`` owns besides summary.json:
    ``results.md`` and ``results/`` for the whole set (``everything``), else every result's
    files (:func:`output_names`) and the folder of the files its experiment writes itself
    (:func:`~sfmlearn.experiments.runner.writes_files`). A run replaces them all: what it
    does not write again (a result that failed) is removed, so the folder never holds an
    earlier run's file that its summary no longer lists.

    Examples
    --------
    >>> from sfmlearn.analysis.reproduce import output_entries, select_results
    >>> output_entries(select_results(["thesis-sep-bounds"]))
    ['thesis-sep-bounds.csv', 'thesis-sep-bounds.comparison.csv', 'thesis-sep-bounds.png']
    >>> output_entries(select_results(["all"]), everything=True)
    ['results.md', 'results']
    """
    if everything:
        return ["results.md", "results"]
    return [name for result in results
            for name in (*output_names(result), *([result.id] if writes_files(result) else []))]


class _Summary:
    """The summary.json of the output folder: the earlier results, and those of this run."""

    def __init__(self, earlier):
        self.entries = {section["id"]: (record, section) for record, section in earlier}

    def add(self, outcome, paths, command, folder):
        """Add the result of ``outcome`` (a result run again moves to the end); ``paths`` and
        ``outcome.files`` lie in ``folder``."""
        relative = {kind: path.relative_to(folder).as_posix() for kind, path in paths.items()}
        own = [{**entry, "path": entry["path"].relative_to(folder).as_posix()} for entry in outcome.files]
        self.entries.pop(outcome.result.id, None)
        self.entries[outcome.result.id] = (result_record(outcome),
                                           result_section(outcome, relative, command, own=own))

    def write(self, folder):
        ResultFolder(folder).write_summary({
            "title": "Reproduced results",
            "description": "Published tables and figures rerun by sfmlearn: ours next to the papers' numbers, "
                           "with the explanation of every gap. Each result lists its command, its "
                           "comparison, its tidy table and its figure.",
            "generated_by": GENERATED_BY, "sfmlearn_version": __version__,
            "results": [record for record, _ in self.entries.values()],
            "sections": [section for _, section in self.entries.values()]})


def _command(name, context):
    """``sfmlearn reproduce NAME`` (a result's id, or "all") with the options of ``context``
    that change the results."""
    words = ["sfmlearn reproduce", name] + (["--quick"] if context.quick else [])
    words += [f"--repetitions {context.repetitions}"] if context.repetitions else []
    words += [f"--random-state {context.random_state}"] if context.random_state else []
    words += [f"--set {shlex.quote(setting)}" for setting in context.settings]
    return " ".join(words)


def reproduce(results, context, out, *, everything=False, mode="", earlier=None, on_start=None, on_outcome=None):
    """Compute ``results`` (registry entries) and write their outputs into ``out``.

    Every result writes ``ID.csv`` (its tidy table), ``ID.comparison.csv`` (ours next to
    the published numbers) and ``ID.png`` (its figure) where it has them, and an
    experiment that writes files of its own puts them into ``ID/``; ``out/summary.json``
    lists them (:func:`~sfmlearn.experiments.results_page.result_section`), together
    with the results an earlier run wrote into ``out`` (:func:`earlier_sections`).

    The folder is filled as a whole (:func:`~sfmlearn.outputs.output_paths.staged_output_dir`):
    everything is written beside it first and moved in when the run is over, replacing
    the entries the run owns (:func:`output_entries`; those it did not write again, such
    as the files of a result that failed now, are removed). A run that breaks off -- a
    full disk, Ctrl-C -- leaves ``out`` as it was (a folder it created is removed). An
    entry the run owns that is a symbolic link is refused before anything runs.

    Parameters
    ----------
    results : list of Result
        From :func:`select_results`.
    context : Context
        Quick mode, repetitions, jobs, seed and the experiments' settings.
    out : pathlib.Path
        Output folder (created if missing); with ``everything`` the files go to
        ``out/results`` and the page ``out/results.md`` lists every result (``mode``
        describes the run, and the page gives the command that reruns it with
        ``context``'s options).
    earlier : list of tuple, optional
        The folder's earlier results, as :func:`earlier_sections` returns them (read from
        ``out`` when None; a caller that checked the folder already passes what it read).
    on_start, on_outcome : callable, optional
        ``on_start(index, result)`` before a result runs, ``on_outcome(outcome, paths)``
        after (``{kind: path}`` of the files it will have in ``out``, empty when it failed).

    Returns
    -------
    outcomes : list of Outcome
    seconds : float
    page : pathlib.Path or None
        ``out/results.md`` when ``everything``.

    Raises
    ------
    OutputPathError
        When an entry the run owns, or summary.json, is a symbolic link.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.analysis.reproduce import Context, reproduce, select_results
    >>> from sfmlearn.outputs.result_folder import read_summary
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = Path(folder.name) / "reproduced"
    >>> outcomes, seconds, page = reproduce(select_results(["thesis-sep-bounds"]), Context(quick=True), out)
    >>> _, summary = read_summary(out)
    >>> [entry["path"] for entry in summary["sections"][0]["tables"]]
    ['thesis-sep-bounds.comparison.csv', 'thesis-sep-bounds.csv']
    >>> folder.cleanup()
    """
    out = Path(out)
    entries = output_entries(results, everything)
    for name in (*entries, SUMMARY):
        refuse_link(out / name, "--out")
    summary = _Summary(earlier_sections(out) if earlier is None else earlier)
    created = create_output_dir(out)
    try:
        with staged_output_dir(out.resolve(), remove=entries) as stage:  # beside the real folder: renames
            outcomes, seconds = _compute(results, context, stage, everything, summary, on_start, on_outcome, out)
            if everything:
                write_text(stage / "results.md", results_markdown(
                    outcomes, mode=mode, total_seconds=seconds, figure_dir="results", command=_command("all", context)))
            summary.write(stage)
    except BaseException:
        if created is not None:  # leave nothing behind that this failed run made
            shutil.rmtree(created, ignore_errors=True)
        raise
    return outcomes, seconds, out / "results.md" if everything else None


def _compute(results, context, stage, everything, summary, on_start, on_outcome, out):
    """Compute every result into ``stage`` and add it to ``summary``; ``(outcomes, seconds)``.
    ``on_outcome`` gets the paths the files will have in ``out``."""
    directory = stage / "results" if everything else stage
    cache, outcomes = {}, []
    started = time.perf_counter()
    for index, result in enumerate(results, 1):
        if on_start is not None:
            on_start(index, result)
        outcome = compute(result, context, cache, files=directory / result.id)
        paths = {} if outcome.error else write_outputs(outcome, directory)
        summary.add(outcome, paths, _command(result.id, outcome.context), stage)
        if on_outcome is not None:
            shown = {**paths, **{entry["path"].name: entry["path"] for entry in outcome.files}}
            on_outcome(outcome, {kind: out / path.relative_to(stage) for kind, path in shown.items()})
        outcomes.append(outcome)
    return outcomes, time.perf_counter() - started
