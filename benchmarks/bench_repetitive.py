"""Repetitive SFM to exhaustion: leave-one-participant-out, and warm vs cold vs full LPs.

The data have the shape of NC 4.4's button-press set after downsampling: 88 samples
(12 "participants" of 4 + 4), 6362 features, 200 of them informative (make_basic,
mu = 0.3; the "fmri-like 88x6362" problem of ``_shapes.py`` with participant ids).
NC 4.4 reports 83 hours (Mosek, Core 2 Quad 2.4 GHz) for the leave-one-participant-out
rSFM on the real data, about 2500 repetitions per fold (the real voxels are far more
redundant than these synthetic ones, so the repetition counts are not comparable).

``--part lopo``: the rSFM (default SupportFeatureMachine, solver="auto", one warm session)
on the 80 training samples of every fold until the hard SFM has no solution; reports
repetitions, wall and CPU seconds per fold and the total wall time (folds in parallel
with ``--n-jobs``).

``--part single``: one rSFM to exhaustion on all 88 samples four ways, measured in this
run: the default engine with one warm session for the whole run (one HiGHS model, its
working sets and basis), the same with a new session per repetition, full LPs in our
HiGHS engine (``solver="highs"``) and full LPs at highspy defaults; once with the
default SVM refit of every subset and once with ``refit=None`` (selection only).
``--repeats N`` runs each configuration N times, interleaved, and reports medians and,
for each round, the ratio of full LPs at highspy defaults to the default; "sep. LPs"
counts the strict-separation LPs of a hard fit per run (a hard fit without the SVM
refit first tries to move its LP's hyperplane off the samples on it).
Ratios of CPU times are the claim (wall times depend on the machine's load); the
subsets of the runs are compared.

``--part refit``: the hard-margin SVM refits of one default rSFM run on all 88 samples
(one per repetition), solved again three ways: :func:`sfmlearn.optim.hard_margin_svm`
from the samples on the last LP's margin (the default), the same from Wolfe's classic
start, and the exact phase alone from the classic start (the solver before the Gram
phase): CPU seconds, ratios to the default, the mean major steps of each phase and the
largest relative difference of the hyperplanes to the default's.

    python benchmarks/bench_repetitive.py [--part lopo|single|refit|all] [--n-jobs 2]
        [--repeats 3]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import os
import time
import warnings

import numpy as np
from joblib import Parallel, delayed

from _interleave import interleaved

from sfmlearn.lp import HighsEngine
from sfmlearn import RepetitiveSFM, SupportFeatureMachine
from sfmlearn.experiments.informative_fraction import make_redundant


def timed_fit(estimator, X, y):
    wall, cpu = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimator.fit(X, y)
    return estimator, time.perf_counter() - wall, time.process_time() - cpu


def lopo(X, y, groups, n_jobs):
    folds = [np.flatnonzero(groups != g) for g in np.unique(groups)]
    started = time.perf_counter()
    results = Parallel(n_jobs=n_jobs)(
        delayed(timed_fit)(RepetitiveSFM(), X[train], y[train]) for train in folds)
    total = time.perf_counter() - started
    print(f"{'fold':>4} {'repetitions':>11} {'ranked':>7} {'stop':>14} {'wall s':>7} {'cpu s':>7}")
    for f, (rsfm, wall, cpu) in enumerate(results, 1):
        print(f"{f:>4} {rsfm.n_repetitions_:>11} {int(rsfm.support_.sum()):>7} {rsfm.stop_reason_:>14} "
              f"{wall:7.1f} {cpu:7.1f}")
    reps = [r.n_repetitions_ for r, _, _ in results]
    cpu = sum(c for _, _, c in results)
    print(f"total: {sum(reps)} SFM fits in {len(folds)} folds ({np.mean(reps):.0f} per fold); "
          f"wall {total:.0f} s with n_jobs={n_jobs}, CPU {cpu:.0f} s "
          f"(published, real data: 31 647 fits, 83 h)")


def single(X, y, refit, repeats=1):
    """The four configurations, ``repeats`` times each, interleaved (the order rotates
    from round to round): the machine's speed drifts within minutes, so the claim is the
    ratio of median CPU times, with each configuration's range beside it."""
    configs = {
        "auto, one warm session (default)": lambda: RepetitiveSFM(SupportFeatureMachine(refit=refit)),
        "auto, a session per repetition": lambda: RepetitiveSFM(
            SupportFeatureMachine(refit=refit), warm_start=False),
        "full LPs (solver='highs')": lambda: RepetitiveSFM(
            SupportFeatureMachine(refit=refit, solver="highs")),
        "full LPs, highspy defaults": lambda: RepetitiveSFM(
            SupportFeatureMachine(refit=refit, solver=HighsEngine(presolve=True))),
    }
    from sfmlearn.selection import _base
    separability_lps = dict.fromkeys(configs, 0)  # per configuration, over its runs
    running = [None]
    lp = _base.minimum_slack_hyperplane

    def counted_lp(*args, **kwargs):
        separability_lps[running[0]] += 1
        return lp(*args, **kwargs)

    def run(name, make):
        running[0] = name
        return timed_fit(make(), X, y)

    _base.minimum_slack_hyperplane = counted_lp  # the hard fit's strict-separation LP
    try:
        runs = interleaved({name: lambda name=name, make=make: run(name, make)
                            for name, make in configs.items()}, repeats)
    finally:
        _base.minimum_slack_hyperplane = lp
    names = list(configs)
    fitted = {name: results[0][0] for name, results in runs.items()}
    cpus = {name: [cpu for _, _, cpu in results] for name, results in runs.items()}
    reference = fitted[names[0]]
    base = float(np.median(cpus[names[0]]))
    print(f"\nSupportFeatureMachine(refit={refit!r}), {repeats} interleaved run(s) each:")
    print(f"{'configuration':<32} {'repetitions':>11} {'median cpu s':>12} {'range':>13} "
          f"{'cpu ratio':>9} {'sep. LPs':>8}  same subsets")
    for name in names:
        rsfm, cpu = fitted[name], cpus[name]
        agree = sum(np.array_equal(np.sort(a), np.sort(b)) for a, b in zip(rsfm.subsets_, reference.subsets_))
        same = len(rsfm.subsets_) == len(reference.subsets_) == agree
        median = float(np.median(cpu))
        print(f"{name:<32} {rsfm.n_repetitions_:>11} {median:12.1f} {min(cpu):6.1f}-{max(cpu):<6.1f} "
              f"{median / base:8.1f}x {separability_lps[name] // repeats:>8}  {same} "
              f"({agree} of {rsfm.n_repetitions_} identical)")
    rounds = ", ".join(f"{slow / fast:.1f}x" for fast, slow in zip(cpus[names[0]], cpus[names[-1]]))
    print(f"each round, {names[-1]} / {names[0]}: {rounds}")


