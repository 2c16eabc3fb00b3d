"""``sfmlearn path``: cross-validated score and feature count along the softness path.

The command parses its options, calls :func:`sfmlearn.analysis.run_path` and prints,
draws (:func:`sfmlearn.report.write_path_figure`) or renders
(:func:`sfmlearn.report.path_report`) what it returns.
"""

from ._common import (CLIError, StageProgress, add_max_hours_argument, at_least, check_new_file, limit_passed,
                      max_seconds, n_jobs, print_json, seed, too_long)
from ._io import load_training_data
from ._selector_args import (add_data_arguments, add_model_arguments, add_output_arguments, check_cv,
                             print_data_and_kind)
from ._softness import print_choice
from .report import check_report_path


#: Largest ``--Cs``: the library's limit (``sfmlearn.selection.sfm.path.MAX_N_CS``), checked
#: before the data are read; tests/hostile keeps the two equal.
MAX_N_CS = 1000

HELP = "cross-validated score and feature count against the softness C"
DESCRIPTION = ("Fit the soft SFM (or Weston's zero-norm SVM) along a data-adaptive grid of "
               "C -- from the C at which exactly one feature is selected to the hard solution -- in "
               "every cross-validation fold, print the mean CV score (+/- SE) and the mean number of "
               "selected features per C, choose C (best score, or the one-standard-error rule towards "
               "fewer features), refit on all data and print how often each feature was selected "
               "across the folds at the chosen C. The choice is one of C along the path; select --C "
               "auto compares the folds by their number of features and also offers the repetitive "
               "SFM's unions.")
EXAMPLES = ("sfmlearn path --dataset colon --select 1se --png colon_path.png",
            "sfmlearn path data.csv --target diagnosis --groups batch --report path.html")


def add_arguments(p):
    add_data_arguments(p, groups_help="column of group ids: every group stays within one fold "
                       "(leave one group out); the column is not a feature")
    model = add_model_arguments(p, method_help="sfm (default) or weston (zero-norm SVM, l1-AROM)", C_help=None)
    model.add_argument("--Cs", type=at_least(2), default=20, metavar="N",
                       help=f"points of the data-adaptive grid of C (default 20, at most {MAX_N_CS})")
    model.add_argument("--select", choices=["best", "1se"], default="best",
                       help="best mean CV score (default) or the one-standard-error rule")
    evaluation = p.add_argument_group("evaluation and output")
    evaluation.add_argument("--cv", type=at_least(2), default=5, metavar="K",
                            help="stratified K-fold cross-validation (default 5; with --groups: "
                            "leave one group out)")
    evaluation.add_argument("--random-state", type=seed, default=0, help="seed of the CV split")
    evaluation.add_argument("--n-jobs", type=n_jobs, default=1, help="parallel folds (joblib; -1 = all cores)")
    add_max_hours_argument(evaluation)
    evaluation.add_argument("--png", metavar="OUT.png", help="also save the figure (score and features "
                            "against C, chosen C marked) as a PNG; checked before the fit")
    add_output_arguments(evaluation, report_help="also write a self-contained HTML report with the "
                         "figure, the table per C and the selection frequencies; checked before the fit")


def run(args):
    from ..analysis import run_path
    from ..analysis.duration import DurationLimitError, TimeLimitError

    if args.Cs > MAX_N_CS:
        raise CLIError(f"--Cs must lie between 2 and {MAX_N_CS} (each value of C is one LP per fold); got {args.Cs}")
    inputs = [args.path, args.pheno]
    report_path = check_report_path(args.report, inputs=inputs)
    png_path = check_new_file(args.png, inputs=inputs, what="--png", suffixes=(".png",), example="path.png")
    data = load_training_data(args, "path")
    check_cv(args.cv, data, args.random_state, skippable=False)  # the path is chosen by its cross-validation
    bars = StageProgress(not (args.quiet or args.json))
    try:
        result = run_path(data, method=args.method, class_weight=args.class_weight, Cs=args.Cs,
                          select=args.select, cv=args.cv, random_state=args.random_state, n_jobs=args.n_jobs,
                          max_seconds=max_seconds(args), progress=bars).to_dict()
    except DurationLimitError as exc:
        raise too_long(exc) from exc
    except TimeLimitError as exc:
        raise limit_passed(exc, ["fewer --Cs", "fewer --cv folds"]) from exc
    finally:
        bars.close()
    if png_path is not None or report_path is not None:
        from ..report import path_report, write_path_figure  # matplotlib only when asked

        if png_path is not None:
            write_path_figure(result, png_path)
        if report_path is not None:
            path_report(result, subtitle="written by sfmlearn path").write(report_path)
    if args.json:
        print_json(result)
        return 0
    kind = print_data_and_kind(result)
    print(f"{result['method']} ({kind}): {result['n_selected']} of {result['n_features']} features "
          f"selected on all data at the chosen C")
    print_choice(result["C_auto"])
    print(f"time: {result['seconds']:.2f} s")
    for path, what in ((png_path, "figure"), (report_path, "report")):
        if path is not None:
            print(f"{what} written to {path}")
    return 0
