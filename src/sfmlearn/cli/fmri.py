"""``sfmlearn fmri``: leave-one-participant-out SFM decoding of NIfTI beta maps (NC 4, thesis 6).

Reads 3-D/4-D NIfTI images, a brain mask, one label and one participant (or run) per
map -- or simulates button-press data with known informative voxels -- as an
:class:`~sfmlearn.mvpa.FMRIData` (:mod:`sfmlearn.analysis.fmri_data`), runs
:func:`sfmlearn.analysis.run_fmri` and writes its result folder
(:func:`sfmlearn.report.write_fmri_results`: NIfTI maps, PNG figures, CSV tables,
summary.json) into ``--out``.

``--out`` and ``--report`` are checked before the data are read; ``--out`` is created
only once the inputs are valid, and removed again if this run created it and then failed.
"""

import shutil
import time
from pathlib import Path

from ..analysis.names import SIMULATION_DESIGNS
from ..outputs.atomic import create_output_dir
from ..outputs.output_paths import staged_output_dir
from ._common import CLIError, StageProgress, add_max_hours_argument, add_overwrite_argument, at_least, check_new_dir, \
    limit_passed, max_seconds, n_jobs, not_separable, positive_float, print_json, seed, too_long
from .report import check_report_path


HELP = "leave-one-participant-out SFM decoding of NIfTI beta maps"
DESCRIPTION = ("Decode two conditions from NIfTI beta maps with the Support Feature "
               "Machine, leaving one participant (or run) out at a time; compare with a linear SVM "
               "on all voxels and with a group paired t-map; with --repetitive also run the "
               "repetitive SFM in every fold (voxel ranking, overlap with the t-map as in NC 2013 "
               "Table 3, consistency maps, estimated fraction of informative voxels). Writes NIfTI "
               "maps, PNG figures, CSV tables and summary.json into --out.")
EPILOG = ("Examples:\n"
          "  sfmlearn fmri --simulate buttonpress --out sim_out\n"
          "  sfmlearn fmri --table samples.csv --mask mask.nii.gz --repetitive --out res\n"
          "  sfmlearn fmri --images betas/*.nii.gz --mask mask.nii.gz --labels labels.txt "
          "--groups subjects.txt --out res")


#: What a run writes into ``--out``: a folder holding one of these holds an earlier result.
RESULT_NAMES = ("summary.json", "maps", "figures", "tables", "data")  # data: --simulate only


def _written(args):
    """What this run writes in --out: the results, and for --simulate also the data (data/)."""
    return RESULT_NAMES if args.simulate else tuple(name for name in RESULT_NAMES if name != "data")


