"""``sfmlearn select``: the fewest features that separate the classes of a table.

The command parses its options, calls :func:`sfmlearn.analysis.run_select` and prints,
renders (:func:`sfmlearn.report.select_report`) or writes what it returns.
"""

from ._common import (CLIError, StageProgress, add_max_hours_argument, at_least, cv_folds, frequency, in_flags,
                      limit_passed, max_seconds, n_jobs, name_text, not_separable, percent, print_columns, print_json,
                      seed, too_long)
from ._io import annotation_text, load_training_data
from ._selector_args import (add_data_arguments, add_model_arguments, add_output_arguments, check_cv,
                             check_select, print_data_and_kind)
from ._softness import names_text, print_choice
from .report import check_report_path


HELP = "select the fewest features that separate two classes"
#: Unstable features named one per line; the rest are counted (``--json`` lists all).
SHOWN_UNSTABLE = 5
DESCRIPTION = ("Fit a Support Feature Machine (or Weston's zero-norm SVM) and print "
               "the selected features with their weights, the training accuracy, the k-fold "
               "cross-validated accuracy (features re-selected inside every fold, so the "
               "estimate is not biased by the selection) and, for datasets with an independent "
               "test split, the test accuracy.")
EXAMPLES = ("sfmlearn select --dataset leukemia",
            "sfmlearn select data.csv --target diagnosis --C 1 --class-weight balanced",
            "sfmlearn select --dataset colon --C auto --select 1se",
            "sfmlearn select --dataset colon --stability 0.3")
#: Most frequent features of ``--stability`` named beside the stable set.
SHOWN_FREQUENT = 10
#: Identical copies named one by one; a larger group is named by its first few and its size.
SHOWN_COPIES = 3


def add_arguments(p):
    add_data_arguments(p, groups_help="column of group ids (participants, molecules, ...): cross-validation "
                       "keeps every group within one fold; the column is not a feature",
                       dataset_help="use a dataset shipped with sfmlearn instead of a file")
    model = add_model_arguments(p, method_help="sfm (default) or weston (zero-norm SVM, l1-AROM)",
                                C_help="softness; omit for the hard method (needs separable classes)",
                                auto=True)
    model.add_argument("--stability", type=frequency, nargs="?", const=0.6, default=None, metavar="PI",
                       help="stability selection instead of one fit: the features that the soft path selects on "
                       "at least this fraction of 50 half-samples (default 0.6), with Meinshausen and Buehlmann's "
                       "bound on the expected false selections; replaces --C (classes balanced)")
    model.add_argument("--no-scale", action="store_true",
                       help="skip the standardisation + mean-norm scaling (not recommended)")
    evaluation = p.add_argument_group("evaluation and output")
    evaluation.add_argument("--cv", type=cv_folds, default=5, metavar="K",
                            help="stratified K-fold cross-validation (default 5; 0 to skip)")
    evaluation.add_argument("--random-state", type=seed, default=0,
                            help="seed of the CV split and permutations (0 ... 2**32 - 1)")
    evaluation.add_argument("--chance", type=at_least(0), default=0, metavar="N",
                            help="also say whether a subset this small could be chance: the bound for "
                            "random data of this shape and a test with N label permutations (e.g. 100)")
    evaluation.add_argument("--n-jobs", type=n_jobs, default=1,
                            help="parallel permutations and, with --stability, half-sample fits (joblib; "
                            "-1 = all cores)")
    add_max_hours_argument(evaluation)
    add_output_arguments(evaluation, report_help="also write a self-contained HTML report (data, features and "
                         "weights, accuracies, chance check with its figures); without --chance it holds the "
                         "bound for random data only. Checked before the fit; never written over the input or "
                         "through a symbolic link")


#: The library's words in the refusals and warnings ``select`` passes on, in the command's flags (:func:`in_flags`).
LIBRARY_WORDS = {
    r"permute across groups \(groups=None\)": "run --chance without --groups",
    r"keep scale=True": "drop --no-scale",
    r"Skip the estimate \(cv=0\) or use a fixed C": "Skip the estimate (--cv 0) or use a fixed --C",
    r"none \(cv=0\)": "none (--cv 0)",
    r"Use a fixed C": "Use a fixed --C",
    r"\(C='auto'\)": "(--C auto)",
    r"a soft SFM \(C\) or WestonZeroNormSVM avoids this": "--C 1 or --method weston avoids it",
    r" Folds of whole groups that hold both classes \(cv=5 with groups\) weight them equally\.":
        " Groups (--groups) that each hold both classes weight them equally.",
    r"Use k-fold cross-validation \(it keeps every class in every training fold\), or groups":
        "Drop --groups (k-fold cross-validation keeps every class in every training fold), or give groups",
}


