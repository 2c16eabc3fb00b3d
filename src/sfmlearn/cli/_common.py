"""Helpers shared by the subcommands: errors, output, progress."""

import contextlib
import json
import sys

import numpy as np

__all__ = ["CLIError", "print_json", "progress", "to_jsonable"]


class CLIError(ValueError):
    """A problem with the command line or its input files; printed as one line."""


def to_jsonable(value):
    """Convert NumPy scalars/arrays (recursively) for ``json.dumps``."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def print_json(payload):
    json.dump(to_jsonable(payload), sys.stdout, indent=2)
    sys.stdout.write("\n")


@contextlib.contextmanager
def progress(description, total=None, *, enabled=True):
    """A rich progress bar on stderr; yields ``advance()``. Silent when disabled."""
    if not enabled:
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.console import Console

    columns = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None:
        columns += [BarColumn(), TextColumn("{task.completed}/{task.total}")]
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
