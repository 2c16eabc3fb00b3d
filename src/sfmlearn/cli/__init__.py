"""The ``sfmlearn`` command.

Each subcommand lives in its own module with a ``register(subparsers)`` function that
adds its parser and sets ``func`` (a callable taking the parsed arguments and returning
an exit code). Adding a command means adding its module to ``COMMANDS``.

Errors the user can fix (bad files, bad options, data a hard SFM cannot separate) end
with one line on stderr and exit code 2 (usage/input) or 1 (the method has no answer);
tracebacks are reserved for bugs.
"""

import argparse
import sys

from .. import __version__
from ..exceptions import DataValidationError, NotSeparableError, SolverError
from . import (
    correct_illumination,
    datasets,
    fmri,
    repeat,
    report,
    reproduce,
    select,
    separability,
)
from ._common import CLIError

__all__ = ["main", "build_parser"]

COMMANDS = [select, repeat, fmri, datasets, separability, correct_illumination, report,
            reproduce]


def build_parser():
    parser = argparse.ArgumentParser(
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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (CLIError, DataValidationError, FileNotFoundError, IsADirectoryError) as exc:
        print(f"sfmlearn: error: {exc}", file=sys.stderr)
        return 2
    except (NotSeparableError, SolverError) as exc:
        print(f"sfmlearn: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sfmlearn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
