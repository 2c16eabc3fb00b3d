"""Run one registered result: its table, its figure and its comparison with the paper.

The experiment modules differ in their options (some take ``repetitions``, some
``n_jobs``, some neither); :func:`call_with_context` passes each the subset of the
shared options (:class:`Context`) its function accepts, so a registry entry needs no
adapter code; an option the result does not use is reported and not recorded as applied
(:func:`applied_context`). Beyond them, an experiment function's *annotated* parameters
are its settings: ``Context.settings`` (``sfmlearn reproduce ID --set NAME=VALUE``) sets
any that the registry entry does not fix in its ``options``, the text converted and
checked by the annotation (``tuple[int, ...]`` takes ``10,100``; :mod:`.settings`,
:func:`settings_of`, :func:`parse_settings`). An experiment that writes files of its own
(maps, extra figures) takes ``out``: :func:`compute` gives it a
:class:`~sfmlearn.outputs.result_folder.ResultFolder` inside the result folder, and the
outcome lists what it wrote. :func:`compare` turns a table into the rows that carry a published number
-- ours, published, the gap ``ours - published``, its standard error and z, and whether
the two agree -- which is what ``sfmlearn reproduce`` prints and ``docs/results.md``
shows. A published number agrees with ours when it lies within two standard errors of
our mean (repetitions, folds); numbers without a standard error get no verdict.
"""

import dataclasses
import importlib
import inspect
import shutil
import time
import traceback
import typing
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..outputs.result_folder import ResultFolder
from ._docs import experiments_doc
from .settings import convert, describe

__all__ = ["Context", "Outcome", "accepted_options", "applied_context", "call_key", "call_with_context", "compare",
           "compute", "default_keys", "half_unit", "parse_settings", "settings_of", "used_options", "writes_files"]

#: The options every result shares (:class:`Context`); an experiment takes those it accepts.
SHARED = ("quick", "repetitions", "n_jobs", "random_state")
#: The parameter of an experiment that writes files of its own: the runner passes a
#: :class:`~sfmlearn.outputs.result_folder.ResultFolder` inside the result folder (never a setting).
FILES = "out"


@dataclass(frozen=True)
class Context:
    """Options shared by every result: quick mode, repetitions, parallel jobs, seed; and
    ``settings``, ``"NAME=VALUE"`` texts for the experiment's own options (:func:`parse_settings`).

    Parameters
    ----------
    quick : bool, default=False
        Fewer repetitions, smaller grids.
    repetitions : int or None
        Repetitions of randomised experiments (None: the experiment's default).
    n_jobs : int, default=1
        Parallel jobs.
    random_state : int, default=0
        Seed.
    settings : tuple of str
        ``"NAME=VALUE"`` options of the experiment.

    Examples
    --------
    >>> from sfmlearn.experiments import Context
    >>> Context(quick=True)
    Context(quick=True, repetitions=None, n_jobs=1, random_state=0, settings=())
    """

    quick: bool = False
    repetitions: int | None = None
    n_jobs: int = 1
    random_state: int = 0
    settings: tuple = ()


@dataclass
@experiments_doc
class Outcome:
    """What running one result produced (``error`` set instead when it failed).

    Parameters
    ----------
    result : Result
        The registry entry that ran.
    context : Context
        The options it ran under (those it does not use at their defaults: :func:`applied_context`).
    table : pandas.DataFrame
        The experiment's tidy table.
    comparison : pandas.DataFrame
        Ours against the published numbers (:func:`compare`).
    figure : matplotlib.figure.Figure or None
        The figure.
    seconds : float
        Run time.
    notices : list of str
        Warnings raised while it ran.
    files : list of dict
        ``{"kind", "path", "caption"}`` of the files the experiment wrote itself (``kind``
        "maps" or "figures"; ``path`` where it is), empty for most results.
    error, traceback : str or None
        Set instead of the results when it failed.

    Examples
    --------
    %(separability_outcome)s
    >>> outcome.error is None, outcome.comparison["agrees"].tolist()
    (True, [True])
    """

    result: object
    context: Context
    table: pd.DataFrame = field(default_factory=pd.DataFrame)
    comparison: pd.DataFrame = field(default_factory=pd.DataFrame)
    figure: object = None
    seconds: float = float("nan")
    notices: list = field(default_factory=list)
    files: list = field(default_factory=list)
    error: str | None = None
    traceback: str | None = None

    @property
    def misses(self):
        """Comparison rows where ours and the published number disagree."""
        if self.comparison.empty or "agrees" not in self.comparison:
            return self.comparison.iloc[0:0]
        return self.comparison[self.comparison["agrees"].eq(False)]


