"""``sfmlearn repeat``: the repetitive SFM -- subsets, ranking, informative fraction."""

import argparse
import math
import time

import numpy as np

from ..diagnostics import chance_report
from ..exceptions import NotSeparableError
from ..selection import RepetitiveSFM
from ..selection.repetitive import estimate_informative_fraction
from ._common import CLIError, StageProgress, at_least, n_jobs, not_separable, print_json, progress, seed
from ._io import annotate, annotation_text, load_training_data
from ._selector_args import (add_data_arguments, add_model_arguments, add_output_arguments, class_counts,
                             cross_validate, make_selector, print_data_and_kind)
from .report import check_report_path

STOPS = {
    "not_separable": "the classes are no longer linearly separable within the remaining features",
    "chance": "the last repetition no longer beat chance (cross-validated test)",
    "no_features_selected": "the base selector selected no feature",
    "features_exhausted": "no feature was left",
    "max_repetitions": "--max-repetitions reached",
}
STAGES = {"rSFM": "repetitive SFM in every fold", "SVM": "SVM on the remaining features"}


def register(subparsers):
    p = subparsers.add_parser(
        "repeat", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="repetitive SFM: rank all features and estimate how many are informative",
        description="Run the repetitive Support Feature Machine (NC 2013, 4.4): fit, remove "
        "the selected features, refit, until the classes are no longer separable. Prints "
        "the subsets (sorted by size), the ranking of the features, and an estimate of the "
        "fraction of informative features: in cross-validation (leave one group out with "
        "--groups), a soft SVM is trained on the remaining features after every K-th "
        "repetition and a sigmoid fitted to its test error; where the tangent at its "
        "inflexion meets chance is the estimate.",
        epilog="Examples:  sfmlearn repeat fmri.csv --target hand --groups participant\n"
        "           sfmlearn repeat data.csv --target class --C 0.5 --no-estimate --json",
    )
    add_data_arguments(p, groups_help="column of group ids (participants): the estimate's cross-validation "
                       "leaves one group out; the column is not a feature")
    model = add_model_arguments(p, method_help="base selector: sfm (default) or weston (zero-norm SVM)",
                                C_help="softness of the base selector; omit for the hard SFM, which stops "
                                "when the classes are no longer separable")
    model.add_argument("--max-repetitions", type=at_least(1), default=None, metavar="N",
                       help="stop after N subsets (default: run until a stop rule holds)")
    estimate = p.add_argument_group("informative-fraction estimate")
    estimate.add_argument("--no-estimate", action="store_true", help="only the subsets and the ranking")
    estimate.add_argument("--every", type=at_least(1), default=10, metavar="K",
                          help="train the SVM after every K-th repetition (default 10, as NC 2013)")
    estimate.add_argument("--cv", type=at_least(2), default=5, metavar="K",
                          help="without --groups: stratified K-fold (default 5; fewer when the smallest "
                          "class has fewer samples); with --groups the cross-validation leaves one "
                          "group out (then needs at least 3 groups)")
    estimate.add_argument("--aggregate", choices=["mean", "median"], default="mean",
                          help="combine the fold curves by mean (default) or median")
    output = p.add_argument_group("execution and output")
    output.add_argument("--top", type=at_least(1), default=20, metavar="N",
                        help="features of the ranking to print (default 20; --json lists all ranked)")
    output.add_argument("--n-jobs", type=n_jobs, default=None, help="parallel jobs for the folds (-1 = all cores)")
    output.add_argument("--random-state", type=seed, default=0, help="seed of shuffled folds (0 ... 2**32 - 1)")
    add_output_arguments(output, report_help="also write a self-contained HTML report (data, first subset and "
                         "weights, subset sizes, ranking, the estimate's figure); for it the base selector is also "
                         "cross-validated (--cv folds, grouped with --groups) and checked against the chance "
                         "bound. Checked before the fit; never written over the input or through a symbolic link")
    p.set_defaults(func=run)


