"""The training data of ``select`` and ``repeat``: a user's file (through :mod:`sfmlearn.io`) or a dataset.

The reading itself -- tables, NPZ, expression matrices with sample sheets, GEO series
matrices, AnnData -- and its checks against label leaks live in :mod:`sfmlearn.io`
(:func:`~sfmlearn.io.read_labelled`); this module adds what the commands need on top:
exactly two classes, a shipped ``--dataset`` as the alternative, and the feature
annotations (a ``Gene Symbol`` column, AnnData ``var``, the leukemia gene descriptions)
attached to the features a command reports.
"""

import numpy as np
import pandas as pd

from ..datasets import load_named
from ..io import read_labelled, read_table
from ._common import CLIError

__all__ = ["TABLE_HELP", "annotate", "annotation_text", "load_training_data", "read_table"]

#: The --help text of the data file of select and repeat.
TABLE_HELP = ("the data: a table with one row per sample (.csv, .tsv, .parquet; text may be compressed, "
              ".csv.gz) or .npz with arrays X, y (and optional feature_names); an expression matrix with "
              "--samples-in-columns --pheno SHEET; a GEO GSE..._series_matrix.txt.gz; an AnnData .h5ad. "
              "Duplicate column names are refused; a first column without a name that holds the row index "
              "(0, 1, 2, ... as pandas' to_csv writes by default) or row names is dropped with a warning")

#: Annotation columns shown in the printed tables (--json and the report show all).
SHOWN_ANNOTATIONS = 2
#: Characters of an annotation shown in the printed tables.
ANNOTATION_WIDTH = 40


def _two_classes(source, y, label):
    classes = pd.unique(pd.Series(y))
    if classes.size != 2:
        shown = ", ".join(sorted(map(str, classes))[:5]) + (" ..." if classes.size > 5 else "")
        fix = ("pick two of them with --classes A B" if classes.size > 2
               else "feature selection needs samples of two classes")
        raise CLIError(f"{source}: the labels '{label}' hold {classes.size} class(es) ({shown}); "
                       f"select and repeat separate two classes: {fix}")


def _dataset(args):
    for flag, value in (("--groups", args.groups), ("--target", args.target), ("--pheno", args.pheno),
                        ("--layer", args.layer), ("--classes", args.classes),
                        ("--samples-in-columns", args.samples_in_columns or None)):
        if value is not None:
            what = "their own groups" if flag == "--groups" else "their own labels and two classes"
            raise CLIError(f"{flag} applies to files; shipped datasets bring {what}")
    bunch = load_named(args.dataset)
    test = (bunch.X_test, bunch.y_test) if "X_test" in bunch else None
    groups = np.asarray(bunch.groups_train) if "groups_train" in bunch else None
    names = np.asarray(bunch.feature_names, dtype=str)
    annotations = (pd.DataFrame({"description": np.asarray(bunch.gene_descriptions, dtype=str)}, index=names)
                   if "gene_descriptions" in bunch else None)
    return (args.dataset, np.asarray(bunch.X_train, dtype=np.float64), np.asarray(bunch.y_train), names,
            test, groups, annotations)


def load_training_data(args, command):
    """The training data of ``select`` / ``repeat``: a shipped ``--dataset`` or a file.

    Returns ``(source, X, y, feature_names, test, groups, annotations)``; ``test`` is the
    dataset's independent ``(X_test, y_test)`` or None, ``groups`` the group ids or None,
    ``annotations`` a DataFrame of feature annotations (one row per feature) or None.
    """
    if args.dataset and args.path:
        raise CLIError("give either a file or --dataset, not both")
    if args.dataset:
        return _dataset(args)
    if not args.path:
        raise CLIError(f"give a data file (sfmlearn {command} data.csv --target COLUMN) or --dataset NAME")
    data = read_labelled(args.path, args.target, args.groups, pheno=args.pheno,
                         samples_in_columns=args.samples_in_columns, layer=args.layer, classes=args.classes)
    _two_classes(data.source, data.y, args.target or "y")
    return args.path, data.X, data.y, data.feature_names, None, data.groups, data.feature_annotations


def annotate(rows, annotations):
    """Add ``"annotations": {column: text}`` to every feature row (dicts with an ``index``)."""
    if annotations is not None and annotations.shape[1]:
        for row in rows:
            row["annotations"] = {str(k): str(v) for k, v in annotations.iloc[row["index"]].items()}
    return rows


def annotation_text(row):
    """The first annotations of a feature row, shortened, for the printed tables ('' without any)."""
    values = list(row.get("annotations", {}).values())[:SHOWN_ANNOTATIONS]
    shown = [v if len(v) <= ANNOTATION_WIDTH else v[:ANNOTATION_WIDTH - 3] + "..." for v in values if v]
    return "  " + " | ".join(shown) if shown else ""