def refit(X, y):
    from sfmlearn.optim import hard_margin as hm
    from sfmlearn.selection import _base
    instances = []
    solve = _base.hard_margin_svm

    def recorded(X_sel, y_sel, start=None):
        instances.append((np.array(X_sel), np.array(y_sel), start))
        return solve(X_sel, y_sel, start=start)

    _base.hard_margin_svm = recorded  # the SFM's refit calls it through this name
    try:
        rsfm, wall, cpu = timed_fit(RepetitiveSFM(SupportFeatureMachine()), X, y)
    finally:
        _base.hard_margin_svm = solve

    def exact_phase_alone(X_sel, y_sel, start):
        Z = X_sel * y_sel[:, None]
        positive = y_sel > 0
        (_, _, (w, b)), steps = hm._wolfe(hm._ExactGeometry(Z, y_sel), positive,
                                          hm._first_corral(Z, positive), 10 ** 5)
        return w, b, {"exact": steps}

    def two_phases(start_from_lp):
        def run(X_sel, y_sel, start):
            solution = hm.hard_margin_svm(X_sel, y_sel, start=start if start_from_lp else None)
            return solution.w, solution.b, dict(solution.info["steps"],
                                                support=np.count_nonzero(solution.margin_duals))
        return run

    methods = {"from the LP's margin (default)": two_phases(True),
               "two phases, classic start": two_phases(False),
               "exact phase alone": exact_phase_alone}
    seconds = dict.fromkeys(methods, 0.0)
    steps = {name: [] for name in methods}
    planes = {name: [] for name in methods}
    for X_sel, y_sel, start in instances:
        for name, method in methods.items():
            started = time.process_time()
            w, b, counted = method(X_sel, y_sel, start)
            seconds[name] += time.process_time() - started
            steps[name].append(counted)
            planes[name].append((w, b))
    default = list(methods)[0]
    support = [counted["support"] for counted in steps[default]]
    on_margin = [np.count_nonzero(start) for _, _, start in instances if start is not None]
    sizes = [X_sel.shape[1] for X_sel, _, _ in instances]
    print(f"\nhard-margin SVM refits of one default rSFM run ({rsfm.n_repetitions_} repetitions, "
          f"CPU {cpu:.1f} s in all): {len(instances)} refits of {y.size} samples x "
          f"{min(sizes)}-{max(sizes)} features; support vectors: median {np.median(support):.0f}; "
          f"samples on the LP's margin (the default start): median {np.median(on_margin):.0f}")
    print(f"  {'method':<32} {'CPU s':>6} {'ratio':>6} {'Gram steps':>10} {'exact steps':>11} "
          f"{'largest difference':>18}")
    for name in methods:
        worst = max(max(np.abs(w - w0).max() / np.abs(w0).max(), abs(b - b0) / (1 + np.abs(w0).sum()))
                    for (w, b), (w0, b0) in zip(planes[name], planes[default]))
        gram = f"{np.mean([c['gram'] for c in steps[name]]):.1f}" if "gram" in steps[name][0] else "-"
        exact = [c["exact"] for c in steps[name]]
        print(f"  {name:<32} {seconds[name]:6.2f} {seconds[name] / seconds[default]:5.1f}x "
              f"{gram:>10} {np.mean(exact):11.2f} {worst:18.2g}")
    print(f"  exact steps after the Gram phase (default): 1 in "
          f"{[c['exact'] for c in steps[default]].count(1)} of {len(instances)} refits")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["lopo", "single", "refit", "all"], default="all")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1,
                        help="--part single: interleaved runs per configuration (medians)")
    args = parser.parse_args()
    X, y, groups = make_redundant(200)
    print(f"data: {X.shape[0]} x {X.shape[1]}, 200 informative, {np.unique(groups).size} groups; "
          f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.part in ("lopo", "all"):
        lopo(X, y, groups, args.n_jobs)
    if args.part in ("single", "all"):
        # The default refit places an SVM on every subset (a QP per repetition, the same
        # for every engine); refit=None times the selection alone.
        single(X, y, "svm", args.repeats)
        single(X, y, None, args.repeats)
    if args.part in ("refit", "all"):
        refit(X, y)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
