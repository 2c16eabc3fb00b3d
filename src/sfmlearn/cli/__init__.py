"""The ``sfmlearn`` command.

Each subcommand lives in its own module: its help texts, ``add_arguments(parser)`` and
``run(args)`` (returning an exit code), added by :func:`~sfmlearn.cli._common.add_command`.
A module imports only the standard library and the parser's helpers at its top, so
``sfmlearn --help`` answers at once; ``run`` imports what the command needs. Adding a
command means adding its module to ``COMMANDS``.

Errors the user can fix (bad files, bad options, data a hard SFM cannot separate) end
with one line on stderr and exit code 2 (usage/input) or 1 (the method has no answer);
tracebacks are reserved for bugs. Warnings raised while a command runs are collected: a
command that succeeds prints each distinct one once, as one line on stderr (more than
three that differ only in their numbers as one line with their count); one that fails
prints its error line alone. An output file that exists already is replaced only with
``--overwrite`` (:func:`~sfmlearn.cli._common.add_overwrite_argument`); a file the command
reads, or that a result's summary names, never is.
"""

import argparse
import contextlib
import errno
import re
import sys
import warnings

from .._version import __version__
from ..exceptions import ConstantFeatureWarning, DataValidationError, NotSeparableError, SolverError
from ..outputs import OutputPathError
from . import (
    compare,
    correct_illumination,
    datasets,
    fmri,
    panel,
    path,
    repeat,
    report,
    reproduce,
    select,
    separability,
)
from ._common import CLIError, add_command, allowed_overwrite, command_name, in_flags, results_only_stdout

__all__ = ["main", "build_parser"]

COMMANDS = [select, path, repeat, fmri, panel, compare, datasets, separability, correct_illumination, report,
            reproduce]

#: Errors in the user's input or options: one line, exit code 2 (with the readers'
#: :class:`~sfmlearn.io.DataFileError`: :func:`is_usage_error`).
USAGE_ERRORS = (CLIError, DataValidationError, OutputPathError)
#: The method has no answer for these data (a hard SFM on inseparable classes, a solver
#: failure): one line, exit code 1.
NO_ANSWER = (NotSeparableError, SolverError)

_OS_HINTS = {
    errno.ENOSPC: "the disk is full: free some space or write elsewhere",
    errno.EDQUOT: "the disk quota is exhausted: free some space or write elsewhere",
    errno.EACCES: "no permission: check the permissions or choose another location",
    errno.EPERM: "not permitted: check the permissions or choose another location",
    errno.EROFS: "the file system is read-only: write elsewhere",
}


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line naming the command's --help."""

    def error(self, message):
        message = re.sub(r"^argument (\S+): ", r"\1 ", message)  # "--cv must be ..."
        self.exit(2, f"sfmlearn: error: {message} (see '{self.prog} --help')\n")


