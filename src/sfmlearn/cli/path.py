"""``sfmlearn path``: cross-validated score and feature count along the softness path."""

import argparse
import time

import numpy as np

from ..exceptions import DataValidationError
from ..outputs.atomic import check_output_file, write_bytes
from ._common import at_least, cv_folds, n_jobs, print_json, progress, seed
from ._io import load_training_data
from ._selector_args import (CV_METHODS, add_data_arguments, add_output_arguments, check_cv,
                             class_counts, print_data_and_kind)
from ._softness import print_softness_table, softness_summary
from .report import check_report_path


def register(subparsers):
    p = subparsers.add_parser(
        "path", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="cross-validated score and feature count against the softness C",
        description="Fit the soft SFM (or Weston's zero-norm SVM) along a data-adaptive grid of "
        "C -- from the C at which exactly one feature is selected to the hard solution -- in "
        "every cross-validation fold, print the mean CV score (+/- SE) and the mean number of "
        "selected features per C, choose C (best score, or the one-standard-error rule towards "
        "fewer features), refit on all data and print how often each feature was selected "
        "across the folds at the chosen C.",
        epilog="Examples:  sfmlearn path --dataset colon --select 1se --png colon_path.png\n"
        "           sfmlearn path data.csv --target diagnosis --groups batch --report path.html",
    )
    add_data_arguments(p, groups_help="column of group ids: every group stays within one fold "
                       "(leave one group out); the column is not a feature")
    model = p.add_argument_group("model")
    model.add_argument("--method", choices=sorted(CV_METHODS), default="sfm",
                       help="sfm (default) or weston (zero-norm SVM, l1-AROM)")
    model.add_argument("--class-weight", choices=["balanced"], default=None,
                       help="balanced: C+ n+ = C- n- (for unbalanced classes)")
    model.add_argument("--Cs", type=at_least(2), default=20, metavar="N",
                       help="points of the data-adaptive grid of C (default 20)")
    model.add_argument("--select", choices=["best", "1se"], default="best",
                       help="best mean CV score (default) or the one-standard-error rule")
    evaluation = p.add_argument_group("evaluation and output")
    evaluation.add_argument("--cv", type=cv_folds, default=5, metavar="K",
                            help="stratified K-fold cross-validation (default 5; with --groups: "
                            "leave one group out)")
    evaluation.add_argument("--random-state", type=seed, default=0, help="seed of the CV split")
    evaluation.add_argument("--n-jobs", type=n_jobs, default=1, help="parallel folds (joblib; -1 = all cores)")
    evaluation.add_argument("--png", metavar="OUT.png", help="also save the figure (score and features "
                            "against C, chosen C marked) as a PNG; checked before the fit")
    add_output_arguments(evaluation, report_help="also write a self-contained HTML report with the "
                         "figure, the table per C and the selection frequencies; checked before the fit")
    p.set_defaults(func=run)


def run(args):
    inputs = [args.path, args.pheno]
    report_path = check_report_path(args.report, inputs=inputs)
    png_path = None if args.png is None else check_output_file(
        args.png, inputs=inputs, what="--png", suffixes=(".png",), example="path.png")
    if args.cv == 0:
        raise DataValidationError("--cv 0: the path chooses C by cross-validation; give K >= 2")
    name, X, y, feature_names, _, groups, annotations = load_training_data(args, "path")
    folds = check_cv(args.cv, y, groups, args.random_state)
    model = CV_METHODS[args.method](Cs=args.Cs, cv=None if groups is not None else args.cv,
                                    select=args.select, class_weight=args.class_weight,
                                    n_jobs=args.n_jobs, random_state=args.random_state)
    started = time.perf_counter()
    with progress(f"softness path in {folds} folds", enabled=not (args.quiet or args.json)):
        model.fit(X, y, groups=groups)
    result = {
        "data": name, "n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
        "classes": [str(c) for c in model.classes_], "class_counts": class_counts(y),
        "method": type(model).__name__, "C": float(model.C_), "class_weight": args.class_weight,
        "n_selected": int(model.support_.sum()),
        "selected": [str(feature_names[j]) for j in np.flatnonzero(model.support_)],
        "C_auto": softness_summary(model, feature_names, annotations),
        "seconds": time.perf_counter() - started,
    }
    if png_path is not None or report_path is not None:
        from ..plotting.softness import softness_path_figure  # matplotlib only when asked
        from ..report import path_report

        if png_path is not None:
            import io

            buffer = io.BytesIO()
            softness_path_figure(result["C_auto"]).savefig(buffer, format="png", dpi=110)
            write_bytes(png_path, buffer.getvalue())
        if report_path is not None:
            path_report(result, subtitle="written by sfmlearn path").write(report_path)
    if args.json:
        print_json(result)
        return 0
    kind = print_data_and_kind({**result, "C": result["C"]})
    print(f"{result['method']} ({kind}): {result['n_selected']} of {result['n_features']} features "
          f"selected on all data at the chosen C")
    print_softness_table(result["C_auto"])
    print(f"time: {result['seconds']:.2f} s")
    for path, what in ((png_path, "figure"), (report_path, "report")):
        if path is not None:
            print(f"{what} written to {path}")
    return 0
