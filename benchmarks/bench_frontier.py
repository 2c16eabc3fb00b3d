"""The accuracy-versus-budget frontier (sfmlearn.compare_budgets) on the real data that ship with sfmlearn.

    PYTHONPATH=src python benchmarks/bench_frontier.py [--datasets colon,leukemia] [--quick] [--out frontier.csv]
                                                       [--n-jobs 2]
    PYTHONPATH=src python benchmarks/bench_frontier.py --part ceiling [--datasets arcene] [--n-jobs 2]

For every dataset one table: balanced accuracy (mean over outer folds +- SE) and mean number
of features used, per method (the SFM path with two classifiers, the repetitive SFM with the
hard and with the soft SFM, the SFM's stability ranking, l1-logistic, elastic-net logistic)
and budget k, with the fit per budget the densest training fit within k (the default of
``compare_budgets``; ``--inner cv``: chosen by 5-fold inner CV on each training part), and
the automatic choice
(SupportFeatureMachineCV, class_weight="balanced"). Then one summary line per budget k <= 10:
on how many datasets the best of the SFM methods is at least as accurate as l1-logistic at
the same budget (among those where both have a fit within k in every outer fold; where only
one has, it is counted apart), and per SFM method the cells it wins alone (the best of
several methods is picked with the test folds, so it reads more favourably than any one).

Outer schemes as benchmarks/bench_peers.py: leukemia train 38 -> test 34 and ARCENE train ->
validation (one split each, so no SE); colon, DEXTER (training split) and DOROTHEA (validation
split) repeated stratified 2-fold CV, 5 repeats; Haxby subject 1 face vs house on the PyMVPA
slice, leave one run out. ``--quick``: one repeat of 2-fold CV, budgets 1, 2, 3, 5, 10 and
shorter paths.

``--unions`` adds "SFM path + unions" to the SFM family: the path's fits followed by the
unions of the repetitive SFM's subsets with logistic regression, the candidates of
SupportFeatureMachineCV's default choice. ``--methods`` runs only the named methods
(l1-logistic is always kept as the peer). ``--part sfm-paths`` times, on all of each
data set, the two default SFM rows fitted as they are (one path, LogisticOnSFMPath on its
supports) against two separate paths (refit="svm" and refit="logistic"), median of
``--rounds`` interleaved rounds.

``--part ceiling`` asks whether a cell the SFM family loses is within its reach: on the same
outer folds every method's path is fitted on the training part and every path point is
scored on the test part. Per method and budget it prints the frontier's default rule (the
densest fit within k, the same numbers as the frontier; ``--inner`` is not used) beside the ceiling (the best point within
k, picked with the test fold: optimistic, not an estimate), then per budget the family's
ceiling (per fold the best of the SFM methods) against l1-logistic's frontier cell. Where
that ceiling is lower, no rule that picks among these fits from the training data can
reach l1-logistic there.
"""

import _env  # noqa: F401  (one BLAS thread)
from _frontier_ceiling import ceiling_report

import argparse
import statistics
import sys
import time

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import LeaveOneGroupOut, RepeatedStratifiedKFold

from sklearn.utils.class_weight import compute_sample_weight

from sfmlearn import SupportFeatureMachine, compare_budgets, sfm_path
from sfmlearn.selection.sfm.softness_cv import CV_MAX_REPETITIONS
from sfmlearn.selection.sfm.unions import union_fits, union_repetitions
from sfmlearn.datasets import load_colon, load_haxby, load_leukemia, load_nips2003
from sfmlearn.diagnostics.budget_paths import (ELASTIC_NET_SPAN, SOFT_SUBSETS_BASE, LogisticOnSFMPath, LogisticPath,
                                               RepetitiveSubsetsPath, SFMPath, StabilityRanking, default_path_methods,
                                               fit_path_with_groups)

NAMES = ("leukemia", "colon", "arcene", "dexter", "dorothea", "haxby")
SFM_FAMILY = ("SFM path", "SFM path, logistic refit", "repetitive SFM", "soft repetitive SFM", "SFM path + unions",
              "SFM stability ranking")
PEER = "l1-logistic"


def _split(train_part, test_part):
    n = len(train_part)
    return [(np.arange(n), np.arange(n, n + len(test_part)))]


def _repeated_halves(y, repeats):
    return list(RepeatedStratifiedKFold(n_splits=2, n_repeats=repeats, random_state=0).split(np.zeros(len(y)), y))