def _function(result):
    return getattr(importlib.import_module(f"sfmlearn.experiments.{result.module}"), result.function)


def settings_of(result):
    """``{name: annotation}`` of the settings of ``result``: the annotated parameters of its
    experiment function that neither the shared options, its own files' folder (``out``)
    nor the entry's ``options`` fix. An annotation may say which values it accepts
    (:mod:`.settings`).

    Parameters
    ----------
    result : Result
        The registry entry.

    Returns
    -------
    dict
        ``{name: annotation}``.

    Examples
    --------
    >>> from sfmlearn.experiments import get_result, settings_of
    >>> from sfmlearn.experiments.settings import describe
    >>> settings = settings_of(get_result("nc-table1"))
    >>> list(settings), describe(settings["sizes"])
    (['sizes', 'noise_levels'], 'comma-separated whole numbers, each of at least 2')
    """
    if result.function is None:
        return {}
    function = _function(result)
    hints = typing.get_type_hints(function, include_extras=True)
    return {name: hints[name] for name in inspect.signature(function).parameters
            if name in hints and name not in SHARED + (FILES,) and name not in result.options}


def parse_settings(result, settings):
    """``["NAME=VALUE", ...]`` as keyword arguments of ``result``'s experiment function.

    A ValueError names the problem: a text without ``=``, a name that is not one of the
    result's settings (:func:`settings_of`; the message lists them; the folder of the
    result's own files is never one: they go into the result folder), a value that does
    not convert or that the experiment does not accept (:mod:`.settings`; the message
    says what it accepts).

    Parameters
    ----------
    result : Result
        The registry entry.
    settings : sequence of str
        ``"NAME=VALUE"`` texts.

    Returns
    -------
    dict
        Keyword arguments for the experiment function.

    Examples
    --------
    >>> from sfmlearn.experiments import get_result, parse_settings
    >>> parse_settings(get_result("nc-table1"), ["noise_levels=10,100"])
    {'noise_levels': (10, 100)}
    >>> try:
    ...     parse_settings(get_result("thesis-fig4.4"), ["positive_fraction=2"])
    ... except ValueError as error:
    ...     print(error)
    positive_fraction=2: expected a number between 0 and 1 (both excluded)
    """
    accepted = settings_of(result)
    kwargs = {}
    for text in settings:
        name, equals, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not equals:
            raise ValueError(f"{text!r} is not NAME=VALUE")
        if name == FILES and writes_files(result):
            raise ValueError(f"{result.id} has no setting {name!r}: it writes its own files into the result "
                             f"folder ({result.id}/ in --out); choose that folder with --out")
        if name not in accepted:
            names = ", ".join(accepted) or "none"
            raise ValueError(f"{result.id} has no setting {name!r} (its settings: {names})")
        try:
            kwargs[name] = convert(value.strip(), accepted[name])
        except (ValueError, TypeError):
            raise ValueError(f"{name}={value}: expected {describe(accepted[name])}") from None
    return kwargs


def writes_files(result):
    """Whether ``result``'s experiment writes files of its own (its function takes ``out``,
    a :class:`~sfmlearn.outputs.result_folder.ResultFolder`)."""
    return result.function is not None and FILES in inspect.signature(_function(result)).parameters


def accepted_options(function):
    """The shared options (:data:`SHARED`) ``function`` takes."""
    parameters = inspect.signature(function).parameters
    return tuple(name for name in SHARED if name in parameters)


def call_with_context(function, context, options=()):
    """``function(**options)`` plus the fields of ``context`` it accepts (:func:`accepted_options`)."""
    return function(**{name: getattr(context, name) for name in accepted_options(function)}, **dict(options))


#: What a run says of a shared option that the result does not use.
IGNORED = {"repetitions": "--repetitions ignored: this result has no repetitions option",
           "n_jobs": "--n-jobs ignored: this result runs in one process",
           "random_state": "--random-state ignored: this result draws nothing at random"}


def used_options(result):
    """The shared options ``result`` uses: those its experiment function takes, and those its
    figure takes when the figure runs a computation of its own (a figure's ``options()``)."""
    used = set(accepted_options(_function(result))) if result.function is not None else set()
    figure_options = getattr(result.figure, "options", None)
    return used | set(figure_options() if figure_options is not None else ())


