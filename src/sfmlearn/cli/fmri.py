"""``sfmlearn fmri``: leave-one-participant-out SFM decoding of NIfTI beta maps (NC 4, thesis 6).

Reads 3-D/4-D NIfTI images, a brain mask, one label and one participant (or run) per
map -- or simulates button-press data with known informative voxels -- as an
:class:`~sfmlearn.mvpa.FMRIData`, runs :func:`sfmlearn.mvpa.analyse` and writes the
result folder of :func:`sfmlearn.report.save_fmri_results` (NIfTI maps, PNG figures,
CSV tables, summary.json) into ``--out``.

``--out`` and ``--report`` are checked before the data are read; ``--out`` is created
only once the inputs are valid, and removed again if this run created it and then failed.
"""

import argparse
import shutil
import time
from pathlib import Path

import numpy as np

from ..exceptions import DataValidationError, NotSeparableError
from ..imaging.simulate import DESIGNS, mni152_mask, simulate_fmri
from ..imaging.volumes import VolumeMask, downsample_mask
from ..outputs.atomic import check_output_dir, create_output_dir
from ..mvpa import FMRIData, analyse
from ..report import report_from_result_dir, save_fmri_results
from ..selection import SupportFeatureMachine
from ._common import CLIError, StageProgress, at_least, n_jobs, not_separable, positive_float, print_json, seed
from ._io import read_table
from .report import check_report_path