def add_arguments(p):
    data = p.add_argument_group("data (images + labels + groups, a --table, or --simulate)")
    data.add_argument("--images", nargs="+", metavar="NIFTI",
                      help="3-D images (one map each) or 4-D images (one map per volume), in order")
    data.add_argument("--mask", help="brain mask NIfTI on the images' grid (non-zero = inside)")
    data.add_argument("--labels", nargs="+", metavar="LABEL",
                      help="one label per map, inline or as one text file (one per line)")
    data.add_argument("--groups", nargs="+", metavar="ID",
                      help="participant (or run) per map, inline or as one text file")
    data.add_argument("--table", metavar="CSV",
                      help="CSV with columns image, label, participant (one row per map; "
                      "image paths relative to the CSV; no empty cells, no duplicate column names), "
                      "instead of --images/--labels/--groups")
    data.add_argument("--label-column", default="label", help="label column of --table")
    data.add_argument("--group-column", default="participant", help="group column of --table")
    data.add_argument("--classes", nargs=2, metavar=("A", "B"),
                      help="the two labels to decode when there are more")
    data.add_argument("--simulate", choices=SIMULATION_DESIGNS,
                      help="simulate data with known informative voxels (written to OUT/data)")
    data.add_argument("--participants", type=at_least(2), default=None,
                      help="--simulate: number of participants (default: the design's)")
    data.add_argument("--runs", type=at_least(1), default=None, help="--simulate: runs per participant")
    data.add_argument("--grid-level", type=at_least(0), default=None,
                      help="--simulate: pyramid level of the 4 mm MNI152 grid (1 = 8 mm, "
                      "3666 voxels; 2 = 16 mm; default 1)")
    analysis = p.add_argument_group("analysis")
    analysis.add_argument("--level", type=at_least(0), default=0, metavar="L",
                          help="decode at pyramid level L (thesis 6.4.4: 1 = every second voxel, "
                          "further levels Gaussian pyramid reduce); default 0")
    analysis.add_argument("--C", type=positive_float, default=None,
                          help="softness of the SFM; omit for the hard SFM")
    analysis.add_argument("--repetitive", action="store_true",
                          help="also run the repetitive SFM in every fold (slower)")
    analysis.add_argument("--informative-every", type=at_least(0), default=None, metavar="K",
                          help="with --repetitive: SVM on the remaining voxels every K-th "
                          "repetition for the informative fraction (default and NC: 10; 0 = skip)")
    analysis.add_argument("--max-repetitions", type=at_least(1), default=None,
                          help="with --repetitive: cap on the repetitions per fold")
    analysis.add_argument("--permutations", type=at_least(0), default=0, metavar="N",
                          help="label permutations within participants (thesis: 20; default 0)")
    analysis.add_argument("--random-subsets", type=at_least(0), default=0, metavar="N",
                          help="SVMs on N random voxel subsets per size (NC Fig. 3: 1000; default 0)")
    analysis.add_argument("--random-state", type=seed, default=0, help="seed (0 ... 2**32 - 1)")
    analysis.add_argument("--n-jobs", type=n_jobs, default=1, help="parallel folds (joblib; -1 = all cores)")
    add_max_hours_argument(analysis, also=(
        ". With --C and --repetitive, the chance "
        "test decides when the repetitions stop, so the estimate counts one repetition per run"))
    output = p.add_argument_group("output")
    output.add_argument("--out", required=True, metavar="DIR",
                        help="output directory (created when the inputs are valid); one that already "
                        f"holds a result ({', '.join(RESULT_NAMES[:-1])}; with --simulate also data) is refused "
                        "unless --overwrite")
    output.add_argument("--json", action="store_true", help="print summary.json to stdout")
    output.add_argument("--report", metavar="OUT.html",
                        help="also write a self-contained HTML report of the run (summary, "
                             "brain maps, tables); 'sfmlearn report DIR' makes one later")
    output.add_argument("--quiet", action="store_true", help="no progress display")
    add_overwrite_argument(output)


def _input_files(args):
    """Every file the run reads; no output may be one of them."""
    files = list(args.images or []) + [args.mask, args.table]
    files += [items[0] for items in (args.labels, args.groups) if items and len(items) == 1]
    return [f for f in files if f is not None]


def _prepare(args):
    """The maps to analyse: read or simulated, two classes, at ``--level``."""
    from ..analysis.fmri_data import load_fmri_data, simulate_fmri_data

    if args.simulate:
        data = simulate_fmri_data(args.simulate, participants=args.participants, runs=args.runs,
                                  grid_level=1 if args.grid_level is None else args.grid_level, classes=args.classes,
                                  random_state=args.random_state)
    else:
        data = load_fmri_data(images=args.images, mask=args.mask, labels=args.labels, groups=args.groups,
                              table=args.table, label_column=args.label_column, group_column=args.group_column)
        data = data.two_classes(args.classes, option="--classes")
    return data.at_level(args.level, option="--level")


