"""Reproductions of the papers' tables and figures, run by ``sfmlearn reproduce ID``.

One module per experiment; each exposes ``run(quick=False, ...) -> pandas.DataFrame`` in
tidy form with a ``published`` column wherever the paper gives a number. Three modules
turn them into reproduced results:

* :mod:`.registry` -- every published table or figure by ID (:data:`RESULTS`,
  :class:`Result`, :func:`get_result`, :func:`select_results`, :func:`listing`);
* :mod:`.runner` -- runs one result under the shared options (:class:`Context`) and
  compares ours with the published numbers (:func:`compute` -> :class:`Outcome`,
  :func:`compare`); an experiment's annotated parameters are settings a run may change
  (:func:`settings_of`, :func:`parse_settings`: ``sfmlearn reproduce ID --set NAME=VALUE``);
* :mod:`.results_page` -- writes a result's CSV and PNG (:func:`write_outputs`) and the
  ``docs/results.md`` page of all of them (:func:`results_markdown`).
"""

from .registry import RESULTS, Result, get_result, listing, select_results
from .results_page import results_markdown, write_outputs
from .runner import Context, Outcome, compare, compute, parse_settings, settings_of

__all__ = ["RESULTS", "Context", "Outcome", "Result", "compare", "compute", "get_result", "listing",
           "parse_settings", "results_markdown", "select_results", "settings_of", "write_outputs"]