def build_parser():
    parser = _Parser(
        prog="sfmlearn",
        description="Find the fewest features that explain a classification: Support "
        "Feature Machines and related sparse feature selectors for high-dimensional, "
        "small-sample data.",
        epilog="Run 'sfmlearn COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"sfmlearn {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        add_command(subparsers, command)
    return parser


def is_usage_error(exc):
    """Whether ``exc`` is one of :data:`USAGE_ERRORS` or the readers' DataFileError.

    The readers (:mod:`sfmlearn.io`, with pandas) are not loaded for this: a command that
    never loaded them cannot have raised their error.
    """
    readers = sys.modules.get("sfmlearn.io")
    return isinstance(exc, USAGE_ERRORS) or (readers is not None and isinstance(exc, readers.DataFileError))


def _one_line(text):
    return " ".join(str(text).split())


def _describe_os_error(exc):
    """``PATH: reason (hint)`` for a failed read or write."""
    where = f"{exc.filename}: " if exc.filename else ""
    reason = exc.strerror or str(exc)
    hint = _OS_HINTS.get(exc.errno)
    return where + reason + (f" ({hint})" if hint else "")


@contextlib.contextmanager
def _collected_warnings():
    """Collect the warnings a command raises; yields their list (``warnings.WarningMessage``).

    Nothing is printed while the command runs: a command that fails prints its one error
    line only; one that succeeds prints each distinct warning once (see
    :func:`_print_warnings`), so a warning raised in every fold is shown one time.
    """
    with warnings.catch_warnings(record=True) as caught:
        yield caught


#: A number in a warning's text: warnings equal but for their numbers are one kind.
_NUMBER = re.compile(r"\d+(\.\d+)?")
#: Distinct warnings of one kind printed in full; more are summed up in one line.
SHOWN_ALIKE = 3
#: The columns a ConstantFeatureWarning of a fit on an array names by index, and of how many.
_CONSTANT_COLUMNS = re.compile(r"\d+ of (\d+) features .*?\(column indices (\d+(?:, \d+)*)")


def _print_warnings(caught, feature_names=None, library_words=None):
    """Each distinct warning once, one line each, on stderr; a flood of one kind in one line.

    Warnings whose texts differ only in their numbers are one kind: the refits of
    cross-validation folds and label permutations repeat the warning of the fit on all
    samples with their own counts and column numbers (e.g. the columns constant in a
    fold). Up to :data:`SHOWN_ALIKE` distinct texts of a kind are printed as they are
    (two classes named by number stay two lines); beyond that, the first one raised (a
    command fits all samples first), with how many more of its kind followed.

    ``feature_names`` (of the data the command read) name the columns of constant-feature
    warnings, which the fits on arrays give by index (:func:`_named_columns`);
    ``library_words`` (the command's ``LIBRARY_WORDS``) put its flags where the library
    names its parameters (:func:`~._common.in_flags`).
    """
    kinds = {}
    for record in caught:
        text = f"{in_flags(_one_line(record.message), library_words or {})} ({record.category.__name__}"
        kinds.setdefault(_NUMBER.sub("#", text), {}).setdefault(text, record.category)
    for texts in kinds.values():
        if len(texts) > SHOWN_ALIKE:
            first, category = next(iter(texts.items()))
            texts = {f"{first}; {len(texts) - 1} more like it with other numbers": category}
        for text, category in texts.items():
            if feature_names is not None and issubclass(category, ConstantFeatureWarning):
                text = _named_columns(text, feature_names)
            print(f"sfmlearn: warning: {text})", file=sys.stderr)


def _named_columns(text, feature_names):
    """A constant-feature warning's column indices replaced by the names the library gives
    when it has them (``names 'a', 'b'``), if the fit had every column of the data read:
    the count of features it names is theirs (fits on rows of the data, such as
    cross-validation folds, keep every column; a fit on fewer columns keeps its indices).

    >>> _named_columns("2 of 3 features are constant (column indices 0, 2) and ...", ["a", "b", "c"])
    "2 of 3 features are constant (names 'a', 'c') and ..."
    """
    match = _CONSTANT_COLUMNS.search(text)
    if match is None or int(match[1]) != len(feature_names):
        return text
    names = ", ".join(repr(str(feature_names[int(i)])) for i in match[2].split(", "))
    return text[:match.start(2) - len("column indices ")] + "names " + names + text[match.end(2):]


def main(argv=None):
    """Run the command line; returns the exit code (0 ok, 1 no answer, 2 usage/input error).

    Standard output carries results only (progress, warnings and errors go to stderr).
    Errors a user can fix print one line ``sfmlearn: error: ...``; any other exception
    is a bug and keeps its traceback.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    if not hasattr(args, "func"):
        names = ", ".join(command_name(command) for command in COMMANDS)
        print(f"sfmlearn: error: give a command ({names}); see 'sfmlearn --help'", file=sys.stderr)
        return 2
    try:
        with results_only_stdout(), _collected_warnings() as caught, allowed_overwrite(args):
            code = int(args.func(args) or 0)
        _print_warnings(caught, getattr(args, "feature_names", None), getattr(args, "library_words", None))
        return code
    except KeyboardInterrupt:
        print("sfmlearn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except OSError as exc:  # unreadable input, full disk, read-only folder, ...
        print(f"sfmlearn: error: {_one_line(_describe_os_error(exc))}", file=sys.stderr)
        return 2
    except (ValueError, *NO_ANSWER) as exc:  # after OSError: io.UnsupportedOperation is both
        code = 2 if is_usage_error(exc) else 1 if isinstance(exc, NO_ANSWER) else None
        if code is None:  # a bug: keep its traceback
            raise
        print(f"sfmlearn: error: {_one_line(exc)}", file=sys.stderr)
        return code
    except MemoryError as exc:  # the problem asked for is larger than this machine
        detail = f" ({_one_line(exc)})" if str(exc) else ""
        print(f"sfmlearn: error: out of memory{detail}; ask for a smaller problem or use a machine with "
              "more memory", file=sys.stderr)
        return 2
