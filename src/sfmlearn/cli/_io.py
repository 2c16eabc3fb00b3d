"""The training data of ``select``, ``path`` and ``repeat`` from the command line: a file or a dataset.

The reading lives in :mod:`sfmlearn.analysis.data` (through :mod:`sfmlearn.io`); this
module checks the combination of options (a file or ``--dataset``, not both; the file
options apply to files only) and prints the annotations of a feature row.
"""

from ._common import CLIError

__all__ = ["TABLE_HELP", "annotation_text", "load_training_data"]

#: The --help text of the data file of select and repeat.
TABLE_HELP = ("the data: a table with one row per sample (.csv, .tsv, .parquet; text may be compressed, "
              ".csv.gz) or .npz with arrays X, y (and optional feature_names); an expression matrix with "
              "--samples-in-columns --pheno SHEET; a GEO GSE..._series_matrix.txt.gz; an AnnData .h5ad. "
              "Duplicate column names are refused; a first column without a name that holds the row index "
              "(0, 1, 2, ... as pandas' to_csv writes by default) or row names is dropped with a warning, and "
              "text row names (as R's write.csv writes them) become the sample ids when all present and distinct. "
              "Labels, group ids and sample ids are read as text, as written (01 and 1 are two classes); empty "
              "cells and NA mean a missing label")

#: Annotation columns shown in the printed tables (--json and the report show all).
SHOWN_ANNOTATIONS = 2
#: Characters of an annotation shown in the printed tables.
ANNOTATION_WIDTH = 40


def load_training_data(args, command):
    """The :class:`~sfmlearn.analysis.TrainingData` of a shipped ``--dataset`` or a file;
    its feature names are kept as ``args.feature_names`` for the warnings printed at the
    end, whose fits on arrays give columns by index."""
    data = _read_training_data(args, command)
    args.feature_names = data.feature_names
    return data


def _read_training_data(args, command):
    from ..analysis import load_dataset, read_training_file

    if args.dataset and args.path:
        raise CLIError("give either a file or --dataset, not both")
    if args.dataset:
        for flag, value in (("--groups", args.groups), ("--target", args.target), ("--pheno", args.pheno),
                            ("--layer", args.layer), ("--classes", args.classes),
                            ("--samples-in-columns", args.samples_in_columns or None)):
            if value is not None:
                what = "their own groups" if flag == "--groups" else "their own labels and two classes"
                raise CLIError(f"{flag} applies to files; shipped datasets bring {what}")
        return load_dataset(args.dataset)
    if not args.path:
        raise CLIError(f"give a data file (sfmlearn {command} data.csv --target COLUMN) or --dataset NAME")
    return read_training_file(args.path, args.target, args.groups, pheno=args.pheno,
                              samples_in_columns=args.samples_in_columns, layer=args.layer, classes=args.classes)


def annotation_text(row):
    """The first annotations of a feature row, shortened, for the printed tables ('' without any)."""
    values = list(row.get("annotations", {}).values())[:SHOWN_ANNOTATIONS]
    shown = [v if len(v) <= ANNOTATION_WIDTH else v[:ANNOTATION_WIDTH - 3] + "..." for v in values if v]
    return "  " + " | ".join(shown) if shown else ""
