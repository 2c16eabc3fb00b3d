"""Rerun the papers' published results and compare them with the published numbers.

:func:`reproduce` computes every chosen result of the experiment registry
(:mod:`sfmlearn.experiments`), writes its tidy table and figure, and -- for the whole set
-- the results page. :func:`select_results`, :func:`parse_settings`, :func:`listing` and
:class:`Context` are the registry's own.
"""

import time

from ..experiments import Context, compute, listing, parse_settings, results_markdown, select_results, write_outputs
from ..outputs.atomic import write_text

__all__ = ["Context", "listing", "parse_settings", "reproduce", "select_results"]


def reproduce(results, context, out, *, everything=False, command="sfmlearn reproduce all", mode="",
              on_start=None, on_outcome=None):
    """Compute ``results`` (registry entries) and write their outputs into ``out``.

    Parameters
    ----------
    results : list of Result
        From :func:`select_results`.
    context : Context
        Quick mode, repetitions, jobs, seed and the experiments' settings.
    out : pathlib.Path
        Output folder; with ``everything`` the figures go to ``out/results`` and the page
        ``out/results.md`` lists every result (``command`` and ``mode`` describe the run).
    on_start, on_outcome : callable, optional
        ``on_start(index, result)`` before a result runs, ``on_outcome(outcome, paths)``
        after (paths written, empty when it failed).

    Returns
    -------
    outcomes : list of Outcome
    seconds : float
    page : pathlib.Path or None
        ``out/results.md`` when ``everything``.
    """
    figure_dir = out / "results" if everything else out
    cache, outcomes = {}, []
    started = time.perf_counter()
    for index, result in enumerate(results, 1):
        if on_start is not None:
            on_start(index, result)
        outcome = compute(result, context, cache)
        paths = {} if outcome.error else write_outputs(outcome, figure_dir)
        if on_outcome is not None:
            on_outcome(outcome, paths)
        outcomes.append(outcome)
    seconds = time.perf_counter() - started
    page = None
    if everything:
        page = out / "results.md"
        write_text(page, results_markdown(outcomes, mode=mode, total_seconds=seconds, figure_dir="results",
                                          command=command))
    return outcomes, seconds, page