def _refuse_unused_options(args):
    """Options the chosen data source would ignore: a mistake to name, not to skip."""
    if args.simulate and (args.images or args.table):
        raise CLIError("give either --simulate or data (--images/--table), not both")
    if args.images and args.table:
        raise CLIError("give either --images (with --labels and --groups) or --table, not both")
    if not (args.images or args.table or args.simulate):
        raise CLIError("give --images (with --labels and --groups), --table, or --simulate")
    if args.classes and args.classes[0] == args.classes[1]:
        raise CLIError(f"--classes must name two different labels; got {args.classes[0]!r} twice")
    unused = {"mask": "--simulate", "labels": "--simulate", "groups": "--simulate"} if args.simulate else {
        **({"labels": "--table (its columns)", "groups": "--table (its columns)"} if args.table else {}),
        **dict.fromkeys(("participants", "runs", "grid_level"), "real data (--images/--table)")}
    for name, source in unused.items():
        if getattr(args, name) is not None:
            raise CLIError(f"--{name.replace('_', '-')} is not used with {source}; leave it out")
    for name in ("max_repetitions", "informative_every"):
        if getattr(args, name) is not None and not args.repetitive:
            raise CLIError(f"--{name.replace('_', '-')} applies with --repetitive; add --repetitive or leave it out")
    if args.table and args.label_column == args.group_column:
        raise CLIError(f"--label-column and --group-column name the same column {args.label_column!r}; "
                       "the labels and the groups need a column each")


def run(args):
    _refuse_unused_options(args)
    from ..report import report_from_result_dir, write_fmri_results

    inputs = _input_files(args)
    out = check_new_dir(args.out, inputs=inputs, what="--out", names=_written(args))
    # a report inside --out is checked once --out exists; any other before the data are read
    report_in_out = args.report is not None and Path(args.report).parent.resolve() == out.resolve()
    report_path = None if report_in_out else check_report_path(args.report, inputs=inputs)
    started = time.perf_counter()
    data = _prepare(args)
    created = create_output_dir(out)
    try:
        if report_in_out:
            report_path = check_report_path(args.report, inputs=inputs)
        result = _analyse(data, args, started)
        with staged_output_dir(out) as stage:  # all of the result or none; nothing left of an earlier one
            summary = write_fmri_results(stage, result)
        if report_path:
            report_from_result_dir(out, report_path)
    except BaseException:
        if created is not None:  # leave nothing behind that this failed run made
            shutil.rmtree(created, ignore_errors=True)
        raise
    if args.json:
        print_json(summary)
    else:
        _print_human(summary, out, report_path)
    return 0


def _analyse(data, args, started):
    from ..analysis import run_fmri
    from ..analysis.duration import DurationLimitError, TimeLimitError
    from ..analysis.selectors import UnseparatedFit

    bar = StageProgress(not (args.quiet or args.json))
    try:
        every = {} if args.informative_every is None else {"informative_every": args.informative_every}
        return run_fmri(data, C=args.C, repetitive=args.repetitive, **every,
                        max_repetitions=args.max_repetitions, n_permutations=args.permutations,
                        random_subsets=args.random_subsets, random_state=args.random_state, n_jobs=args.n_jobs,
                        max_seconds=max_seconds(args), progress=bar, started=started)
    except UnseparatedFit as exc:
        raise not_separable("in a training fold", "the hard SFM has no solution") from exc
    except DurationLimitError as exc:
        raise too_long(exc) from exc
    except TimeLimitError as exc:
        raise limit_passed(exc, ["--max-repetitions", "fewer --permutations or --random-subsets"]) from exc
    finally:
        bar.close()


def _print_human(summary, out, report_path):
    s = summary["summary"]
    print(f"{summary['title']}: {s['maps']} maps x {s['voxels']} voxels, {s['groups']} groups")
    print(f"SFM accuracy {100 * s['sfm_accuracy']:.1f}% ({s['sfm_mean_selected']:.1f} voxels "
          f"per fold); linear SVM on all voxels {100 * s['svm_accuracy']:.1f}%")
    if "informative_fraction" in s:
        estimate = s["informative_fraction"]
        reason = (summary.get("repetitive") or {}).get("informative_fraction", {}).get("reason") or "no estimate"
        print("estimated informative fraction: " + (f"{estimate:.3g}" if estimate is not None else f"none ({reason})"))
    print(f"wrote {len(summary['maps'])} maps, {len(summary['figures'])} figures, "
          f"{len(summary['tables'])} tables and summary.json to {out}")
    if report_path:
        print(f"report written to {report_path}")