#: Folds of the estimate's nested choice of the SVM softness (the library's default).
INNER_FOLDS = 5


def _estimate_cv(y, groups, k):
    """(outer, inner) cross-validation of the estimate, fitted to the data; CLIError if too small.

    Stratified k-fold keeps at least ``count - ceil(count / k)`` samples of every class in a
    training fold; the nested choice of C splits that again, so both shrink to fit.
    With groups both leave one group out, so the training part of a fold needs 2 groups.
    """
    if groups is not None:
        n_groups = np.unique(groups).size
        if n_groups < 3:
            raise CLIError(f"--groups: the estimate leaves one group out, then one more inside every training "
                           f"part, so it needs at least 3 groups; got {n_groups} (or use --no-estimate)")
        return None, None
    smallest = int(np.unique(y, return_counts=True)[1].min())
    outer = min(k, smallest)
    in_training = smallest - math.ceil(smallest / max(outer, 1))
    if outer < 2 or in_training < 2:
        raise CLIError(f"the smallest class has {smallest} samples: too few for the estimate's nested "
                       "cross-validation (it needs 2 per class in every inner fold); use --no-estimate")
    return outer, min(INNER_FOLDS, in_training)


def _check_groups(groups, column):
    if groups is not None and np.unique(groups).size < 2:
        raise CLIError(f"--groups {column}: all samples are in one group ({groups[0]}); leaving one "
                       "group out needs at least 2 groups (or leave out --groups)")


def run(args):
    report_path = check_report_path(args.report, inputs=[args.path, args.pheno])
    name, X, y, feature_names, _, groups, annotations = load_training_data(args, "repeat")
    _check_groups(groups, args.groups)
    if not args.no_estimate:
        outer_cv, inner_cv = _estimate_cv(y, groups, args.cv)
    base = make_selector(args)
    show_progress = not (args.quiet or args.json)
    started = time.perf_counter()
    rsfm = RepetitiveSFM(base, max_repetitions=args.max_repetitions, random_state=args.random_state)
    with progress("repetitive SFM on all samples", enabled=show_progress):
        try:
            rsfm.fit(X, y, groups=groups)
        except NotSeparableError as exc:
            raise not_separable("in all features", "the repetitive SFM finds nothing") from exc
    fit_seconds = time.perf_counter() - started
    result = _describe_fit(name, X, rsfm, feature_names, args, fit_seconds)
    annotate(result["ranking"], annotations)
    result["class_counts"] = class_counts(y)
    estimate = None
    if not args.no_estimate:
        bars = StageProgress(show_progress, STAGES)
        try:
            estimate = estimate_informative_fraction(
                X, y, groups, estimator=base, every=args.every, cv=outer_cv, inner_cv=inner_cv,
                aggregate=args.aggregate,
                max_repetitions=args.max_repetitions, random_state=args.random_state,
                n_jobs=args.n_jobs, progress=bars)
        finally:
            bars.close()
        result["estimate"] = _describe_estimate(estimate, groups is not None, args)
    if report_path:
        _base_selector_checks(result, base, X, y, groups, args, show_progress)
    result["seconds"] = time.perf_counter() - started
    if report_path:
        from ..report import repeat_report  # matplotlib only when a report is written

        repeat_report(result, estimate, subtitle="written by sfmlearn repeat").write(report_path)
    if args.json:
        print_json(result)
    else:
        _print_human(result, args.top)
        if report_path:
            print(f"report written to {report_path}")
    return 0


def _base_selector_checks(result, base, X, y, groups, args, show_progress):
    """For the report: CV accuracy of the base selector and its chance bound (no permutations).

    Skipped when the repetitive SFM found no subset (a hard base selector on classes that
    are not separable): then the base selector has nothing to cross-validate.
    """
    if not result["subsets"]:
        return
    result["cv"] = cross_validate(base, X, y, groups, args.cv, args.random_state, show_progress)
    result["chance"] = chance_report(base, X, y, groups=groups, n_permutations=0).to_dict()


