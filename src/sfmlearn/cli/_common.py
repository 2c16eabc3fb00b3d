"""Helpers shared by the subcommands: errors, option types, output, progress."""

import argparse
import contextlib
import contextvars
import json
import math
import os
import re
import sys
import unicodedata
from pathlib import Path

from ..exceptions import NotSeparableError
from ..outputs.atomic import to_jsonable
from ..outputs.output_paths import check_output_dir, check_output_file
from ..outputs.streams import flush_stdout  # sys.stdout and every C stdio stream

__all__ = ["CLIError", "StageProgress", "add_command", "command_name", "not_separable", "print_json", "progress",
           "to_jsonable", "results_only_stdout", "at_least", "cv_folds", "seed", "n_jobs", "positive_float",
           "add_overwrite_argument", "allowed_overwrite", "check_new_file", "check_new_dir", "MAX_N_JOBS_PER_CPU",
           "percent", "print_columns", "name_text", "MAX_HOURS", "hours_limit", "add_max_hours_argument",
           "max_seconds", "too_long", "in_flags", "DURATION_WORDS"]

#: Largest seed NumPy's legacy RandomState (used by scikit-learn) accepts.
MAX_SEED = 2**32 - 1


class CLIError(ValueError):
    """A problem with the command line or its input files; printed as one line."""


def add_command(subparsers, command):
    """Add the subcommand of module ``command``; returns its parser.

    A command module holds ``HELP`` (one line for ``sfmlearn --help``), ``DESCRIPTION``,
    ``EXAMPLES`` (command lines, shown one per line after ``Examples:``) or an ``EPILOG``,
    ``add_arguments(parser)`` and ``run(args)``, which the parser calls, and may hold
    ``LIBRARY_WORDS`` (the library's parameter names in its warnings, in the command's
    flags: :func:`in_flags`); its name is the module's with ``-`` for ``_``. The
    description and epilog keep their line breaks unless the module sets ``REFLOW = True``
    (then argparse re-flows them).
    """
    examples = getattr(command, "EXAMPLES", ())
    epilog = "Examples:  " + "\n           ".join(examples) if examples else getattr(command, "EPILOG", None)
    reflow = getattr(command, "REFLOW", False)
    options = {} if reflow else {"formatter_class": argparse.RawDescriptionHelpFormatter}
    parser = subparsers.add_parser(command_name(command), help=command.HELP, description=command.DESCRIPTION,
                                   epilog=epilog, **options)
    command.add_arguments(parser)
    parser.set_defaults(func=command.run, library_words=getattr(command, "LIBRARY_WORDS", {}))
    return parser


def command_name(command):
    """``correct-illumination`` for the module ``sfmlearn.cli.correct_illumination``."""
    return command.__name__.rsplit(".", 1)[-1].replace("_", "-")


def not_separable(where, consequence="the hard method has no solution"):
    """The CLI's NotSeparableError: the library's hint names Python (``C=1.0``), this one the flag."""
    return NotSeparableError(f"the two classes are not linearly separable {where}, so {consequence}; "
                             "allow training errors with a softness, e.g. --C 1")


# ----------------------------------------------------------------------------- option types
# argparse reports a failing type as "argument --FLAG: MESSAGE", so the user reads the flag.

