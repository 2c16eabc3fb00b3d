"""``sfmlearn separability``: how likely is a separating subset by chance for a data shape?"""

from ..analysis.names import MAX_MC_SUBSETS
from ._common import CLIError, add_overwrite_argument, at_least, check_new_dir, n_jobs, positive_float, print_json, \
    progress, seed


HELP = "chance of separating random data with k of d features; theory figures"
DESCRIPTION = ("For n samples and d features, print the probability that random data "
               "of that shape is linearly separable (Wendel/Cover), the bounds on separability "
               "in some k of the d features (thesis eq. 2.3), the VC bound of selecting k of d "
               "features (thesis 3.4), and whether leave-one-out of a linear SVM behaves as if d "
               "were infinite (thesis 4.1). With --figures, write the theory figures as PNG.")
EXAMPLES = ("sfmlearn separability --n 38 --d 7129 --k 2",
            "sfmlearn separability --n 62 --d 2000 --json",
            "sfmlearn separability --figures figures/ --quick")
#: argparse re-flows the description and the examples (no raw formatting)
REFLOW = True


def add_arguments(p):
    shape = p.add_argument_group("data shape")
    shape.add_argument("--n", type=at_least(1), help="number of samples")
    shape.add_argument("--d", type=at_least(1), help="number of features")
    shape.add_argument("--k", type=at_least(1), nargs="+", default=None, metavar="K",
                       help="subset size(s) (default 1 2 3 4 5)")
    shape.add_argument("--C", type=positive_float, default=None,
                       help="SVM softness for the leave-one-out regime (default: hard margin)")
    shape.add_argument("--monte-carlo", type=at_least(0), default=0, metavar="TRIALS",
                       help="also estimate P(separable in some k-subset) by simulation "
                       f"(enumerates C(d, k) subsets; refused above {MAX_MC_SUBSETS})")
    shape.add_argument("--random-state", type=seed, default=0, help="seed of the simulations (0 ... 2**32 - 1)")
    figures = p.add_argument_group("figures")
    figures.add_argument("--figures", metavar="DIR",
                         help="write thesis Fig. 2.5-2.9, 3.5, 4.1-4.3 as PNG files (fig2_5_....png) into DIR; "
                         "refused when one of them exists there, unless --overwrite; other files in DIR "
                         "are left alone")
    figures.add_argument("--quick", action="store_true",
                         help="small simulations for the figures (seconds instead of about 40 minutes)")
    figures.add_argument("--n-jobs", type=n_jobs, default=None, help="parallel simulation workers (-1 = all cores)")
    output = p.add_argument_group("output")
    output.add_argument("--json", action="store_true", help="print machine-readable JSON")
    output.add_argument("--quiet", action="store_true", help="no progress display")
    add_overwrite_argument(output)


def run(args):
    shape = [f"--{name}" for name in ("n", "d", "k", "C") if getattr(args, name) is not None]
    shape += ["--monte-carlo"] * bool(args.monte_carlo)
    figures = [flag for flag, given in (("--quick", args.quick), ("--n-jobs", args.n_jobs is not None),
                                        ("--overwrite", args.overwrite)) if given]
    if args.figures and shape:  # the figures have their own shapes: the options would be ignored
        raise CLIError(f"{', '.join(shape)} {'describes' if len(shape) == 1 else 'describe'} one data shape, "
                       "which --figures does not use; drop one of them")
    if not args.figures and figures:
        raise CLIError(f"{', '.join(figures)} {'applies' if len(figures) == 1 else 'apply'} with --figures; add "
                       f"--figures DIR or leave {'it' if len(figures) == 1 else 'them'} out")
    if args.figures:
        return _figures(args)
    if args.n is None or args.d is None:
        raise CLIError("give the data shape (--n SAMPLES --d FEATURES) or --figures DIR")
    k_values = args.k or [k for k in range(1, 6) if k <= args.d]
    bad = [k for k in k_values if not 1 <= k <= args.d]
    if bad:
        raise CLIError(f"--k must lie between 1 and d = {args.d}; got {bad}")
    from ..analysis.separability import separability_summary

    result = separability_summary(args.n, args.d, k_values, C=args.C, monte_carlo=args.monte_carlo,
                                  random_state=args.random_state)
    if args.json:
        print_json(result)
    else:
        _print_human(result)
    return 0


def _fmt(p):
    return "1" if p == 1 else f"{p:.3g}"


def _print_human(r):
    n, d = r["n"], r["d"]
    print(f"Random data with n = {n} samples and d = {d} features "
          "(Gaussian, or any data with random labels):")
    print(f"  separable in all {d} features: P = {_fmt(r['p_separable'])} (no bias), "
          f"{_fmt(r['p_separable_with_bias'])} (with bias)")
    mc = "monte_carlo" in r["subsets"][0]
    header = f"  {'k':>3}  {'one fixed k-subset':>18}  {'some k-subset <= (no bias)':>26}  {'<= (with bias)':>14}"
    print(header + (f"  {'simulated':>9}" if mc else "") + f"  {'VC bound h*':>11}")
    for s in r["subsets"]:
        upper = _fmt(s["upper_bound"]) + (f" (exact {_fmt(s['exact'])})" if s["exact"] is not None else "")
        line = f"  {s['k']:>3}  {_fmt(s['p_fixed_subset']):>18}  {upper:>26}  {_fmt(s['upper_bound_with_bias']):>14}"
        print(line + (f"  {_fmt(s['monte_carlo']):>9}" if mc else "") + f"  {s['vc_bound']:>11}")
    print("  (bounds of thesis eq. 2.3; 'with bias' counts the hyperplane offset every "
          "sfmlearn selector fits, for uniformly random labels)")
    if "loo" in r:
        print(f"leave-one-out: {r['loo']['text']}")


def _figures(args):
    from ..analysis.separability import theory_figure_files, theory_figures

    files = theory_figure_files()
    check_new_dir(args.figures, what="--figures", names=files)
    show = not (args.quiet or args.json)
    with progress("writing theory figures", len(files), enabled=show) as advance:
        table = theory_figures(args.figures, quick=args.quick, random_state=args.random_state,
                               n_jobs=args.n_jobs, progress=lambda stem: advance())
    if args.json:
        print_json({"figures": table.to_dict(orient="records")})
    else:
        for row in table.itertuples():
            print(f"{row.path}  ({row.seconds:.1f} s)")
    return 0
