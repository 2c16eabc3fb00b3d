"""``sfmlearn panel``: a marker panel of single-cell data, scored on held-out cells.

The command parses its options, calls :func:`sfmlearn.analysis.run_panel` and prints or
renders (:func:`sfmlearn.report.panel_report`) what it returns.
"""

import argparse
import warnings

from ..exceptions import DataValidationError
from ._common import (CLIError, StageProgress, add_overwrite_argument, at_least, in_flags, n_jobs, percent,
                      print_columns, print_json, seed)
from .report import check_report_path

#: ``--normalize``: the values ``sfmlearn.panels.normalize_counts`` accepts (a test keeps them equal).
NORMALIZATIONS = ("log1p", "none")

HELP = "choose a marker panel: the genes that identify every cell type"
DESCRIPTION = ("Choose a panel of --size genes from which every cell type of a single-cell data set can be "
               "recognised (MarkerPanel: per-type soft-SFM rankings and a greedy, cross-validated share of "
               "the budget), on the training cells of a split that holds out --test-size of every type; "
               "print the panel (gene, cell type, direction, weight), the held-out balanced accuracy, the "
               "sensitivity of every type and the confusion matrix.")
EXAMPLES = ("sfmlearn panel cells.h5ad --target obs:cell_type --size 50 --layer counts",
            "sfmlearn panel cells.csv --target type --size 20 --include must_have.txt --report panel.html")


def held_out_share(text):
    """Option type of ``--test-size``: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number; got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1 (the share of every type held "
                                         f"out); got {text}")
    return value


def add_arguments(p):
    source = p.add_argument_group("data")
    source.add_argument("path", help="the cells: an AnnData .h5ad file, or a table with one row per cell "
                        "(.csv, .tsv, .parquet) whose columns are the genes")
    source.add_argument("--target", required=True, help="the cell types: an AnnData obs column "
                        "(obs:cell_type) or a column of the table")
    source.add_argument("--layer", metavar="NAME", help="AnnData .h5ad: use this layer (e.g. counts) instead of X")
    source.add_argument("--normalize", choices=NORMALIZATIONS, default="log1p",
                        help="log1p (default): the values are raw counts (non-negative integers, checked), "
                        "normalised to 10^4 per cell and log1p-transformed; none: use them as given")
    panel = p.add_argument_group("panel")
    panel.add_argument("--size", type=at_least(1), required=True, metavar="N",
                       help="genes on the panel (at least the number of cell types)")
    panel.add_argument("--include", metavar="GENES.txt", help="genes put on the panel whatever the data say "
                       "(one name per line; counted in --size)")
    panel.add_argument("--exclude", metavar="GENES.txt", help="genes that cannot be probed: never chosen "
                       "(one name per line)")
    evaluation = p.add_argument_group("evaluation and output")
    evaluation.add_argument("--test-size", type=held_out_share, default=0.3, metavar="SHARE",
                            help="share of every cell type held out to score the panel (default 0.3; at "
                            "least one cell per type)")
    evaluation.add_argument("--random-state", type=seed, default=0,
                            help="seed of the split and the panel's subsamples (0 ... 2**32 - 1)")
    evaluation.add_argument("--n-jobs", type=n_jobs, default=1,
                            help="parallel per-type SFM problems (joblib; -1 = all cores)")
    evaluation.add_argument("--report", metavar="OUT.html", help="also write a self-contained HTML report (panel "
                            "table, accuracy per type, confusion matrix, dot plot); checked before the fit")
    add_overwrite_argument(evaluation)
    evaluation.add_argument("--json", action="store_true", help="print machine-readable JSON")
    evaluation.add_argument("--quiet", action="store_true", help="no progress display")


#: The marker panel's parameters in the command's flags, for its refusals.
PANEL_WORDS = {
    r"\bn_markers=(\d+)": r"--size \1",
    r"\bn_markers\b": "--size",
    r"\(of n_features=(\d+): ": r"(of the \1 genes: ",
    r"\b(include|exclude)\b": r"--\1",
}


def read_genes(path, flag):
    """The gene names of a list file: one per line; blank lines and ``#`` comments skipped."""
    if path is None:
        return []
    from ..io.labelled import DataFileError
    from ..io.tables import read_lines

    try:
        lines = read_lines(path)
    except DataFileError as exc:
        raise CLIError(f"{flag} {exc}") from exc
    except OSError as exc:  # missing, a folder, unreadable
        raise CLIError(f"{flag} {path}: {exc.strerror or exc}") from exc
    genes = [line.split("#", 1)[0].strip() for line in lines]
    genes = [gene for gene in genes if gene]
    if not genes:
        raise CLIError(f"{flag} {path}: the file names no gene (one gene name per line)")
    return genes