def applied_context(result, context):
    """``(context, notices)``: ``context`` with every option ``result`` does not use back at
    its default (so the result records only what it applied), and a notice for each one
    that was given (:data:`IGNORED`)."""
    used, default = used_options(result), Context()
    ignored = [name for name in IGNORED if name not in used and getattr(context, name) != getattr(default, name)]
    return (dataclasses.replace(context, **{name: getattr(default, name) for name in ignored}),
            [IGNORED[name] for name in ignored])


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


@experiments_doc
def compute(result, context, cache=None, files=None):
    """Run ``result`` (a registry entry) under ``context``; never raises, see ``Outcome.error``.

    ``cache`` (a dict) lets several entries that share one experiment call (e.g. NC
    Fig. 2 and thesis Fig. 4.8) run it once.

    Parameters
    ----------
    result : Result
        The registry entry.
    context : Context
        Shared options.
    cache : dict, optional
        Shared between calls, so entries of one experiment run it once.
    files : pathlib.Path, optional
        The folder for the files an experiment writes itself (:func:`writes_files`); without
        it such an experiment writes none. A failed run leaves nothing there.

    Returns
    -------
    Outcome
        Table, comparison, figure, timing (or the error).

    Examples
    --------
    %(separability_outcome)s
    >>> outcome.comparison[["dataset", "k", "published"]].to_dict("records")
    [{'dataset': 'leukemia', 'k': 2, 'published': 0.007}]
    """
    context, notices = applied_context(result, context)
    outcome = Outcome(result, context, notices=notices)
    folder = ResultFolder(files) if files is not None and writes_files(result) else None
    started = time.perf_counter()
    try:
        table = _table(result, context, cache, outcome.notices, folder)
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
        if folder is not None:
            shutil.rmtree(folder.path, ignore_errors=True)
    else:
        if folder is not None:
            outcome.files = [{**entry, "kind": kind, "path": folder.path / entry["path"]}
                             for kind in ("maps", "figures") for entry in getattr(folder, kind)]
    outcome.seconds = time.perf_counter() - started
    return outcome


def _table(result, context, cache, notices, folder):
    if result.function is None:
        return pd.DataFrame()
    key = (call_key(result), context)
    if cache is not None and key in cache:
        notices.append("table shared with an earlier result of this run (computed once)")
        return cache[key]
    options = {**result.options, **parse_settings(result, context.settings)}
    if folder is not None:
        options[FILES] = folder
    table = call_with_context(_function(result), context, options)
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{result.module}.{result.function} returned {type(table).__name__}, not a DataFrame")
    if cache is not None:
        cache[key] = table
    return table


def call_key(result):
    """What names ``result``'s experiment call: module, function and fixed options (None for a
    figure without a table). Entries with the same key share one table in a run."""
    if result.function is None:
        return None
    return result.module, result.function, tuple(sorted(result.options.items()))


def _default_figure(outcome):
    if outcome.comparison.empty:
        return None
    from .figures.comparison import plot_ours_vs_published

    return plot_ours_vs_published(outcome.comparison, title=outcome.result.title)


def default_keys(table, ours):
    """The columns that identify a row: those left of ``ours`` (the tables put them first)."""
    columns = list(table.columns)
    return columns[:columns.index(ours)] if ours in columns else []


