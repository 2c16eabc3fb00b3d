"""What ``select`` and ``repeat`` share: the data and base-selector options, cross-validation.

:func:`add_data_arguments`, :func:`add_model_arguments` and :func:`add_output_arguments`
add the option groups (each command words the help of ``--groups``, ``--method``, ``--C``
and ``--report`` for what it does with them); :func:`make_selector` builds the selector
they describe, :func:`class_counts` summarises the labels and :func:`print_data_and_kind`
starts the printed summary. :func:`check_cv` runs
before any fit, so a ``--cv`` the data cannot support fails at once; :func:`cross_validate`
is the library's :func:`~sfmlearn.model_selection.cross_validate_selection` with a
progress bar, summarised as the commands print it.
"""

import numpy as np

from ..datasets import DATASETS
from ..exceptions import DataValidationError
from ..model_selection import cross_validate_selection, make_cv
from ..selection import (SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM,
                         WestonZeroNormSVMCV)
from ._common import CLIError, positive_float, progress
from ._io import TABLE_HELP

__all__ = ["METHODS", "add_data_arguments", "add_model_arguments", "add_output_arguments", "check_cv",
           "class_counts", "cross_validate", "make_selector", "print_data_and_kind"]

METHODS = {"sfm": SupportFeatureMachine, "weston": WestonZeroNormSVM}
#: The same methods with C chosen by cross-validation (``--C auto``).
CV_METHODS = {"sfm": SupportFeatureMachineCV, "weston": WestonZeroNormSVMCV}


def softness(text):
    """Option type of ``--C`` where ``auto`` is allowed: "auto" or a finite number > 0."""
    return "auto" if text.strip().lower() == "auto" else positive_float(text)


def add_data_arguments(parser, *, groups_help, dataset_help="use a dataset shipped with sfmlearn"):
    """The data: a file (table, expression matrix + sample sheet, GEO series matrix, AnnData)
    with its label and group columns, or a shipped dataset (see :func:`sfmlearn.io.read_labelled`)."""
    source = parser.add_argument_group("data (give a file or --dataset)")
    source.add_argument("path", nargs="?", help=TABLE_HELP)
    source.add_argument("--target", help="the labels: a column of the table or of the --pheno sheet, a GEO "
                        "characteristic key (\"disease state\"), an AnnData obs column (obs:condition), or "
                        "the label array of an .npz (default y)")
    source.add_argument("--groups", metavar="COLUMN", help=groups_help + " (named like --target)")
    source.add_argument("--pheno", metavar="SHEET", help="sample sheet (.csv, .tsv, .parquet): sample ids in its "
                        "first column, --target (and --groups) among the others; matched to the data's samples "
                        "by id, never by position")
    source.add_argument("--samples-in-columns", action="store_true", help="the file is an expression matrix: "
                        "first column the feature ids, one column per sample (named by its id), optional text "
                        "columns of feature annotations (Gene Symbol, ...); needs --pheno")
    source.add_argument("--layer", metavar="NAME", help="AnnData .h5ad: use this layer (e.g. counts) instead of X")
    source.add_argument("--classes", nargs=2, metavar=("A", "B"), help="keep only the samples of these two "
                        "classes (e.g. two subtypes out of six)")
    source.add_argument("--dataset", choices=sorted(DATASETS), help=dataset_help)


def add_model_arguments(parser, *, method_help, C_help, auto=False):
    """The (base) selector: method, softness, class weights; returns the group for more.

    With ``auto``, ``--C auto`` chooses C by cross-validation (``--select best|1se``).
    """
    model = parser.add_argument_group("model")
    model.add_argument("--method", choices=sorted(METHODS), default="sfm", help=method_help)
    if auto:
        model.add_argument("--C", type=softness, default=None, metavar="C|auto", help=C_help + (
            "; auto: chosen by 5-fold cross-validation over the data-adaptive path (features "
            "re-selected in every fold)"))
        model.add_argument("--select", choices=["best", "1se"], default=None,
                           help="with --C auto: the best mean CV score (default) or the one-standard-"
                           "error rule towards fewer features (as cv.glmnet's lambda.1se)")
    else:
        model.add_argument("--C", type=positive_float, default=None, help=C_help)
    model.add_argument("--class-weight", choices=["balanced"], default=None,
                       help="balanced: C+ n+ = C- n- (for unbalanced classes)")
    return model


def add_output_arguments(group, *, report_help):
    """``--report OUT.html``, ``--json`` and ``--quiet`` in ``group``."""
    group.add_argument("--report", metavar="OUT.html", help=report_help)
    group.add_argument("--json", action="store_true", help="print machine-readable JSON")
    group.add_argument("--quiet", action="store_true", help="no progress display")


def class_counts(y):
    """Samples per class, for the data summary of results and reports."""
    classes, counts = np.unique(np.asarray(y), return_counts=True)
    return {str(c): int(k) for c, k in zip(classes, counts)}


def make_selector(args, **params):
    """The selector of ``--method``, ``--C`` and ``--class-weight`` (plus ``params``).

    ``--C auto``: the cross-validated selector (``--select``, seeded by ``--random-state``).
    """
    select = getattr(args, "select", None)
    if args.C == "auto":
        return CV_METHODS[args.method](select=select or "best", class_weight=args.class_weight,
                                       random_state=getattr(args, "random_state", None), **params)
    if select is not None:
        raise CLIError("--select chooses among the C of --C auto; give --C auto or drop --select")
    return METHODS[args.method](C=args.C, class_weight=args.class_weight, **params)


def check_cv(k, y, groups, seed):
    """The folds ``--cv k`` will use (k shrinks to the smallest class or the number of
    groups); a one-line error when the data allow fewer than 2."""
    try:
        return make_cv(k, y=y, groups=groups, random_state=seed).get_n_splits()
    except DataValidationError as exc:
        flag = "--groups" if groups is not None else f"--cv {k}"
        raise CLIError(f"{flag}: {str(exc).rstrip('.')} (or --cv 0 to skip it)") from exc


def cross_validate(estimator, X, y, groups, k, seed, show_progress):
    """k-fold accuracy with the features re-selected in every fold, as ``result["cv"]``."""
    folds = check_cv(k, y, groups, seed)
    with progress(f"{folds}-fold cross-validation", folds, enabled=show_progress) as advance:
        cv = cross_validate_selection(estimator, X, y, groups=groups, cv=k, random_state=seed,
                                      progress=advance)
    return {"folds": len(cv.folds), "grouped": groups is not None, "accuracy_mean": float(cv.accuracy.mean()),
            "accuracy_std": float(cv.accuracy.std()), "accuracy": cv.accuracy, "n_selected": cv.n_selected}


def print_data_and_kind(result):
    """Print the data line of a result; returns its selector's kind ("hard", "soft, C=1, balanced")."""
    classes = " / ".join(result["classes"])
    print(f"data: {result['data']}  ({result['n_samples']} samples x {result['n_features']} features, "
          f"classes {classes})")
    if result["C"] is None:
        return "hard"
    chosen = f" chosen by CV ({result['C_auto']['select']})" if "C_auto" in result else ""
    return f"soft, C={result['C']:g}{chosen}" + (", balanced" if result["class_weight"] else "")