def load(name, repeats):
    """(X, y, groups, outer folds, scheme) of a shipped dataset."""
    if name == "leukemia":
        d = load_leukemia()
        return (np.vstack([d.X_train, d.X_test]), np.r_[d.y_train, d.y_test], None, _split(d.y_train, d.y_test),
                "train 38 -> test 34")
    if name == "colon":
        d = load_colon()
        y = np.asarray(d.target)
        return d.data, y, None, _repeated_halves(y, repeats), f"{repeats}x2 CV"
    if name == "arcene":
        a = load_nips2003("arcene")
        return (np.vstack([a.X_train, a.X_valid]), np.r_[a.y_train, a.y_valid], None, _split(a.y_train, a.y_valid),
                "train 100 -> valid 100")
    if name == "dexter":
        d = load_nips2003("dexter")
        y = np.asarray(d.y_train)
        return sp.csr_array(d.X_train), y, None, _repeated_halves(y, repeats), f"{repeats}x2 CV (training split)"
    if name == "dorothea":
        X, y = load_nips2003("dorothea", return_X_y=True)
        y = np.asarray(y)
        return sp.csr_array(X), y, None, _repeated_halves(y, repeats), f"{repeats}x2 CV (validation split)"
    if name == "haxby":
        h = load_haxby("slice")
        keep = np.isin(h.target, ["face", "house"])
        return h.data[keep], np.asarray(h.target)[keep], np.asarray(h.runs)[keep], None, "leave one run out"
    raise SystemExit(f"unknown dataset {name!r}; choose from {', '.join(NAMES)}")


def methods(quick):
    if not quick:
        return default_path_methods()
    return {"SFM path": (path := SFMPath(n_Cs=10)),
            "SFM path, logistic refit": LogisticOnSFMPath(path),
            "repetitive SFM": RepetitiveSubsetsPath(max_repetitions=5),
            "soft repetitive SFM": RepetitiveSubsetsPath(SOFT_SUBSETS_BASE, max_repetitions=5, classifier="logistic"),
            "SFM stability ranking": StabilityRanking(n_pairs=10),
            "l1-logistic": LogisticPath(n_Cs=10), "elastic-net logistic": LogisticPath(0.5, n_Cs=10,
                                                                                       span=ELASTIC_NET_SPAN)}


class PathAndUnions:
    """The soft-SFM path, then the unions of the repetitive SFM's subsets beyond its densest
    fit with logistic regression on each (:mod:`sfmlearn.selection.sfm.unions`; as many
    repetitions as SupportFeatureMachineCV's default)."""

    def __init__(self, n_Cs=20, max_repetitions=CV_MAX_REPETITIONS):
        self.n_Cs, self.max_repetitions = n_Cs, max_repetitions

    def fit_path(self, X, y):
        path = sfm_path(X, y, Cs=self.n_Cs, estimator=SupportFeatureMachine(class_weight="balanced"))
        classes = np.unique(y)
        y_signed = np.where(y == classes[1], 1.0, -1.0)
        repetitions = union_repetitions(X, y_signed, self.max_repetitions)
        unions = union_fits(X, y_signed, compute_sample_weight("balanced", y), repetitions, path.n_features.max())
        return (list(path.estimators) + [union.classifier(classes) for union in unions],
                np.r_[path.n_features, [union.features.size for union in unions]].astype(int))


def time_sfm_paths(X, y, rounds):
    """Median seconds of the two SFM rows: shared (one path) and separate (two paths)."""
    def shared():
        path = SFMPath()
        path.fit_path(X, y)
        LogisticOnSFMPath(path).fit_path(X, y)

    def separate():
        SFMPath().fit_path(X, y)
        SFMPath(SupportFeatureMachine(class_weight="balanced", refit="logistic")).fit_path(X, y)

    seconds = {"shared": [], "separate": []}
    for _ in range(rounds):
        for name, run in (("shared", shared), ("separate", separate)):
            started = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in seconds.items()}


def scored_paths(methods_, X, y, groups, train, test):
    """{method: (held-out balanced accuracy of every path point, its features)} on one fold;
    a method whose ``fit_path`` takes groups gets the training part's, as in compare_budgets."""
    scored = {}
    for name, method in methods_.items():
        predictors, sizes = fit_path_with_groups(method, X[train], y[train], None if groups is None else groups[train])
        scored[name] = (np.array([balanced_accuracy_score(y[test], p.predict(X[test])) for p in predictors]),
                        np.asarray(sizes, dtype=int))
    return scored


def family_summary(results, budgets):
    """Per budget k <= 10: datasets where the best SFM method >= l1-logistic at k (among the
    datasets where both reach k in every outer fold), and where only one of them reaches k."""
    lines = []
    for k in [k for k in budgets if k <= 10]:
        wins, both, only_sfm, only_peer = 0, 0, 0, 0
        for comparison in results.values():
            b = comparison.budgets.index(k)
            peer = comparison.accuracy[PEER][b]
            ours = [comparison.accuracy[m][b] for m in SFM_FAMILY
                    if m in comparison.accuracy and not np.isnan(comparison.accuracy[m][b])]
            if ours and not np.isnan(peer):
                both += 1
                wins += max(ours) >= peer
            else:
                only_sfm += bool(ours)
                only_peer += not np.isnan(peer)
        lines.append(f"k <= {k:2d}: best SFM method >= {PEER} on {wins} of {both} datasets"
                     f" (only the SFM family reaches k on {only_sfm}, only {PEER} on {only_peer})")
    return lines


