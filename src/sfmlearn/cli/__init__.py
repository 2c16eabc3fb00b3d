"""The ``sfmlearn`` command.

Each subcommand lives in its own module with a ``register(subparsers)`` function that
adds its parser and sets ``func`` (a callable taking the parsed arguments and returning
an exit code). Adding a command means adding its module to ``COMMANDS``.

Errors the user can fix (bad files, bad options, data a hard SFM cannot separate) end
with one line on stderr and exit code 2 (usage/input) or 1 (the method has no answer);
tracebacks are reserved for bugs.
"""

import argparse
import contextlib
import errno
import re
import sys
import warnings

from .._version import __version__
from ..exceptions import DataValidationError, NotSeparableError, SolverError
from ..outputs import OutputPathError
from . import (
    correct_illumination,
    datasets,
    fmri,
    path,
    repeat,
    report,
    reproduce,
    select,
    separability,
)
from ._common import CLIError, results_only_stdout

__all__ = ["main", "build_parser"]

COMMANDS = [select, path, repeat, fmri, datasets, separability, correct_illumination, report,
            reproduce]

#: Errors in the user's input or options: one line, exit code 2 (with the readers'
#: :class:`~sfmlearn.io.DataFileError`, added once a command runs: :func:`usage_errors`).
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
        command.register(subparsers)
    return parser


def usage_errors():
    """:data:`USAGE_ERRORS` and the readers' DataFileError (loading :mod:`sfmlearn.io` and pandas,
    so only once a command runs, never for ``--help``)."""
    from ..io import DataFileError

    return (*USAGE_ERRORS, DataFileError)


def _one_line(text):
    return " ".join(str(text).split())


def _describe_os_error(exc):
    """``PATH: reason (hint)`` for a failed read or write."""
    where = f"{exc.filename}: " if exc.filename else ""
    reason = exc.strerror or str(exc)
    hint = _OS_HINTS.get(exc.errno)
    return where + reason + (f" ({hint})" if hint else "")


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"sfmlearn: warning: {_one_line(message)} ({category.__name__})", file=sys.stderr)


@contextlib.contextmanager
def _one_line_warnings():
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        yield


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
        names = ", ".join(command.__name__.rsplit(".", 1)[-1].replace("_", "-") for command in COMMANDS)
        print(f"sfmlearn: error: give a command ({names}); see 'sfmlearn --help'", file=sys.stderr)
        return 2
    usage = usage_errors()
    try:
        with results_only_stdout(), _one_line_warnings():
            return int(args.func(args) or 0)
    except usage as exc:
        print(f"sfmlearn: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except NO_ANSWER as exc:
        print(f"sfmlearn: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sfmlearn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except OSError as exc:  # unreadable input, full disk, read-only folder, ...
        print(f"sfmlearn: error: {_one_line(_describe_os_error(exc))}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # the problem asked for is larger than this machine
        detail = f" ({_one_line(exc)})" if str(exc) else ""
        print(f"sfmlearn: error: out of memory{detail}; ask for a smaller problem or use a machine with "
              "more memory", file=sys.stderr)
        return 2
