"""``sfmlearn fmri``: leave-one-participant-out SFM decoding of NIfTI beta maps (NC 4, thesis 6).

Reads 3-D/4-D NIfTI images, a brain mask, one label and one participant (or run) per
map -- or simulates button-press data with known informative voxels -- runs
:func:`sfmlearn.mvpa.analyse` and writes into ``--out``::

    maps/     NIfTI maps in the mask's space (SFM weights, selection frequency, t,
              with --repetitive the rSFM ranking and top-q% consistency)
    figures/  PNG slice montages (and nilearn glass brains when nilearn is installed),
              the NC Table 3 overlap bars, the informative-fraction curve, NC Fig. 3
    tables/   CSV tables (folds, selected voxels, overlaps, ...)
    summary.json  title, data, accuracies, voxel counts and every figure/table path

Every file is written atomically (:mod:`sfmlearn.io.atomic`). ``--out`` and ``--report``
are checked before the data are read; ``--out`` is created only once the inputs are
valid, and removed again if this run created it and then failed.
"""

import argparse
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError, NotSeparableError
from ..imaging.simulate import DESIGNS, mni152_mask, simulate_fmri
from ..imaging.volumes import VolumeMask, downsample, downsample_mask
from ..io.atomic import (check_output_dir, create_output_dir, save_figure, save_nifti, write_csv,
                         write_json)
from ..mvpa import analyse, consensus, overlap_with_truth, top_by_score
from ..plotting import brain
from ..plotting.repetitive import informative_fraction_figure
from ..report import report_from_result_dir
from ..report.figures import literal
from ..selection import SupportFeatureMachine
from ._common import (CLIError, StageProgress, at_least, n_jobs, not_separable, positive_float, print_json,
                      seed, to_jsonable)
from ._io import read_table
from .report import check_report_path

#: The top-q % threshold drawn as the NC Fig. 5 overlap montage (NC: 2.5 % ~ p = 0.001).
FIGURE_Q = 2.5


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
    return {"name": name, "mask": mask, "X": X, "labels": labels, "groups": groups, "truth": None}


def _input_files(args):
    """Every file the run reads; no output may be one of them."""
    files = list(args.images or []) + [args.mask, args.table]
    files += [items[0] for items in (args.labels, args.groups) if items and len(items) == 1]
    return [f for f in files if f is not None]


def _simulate(args):
    """The simulated data in memory (written to OUT/data once --out exists)."""
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
    first, second = args.classes or sim.conditions[:2]
    # with two conditions the truth includes every participant's shifted clusters; for a
    # pair out of more it is where the pair's participant-free patterns differ
    truth = sim.truth if len(sim.conditions) == 2 else sim.truth_for(first, second)
    return {"name": f"simulated {args.simulate} (written to data/)", "mask": sim.mask, "X": sim.X,
            "labels": sim.labels.astype(str), "groups": sim.participants,
            "truth": truth, "simulation": sim.params, "pair": [first, second], "save": sim.save}


def _two_classes(data, classes):
    labels = np.asarray(data["labels"]).astype(str)
    present = np.unique(labels)
    if classes is None:
        if present.size != 2:
            raise CLIError(f"found labels {present.tolist()}; choose two with --classes A B")
        return data
    missing = [c for c in classes if c not in present]
    if missing:
        raise CLIError(f"--classes {missing} not among the labels {present.tolist()}")
    keep = np.isin(labels, classes)
    return {**data, "X": data["X"][keep], "labels": labels[keep],
            "groups": np.asarray(data["groups"])[keep]}


def _at_level(data, level):
    if level == 0:
        return data
    try:
        volumes, mask = downsample(data["mask"].volumes(data["X"]), data["mask"], level)
    except DataValidationError as exc:
        raise CLIError(f"--level {level} is too coarse for this mask ({exc})") from exc
    truth = data["truth"]
    if truth is not None:  # a coarse voxel is informative if the fine voxel it samples is
        fine = VolumeMask(data["mask"].volumes(truth, fill=False), data["mask"].affine)
        try:
            truth = downsample_mask(fine, level).data[mask.data]
        except DataValidationError:  # no informative voxel is sampled at this level
            truth = None
        truth = truth if truth is not None and truth.any() else None
    return {**data, "mask": mask, "X": mask.matrix(volumes), "truth": truth}


