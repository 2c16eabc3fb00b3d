"""``sfmlearn repeat``: the repetitive SFM -- subsets, ranking, informative fraction.

The command parses its options, checks that the data allow the estimate's
cross-validation, calls :func:`sfmlearn.analysis.run_repeat` and prints or renders
(:func:`sfmlearn.report.repeat_report`) what it returns.
"""

import math

from ._common import (CLIError, StageProgress, add_max_hours_argument, at_least, in_flags, limit_passed, max_seconds,
                      n_jobs, name_text, not_separable, print_json, seed, too_long)
from ._io import annotation_text, load_training_data
from ._selector_args import add_data_arguments, add_model_arguments, add_output_arguments, print_data_and_kind
from .report import check_report_path

STAGES = {"rSFM": "repetitive SFM in every fold", "SVM": "SVM on the remaining features"}


HELP = "repetitive SFM: rank all features and estimate how many are informative"
DESCRIPTION = ("Run the repetitive Support Feature Machine (NC 2013, 4.4): fit, remove "
               "the selected features, refit, until the classes are no longer separable. Prints "
               "the subsets (sorted by size), the ranking of the features, and an estimate of the "
               "fraction of informative features: in cross-validation (leave one group out with "
               "--groups), a soft SVM is trained on the remaining features after every K-th "
               "repetition and a sigmoid fitted to its test error; where the tangent at its "
               "inflexion meets chance is the estimate.")
EXAMPLES = ("sfmlearn repeat fmri.csv --target hand --groups participant",
            "sfmlearn repeat data.csv --target class --C 0.5 --no-estimate --json")


def add_arguments(p):
    add_data_arguments(p, groups_help="column of group ids (participants): the estimate's cross-validation "
                       "leaves one group out; the column is not a feature")
    model = add_model_arguments(p, method_help="base selector: sfm (default) or weston (zero-norm SVM)",
                                C_help="softness of the base selector; omit for the hard SFM, which stops "
                                "when the classes are no longer separable")
    model.add_argument("--max-repetitions", type=at_least(1), default=None, metavar="N",
                       help="stop after N subsets (default: run until a stop rule holds)")
    estimate = p.add_argument_group("informative-fraction estimate")
    estimate.add_argument("--no-estimate", action="store_true", help="only the subsets and the ranking")
    estimate.add_argument("--every", type=at_least(1), default=None, metavar="K",
                          help="train the SVM after every K-th repetition (default 10, as NC 2013)")
    estimate.add_argument("--cv", type=at_least(2), default=None, metavar="K",
                          help="without --groups: stratified K-fold (default 5; fewer when the smallest "
                          "class has fewer samples); with --groups the cross-validation leaves one "
                          "group out (then needs at least 3 groups)")
    estimate.add_argument("--aggregate", choices=["mean", "median"], default=None,
                          help="combine the fold curves by mean (default) or median")
    output = p.add_argument_group("execution and output")
    output.add_argument("--top", type=at_least(1), default=20, metavar="N",
                        help="features of the ranking to print (default 20; --json lists all ranked)")
    output.add_argument("--n-jobs", type=n_jobs, default=None, help="parallel jobs for the folds (-1 = all cores)")
    output.add_argument("--random-state", type=seed, default=0, help="seed of shuffled folds (0 ... 2**32 - 1)")
    add_max_hours_argument(output, also=(
        ". With --C, the chance test decides "
        "when the repetitions stop, so the estimate counts one repetition per run and the limit does the rest"))
    add_output_arguments(output, report_help="also write a self-contained HTML report (data, first subset and "
                         "weights, subset sizes, ranking, the estimate's figure); for it the base selector is also "
                         "cross-validated (--cv folds, grouped with --groups) and checked against the chance "
                         "bound. Checked before the fit; never written over the input or through a symbolic link")


#: Folds of the estimate's nested choice of the SVM softness (the library's default).
INNER_FOLDS = 5


def _estimate_cv(y, groups, k):
    """(outer, inner) cross-validation of the estimate, fitted to the data; CLIError if too small.

    Stratified k-fold keeps at least ``count - ceil(count / k)`` samples of every class in a
    training fold; the nested choice of C splits that again, so both shrink to fit.
    With groups both leave one group out, so the training part of a fold needs 2 groups.
    """
    if groups is not None:
        n_groups = len(set(groups.tolist()))
        if n_groups < 3:
            raise CLIError(f"--groups: the estimate leaves one group out, then one more inside every training "
                           f"part, so it needs at least 3 groups; got {n_groups} (or use --no-estimate)")
        return None, None
    smallest = min(y.tolist().count(label) for label in set(y.tolist()))
    outer = min(k, smallest)
    in_training = smallest - math.ceil(smallest / max(outer, 1))
    if outer < 2 or in_training < 2:
        raise CLIError(f"the smallest class has {smallest} samples: too few for the estimate's nested "
                       "cross-validation (it needs 2 per class in every inner fold); use --no-estimate")
    return outer, min(INNER_FOLDS, in_training)