def _describe_fit(name, X, rsfm, feature_names, args, fit_seconds):
    position = {int(j): t for t, subset in enumerate(rsfm.subsets_) for j in subset}
    ranked = np.concatenate(rsfm.subsets_by_size_) if rsfm.subsets_ else np.zeros(0, dtype=int)
    coefs = rsfm.coefs_.tocsr()
    return {
        "data": name, "n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
        "classes": [str(c) for c in rsfm.classes_],
        "method": type(rsfm.estimator).__name__, "C": args.C, "class_weight": args.class_weight,
        "n_repetitions": rsfm.n_repetitions_, "stop_reason": rsfm.stop_reason_,
        "stopped_because": STOPS[rsfm.stop_reason_],
        "n_ranked": int(ranked.size), "fit_seconds": fit_seconds,
        "subsets": [[str(feature_names[j]) for j in subset] for subset in rsfm.subsets_],
        "subset_sizes_by_size": [int(s.size) for s in rsfm.subsets_by_size_],
        "ranking": [
            {"rank": int(rsfm.ranking_[j]), "index": int(j), "name": str(feature_names[j]),
             "repetition": position[int(j)] + 1,
             "weight": float(coefs[position[int(j)], j])}
            for j in ranked
        ],
    }


def _describe_estimate(estimate, grouped, args):
    return {
        "available": estimate.available, "fraction": estimate.estimate,
        "n_informative": estimate.n_informative, "fit": estimate.fit_used, "reason": estimate.reason,
        "extrapolated": estimate.extrapolated, "folds": len(estimate.folds), "grouped": grouped,
        "every": args.every, "aggregate": args.aggregate,
        "fold_repetitions": [f["path"].n_repetitions for f in estimate.folds],
        "curve": {"discarded": [f["discarded"] for f in estimate.folds],
                  "error": [f["errors"] for f in estimate.folds]},
        "free_fit": None if estimate.free.params is None else estimate.free.params,
        "restricted_fit": None if estimate.restricted.params is None else estimate.restricted.params,
    }


def _print_human(r, top):
    kind = print_data_and_kind(r)
    print(f"repetitive {r['method']} ({kind}): {r['n_repetitions']} repetitions in "
          f"{r['fit_seconds']:.1f} s; {r['n_ranked']} of {r['n_features']} features ranked")
    print(f"stopped: {STOPS[r['stop_reason']]}")
    sizes = r["subset_sizes_by_size"]
    if sizes:
        shown = ", ".join(map(str, sizes[:15])) + (", ..." if len(sizes) > 15 else "")
        print(f"subset sizes, smallest first: {shown} (largest {sizes[-1]})")
        print(f"first subset found: {', '.join(r['subsets'][0])}")
        rows = r["ranking"][:top]
        width = max(8, max(len(row["name"]) for row in rows))
        print(f"\n  {'rank':>5}  {'feature':<{width}}  {'repetition':>10}  weight")
        for row in rows:
            print(f"  {row['rank']:>5}  {row['name']:<{width}}  {row['repetition']:>10}  {row['weight']:+.4g}"
                  f"{annotation_text(row)}")
        if len(r["ranking"]) > top:
            print(f"  ... {len(r['ranking']) - top} more ranked features (--top N or --json)")
    if "estimate" in r:
        e = r["estimate"]
        scheme = "leave-one-group-out" if e["grouped"] else f"{e['folds']}-fold"
        print(f"\ninformative fraction ({scheme} cross-validation, SVM after every {e['every']}th "
              f"repetition, {e['aggregate']} of {e['folds']} fold curves):")
        if e["available"]:
            note = " -- extrapolated beyond the evaluated curve" if e["extrapolated"] else ""
            print(f"  {100 * e['fraction']:.1f} % of the features (~{e['n_informative']:.0f}), "
                  f"{e['fit']} sigmoid fit{note}")
            if e["reason"]:
                print(f"  note: {e['reason']}")
        else:
            print(f"  no estimate: {e['reason']}")
    print(f"time: {r['seconds']:.1f} s")
