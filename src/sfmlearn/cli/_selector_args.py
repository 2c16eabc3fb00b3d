"""What ``select``, ``path`` and ``repeat`` share: the data and base-selector options, their checks.

:func:`add_data_arguments`, :func:`add_model_arguments` and :func:`add_output_arguments`
add the option groups (each command words the help of ``--groups``, ``--method``, ``--C``
and ``--report`` for what it does with them); :func:`check_select` refuses ``--select``
without ``--C auto``; :func:`check_cv` runs before any fit, so a ``--cv`` the data cannot
support fails at once; :func:`print_data_and_kind` starts the printed summary.
"""

from ..analysis.names import DATASET_NAMES, SELECTORS, UNWEIGHTED
from ._common import CLIError, add_overwrite_argument, name_text, positive_float
from ._io import TABLE_HELP

__all__ = ["add_data_arguments", "add_model_arguments", "add_output_arguments", "check_cv", "check_select",
           "print_data_and_kind", "softness"]


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
    source.add_argument("--dataset", choices=DATASET_NAMES, help=dataset_help)


def add_model_arguments(parser, *, method_help, C_help, auto=False):
    """The (base) selector: method, softness, class weights; returns the group for more.

    With ``auto``, ``--C auto`` chooses C by cross-validation (``--select best|1se``);
    with ``C_help=None`` the command has no ``--C`` (it chooses C itself).
    """
    model = parser.add_argument_group("model")
    model.add_argument("--method", choices=SELECTORS, default="sfm", help=method_help)
    if auto:
        model.add_argument("--C", type=softness, default=None, metavar="C|auto", help=C_help + (
            "; auto: chosen by 5-fold cross-validation over the data-adaptive path (features "
            "re-selected in every fold)"))
        model.add_argument("--select", choices=["best", "1se"], default=None,
                           help="with --C auto: the best mean CV score (default) or the one-standard-"
                           "error rule towards fewer features (as cv.glmnet's lambda.1se; the SD over folds divides by "
                           "the folds, not the folds - 1)")
    elif C_help is not None:
        model.add_argument("--C", type=positive_float, default=None, help=C_help)
    model.add_argument("--class-weight", choices=["balanced", UNWEIGHTED], default=None,
                       help="balanced: C+ n+ = C- n- (for unbalanced classes); none: one C for every "
                       "sample. Default: balanced where the SFM's C is chosen by cross-validation "
                       "or by stability, none otherwise")
    return model


def add_output_arguments(group, *, report_help):
    """``--report OUT.html``, ``--overwrite``, ``--json`` and ``--quiet`` in ``group``."""
    group.add_argument("--report", metavar="OUT.html", help=report_help)
    add_overwrite_argument(group)
    group.add_argument("--json", action="store_true", help="print machine-readable JSON")
    group.add_argument("--quiet", action="store_true", help="no progress display")


def check_select(args):
    """``--select`` chooses among the C of ``--C auto``: refused without it."""
    if getattr(args, "select", None) is not None and args.C != "auto":
        raise CLIError("--select chooses among the C of --C auto; give --C auto or drop --select")


def check_cv(k, data, seed, *, skippable=True):
    """The folds ``--cv k`` will use (k shrinks to the smallest class or the number of
    groups); a one-line error when the data allow fewer than 2, naming ``--cv 0`` where
    the command can skip its cross-validation (``skippable``)."""
    from ..analysis.selectors import count_folds
    from ..exceptions import DataValidationError

    try:
        return count_folds(k, data.y, data.groups, seed)
    except DataValidationError as exc:
        flag = "--groups" if data.groups is not None else f"--cv {k}"
        skip = " (or --cv 0 to skip it)" if skippable else ""
        raise CLIError(f"{flag}: {str(exc).rstrip('.')}{skip}") from exc


def print_data_and_kind(result):
    """Print the data line of a result; returns its selector's kind ("hard", "soft, C=1, balanced")."""
    classes = " / ".join(map(name_text, result["classes"]))  # 'a ' and 'a' read apart
    print(f"data: {result['data']}  ({result['n_samples']} samples x {result['n_features']} features, "
          f"classes {classes})")
    if "stability" in result:
        return result["stability"]["kind"] + (", balanced" if result["class_weight"] else "")
    if "C_auto" in result and result["C"] is None:
        return f"{result['C_auto']['chosen_fit']}, chosen by CV ({result['C_auto']['select']})"
    if result["C"] is None:
        return "hard"
    chosen = f" chosen by CV ({result['C_auto']['select']})" if "C_auto" in result else ""
    return f"soft, C={result['C']:g}{chosen}" + (", balanced" if result["class_weight"] else "")