def _check_groups(groups, column):
    if groups is not None and len(set(groups.tolist())) < 2:
        raise CLIError(f"--groups {column}: all samples are in one group ({groups[0]}); leaving one "
                       "group out needs at least 2 groups (or leave out --groups)")


#: The estimate's options and their defaults (None on the command line: not given).
ESTIMATE_DEFAULTS = {"every": 10, "aggregate": "mean", "cv": 5}


def _estimate_options(args):
    """The estimate's options with their defaults; an option given with --no-estimate is
    refused rather than ignored (``--cv`` also sets the folds of --report's checks)."""
    if args.no_estimate:
        for name in ESTIMATE_DEFAULTS:
            if getattr(args, name) is not None and not (name == "cv" and args.report):
                raise CLIError(f"--{name} applies to the informative-fraction estimate, which --no-estimate "
                               "leaves out; drop one of them")
    return {name: default if getattr(args, name) is None else getattr(args, name)
            for name, default in ESTIMATE_DEFAULTS.items()}


def run(args):
    from ..analysis import run_repeat
    from ..analysis.duration import DurationLimitError, TimeLimitError
    from ..analysis.selectors import UnseparatedFit

    options = _estimate_options(args)
    report_path = check_report_path(args.report, inputs=[args.path, args.pheno])
    data = load_training_data(args, "repeat")
    _check_groups(data.groups, args.groups)
    outer_cv = inner_cv = None
    if not args.no_estimate:
        outer_cv, inner_cv = _estimate_cv(data.y, data.groups, options["cv"])
    bars = StageProgress(not (args.quiet or args.json), STAGES)
    try:
        result = run_repeat(data, method=args.method, C=args.C, class_weight=args.class_weight,
                            max_repetitions=args.max_repetitions, estimate=not args.no_estimate,
                            informative_every=options["every"], cv=outer_cv, inner_cv=inner_cv,
                            aggregate=options["aggregate"], base_checks=report_path is not None,
                            base_cv=options["cv"], random_state=args.random_state,
                            n_jobs=args.n_jobs, max_seconds=max_seconds(args), progress=bars)
    except UnseparatedFit as exc:
        raise not_separable("in all features", "the repetitive SFM finds nothing") from exc
    except DurationLimitError as exc:
        raise too_long(exc) from exc
    except TimeLimitError as exc:
        raise limit_passed(exc, ["--max-repetitions", "--no-estimate"]) from exc
    finally:
        bars.close()
    if report_path:
        from ..report import repeat_report  # matplotlib only when a report is written

        repeat_report(result, subtitle="written by sfmlearn repeat").write(report_path)
    result = result.to_dict()
    if args.json:
        print_json(result)
    else:
        _print_human(result, args.top)
        if report_path:
            print(f"report written to {report_path}")
    return 0


def _print_human(r, top):
    kind = print_data_and_kind(r)
    print(f"repetitive {r['method']} ({kind}): {r['n_repetitions']} repetitions in "
          f"{r['fit_seconds']:.1f} s; {r['n_ranked']} of {r['n_features']} features ranked")
    print(f"stopped: {r['stopped_because']}")
    sizes = r["subset_sizes_by_size"]
    if sizes:
        shown = ", ".join(map(str, sizes[:15])) + (", ..." if len(sizes) > 15 else "")
        print(f"subset sizes, smallest first: {shown} (largest {sizes[-1]})")
        print(f"first subset found: {', '.join(map(name_text, r['subsets'][0]))}")
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
        k = int(e["every"])
        ordinal = f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"
        every = "every repetition" if k == 1 else f"every {ordinal} repetition"
        print(f"\ninformative fraction ({scheme} cross-validation, SVM after {every}, "
              f"{e['aggregate']} of {e['folds']} fold curves):")
        if e["available"]:
            note = " -- extrapolated beyond the evaluated curve" if e["extrapolated"] else ""
            print(f"  {100 * e['fraction']:.1f} % of the features (~{e['n_informative']:.0f}), "
                  f"{e['fit']} sigmoid fit{note}")
            if e["reason"]:
                print(f"  note: {e['reason']}")
        else:
            print(f"  no estimate: {in_flags(e['reason'], {r'a smaller informative_every': 'a smaller --every'})}")
    print(f"time: {r['seconds']:.1f} s")
