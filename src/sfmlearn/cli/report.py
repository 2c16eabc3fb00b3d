"""``sfmlearn report``: one self-contained HTML file from a result directory."""

from pathlib import Path

from ..outputs.result_folder import ResultFolder
from ._common import CLIError, add_overwrite_argument, check_new_file

__all__ = ["register", "run", "check_report_path", "REPORT_SUFFIXES"]

#: An HTML report must be named like one, so a slip such as --report data.csv cannot
#: replace a table with HTML.
REPORT_SUFFIXES = (".html", ".htm")


def check_report_path(path, inputs=(), what="--report"):
    """The output path of a report, checked before any work (or None when not asked for).

    Refused: one of ``inputs``, a symbolic link, a folder, a name not ending in .html/.htm,
    a folder that does not exist or cannot be written (see :mod:`sfmlearn.outputs.atomic`),
    and an existing file unless the command has ``--overwrite``.
    """
    return check_new_file(path, inputs=inputs, what=what, suffixes=REPORT_SUFFIXES)


HELP = "write an HTML report of a result directory (figures embedded)"
DESCRIPTION = ("Write one self-contained HTML file (figures embedded, no external "
               "files) from a result directory holding summary.json and the PNG figures and "
               "CSV tables it lists ('sfmlearn fmri --out' and 'sfmlearn reproduce --out' write "
               "one), or from the JSON printed by 'sfmlearn select --json', "
               "'sfmlearn repeat --json', 'sfmlearn panel --json' or 'sfmlearn compare --json'.\n\n"
               "summary.json (every key optional):\n"
               '  {"title": "...", "description": "...", "summary": {"label": value, ...},\n'
               '   "sections": [{"title": "...", "text": "...", "facts": {...},\n'
               '                 "figures": [{"path": "map.png", "caption": "..."}],\n'
               '                 "tables": [{"path": "scores.csv", "caption": "..."}]}],\n'
               '   "figures": ["curve.png"], "tables": ["folds.csv"]}\n'
               "Paths are relative to the directory and must stay inside it (no absolute paths,\n"
               "'..' or links leaving it). Other keys are shown as tables. Without any listed\n"
               "figure or table, every PNG and CSV in the directory is shown (one that cannot be\n"
               "read is skipped with a warning). A saved result whose numbers are impossible\n"
               "(a fraction above 1, a count that contradicts its list) is refused. The report is\n"
               "never written over summary.json or a file it lists, nor through a symbolic link; an\n"
               "existing report is replaced only with --overwrite.")
EXAMPLES = ("sfmlearn report results/haxby",
            "sfmlearn reproduce nc-table1 --quick --out out/ && sfmlearn report out/",
            "sfmlearn select --dataset leukemia --json > leukemia.json",
            "sfmlearn report leukemia.json -o leukemia.html")


def add_arguments(p):
    p.add_argument("result", help="result directory (with summary.json) or a result JSON file")
    p.add_argument("-o", "--output", metavar="OUT.html",
                   help="where to write the report (default: report.html in the directory)")
    add_overwrite_argument(p)


def run(args):
    source = Path(args.result)
    if not source.exists():
        raise CLIError(f"no such result directory or file: {source}")
    out = Path(args.output) if args.output else (source if source.is_dir() else source.parent) / "report.html"
    what = "-o" if args.output else "report"
    try:
        folder = ResultFolder.open(source)  # a file that is no summary is the first thing to say
        # the output, before the build (which can take a while): never the summary or a file it names
        check_report_path(out, inputs=folder.inputs + folder.mentioned(), what=what)
        from ..report import result_dir_report  # matplotlib only when a report is written

        report = result_dir_report(source)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    except RecursionError as exc:
        raise CLIError(f"{source}: nested too deeply to be a result summary") from exc
    report.write(check_report_path(out, inputs=report.inputs, what=what))
    print(f"report written to {out}")
    return 0