def run(args):
    from ..analysis import run_select
    from ..analysis.duration import DurationLimitError, TimeLimitError
    from ..analysis.selectors import UnseparatedFit
    from ..exceptions import DataValidationError

    if args.stability is not None and (args.C is not None or args.select is not None):
        raise CLIError("--stability runs the soft path over its own grid of C; drop --C and --select")
    if args.class_weight is not None and args.C is None and args.stability is None:
        raise CLIError("--class-weight weights the training errors a soft method allows; the hard method allows "
                       "none: give --C (a number or auto) or drop --class-weight")
    report_path = check_report_path(args.report, inputs=[args.path, args.pheno])
    data = load_training_data(args, "select")
    check_select(args)
    if args.cv:
        check_cv(args.cv, data, args.random_state)  # a hopeless --cv fails before the fit
    bars = StageProgress(not (args.quiet or args.json))
    try:
        result = run_select(data, method=args.method, C=args.C, class_weight=args.class_weight, select=args.select,
                            stability=args.stability, scale=not args.no_scale, cv=args.cv,
                            random_state=args.random_state, n_permutations=args.chance,
                            chance_bound=report_path is not None, n_jobs=args.n_jobs,
                            max_seconds=max_seconds(args), progress=bars)
    except UnseparatedFit as exc:
        raise not_separable("in the training data") from exc
    except DurationLimitError as exc:
        raise too_long(exc) from exc
    except TimeLimitError as exc:
        raise limit_passed(exc, ["a fixed --C"] * (args.C == "auto") + ["fewer --cv folds or --cv 0"] * bool(args.cv)
                           + ["fewer --chance permutations"] * bool(args.chance)) from exc
    except DataValidationError as exc:
        raise CLIError(in_flags(str(exc), LIBRARY_WORDS)) from exc
    finally:
        bars.close()
    result = result.to_dict()
    if report_path:
        from ..report import select_report  # matplotlib only when a report is written

        select_report(result, subtitle="written by sfmlearn select").write(report_path)
    if args.json:
        print_json(result)
    else:
        _print_human(result, report_path)
    return 0


def weight_text(weight):
    """A weight as the table prints it: four decimals, or four digits in powers of ten
    where those would read 0 or run long.

    >>> weight_text(1.87661), weight_text(-3.2e-7), weight_text(0.0)
    ('+1.8766', '-3.200e-07', '+0.0000')
    """
    return f"{weight:+.4f}" if weight == 0 or 1e-3 <= abs(weight) < 1e6 else f"{weight:+.3e}"


def _print_human(r, report_path):
    kind = print_data_and_kind(r)
    print(f"{r['method']} ({kind}): {r['n_selected']} of {r['n_features']} features selected "
          f"in {r['fit_seconds']:.2f} s")
    if r["selected"]:
        width = max(8, max(len(s["name"]) for s in r["selected"]))
        stable = "stability" in r  # logistic regression on the stable features, standardised
        frequency = "  frequency" if stable else ""
        space = ("standardised features" if stable else "features as given" if r["scaled"] is False
                 else "scaled features")
        print(f"  {'feature':<{width}}  weight ({space}; + favours {name_text(r['classes'][1])}){frequency}")
        for s in r["selected"]:
            share = f"  {s['frequency']:.2f}" if stable else ""
            print(f"  {s['name']:<{width}}  {weight_text(s['weight'])}{share}{annotation_text(s)}")
    if "C_auto" in r:
        print_choice(r["C_auto"])
    if "stability" in r:
        _print_stability(r["stability"], r["n_selected"], {s["index"] for s in r["selected"]})
    print(f"training accuracy: {100 * r['train_accuracy']:.1f}%")
    if r.get("weakly_separated"):
        print("  weakly separated: the selected features leave some training samples on the hard SFM's hyperplane "
              "(its zero margin allows it), although more features separate them; --C 1 or --method weston "
              "avoids it")
    if "cv" in r:
        cv = r["cv"]
        grouped = " grouped" if cv["grouped"] else ""
        estimate = "estimate (outer CV, C re-chosen in every fold): " if "C_auto" in r else ""
        print(f"{estimate}{cv['folds']}-fold{grouped} CV accuracy: {100 * cv['accuracy_mean']:.1f}% "
              f"+/- {100 * cv['accuracy_std']:.1f}% (features re-selected in every fold; "
              f"{sum(cv['n_selected']) / len(cv['n_selected']):.1f} selected on average)")
        print("  selected by the refit of each fold: "
              + " | ".join(names_text(names) for names in cv["selected_per_fold"]))
    unstable = r.get("unstable_features", [])
    for row in unstable[:SHOWN_UNSTABLE]:
        print(f"unstable: feature {row['name']} was selected in {row['folds_selected']} of "
              f"{row['folds']} outer folds (the refits of the CV estimate)")
    if len(unstable) > SHOWN_UNSTABLE:
        print(f"unstable: {len(unstable) - SHOWN_UNSTABLE} more selected features, each in fewer than half of the "
              "outer folds (--json lists them all)")
    if "chance_verdict" in r:
        print(r["chance_verdict"])  # "chance check: ..."
    if "test_accuracy" in r:
        print(f"test accuracy: {100 * r['test_accuracy']:.1f}% ({r['n_test']} independent samples)")
        _print_test_details(r)
    print(f"time: {r['seconds']:.2f} s")
    if report_path:
        print(f"report written to {report_path}")


