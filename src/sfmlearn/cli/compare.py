"""``sfmlearn compare``: how many features do I need? Accuracy of sparse methods at every budget.

The command parses its options, calls :func:`sfmlearn.analysis.run_compare` and prints
the table or renders the report (:func:`sfmlearn.report.compare_report`).
"""

import argparse

from ._common import (CLIError, StageProgress, add_max_hours_argument, at_least, cv_folds, in_flags, limit_passed,
                      max_seconds, n_jobs, name_text, print_json, seed, too_long)
from ._io import load_training_data
from ._selector_args import add_data_arguments, add_output_arguments, check_cv
from .report import check_report_path

HELP = "how many features do I need? accuracy of sparse methods at every feature budget"
DESCRIPTION = ("Estimate, by nested cross-validation, the balanced accuracy that the SFM path, the "
               "repetitive SFM (hard and soft), the SFM's stability ranking, l1-logistic and elastic-net logistic "
               "regression reach with at most k "
               "features, for every budget k: each method is fitted along its path in every outer "
               "training fold, and the fit used at budget k is chosen on the training part only "
               "(the densest fit within k, or an inner cross-validation with --inner-cv K). The automatic "
               "choice of SupportFeatureMachineCV is one more point. Prints one row per method.")
EXAMPLES = ("sfmlearn compare --dataset colon --budgets 1,2,3,5,10",
            "sfmlearn compare data.csv --target diagnosis --report frontier.html")


def budget_list(text):
    """Option type of ``--budgets``: comma-separated positive whole numbers."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas (1,2,5); got {text!r}") from None
    if min(values) < 1:
        raise argparse.ArgumentTypeError(f"must be positive whole numbers of features; got {text!r}")
    return values


def add_arguments(p):
    add_data_arguments(p, groups_help="column of group ids: the outer folds leave one group out; "
                       "the column is not a feature")
    evaluation = p.add_argument_group("comparison and output")
    evaluation.add_argument("--budgets", type=budget_list, default=None, metavar="K1,K2,...",
                            help="feature budgets (default 1,2,3,5,10,20,50 up to the number of features; "
                            "a budget above it is an error)")
    evaluation.add_argument("--cv", type=at_least(2), default=None, metavar="K",
                            help="outer stratified K-fold cross-validation (default 5); with --groups, K folds "
                            "of whole groups (default: leave one group out)")
    evaluation.add_argument("--inner-cv", type=cv_folds, default=0, metavar="K",
                            help="inner folds choosing the fit per budget on each training part "
                            "(default 0: the densest fit within the budget, which measured better on "
                            "small samples and is K + 1 times faster)")
    evaluation.add_argument("--random-state", type=seed, default=0, help="seed of the folds")
    evaluation.add_argument("--n-jobs", type=n_jobs, default=1, help="parallel outer folds (joblib; -1 = all cores)")
    add_max_hours_argument(evaluation)
    add_output_arguments(evaluation, report_help="also write a self-contained HTML report with the frontier "
                         "figure and the table; checked before the comparison")


#: The library's words for its parameters in compare's refusals -> what the command line says.
LIBRARY_WORDS = {
    r"inner_cv=None": "--inner-cv 0",
    r"inner_cv=(\d+)": r"--inner-cv \1",
    r"\bcv=(\d+)": r"--cv \1",
    r"fewer folds \(cv\)": "fewer --cv folds",
    r"give budgets of": "give --budgets of",
    r", or automatic=False to leave the automatic choice out": "",
}


def run(args):
    from ..analysis import run_compare
    from ..analysis.duration import DurationLimitError, TimeLimitError
    from ..exceptions import DataValidationError

    report_path = check_report_path(args.report, inputs=[args.path, args.pheno])
    data = load_training_data(args, "compare")
    cv = 5 if args.cv is None and data.groups is None else args.cv  # None with groups: leave one group out
    check_cv(cv, data, args.random_state, skippable=False)  # the comparison is its cross-validation
    bars = StageProgress(not (args.quiet or args.json))
    try:
        result = run_compare(data, budgets=args.budgets, cv=cv, inner_cv=args.inner_cv or None,
                             random_state=args.random_state, n_jobs=args.n_jobs, max_seconds=max_seconds(args),
                             progress=bars)
    except DurationLimitError as exc:
        raise too_long(exc) from exc
    except TimeLimitError as exc:
        raise limit_passed(exc, ["fewer --cv folds", "--inner-cv 0"]) from exc
    except DataValidationError as exc:
        raise CLIError(in_flags(str(exc), LIBRARY_WORDS)) from exc
    finally:
        bars.close()
    if report_path is not None:
        from ..report import compare_report  # matplotlib only when asked

        compare_report(result, subtitle="written by sfmlearn compare").write(report_path)
    if args.json:
        print_json(result.to_dict())
        return 0
    classes = " / ".join(map(name_text, result.classes))  # 'a ' and 'a' read apart
    print(f"data: {result.data}  ({result.n_samples} samples x {result.n_features} features, classes {classes})")
    print(result.budget_comparison.format_table())
    print(f"time: {result.seconds:.1f} s")
    if report_path is not None:
        print(f"report written to {report_path}")
    return 0