def register(subparsers):
    p = subparsers.add_parser(
        "fmri", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="leave-one-participant-out SFM decoding of NIfTI beta maps",
        description="Decode two conditions from NIfTI beta maps with the Support Feature "
        "Machine, leaving one participant (or run) out at a time; compare with a linear SVM "
        "on all voxels and with a group paired t-map; with --repetitive also run the "
        "repetitive SFM in every fold (voxel ranking, overlap with the t-map as in NC 2013 "
        "Table 3, consistency maps, estimated fraction of informative voxels). Writes NIfTI "
        "maps, PNG figures, CSV tables and summary.json into --out.",
        epilog="Examples:\n"
        "  sfmlearn fmri --simulate buttonpress --out sim_out\n"
        "  sfmlearn fmri --table samples.csv --mask mask.nii.gz --repetitive --out res\n"
        "  sfmlearn fmri --images betas/*.nii.gz --mask mask.nii.gz --labels labels.txt "
        "--groups subjects.txt --out res",
    )
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
    data.add_argument("--simulate", choices=sorted(DESIGNS),
                      help="simulate data with known informative voxels (written to OUT/data)")
    data.add_argument("--participants", type=at_least(2), default=None,
                      help="--simulate: number of participants (default: the design's)")
    data.add_argument("--runs", type=at_least(1), default=None, help="--simulate: runs per participant")
    data.add_argument("--grid-level", type=at_least(0), default=1,
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
    analysis.add_argument("--informative-every", type=at_least(0), default=10, metavar="K",
                          help="with --repetitive: SVM on the remaining voxels every K-th "
                          "repetition for the informative fraction (NC: 10; 0 = skip)")
    analysis.add_argument("--max-repetitions", type=at_least(1), default=None,
                          help="with --repetitive: cap on the repetitions per fold")
    analysis.add_argument("--permutations", type=at_least(0), default=0, metavar="N",
                          help="label permutations within participants (thesis: 20; default 0)")
    analysis.add_argument("--random-subsets", type=at_least(0), default=0, metavar="N",
                          help="SVMs on N random voxel subsets per size (NC Fig. 3: 1000; default 0)")
    analysis.add_argument("--random-state", type=seed, default=0, help="seed (0 ... 2**32 - 1)")
    analysis.add_argument("--n-jobs", type=n_jobs, default=1, help="parallel folds (joblib; -1 = all cores)")
    output = p.add_argument_group("output")
    output.add_argument("--out", required=True, metavar="DIR",
                        help="output directory (created when the inputs are valid; files in it are "
                        "replaced one by one, atomically)")
    output.add_argument("--json", action="store_true", help="print summary.json to stdout")
    output.add_argument("--report", metavar="OUT.html",
                        help="also write a self-contained HTML report of the run (summary, "
                             "brain maps, tables); 'sfmlearn report DIR' makes one later")
    output.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(func=run)


# ----------------------------------------------------------------------------- data

def _values(items, what, n=None):
    """Inline values, or one text file with one value per line."""
    if items is None:
        raise CLIError(f"give --{what} (one per map, inline or as a text file), or use --table")
    if len(items) == 1 and Path(items[0]).is_file():
        try:
            lines = Path(items[0]).read_text(encoding="utf-8").split()
        except UnicodeDecodeError as exc:
            raise CLIError(f"--{what} {items[0]}: not a UTF-8 text file with one value per line") from exc
        values = np.array(lines, dtype=object)
    else:
        values = np.array(items, dtype=object)
    if n is not None and values.size != n:
        raise CLIError(f"--{what}: {values.size} values for {n} maps; give one per map")
    return values


def _numeric_if_possible(values):
    try:
        return np.array(values, dtype=float).astype(int) if all(
            float(v).is_integer() for v in values) else values
    except (TypeError, ValueError):
        return values


def _load_files(args):
    if not (args.images or args.table):
        raise CLIError("give --images (with --labels and --groups), --table, or --simulate")
    if args.mask is None:
        raise CLIError("--mask is required with --images or --table")
    mask = VolumeMask.load(args.mask)
    if args.table:
        table_path = Path(args.table)
        columns = ("image", args.label_column, args.group_column)
        table = read_table(table_path, keep=columns)
        if table.empty:
            raise CLIError(f"--table {args.table} has no rows; it needs one row per map")
        for column in columns:
            if column not in table:
                raise CLIError(f"{args.table} has no column {column!r} (columns: {list(table.columns)})")
            missing = np.flatnonzero(table[column].isna().to_numpy())
            if missing.size:
                raise CLIError(f"--table {args.table}: column {column!r} is empty in {missing.size} row(s) "
                               f"(first: data row {missing[0] + 1}); fill them in or drop those rows")
        images = [str(table_path.parent / str(p)) for p in table["image"]]
        X = mask.transform(images)
        labels = table[args.label_column].to_numpy(dtype=object)
        groups = table[args.group_column].to_numpy()
        name = str(args.table)
    else:
        X = mask.transform(args.images)
        labels = _values(args.labels, "labels", X.shape[0])
        groups = _numeric_if_possible(_values(args.groups, "groups", X.shape[0]))
        name = f"{len(args.images)} image file(s)"
    if X.shape[0] != labels.size:
        raise CLIError(f"the images hold {X.shape[0]} maps but there are {labels.size} labels")
    return FMRIData(name=name, mask=mask, X=X, labels=labels, groups=groups)


def _input_files(args):
    """Every file the run reads; no output may be one of them."""
    files = list(args.images or []) + [args.mask, args.table]
    files += [items[0] for items in (args.labels, args.groups) if items and len(items) == 1]
    return [f for f in files if f is not None]


def _simulate(args):
    """The simulated maps of the pair to decode (the data are written to OUT/data)."""
    try:
        grid = downsample_mask(mni152_mask(), args.grid_level)
    except DataValidationError as exc:
        raise CLIError(f"--grid-level {args.grid_level} is too coarse for the 4 mm MNI152 mask ({exc})") from exc
    try:
        sim = simulate_fmri(args.simulate, mask=grid, n_participants=args.participants,
                            n_runs=args.runs, random_state=args.random_state)
    except DataValidationError as exc:  # the other arguments are checked by their option types
        raise CLIError(f"--grid-level {args.grid_level} is too coarse for the '{args.simulate}' simulation: "
                       f"some of its clusters have no voxel on that grid ({grid.n_voxels} voxels); use a "
                       "smaller --grid-level") from exc
    return FMRIData.from_simulation(sim, args.classes, name=f"simulated {args.simulate}", option="--classes")


def _prepare(args):
    """The maps to analyse: read or simulated, two classes, at ``--level``."""
    if args.simulate:
        data = _simulate(args)
    else:
        data = _load_files(args).two_classes(args.classes, option="--classes")
    return data.at_level(args.level, option="--level")


def run(args):
    if args.simulate and (args.images or args.table):
        raise CLIError("give either --simulate or data (--images/--table), not both")
    inputs = _input_files(args)
    out = check_output_dir(args.out, inputs=inputs, what="--out")
    # a report inside --out is checked once --out exists; any other before the data are read
    report_in_out = args.report is not None and Path(args.report).parent.resolve() == out.resolve()
    report_path = None if report_in_out else check_report_path(args.report, inputs=inputs)
    started = time.perf_counter()
    data = _prepare(args)
    created = create_output_dir(out)
    try:
        if report_in_out:
            report_path = check_report_path(args.report, inputs=inputs)
        analysis = _analyse(data, args)
        summary = save_fmri_results(out, data, analysis, seconds=time.perf_counter() - started)
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


def _analyse(data, args):
    bar = StageProgress(not (args.quiet or args.json))
    try:
        return analyse(data.X, data.labels, data.groups, estimator=SupportFeatureMachine(C=args.C),
                       repetitive=args.repetitive, informative_every=args.informative_every or None,
                       max_repetitions=args.max_repetitions, n_permutations=args.permutations,
                       random_subset_repeats=args.random_subsets, random_state=args.random_state,
                       n_jobs=args.n_jobs, progress=bar)
    except NotSeparableError as exc:
        raise not_separable("in a training fold", "the hard SFM has no solution") from exc
    finally:
        bar.close()


def _print_human(summary, out, report_path):
    s = summary["summary"]
    print(f"{summary['title']}: {s['maps']} maps x {s['voxels']} voxels, {s['groups']} groups")
    print(f"SFM accuracy {100 * s['sfm_accuracy']:.1f}% ({s['sfm_mean_selected']:.1f} voxels "
          f"per fold); linear SVM on all voxels {100 * s['svm_accuracy']:.1f}%")
    if "informative_fraction" in s:
        print(f"estimated informative fraction: {s['informative_fraction']}")
    print(f"wrote {len(summary['maps'])} maps, {len(summary['figures'])} figures, "
          f"{len(summary['tables'])} tables and summary.json to {out}")
    if report_path:
        print(f"report written to {report_path}")
