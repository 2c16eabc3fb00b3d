"""``sfmlearn report``: one self-contained HTML file from a result directory."""

import argparse
from pathlib import Path

import numpy as np

from ._common import CLIError

__all__ = ["register", "run", "check_report_path", "class_counts"]


def check_report_path(path):
    """``--report`` of select/repeat: the output path, checked before any work (or None)."""
    if path is None:
        return None
    path = Path(path)
    if path.is_dir():
        raise CLIError(f"--report {path} is a directory; give a file name such as {path / 'report.html'}")
    if not path.parent.is_dir():
        raise CLIError(f"--report {path}: folder {path.parent} does not exist")
    return path


def class_counts(y):
    """Samples per class, for the data summary of results and reports."""
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    return {str(c): int(k) for c, k in zip(classes, counts)}


def register(subparsers):
    p = subparsers.add_parser(
        "report", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="write an HTML report of a result directory (figures embedded)",
        description="Write one self-contained HTML file (figures embedded, no external "
        "files) from a result directory holding summary.json and the PNG figures and "
        "CSV tables it lists, or from the JSON printed by 'sfmlearn select --json' or "
        "'sfmlearn repeat --json'.\n\n"
        "summary.json (every key optional):\n"
        '  {"title": "...", "description": "...", "summary": {"label": value, ...},\n'
        '   "sections": [{"title": "...", "text": "...", "facts": {...},\n'
        '                 "figures": [{"path": "map.png", "caption": "..."}],\n'
        '                 "tables": [{"path": "scores.csv", "caption": "..."}]}],\n'
        '   "figures": ["curve.png"], "tables": ["folds.csv"]}\n'
        "Paths are relative to the directory. Other keys are shown as tables. Without any\n"
        "listed figure or table, every PNG and CSV in the directory is shown.",
        epilog="Examples:  sfmlearn report results/haxby\n"
        "           sfmlearn select --dataset leukemia --json > leukemia.json\n"
        "           sfmlearn report leukemia.json -o leukemia.html",
    )
    p.add_argument("result", help="result directory (with summary.json) or a result JSON file")
    p.add_argument("-o", "--output", metavar="OUT.html",
                   help="where to write the report (default: report.html in the directory)")
    p.set_defaults(func=run)


def run(args):
    source = Path(args.result)
    if not source.exists():
        raise CLIError(f"no such result directory or file: {source}")
    out = Path(args.output) if args.output else (source if source.is_dir() else source.parent) / "report.html"
    from ..report import result_dir_report  # matplotlib only when a report is written

    try:
        report = result_dir_report(source)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    report.write(check_report_path(out))
    print(f"report written to {out}")
    return 0