# ----------------------------------------------------------------------------- outputs

class _Writer:
    """Writes maps, figures and tables under ``out`` and records them for summary.json."""

    def __init__(self, out, mask):
        self.out, self.mask = out, mask
        self.maps, self.figures, self.tables = [], [], []
        for sub in ("maps", "figures", "tables"):
            (out / sub).mkdir(parents=True, exist_ok=True)

    def map(self, name, values, caption, dtype=np.float32):
        path = f"maps/{name}.nii.gz"
        save_nifti(self.mask.inverse_transform(values, dtype=dtype), self.out / path)
        self.maps.append({"path": path, "caption": caption})
        return path

    def figure(self, name, fig, caption):
        path = f"figures/{name}.png"
        save_figure(fig, self.out / path, dpi=110)
        self.figures.append({"path": path, "caption": caption})

    def glass(self, name, map_path, caption):
        path = f"figures/{name}_glass.png"
        if brain.glass_brain(str(self.out / map_path), self.out / path, title=caption):
            self.figures.append({"path": path, "caption": caption + " (glass brain, nilearn)"})

    def table(self, name, frame, caption):
        path = f"tables/{name}.csv"
        write_csv(frame, self.out / path, index=False)
        self.tables.append({"path": path, "caption": caption})


def _selected_voxels(mask, sfm):
    selected = np.flatnonzero(sfm.support_)
    order = selected[np.argsort(-np.abs(sfm.scaled_coef_[selected]))]
    ijk = mask.voxel_indices[order]
    xyz = (mask.affine @ np.c_[ijk, np.ones(len(order))].T).T[:, :3]
    return pd.DataFrame({"voxel": order, "i": ijk[:, 0], "j": ijk[:, 1], "k": ijk[:, 2],
                         "x_mm": xyz[:, 0], "y_mm": xyz[:, 1], "z_mm": xyz[:, 2],
                         "weight_scaled": sfm.scaled_coef_[order], "weight": sfm.coef_[0, order]})