def method_summary(results, method):
    """The cells (dataset, budget k <= 10) where ``method`` alone >= l1-logistic, of those
    either reaches (a budget only one of them reaches counts for that one)."""
    wins, cells = 0, 0
    for comparison in [c for c in results.values() if method in c.accuracy]:
        for b, k in enumerate(comparison.budgets):
            ours, peer = comparison.accuracy[method][b], comparison.accuracy[PEER][b]
            if k > 10 or (np.isnan(ours) and np.isnan(peer)):
                continue
            cells += 1
            wins += np.isnan(peer) or (not np.isnan(ours) and ours >= peer)
    return f"{method} alone >= {PEER} in {wins} of {cells} cells with k <= 10 (a budget only one reaches counts for it)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=",".join(NAMES), help="comma-separated subset of " + ", ".join(NAMES))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--inner", choices=["cv", "none"], default="none",
                        help="none: the densest training fit within k (default); cv: 5-fold inner CV per budget")
    parser.add_argument("--out", help="also write the long table as CSV")
    parser.add_argument("--unions", action="store_true", help='add "SFM path + unions" to the SFM family')
    parser.add_argument("--methods", nargs="+", help=f"run only these methods ({PEER} is always kept)")
    parser.add_argument("--part", choices=["frontier", "sfm-paths", "ceiling"], default="frontier")
    parser.add_argument("--rounds", type=int, default=3, help="--part sfm-paths: interleaved rounds")
    parser.add_argument("--n-jobs", type=int, default=None,
                        help="outer folds fitted in parallel (compare_budgets' n_jobs; --part ceiling too)")
    args = parser.parse_args(argv)
    if args.part == "ceiling" and args.out:
        parser.error("--out writes the frontier's table; --part ceiling prints its tables only")
    if args.part == "sfm-paths":
        for name in args.datasets.split(","):
            X, y, *_ = load(name.strip(), 1)
            seconds = time_sfm_paths(X, y, args.rounds)
            print(f"{name}: the two SFM rows in {seconds['shared']:.2f} s with one path, "
                  f"{seconds['separate']:.2f} s with two ({seconds['separate'] / seconds['shared']:.2f}x)", flush=True)
        return None
    budgets = (1, 2, 3, 5, 10) if args.quick else (1, 2, 3, 5, 10, 20, 50)
    chosen_methods = methods(args.quick)
    if args.unions:
        chosen_methods["SFM path + unions"] = PathAndUnions(n_Cs=10 if args.quick else 20)
    if args.methods:
        chosen_methods = {name: m for name, m in chosen_methods.items() if name in args.methods or name == PEER}
    results, frames = {}, []
    for name in args.datasets.split(","):
        X, y, groups, folds, scheme = load(name.strip(), 1 if args.quick else 5)
        print(f"{name}: {X.shape[0]} x {X.shape[1]}, {scheme}", file=sys.stderr, flush=True)
        if args.part == "ceiling":
            folds = list(LeaveOneGroupOut().split(X, y, groups)) if folds is None else folds
            per_fold = Parallel(n_jobs=args.n_jobs)(delayed(scored_paths)(chosen_methods, X, y, groups, train, test)
                                                    for train, test in folds)
            print("\n".join(ceiling_report(f"{name} ({scheme})", per_fold, [k for k in budgets if k <= 10],
                                            SFM_FAMILY, PEER)), flush=True)
            continue
        comparison = compare_budgets(X, y, budgets=budgets, methods=chosen_methods, cv=folds, groups=groups,
                                     automatic=None if args.methods is None else False,
                                     inner_cv=5 if args.inner == "cv" else None, random_state=0, n_jobs=args.n_jobs)
        results[name] = comparison
        print(f"\n== {name} ({X.shape[0]} x {X.shape[1]}, {scheme}, {comparison.seconds:.0f} s)")
        print(comparison.format_table(), flush=True)
        frames.append(comparison.to_frame().assign(data=name, scheme=scheme, n_folds=comparison.n_folds))
        if args.out:
            pd.concat(frames).to_csv(args.out, index=False)
    if args.part == "ceiling":
        return None
    print()
    print("\n".join(family_summary(results, budgets)))
    print("\n".join(method_summary(results, m) for m in SFM_FAMILY if any(m in c.accuracy for c in results.values())))
    return results


if __name__ == "__main__":
    main()