def _print_stability(stability, n_selected, stable):
    """The stable set's threshold and bound, the most frequent features, and which of them
    (or of the ``stable`` indices) are identical copies of other columns."""
    pi, halves, q, p = (stability[k] for k in ("threshold", "n_halves", "mean_union_size", "n_candidate_features"))
    bound = stability["false_selection_bound"]
    bound_text = "no bound on false selections (it needs pi > 0.5)"
    if bound is not None:
        bound_text = (f"expected false selections <= {bound:.3g} (Meinshausen-Buehlmann: q = {q:.1f} selected per "
                      f"half, p = {p} non-constant feature{'s' if p != 1 else ''})")
        if 0 < n_selected <= bound:
            bound_text += ", no fewer than the features selected: the bound says nothing here"
    print(f"stability selection: {n_selected} feature{'s' if n_selected != 1 else ''} selected in at least "
          f"{100 * pi:g}% of {halves} half-sample fits; {bound_text}")
    frequent = stability["most_frequent"][:SHOWN_FREQUENT]
    if frequent:
        print("  most frequent: " + ", ".join(f"{name_text(row['name'])} {row['frequency']:.2f}" for row in frequent))
    shown = stable | {row["index"] for row in frequent}
    for group in stability.get("identical_columns", []):
        if shown.isdisjoint(row["index"] for row in group):
            continue
        frequencies = [row["frequency"] for row in group]
        if len(group) <= SHOWN_COPIES:
            names = _and([name_text(row["name"]) for row in group])
            split = "frequencies " + _and([f"{value:.2f}" for value in frequencies])
        else:  # rare binary columns can have hundreds of copies
            names = names_text([row["name"] for row in group]) + f" ({len(group)} columns)"
            split = f"frequencies {min(frequencies):.2f} to {max(frequencies):.2f}"
        print(f"  {names} are identical columns: their halves' selections are split between them ({split}); "
              f"drop {'one' if len(group) == 2 else 'all but one'} to see its frequency")
    if n_selected == 0:
        print(f"  no feature reaches the threshold: the classifier predicts {stability['constant_prediction']} for "
              "every sample; a lower --stability keeps the most frequent features")


def _and(items):
    """``a and b``, ``a, b and c``."""
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def _print_test_details(r):
    """The test split's class counts, confusion matrix, sensitivity and specificity and misclassified samples."""
    classes = r["classes"]
    print("  samples per class: " + ", ".join(f"{c} {n}" for c, n in r["test_class_counts"].items()))
    print("  confusion matrix (rows: true class; columns: predicted class):")
    print_columns([["", *classes]] + [[c, *map(str, row)] for c, row in zip(classes, r["test_confusion_matrix"])],
                  right=range(1, len(classes) + 1))
    if "test_positive_class" in r:
        print(f"  positive class: {r['test_positive_class']} (the second of the sorted classes): sensitivity "
              f"{percent(r['test_sensitivity'])}, specificity {percent(r['test_specificity'])}")
    print("  per class (one against the rest):")
    print_columns([["class", "samples", "sensitivity", "specificity"]]
                  + [[row["class"], str(row["n"]), percent(row["sensitivity"]), percent(row["specificity"])]
                     for row in r["test_per_class"]], right={1, 2, 3})
    wrong = r["test_misclassified"]
    print(f"  misclassified test samples: {len(wrong)} of {r['n_test']}")
    if wrong:
        print_columns([["sample", "class", "predicted"]] + [[w["id"], w["class"], w["predicted"]] for w in wrong])