def _write(result, data, out, args):
    mask = data["mask"]
    w = _Writer(out, mask)
    classes = [str(c) for c in result.classes]
    drawn = [literal(c) for c in classes]  # class labels as matplotlib text ('$' escaped)
    sfm = result.sfm
    weights = w.map("sfm_weights", sfm.coef_.ravel(),
                    f"SFM weights on all maps (+ favours {classes[1]})")
    w.figure("sfm_weights", brain.slice_montage(
        mask, sfm.coef_.ravel(), title=f"SFM on all maps: {int(sfm.support_.sum())} voxels",
        label=f"weight (+ {drawn[1]})", symmetric=True, threshold=0.0), "SFM weights (all maps)")
    w.glass("sfm_weights", weights, "SFM weights")
    frequency = result.decoding.selection_frequency
    w.map("sfm_selection_frequency", frequency, "fraction of folds whose SFM selected the voxel")
    w.figure("sfm_selection_frequency", brain.slice_montage(
        mask, frequency, title="SFM selection frequency across folds", label="fraction of folds",
        threshold=0.0), "how often each voxel was selected across leave-one-out folds")
    t_path = w.map("t_map", np.nan_to_num(result.tmap.t), f"paired t ({classes[1]} - {classes[0]})")
    w.figure("t_map", brain.slice_montage(mask, np.nan_to_num(result.tmap.t), symmetric=True,
                                          title="group paired t-map", label="t"),
             "group paired t-test on per-participant class means (NC 4.2)")
    w.glass("t_map", t_path, "paired t-map")
    w.table("selected_voxels", _selected_voxels(mask, sfm),
            "voxels of the SFM on all maps, by |weight|, with MNI coordinates")
    folds = pd.concat([result.decoding.folds.assign(estimator="SFM"),
                       result.svm.folds.assign(estimator="linear SVM (all voxels)")])
    w.table("decoding_folds", folds, "leave-one-group-out accuracy per held-out group")

    if result.repetitive is not None:
        rep = result.repetitive
        ranking = result.rsfm.ranking_.copy()
        ranking[ranking > sum(s.size for s in result.rsfm.subsets_)] = 0
        w.map("rsfm_ranking", ranking, "rSFM rank on all maps (1 = best, 0 = never selected)",
              dtype=np.int32)
        for q in result.consistency:
            w.map(f"consistency_q{q:g}", result.consistency[q],
                  f"fraction of folds with the voxel in their rSFM top {q:g} %")
        w.figure(f"consistency_q{FIGURE_Q:g}", brain.slice_montage(
            mask, result.consistency[FIGURE_Q], threshold=0.0, label="fraction of folds",
            title=f"rSFM top {FIGURE_Q:g} % consistency across folds"),
            f"how often each voxel is in the folds' rSFM top {FIGURE_Q:g} % (thesis Fig. 6.5)")
        rsfm_top = consensus(rep.rankings, FIGURE_Q)
        t_top = top_by_score(np.abs(np.nan_to_num(result.tmap.t)), FIGURE_Q)
        w.figure(f"overlap_q{FIGURE_Q:g}", brain.overlap_montage(
            mask, rsfm_top, t_top, title=f"top {FIGURE_Q:g} %: rSFM (half of the folds) vs |t|"),
            "NC Fig. 5: rSFM consensus (red), t-map (green), both (yellow)")
        w.table("overlap_tmap", result.overlap, "NC Table 3: overlap of rSFM and |t| top-q% sets")
        w.figure("overlap_tmap", brain.overlap_bars(result.overlap),
                 "overlap of the rSFM and t-map top sets vs chance (NC Table 3)")
        subsets = pd.DataFrame(
            [{"group": g, "repetition": t + 1, "size": int(size), "sfm_test_error": float(err)}
             for g, path, errors in zip(rep.groups, rep.paths, rep.sfm_errors)
             for t, (size, err) in enumerate(zip(path.sizes, errors))])
        w.table("rsfm_repetitions", subsets, "every fold's rSFM subsets and their test errors")
        if rep.informative is not None:
            w.figure("informative_fraction", informative_fraction_figure(rep.informative),
                     "estimated fraction of informative voxels (NC Fig. 4)")
    if data["truth"] is not None:
        truth = data["truth"]
        w.map("truth", truth.astype(np.uint8), "simulated informative voxels", dtype=np.uint8)
        scores = {"t-map": np.abs(np.nan_to_num(result.tmap.t))}
        if result.repetitive is not None:
            scores = {"rSFM": result.repetitive.rankings, **scores}
        w.table("overlap_truth", overlap_with_truth(scores, truth),
                "precision/recall of top-q% sets against the simulated truth")
    if result.random_subsets is not None:
        w.table("random_subsets", result.random_subsets, "SVM error on random voxel subsets")
        w.figure("random_subsets", brain.random_subsets_boxplot(
            result.random_subsets, sfm_error=1 - result.decoding.accuracy),
            "NC Fig. 3: SVMs on random voxel subsets")
    if result.permutations is not None:
        w.table("permutations", result.permutations.permutations,
                "decoding on labels permuted within participants")
    return w


