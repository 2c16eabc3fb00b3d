"""``sfmlearn select``: the fewest features that separate the classes of a table."""

import argparse
import time

import numpy as np

from ..diagnostics import chance_report, format_verdict
from ..exceptions import NotSeparableError
from ._common import at_least, cv_folds, n_jobs, not_separable, print_json, progress, seed
from ._io import annotate, annotation_text, load_training_data
from ._selector_args import (add_data_arguments, add_model_arguments, add_output_arguments, check_cv,
                             class_counts, cross_validate, make_selector, print_data_and_kind)
from ._softness import print_softness_table, softness_summary
from .report import check_report_path


def register(subparsers):
    p = subparsers.add_parser(
        "select", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="select the fewest features that separate two classes",
        description="Fit a Support Feature Machine (or Weston's zero-norm SVM) and print "
        "the selected features with their weights, the training accuracy, the k-fold "
        "cross-validated accuracy (features re-selected inside every fold, so the "
        "estimate is not biased by the selection) and, for datasets with an independent "
        "test split, the test accuracy.",
        epilog="Examples:  sfmlearn select --dataset leukemia\n"
        "           sfmlearn select data.csv --target diagnosis --C 1 --class-weight balanced\n"
        "           sfmlearn select --dataset colon --C auto --select 1se",
    )
    add_data_arguments(p, groups_help="column of group ids (participants, molecules, ...): cross-validation "
                       "keeps every group within one fold; the column is not a feature",
                       dataset_help="use a dataset shipped with sfmlearn instead of a file")
    model = add_model_arguments(p, method_help="sfm (default) or weston (zero-norm SVM, l1-AROM)",
                                C_help="softness; omit for the hard method (needs separable classes)",
                                auto=True)
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
                            help="parallel permutations (joblib; -1 = all cores)")
    add_output_arguments(evaluation, report_help="also write a self-contained HTML report (data, features and "
                         "weights, accuracies, chance check with its figures); without --chance it holds the "
                         "bound for random data only. Checked before the fit; never written over the input or "
                         "through a symbolic link")
    p.set_defaults(func=run)


def run(args):
    report_path = check_report_path(args.report, inputs=[args.path, args.pheno])
    name, X, y, feature_names, test, groups, annotations = load_training_data(args, "select")
    estimator = make_selector(args, scale=not args.no_scale)
    show_progress = not (args.quiet or args.json)
    if args.cv:
        check_cv(args.cv, y, groups, args.random_state)  # a hopeless --cv fails before the fit

    started = time.perf_counter()
    with progress(f"fitting {type(estimator).__name__}", enabled=show_progress):
        try:
            estimator.fit(X, y)
        except NotSeparableError as exc:
            raise not_separable("in the training data") from exc
    fit_seconds = time.perf_counter() - started
    selected = np.flatnonzero(estimator.support_)
    order = selected[np.argsort(-np.abs(estimator.scaled_coef_[selected]))]
    result = {
        "data": name,
        "n_samples": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "classes": [str(c) for c in estimator.classes_],
        "class_counts": class_counts(y),
        "method": type(estimator).__name__,
        "C": float(estimator.C_) if args.C == "auto" else args.C,
        "class_weight": args.class_weight,
        "selected": annotate([
            {"index": int(j), "name": str(feature_names[j]),
             "weight": float(estimator.scaled_coef_[j])}
            for j in order
        ], annotations),
        "n_selected": int(selected.size),
        "train_accuracy": float(estimator.score(X, y)),
        "fit_seconds": fit_seconds,
    }
    if args.C == "auto":
        result["C_auto"] = softness_summary(estimator, feature_names, annotations)
    if args.cv:
        result["cv"] = cross_validate(estimator, X, y, groups, args.cv, args.random_state, show_progress)
    if args.chance or report_path:
        what = f"{args.chance} permutations" if args.chance else "bound for the report"
        with progress(f"chance report ({what})", enabled=show_progress):
            report = chance_report(estimator, X, y, groups=groups, n_permutations=args.chance,
                                   random_state=args.random_state, n_jobs=args.n_jobs)
        result["chance"] = report.to_dict()
        result["chance_verdict"] = format_verdict(report)
    if test is not None:
        X_test, y_test = test
        result["test_accuracy"] = float(estimator.score(X_test, np.asarray(y_test)))
        result["n_test"] = int(len(y_test))
    result["seconds"] = time.perf_counter() - started
    if report_path:
        from ..report import select_report  # matplotlib only when a report is written

        select_report(result, subtitle="written by sfmlearn select").write(report_path)
    if args.json:
        print_json(result)
    else:
        _print_human(result, report_path)
    return 0


def _print_human(r, report_path):
    kind = print_data_and_kind(r)
    print(f"{r['method']} ({kind}): {r['n_selected']} of {r['n_features']} features selected "
          f"in {r['fit_seconds']:.2f} s")
    if r["selected"]:
        width = max(8, max(len(s["name"]) for s in r["selected"]))
        print(f"  {'feature':<{width}}  weight (scaled features; + favours {r['classes'][1]})")
        for s in r["selected"]:
            print(f"  {s['name']:<{width}}  {s['weight']:+.4f}{annotation_text(s)}")
    if "C_auto" in r:
        print_softness_table(r["C_auto"])
    print(f"training accuracy: {100 * r['train_accuracy']:.1f}%")
    if "cv" in r:
        cv = r["cv"]
        grouped = " grouped" if cv["grouped"] else ""
        print(f"{cv['folds']}-fold{grouped} CV accuracy: {100 * cv['accuracy_mean']:.1f}% "
              f"+/- {100 * cv['accuracy_std']:.1f}% (features re-selected in every fold; "
              f"{np.mean(cv['n_selected']):.1f} selected on average)")
    if "chance_verdict" in r:
        print(f"chance: {r['chance_verdict']}")
    if "test_accuracy" in r:
        print(f"test accuracy: {100 * r['test_accuracy']:.1f}% ({r['n_test']} independent samples)")
    print(f"time: {r['seconds']:.2f} s")
    if report_path:
        print(f"report written to {report_path}")