def warn_spaced_names(names, what):
    """Warn (one line) when names (``what``: "cell types", "genes") differ only in spaces
    around them: they stay distinct, and a list file names them without the spaces."""
    groups = {}
    for name in sorted({str(name) for name in names}):
        groups.setdefault(name.strip(), []).append(name)
    clashes = [" and ".join(repr(name) for name in group) for group in groups.values() if len(group) > 1]
    if clashes:
        warnings.warn(f"the {what} {'; '.join(clashes[:3])} differ only in spaces around them and are read as "
                      f"different {what}; remove the spaces in the file if they are the same", UserWarning,
                      stacklevel=2)


def run(args):
    from ..analysis import read_cells, run_panel

    report_path = check_report_path(args.report, inputs=[args.path, args.include, args.exclude])
    include, exclude = read_genes(args.include, "--include"), read_genes(args.exclude, "--exclude")
    cells = read_cells(args.path, args.target, layer=args.layer)
    warn_spaced_names(cells.y, "cell types")
    warn_spaced_names(cells.feature_names, "genes")
    bars = StageProgress(not (args.quiet or args.json))
    try:
        result = run_panel(cells, args.size, include=include, exclude=exclude, test_size=args.test_size,
                           random_state=args.random_state, normalize=args.normalize, n_jobs=args.n_jobs,
                           progress=bars).to_dict()
    except DataValidationError as exc:
        raise CLIError(in_flags(str(exc), PANEL_WORDS)) from exc
    finally:
        bars.close()
    if report_path:
        from ..report import panel_report  # matplotlib only when a report is written

        panel_report(result, subtitle="written by sfmlearn panel").write(report_path)
    if args.json:
        print_json(result)
    else:
        _print_human(result, report_path)
    return 0


def _print_human(r, report_path):
    print(f"data: {r['data']}  ({r['n_cells']} cells x {r['n_genes']} genes, {len(r['cell_types'])} cell types)")
    values = "log1p-normalised counts" if r["normalize"] == "log1p" else "values as given"
    print(f"panel: {r['panel_size']} of {r['size']} genes asked for ({values}), chosen on {r['n_train']} "
          f"training cells in {r['fit_seconds']:.2f} s")
    print_columns([["gene", "cell type", "direction", "weight", "t", "source"]]
                  + [[row["gene"], row["cell_type"], row["direction"],
                      f"{row['weight']:+.4f}" if row["weight"] else "-", f"{row['t']:+.1f}", row["source"]]
                     for row in r["panel"]], right={3, 4})
    if any(not row["weight"] for row in r["panel"]):
        print("  source sfm: selected by its type's SFM; ranking: offered by the Welch t order (weight -); "
              "include: asked for")
    print(f"held-out balanced accuracy: {percent(r['balanced_accuracy'])} ({r['n_test']} test cells, "
          f"{100 * r['test_size']:g}% of every type)")
    print("  per cell type (one against the rest):")
    print_columns([["cell type", "test cells", "sensitivity", "specificity"]]
                  + [[row["cell_type"], str(row["n_test"]), percent(row["sensitivity"]),
                      percent(row["specificity"])] for row in r["per_type"]], right={1, 2, 3})
    types = r["cell_types"]
    print("  confusion matrix (rows: true type; columns: predicted type, numbered as the rows):")
    print_columns([["", *(str(k + 1) for k in range(len(types)))]]
                  + [[f"{k + 1} {t}", *map(str, row)] for k, (t, row) in enumerate(zip(types, r["confusion_matrix"]))],
                  right=range(1, len(types) + 1))
    print(f"time: {r['seconds']:.2f} s")
    if report_path:
        print(f"report written to {report_path}")