def _whole_number(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None


def at_least(minimum):
    """Option type: a whole number >= ``minimum``."""
    bound = "0 or more" if minimum == 0 else f"at least {minimum}"

    def parse(text):
        value = _whole_number(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {bound}; got {value}")
        return value
    return parse


def cv_folds(text):
    """Option type of ``--cv``: 0 (skip cross-validation) or at least 2 folds."""
    value = _whole_number(text)
    if value < 0 or value == 1:
        raise argparse.ArgumentTypeError(f"must be 0 (skip cross-validation) or at least 2 folds; got {value}")
    return value


def seed(text):
    """Option type of ``--random-state``: 0 ... 2**32 - 1."""
    value = _whole_number(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must lie between 0 and {MAX_SEED} (2**32 - 1); got {value}")
    return value


#: Largest ``--C``: the library's largest softness (``sfmlearn.optim.problem.MAX_SOFTNESS``),
#: checked while the options are read; a test keeps the two equal.
MAX_SOFTNESS = 1e10

#: ``--n-jobs`` above this many processes per core is refused (it only adds overhead).
MAX_N_JOBS_PER_CPU = 4


def max_n_jobs():
    """The largest ``--n-jobs``: :data:`MAX_N_JOBS_PER_CPU` times the number of cores."""
    return MAX_N_JOBS_PER_CPU * (os.cpu_count() or 1)


def n_jobs(text):
    """Option type of ``--n-jobs``: a number of processes, or -1 for all cores (-2 all but one ...)."""
    value, cores, cap = _whole_number(text), os.cpu_count() or 1, max_n_jobs()
    if value == 0 or value > cap or value < -cores:
        raise argparse.ArgumentTypeError(f"must be a number of parallel jobs from 1 to {cap} ({MAX_N_JOBS_PER_CPU} "
                                         f"x {cores} cores) or -1 for all cores (-2 all but one ...); got {value}")
    return value


def positive_float(text):
    """Option type: a finite number > 0 (softness ``--C``), at most :data:`MAX_SOFTNESS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number; got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite positive number; got {text}")
    if value > MAX_SOFTNESS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SOFTNESS:g}; got {text} (a larger C changes nothing beyond the hard problem: "
            "leave --C out for it)")
    return value


def frequency(text):
    """Option type: a selection frequency in (0, 1] (the threshold of ``--stability``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, the threshold PI (without one, put the flag after the "
                                         f"data file); got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be a fraction of the half-sample fits in (0, 1], e.g. 0.6; got {text}")
    return value


#: Default of ``--max-hours``: runs estimated to take longer are refused before they start.
MAX_HOURS = 1.0


def hours_limit(text):
    """Option type of ``--max-hours``: a number of hours > 0, or ``inf`` for no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of hours (inf: no limit); got {text!r}") from None
    if not value > 0:  # NaN too
        raise argparse.ArgumentTypeError(f"must be a positive number of hours (inf: no limit); got {text}")
    return value


def add_max_hours_argument(group, *, also=""):
    """``--max-hours H`` in ``group`` (:mod:`sfmlearn.analysis.duration`); ``also``: what
    else the command does with the limit, appended to the help."""
    group.add_argument("--max-hours", type=hours_limit, default=MAX_HOURS, metavar="H",
                       help=f"refuse, before the work, a run estimated to take longer (default {MAX_HOURS:g}; inf: "
                       "no limit); the estimate times one unit of the run (a fit or a path) on 200 and 400 samples "
                       "when it sees more, and at its own size when a run of 100 or more units (fewer under a "
                       "lower limit) sees fewer; a run still going at the limit stops with an error" + also)


def max_seconds(args):
    """``--max-hours`` in seconds, None for no limit."""
    return args.max_hours * 3600 if math.isfinite(args.max_hours) else None


def in_flags(message, words):
    """A library's refusal in a command's words: every pattern of ``words`` (regular
    expressions: the library's parameter names) replaced by the command's flag.

    >>> in_flags("at most 1000 are allowed (use fewer folds, or inner_cv=None)", {r"inner_cv=None": "--inner-cv 0"})
    'at most 1000 are allowed (use fewer folds, or --inner-cv 0)'
    """
    for pattern, flag in words.items():
        message = re.sub(pattern, flag, message)
    return message


#: The analyses' advice on a run refused for its duration, in the commands' flags (in order).
DURATION_WORDS = {
    r"^fewer samples": "fewer samples (a subset of the rows, or --classes)",
    r"a larger max_seconds": "a larger --max-hours",
    r"a fixed C\b": "a fixed --C",
    r"fewer folds \(cv\) or none": "fewer --cv folds or --cv 0",
    r"fewer folds \(cv\)": "fewer --cv folds",
    r"inner_cv=None": "--inner-cv 0",
    r"^fewer methods, or ": "",  # the command compares a fixed set
    r", fewer methods": "",
    r"fewer values of C \(Cs\)": "fewer --Cs",
    r"fewer n_permutations": "fewer --chance permutations",
    r"fewer permutations": "fewer --permutations",
    r"\bmax_repetitions": "--max-repetitions",
    r"estimate=False": "--no-estimate",
    r"fewer random_subsets": "fewer --random-subsets",
    r"fewer voxels \(a coarser level\)": "a coarser --level",
}


def too_long(refusal):
    """A :class:`~sfmlearn.analysis.duration.DurationLimitError` as the command's
    one-line error: the analysis' advice in the command's flags (:data:`DURATION_WORDS`)."""
    return CLIError(f"this run would take {refusal.estimate.describe()}; runs estimated over --max-hours "
                    f"{refusal.max_seconds / 3600:g} are refused: use {in_flags(refusal.advice, DURATION_WORDS)}")


def limit_passed(error, ways):
    """A :class:`~sfmlearn.utils.time_limit.TimeLimitError` as the command's one-line
    error; ``ways``: the command's flags that would shorten the run (none: only a larger
    limit helps)."""
    return CLIError(f"this run passed --max-hours {error.seconds / 3600:g} after {error.done}: use "
                    + "".join(f"{way}, " for way in ways) + ("or " if ways else "") + "a larger --max-hours")


# ----------------------------------------------------------------------------- existing outputs

#: Whether the running command may replace existing output files (its ``--overwrite``).
_OVERWRITE = contextvars.ContextVar("overwrite", default=False)

OVERWRITE_HELP = ("replace output files that already exist (default: refuse them); a file the command reads "
                  "or a result directory lists is never written over")


def add_overwrite_argument(group):
    """``--overwrite`` in ``group``: the one switch that lets a command replace existing outputs."""
    group.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)


@contextlib.contextmanager
def allowed_overwrite(args):
    """Let the output checks of the command run with ``args`` see its ``--overwrite``."""
    token = _OVERWRITE.set(bool(getattr(args, "overwrite", False)))
    try:
        yield
    finally:
        _OVERWRITE.reset(token)


def refuse_existing(path, what):
    """CLIError when the output ``path`` exists and the command has no ``--overwrite``."""
    if not _OVERWRITE.get() and os.path.lexists(path):
        raise CLIError(f"{what} {path} already exists; give --overwrite to replace it, or choose another name")


def refuse_empty(path, what):
    """An empty output name (``--out ""``) would mean the current folder: name one."""
    if not str(path).strip():
        raise CLIError(f"{what} is empty; name the {'folder' if what == '--out' else 'file'} to write")


def check_new_file(path, *, what, **checks):
    """:func:`~sfmlearn.outputs.check_output_file` (``checks``), and an existing ``path``
    refused unless ``--overwrite``; returns the path (None for None)."""
    if path is None:
        return None
    refuse_empty(path, what)
    checked = check_output_file(path, what=what, **checks)
    refuse_existing(checked, what)
    return checked


def check_new_dir(path, *, what, names, inputs=()):
    """:func:`~sfmlearn.outputs.check_output_dir` (the folder is none of ``inputs``); a folder
    that already holds one of ``names`` (the files and folders the command writes there) is
    refused unless ``--overwrite``, and an input inside one of them always (the run would
    replace it while reading it, or after). Other files in the folder do not matter: the
    command leaves them alone."""
    refuse_empty(path, what)
    checked = check_output_dir(path, what=what, inputs=inputs)
    resolved = {item: Path(item).resolve() for item in inputs}
    for name in names:
        refuse_existing(checked / name, what)
        target = (checked / name).resolve()
        for item, where in resolved.items():
            if where.is_relative_to(target):  # the folder itself, or anything inside it
                raise CLIError(f"{item} lies in {checked / name}, which this run writes; copy it elsewhere "
                               f"first, or write to another {what}")
    return checked


@contextlib.contextmanager
def results_only_stdout():
    """Keep standard output for results: whatever C code or child processes write to file
    descriptor 1 (a solver's banner or log) goes to stderr while ``sys.stdout`` keeps
    writing to the real standard output. The library silences the solvers it knows;
    this covers the command line against any other.

    Only when ``sys.stdout`` is file descriptor 1 (a terminal, pipe or file); under a
    test's captured ``sys.stdout`` it does nothing.
    """
    try:
        redirect = sys.stdout.fileno() == 1
    except (AttributeError, OSError, ValueError):
        redirect = False
    if not redirect:
        yield
        return
    original = sys.stdout
    flush_stdout()  # what was written before goes to the real stdout, in order
    results = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = open(results, "w", encoding=original.encoding, errors=original.errors,
                      closefd=False, buffering=1 if original.line_buffering else -1)
    try:
        yield
        sys.stdout.flush()  # the results: a write that fails here (a full disk) is an error, not lost
    finally:
        try:
            flush_stdout()  # our results, and C text still buffered (it goes to stderr)
        finally:
            with contextlib.suppress(OSError):
                sys.stdout.close()
            sys.stdout = original
            os.dup2(results, 1)
            os.close(results)


def print_json(payload):
    json.dump(to_jsonable(payload), sys.stdout, indent=2)
    sys.stdout.write("\n")


def percent(value):
    """A fraction as a percentage with one decimal (``-`` for None)."""
    return "-" if value is None else f"{100 * value:.1f}%"


#: Characters that make a name ambiguous in a printed list: its separators (", ", " | ") and quotes.
LIST_CHARACTERS = frozenset(",|'\"")


def name_text(name):
    """A feature name as the printed lists show it: quoted (Python's ``repr``) when it holds a
    list's separator (a comma, or the ``|`` between folds), a quote, space at either end, or
    nothing, so that a list of names reads one way only.

    >>> name_text("IL6"), name_text("IL-6, serum"), name_text("TNF|a")
    ('IL6', "'IL-6, serum'", "'TNF|a'")
    """
    name = str(name)
    if not name or name != name.strip() or not LIST_CHARACTERS.isdisjoint(name):
        return repr(name)
    return name


def _display_width(text):
    """Terminal columns of ``text``: wide (CJK, emoji) characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def print_columns(rows, right=()):
    """Print ``rows`` (lists of text, the first the header) as aligned columns indented by four
    spaces: the columns whose index is in ``right`` right-aligned, the others left-aligned
    (by display width, so cell types in Chinese or with emoji line up)."""
    widths = [max(_display_width(row[j]) for row in rows) for j in range(len(rows[0]))]

    def padded(cell, width, j):
        pad = " " * (width - _display_width(cell))
        return pad + cell if j in right else cell + pad
    for row in rows:
        print("    " + "  ".join(padded(cell, w, j) for j, (cell, w) in enumerate(zip(row, widths))).rstrip())


@contextlib.contextmanager
def progress(description, total=None, *, enabled=True, status=None):
    """A rich progress bar on stderr; yields ``advance()``. Silent when disabled, and when
    stderr is not a terminal: there rich leaves an empty line behind, so a logged error
    would no longer be one line. ``status``, a callable returning text, is shown after the
    elapsed time and re-read at every refresh (``reproduce``'s time left)."""
    from rich.console import Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class StatusColumn(ProgressColumn):
        def render(self, task):
            return Text(status())

    columns = [SpinnerColumn(), TextColumn("{task.description}", markup=False)]
    if total is not None:
        columns += [BarColumn(), TextColumn("{task.completed}/{task.total}")]
    columns.append(TimeElapsedColumn())
    if status is not None:
        columns.append(StatusColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


class StageProgress:
    """A library's ``progress(stage, done, total)`` callback as one rich bar per stage.

    ``names`` maps stage keys to the descriptions shown (default: the key). Call
    :meth:`close` when the work is over (the last bar stays open until then).
    """

    def __init__(self, enabled, names=None):
        self.enabled, self.names = enabled, names or {}
        self.stack, self.stage, self.done, self.advance = contextlib.ExitStack(), None, 0, None

    def __call__(self, stage, done, total):
        if stage != self.stage:
            self.stack.close()
            self.advance = self.stack.enter_context(
                progress(self.names.get(stage, stage), total, enabled=self.enabled))
            self.stage, self.done = stage, 0
        if done > self.done:
            self.advance(done - self.done)
            self.done = done

    def close(self):
        self.stack.close()