@experiments_doc
def compare(table, result, show=None):
    """Rows with a published number: keys, ours, published, gap, se, z, agrees, judged_by, cell.

    Agreement (``agrees``), by ``result.rule``:

    * ``"se"`` (default): where the table gives the standard error of our number --
      ``ours_se``, or ``ours_std / sqrt(runs)`` over repetitions or folds -- the published
      value agrees when it lies within two standard errors of ours,
      ``|ours - published| <= 2 se`` with ``se = sqrt(se_ours^2 + se_published^2)``;
      ``published_se`` (the paper's own standard error, where the table gives one)
      defaults to 0. ``z = gap / se``. Rows without a standard error are shown with their
      gap and no verdict (``agrees`` None, "no SE: not judged").
    * ``"exact"``: deterministic computations (same data, no random draw): ours agrees when
      it rounds to the published value, ``|gap| <= half a unit of its last printed digit``.

    ``result.not_judged`` (a reason) shows every row without a verdict, e.g. numbers that
    another result already judges or that come from different data. ``show`` (a boolean
    mask over ``table``) adds rows without a published number, e.g. our variants that have
    no published counterpart. ``cell`` names the published number (the table's ``cell``
    column, else the reference and the key values); a ``note`` column is carried along.

    Parameters
    ----------
    table : pandas.DataFrame
        The experiment's tidy table.
    result : Result
        Its registry entry (``rule``, ``keys``, ``ours``/``published`` columns).
    show : sequence of str, optional
        Further columns of ``table`` to carry into the comparison.

    Returns
    -------
    pandas.DataFrame
        The comparison rows (columns above).

    Examples
    --------
    %(separability_outcome)s
    >>> from sfmlearn.experiments import compare
    >>> compare(outcome.table, result).columns[-6:].tolist()
    ['gap', 'se', 'z', 'agrees', 'judged_by', 'cell']
    """
    ours, published = result.ours, result.published
    if table.empty or published not in table or ours not in table:
        return pd.DataFrame()
    mask = pd.to_numeric(table[published], errors="coerce").notna().to_numpy()
    extra = np.zeros(len(table), dtype=bool) if show is None else np.asarray(show, dtype=bool) & ~mask
    if not (mask | extra).any():
        return pd.DataFrame()
    keys = list(result.keys) if result.keys else default_keys(table, ours)
    selected = table.loc[mask | extra]
    rows = selected[keys].copy()
    rows["ours"] = selected[ours].astype(float)
    rows["published"] = pd.to_numeric(selected[published], errors="coerce").astype(float)
    rows["gap"] = rows["ours"] - rows["published"]
    se = _standard_error(selected)
    rows["se"] = se
    rows["z"] = _z(rows["gap"].to_numpy(), se)
    agrees, judged_by = _verdicts(rows, se, result)
    is_extra = extra[mask | extra]
    agrees[is_extra] = None
    judged_by[is_extra] = "ours only: no published counterpart"
    rows["agrees"], rows["judged_by"] = agrees, judged_by
    if "cell" in selected:
        rows["cell"] = selected["cell"].to_numpy()
    else:
        rows["cell"] = [f"{result.reference}: " + ", ".join(f"{k}={v}" for k, v in zip(keys, values))
                        for values in selected[keys].itertuples(index=False)]
    rows.loc[is_extra, "cell"] = None
    if "note" in table:
        rows["note"] = selected["note"].to_numpy()
    return rows.reset_index(drop=True)


def _standard_error(table):
    """sqrt(se_ours^2 + se_published^2) per row; NaN where ours has no standard error."""
    ours = pd.Series(np.nan, index=table.index)
    if {"ours_std", "runs"} <= set(table.columns):
        ours = table["ours_std"].astype(float) / np.sqrt(table["runs"].astype(float))
    if "ours_se" in table:
        ours = table["ours_se"].astype(float).fillna(ours)
    published = table["published_se"].astype(float).fillna(0.0) if "published_se" in table else 0.0
    return np.sqrt(ours**2 + published**2).to_numpy(dtype=float)


def _z(gap, se):
    with np.errstate(divide="ignore", invalid="ignore"):
        z = gap / se
    return np.where((gap == 0) & np.isfinite(se), 0.0, z)


def half_unit(value):
    """Half a unit of the last printed digit of ``value`` (0.007 -> 0.0005, 91 -> 0.5)."""
    text = repr(float(value))
    if "e" in text or "E" in text:
        mantissa, exponent = text.lower().split("e")
        decimals = len(mantissa.split(".")[1].rstrip("0")) if "." in mantissa else 0
        return 0.5 * 10.0 ** (int(exponent) - decimals)
    decimals = len(text.split(".")[1].rstrip("0")) if "." in text else 0
    return 0.5 * 10.0 ** -decimals


def _verdicts(rows, se, result):
    n = len(rows)
    agrees = np.full(n, None, dtype=object)
    judged_by = np.full(n, "no SE: not judged", dtype=object)
    if result.not_judged:
        judged_by[:] = result.not_judged
        return agrees, judged_by
    gap = rows["gap"].to_numpy(dtype=float)
    if result.rule == "exact":
        tolerance = np.array([half_unit(p) for p in rows["published"]])
        agrees[:] = [bool(ok) for ok in np.abs(gap) <= tolerance + 1e-12 * np.abs(rows["published"])]
        judged_by[:] = "exact: ours rounds to the published value"
        return agrees, judged_by
    if result.rule != "se":
        raise ValueError(f"{result.id}: unknown rule {result.rule!r}; use 'se' or 'exact'.")
    has_se = np.isfinite(se) & np.isfinite(gap)
    agrees[has_se] = [bool(ok) for ok in np.abs(gap[has_se]) <= 2 * se[has_se]]
    judged_by[has_se] = "published within 2 SE"
    return agrees, judged_by
