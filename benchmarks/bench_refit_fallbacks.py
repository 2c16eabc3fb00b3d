"""How often the SFM's hard-margin SVM refit (``refit="svm"``) fails and falls back.

With the interior-point QP it used before, on thin hard margins the refit could not
certify its answer, and :class:`~sfmlearn.SupportFeatureMachine` centred its own
direction with the warning
"The hard-margin SVM refit failed (...)". This script counts, in three workflows, every
refit (every call of :func:`sfmlearn.optim.linear_svm` by the SFM), its outcome
(solved / not separable, i.e. a soft fit whose features overlap / SolverError) and the
fallback warnings:

``--part informative``  :func:`sfmlearn.estimate_informative_fraction` on 88 x 2000
    data with 200 (10 %) informative features (``make_redundant``: 12 "participants"
    of 4 + 4 samples, leave one participant out, SVM after every 10th repetition).
``--part fmri``  :func:`sfmlearn.mvpa.analyse` on the simulated button-press data
    (what ``sfmlearn fmri --simulate buttonpress`` runs), repetitive, no permutations
    or random subsets, in a setting of :mod:`sfmlearn.experiments.fmri_simulation`:
    ``--fmri-setting quick`` (16 mm grid, 457 voxels, 6 participants x 4 runs, SVM
    every 2nd repetition) or ``full`` (the CLI's default 8 mm grid, 3666 voxels,
    12 participants x 4 runs, SVM every 10th repetition).
``--part table1``  :func:`sfmlearn.experiments.nc2013_table1.one_run` for every cell
    n in ``--sizes`` x k* in ``--noise`` (defaults 20 50 100 x 10 100 1000, as
    ``sfmlearn reproduce nc2013-table1``), ``--repetitions`` runs per cell.
Then (unless ``--no-ratio``) the hard-margin refit instances met in the run (all of
them, at most ``--max-instances``) are solved again by the current :func:`linear_svm`
and by the interior-point QP of :func:`sfmlearn.optim.qp.solve_hyperplane_qp` with the
feasibility LP before it (the former refit): CPU-time ratio and outcomes. The
interior point no longer takes hard rows (its exact-penalty path for them had no other
caller and was removed), so "before" solves the soft margin with the price that path
used, 1e4 / max|x_ij|^2, raised 1e3-fold (twice at most) until no margin is violated.
The counts in the user guide were measured with the removed path (git revision 7c6cff8);
on the five instances of ``tests/optim/data/refit_thin_margins.npz`` both fail alike.

Everything runs in one process (``n_jobs=1``) so the counting wrapper sees every
refit; every SolverError is one fallback to centring. The repetitive SFM summarises
its fits' warnings (one line per category and run), so "warnings shown" counts those
lines and direct warnings that name the fallback. ``--collect DIR`` saves every
instance whose refit raised SolverError as ``DIR/<part>_<i>.npz`` (X, y), the source
of ``tests/optim/data/refit_thin_margins.npz``.

The measured fallbacks and CPU-time ratios (seed 0; before = the interior point, after =
:func:`hard_margin_svm`) are in the user guide's page on the competing methods (the SVM
refit, ``docs/guide/competing.md``).

    python benchmarks/bench_refit_fallbacks.py [--part all] [--fmri-setting full] [--repetitions 100] [--collect DIR]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

import sfmlearn.selection._base as sfm_base
from sfmlearn import estimate_informative_fraction
from sfmlearn.exceptions import NotSeparableError, SolverError
from sfmlearn.experiments import nc2013_table1
from sfmlearn.experiments.fmri_simulation import SETTINGS
from sfmlearn.experiments.informative_fraction import make_redundant
from sfmlearn.imaging.simulate import mni152_mask, simulate_fmri
from sfmlearn.imaging.volumes import downsample_mask
from sfmlearn.lp.problems import HyperplaneLP
from sfmlearn.lp.separability import minimum_slack_hyperplane
from sfmlearn.mvpa import analyse
from sfmlearn.optim import linear_svm, solve_hyperplane_qp
from sfmlearn.optim.svm import SVM_GAP_TOL

FALLBACK = "The hard-margin SVM refit failed"


class RefitRecorder:
    """Stands in for ``linear_svm`` inside the SFM: counts outcomes, keeps the instances."""

    def __init__(self, collect=None):
        self.collect = None if collect is None else Path(collect)
        self.instances = []
        self.outcomes = Counter()
        self.part = None

    def __call__(self, X, y, slack_cost=None):
        X, y = np.array(X, dtype=np.float64), np.array(y, dtype=np.float64)
        try:
            result = linear_svm(X, y, slack_cost)
        except NotSeparableError:
            self.outcomes[self.part, "not separable"] += 1
            raise
        except SolverError:
            self.outcomes[self.part, "SolverError"] += 1
            if self.collect is not None:
                self.collect.mkdir(parents=True, exist_ok=True)
                n = self.outcomes[self.part, "SolverError"]
                np.savez(self.collect / f"{self.part}_{n}.npz", X=X, y=y)
            raise
        finally:
            if slack_cost is None:
                self.instances.append((X, y))
        self.outcomes[self.part, "solved"] += 1
        return result


def counted(recorder, part, work):
    """Run ``work()`` with the recorder in place; returns (warnings shown, seconds)."""
    recorder.part = part
    original, sfm_base.linear_svm = sfm_base.linear_svm, recorder
    started = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            work()
    finally:
        sfm_base.linear_svm = original
    shown = sum(FALLBACK in str(w.message) for w in caught)
    return shown, time.perf_counter() - started


def informative(seed):
    X, y, groups = make_redundant(200, n_samples=88, n_features=2000, n_groups=12,
                                  random_state=seed)
    estimate_informative_fraction(X, y, groups, n_jobs=1, random_state=seed)


def fmri(seed, name):
    setting = SETTINGS[name]
    mask = downsample_mask(mni152_mask(), setting["grid_level"])
    sim = simulate_fmri("buttonpress", mask=mask, n_participants=setting["n_participants"],
                        n_runs=setting["n_runs"], random_state=seed)
    analyse(sim.X, sim.labels, sim.participants, repetitive=True,
            informative_every=setting["informative_every"], random_state=seed, n_jobs=1)


def table1(repetitions, sizes, noise_levels, seed):
    seeds = np.random.default_rng(seed).integers(2**31, size=repetitions)
    for n in sizes:
        for k_star in noise_levels:
            for s in seeds:
                nc2013_table1.one_run(n, k_star, int(s))


def _cpu(solve, X, y):
    started = time.process_time()
    try:
        solve(X, y)
        outcome = "solved"
    except NotSeparableError:
        outcome = "not separable"
    except SolverError:
        outcome = "SolverError"
    return time.process_time() - started, outcome


def _interior_point(X, y):
    """The former refit: the interior-point QP, certified to SVM_GAP_TOL, on the
    exact-penalty form of the hard margin (module docstring)."""
    if minimum_slack_hyperplane(X, y)[2].any():
        raise NotSeparableError("not separable")
    for factor in (1e4, 1e7, 1e10):
        price = np.full(y.size, factor / np.abs(X).max() ** 2)
        solution = solve_hyperplane_qp(HyperplaneLP(X, y, np.zeros(X.shape[1]), 1.0, slack_cost=price),
                                       gap_tol=SVM_GAP_TOL)
        if np.all(y * (X @ solution.w + solution.b) >= 1 - 2e-9):
            return solution.w, solution.b
    raise SolverError("the exact penalty did not keep every margin", status="not optimal")


def ratio(instances, max_instances):
    picked = instances[:: max(1, len(instances) // max_instances)][:max_instances]
    times = {"linear_svm (current)": [], "interior point (before)": []}
    outcomes = {name: Counter() for name in times}
    for X, y in picked:
        for name, solve in (("linear_svm (current)", linear_svm),
                            ("interior point (before)", _interior_point)):
            seconds, outcome = _cpu(solve, X, y)
            times[name].append(seconds)
            outcomes[name][outcome] += 1
    reference = sum(times["interior point (before)"])
    print(f"\nsame {len(picked)} hard-margin refit instances (shapes n x k: "
          f"k median {int(np.median([X.shape[1] for X, _ in picked]))}, "
          f"max {max(X.shape[1] for X, _ in picked)}):")
    for name in times:
        total = sum(times[name])
        print(f"  {name:<26} CPU {total:7.2f} s  ratio {total / reference:5.2f}  "
              f"{dict(outcomes[name])}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["informative", "fmri", "table1", "all"], default="all")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--fmri-setting", choices=["quick", "full"], default="quick")
    parser.add_argument("--repetitions", type=int, default=100, help="runs per Table 1 cell")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100],
                        help="Table 1 training-set sizes n")
    parser.add_argument("--noise", type=int, nargs="+", default=[10, 100, 1000],
                        help="Table 1 numbers of noise features k*")
    parser.add_argument("--max-instances", type=int, default=2000)
    parser.add_argument("--no-ratio", action="store_true")
    parser.add_argument("--collect", default=None, help="folder for failing instances")
    args = parser.parse_args(argv)
    parts = ["informative", "fmri", "table1"] if args.part == "all" else [args.part]
    recorder = RefitRecorder(args.collect)
    for part in parts:
        for seed in args.seeds:
            label = f"{part}-s{seed}" + (f"-{args.fmri_setting}" if part == "fmri" else "")
            work = {"informative": lambda: informative(seed),
                    "fmri": lambda: fmri(seed, args.fmri_setting),
                    "table1": lambda: table1(args.repetitions, args.sizes, args.noise, seed)}[part]
            shown, seconds = counted(recorder, label, work)
            counts = {k[1]: v for k, v in recorder.outcomes.items() if k[0] == label}
            total = sum(counts.values())
            print(f"{label:<16} refits {total:5d}  solved {counts.get('solved', 0):5d}  "
                  f"not separable {counts.get('not separable', 0):4d}  "
                  f"fallbacks (SolverError) {counts.get('SolverError', 0):3d}  "
                  f"warnings shown {shown:3d}  ({seconds:.0f} s)", flush=True)
    if not args.no_ratio and recorder.instances:
        ratio(recorder.instances, args.max_instances)


if __name__ == "__main__":
    main()