def _summary(result, data, w, args, seconds):
    decoding = result.decoding.summary()
    summary = {
        "title": f"fMRI decoding: {data['name']}, {' vs '.join(map(str, result.classes))}",
        "description": "Leave-one-group-out decoding with the Support Feature Machine "
        "(feature selection inside every fold) against a linear SVM on all voxels, with the "
        "group paired t-map (NC 2013 section 4, thesis chapter 6).",
        "summary": {
            "maps": result.n_maps, "voxels": result.n_voxels, "groups": result.n_groups,
            "classes": [str(c) for c in result.classes], "level": args.level,
            "voxel_size_mm": float(data["mask"].voxel_size[0]),
            "sfm_accuracy": decoding["accuracy"], "sfm_balanced_accuracy": decoding["balanced_accuracy"],
            "sfm_mean_selected": decoding["mean_selected"],
            "svm_accuracy": result.svm.accuracy,
            "sfm_all_maps_selected": int(result.sfm.support_.sum()),
            "softness_C": args.C, "seconds": seconds,
        },
        "decoding": {"sfm": decoding, "svm": result.svm.summary()},
        "maps": w.maps, "figures": w.figures, "tables": w.tables,
    }
    if result.repetitive is not None:
        rep = result.repetitive.summary()
        summary["repetitive"] = {k: v for k, v in rep.items() if k != "folds"}
        summary["repetitive"]["repetitions_per_fold"] = [f["n_repetitions"] for f in rep["folds"]]
        summary["repetitive"]["ranked_per_fold"] = [f["n_ranked"] for f in rep["folds"]]
        summary["overlap_tmap"] = result.overlap.to_dict(orient="records")
        if "informative_fraction" in rep:
            summary["summary"]["informative_fraction"] = rep["informative_fraction"]["estimate"]
    if data["truth"] is not None:
        summary["summary"]["true_informative_fraction"] = float(np.mean(data["truth"]))
        summary["simulation"] = data["simulation"]
    if result.permutations is not None:
        summary["permutations"] = result.permutations.summary()
    if result.random_subsets is not None:
        summary["random_subsets"] = (result.random_subsets.groupby("size")["error"]
                                     .agg(["mean", "median"]).reset_index().to_dict(orient="records"))
    return summary


def run(args):
    if args.simulate and (args.images or args.table):
        raise CLIError("give either --simulate or data (--images/--table), not both")
    inputs = _input_files(args)
    out = check_output_dir(args.out, inputs=inputs, what="--out")
    # a report inside --out is checked once --out exists; any other before the data are read
    report_in_out = args.report is not None and Path(args.report).parent.resolve() == out.resolve()
    report_path = None if report_in_out else check_report_path(args.report, inputs=inputs)
    started = time.perf_counter()
    data = _simulate(args) if args.simulate else _load_files(args)
    data = _at_level(_two_classes(data, args.classes or data.get("pair")), args.level)
    created = create_output_dir(out)
    try:
        if report_in_out:
            report_path = check_report_path(args.report, inputs=inputs)
        summary, writer = _analyse_and_write(data, out, args, started)
        if report_path:
            report_from_result_dir(out, report_path)
    except BaseException:
        if created is not None:  # leave nothing behind that this failed run made
            shutil.rmtree(created, ignore_errors=True)
        raise
    if args.json:
        print_json(summary)
    else:
        s = summary["summary"]
        print(f"{summary['title']}: {s['maps']} maps x {s['voxels']} voxels, {s['groups']} groups")
        print(f"SFM accuracy {100 * s['sfm_accuracy']:.1f}% ({s['sfm_mean_selected']:.1f} voxels "
              f"per fold); linear SVM on all voxels {100 * s['svm_accuracy']:.1f}%")
        if "informative_fraction" in s:
            print(f"estimated informative fraction: {s['informative_fraction']}")
        print(f"wrote {len(writer.maps)} maps, {len(writer.figures)} figures, "
              f"{len(writer.tables)} tables and summary.json to {out}")
        if report_path:
            print(f"report written to {report_path}")
    return 0


def _analyse(*args, **kwargs):
    try:
        return analyse(*args, **kwargs)
    except NotSeparableError as exc:
        raise not_separable("in a training fold", "the hard SFM has no solution") from exc


def _analyse_and_write(data, out, args, started):
    if "save" in data:
        data["save"](out / "data")
    bar = StageProgress(not (args.quiet or args.json))
    try:
        result = _analyse(data["X"], data["labels"], data["groups"],
                         estimator=SupportFeatureMachine(C=args.C), repetitive=args.repetitive,
                         informative_every=args.informative_every or None,
                         max_repetitions=args.max_repetitions, n_permutations=args.permutations,
                         random_subset_repeats=args.random_subsets, random_state=args.random_state,
                         n_jobs=args.n_jobs, progress=bar)
    finally:
        bar.close()
    writer = _write(result, data, out, args)
    summary = to_jsonable(_summary(result, data, writer, args, time.perf_counter() - started))
    write_json(out / "summary.json", summary)
    return summary, writer
