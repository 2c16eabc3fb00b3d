"""NC 2013 Table 1 / thesis Figs. 4.6-4.7: an exponentially growing number of noise features.

Weston et al.'s data (six redundant relevant features, k* noise features N(0, 20^2),
training set separable within the six), n training points, 5000 test points. For every
cell we fit the hard SFM and Weston's zero-norm SVM (l1-AROM) on SFMScaler-scaled data
and record

* the number of selected features and the percentage of them that are truly relevant
  (NC Table 1, thesis Fig. 4.6),
* the test error (thesis Fig. 4.7) of Weston's method, of a linear SVM on all features,
  and of the SFM with each way of placing the final hyperplane (``refit``): the raw LP
  hyperplane (method ``sfm_refit_None``: the thesis' SFM, which carries its published
  error), the LP direction re-centred (``sfm_refit_center``), and a hard-margin SVM refit
  on the selected features (``sfm``, our default; no published counterpart).

Published values are the means (std) over 1000 runs in NC Table 1 and thesis Fig. 4.7;
``published_se`` = std / sqrt(1000). ``verdict`` is "within MC error" when
|ours - published| <= 2 sqrt(se_ours^2 + se_published^2), se_ours = std / sqrt(runs)
(the rule of :func:`sfmlearn.experiments.runner.compare`); otherwise "better"/"worse"
(higher % relevant, lower test error is better) or "above"/"below" for feature counts.

    sfmlearn reproduce nc-table1 thesis-fig4.7 [--quick] [--repetitions 100] [--n-jobs 2]
"""

import re
from typing import Annotated

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from ..datasets import make_weston
from ..preprocessing import SFMScaler
from ..selection import SupportFeatureMachine, WestonZeroNormSVM
from .settings import Between

__all__ = ["run", "one_run", "training_set", "run_seeds", "PUBLISHED", "published_table", "SAMPLES", "NOISE"]

N_RELEVANT = 6
N_TEST = 5000
#: The settings of a Weston data shape: training samples (two at least) and noise features.
SAMPLES = Annotated[int, Between(2)]
NOISE = Annotated[int, Between(0)]
PUBLISHED_RUNS = 1000

#: The published means (std) over 1000 runs for k* = 10, 100, 1000, 10000 noise features: NC
#: Table 1 = thesis Fig. 4.6 (features selected, % relevant) and thesis Fig. 4.7 (test error %).
#: The thesis' SFM classifies with the LP's own hyperplane: its test error is our sfm_refit_None.
_PUBLISHED_TEXT = """
sfm               n_features       20    2.0 ( 0.6)    2.0 ( 0.6)    2.0 ( 0.6)    1.9 ( 0.6)
sfm               n_features       50    2.3 ( 0.6)    2.4 ( 0.6)    2.4 ( 0.6)    2.5 ( 0.7)
sfm               n_features      100    2.7 ( 0.7)    2.6 ( 0.6)    2.6 ( 0.7)    2.6 ( 0.7)
sfm               n_features      200    3.1 ( 0.7)    3.2 ( 0.8)    3.2 ( 0.8)    3.1 ( 0.7)
sfm               n_features      500    4.1 ( 0.8)    4.2 ( 0.8)    4.2 ( 0.8)    4.2 ( 0.8)
weston            n_features       20    2.6 ( 0.8)    2.8 ( 0.9)    3.0 ( 1.1)    3.2 ( 1.1)
weston            n_features       50    3.2 ( 1.0)    3.4 ( 1.1)    3.3 ( 1.1)    3.4 ( 1.1)
weston            n_features      100    3.8 ( 1.1)    4.0 ( 1.2)    4.0 ( 1.2)    3.9 ( 1.2)
weston            n_features      200    4.6 ( 1.2)    4.9 ( 1.4)    4.9 ( 1.4)    4.8 ( 1.2)
weston            n_features      500    5.9 ( 1.3)    6.2 ( 1.5)    6.4 ( 1.5)    6.2 ( 1.4)
sfm               pct_relevant     20   98.5 ( 8.0)   88.9 (20.2)   66.5 (29.1)   46.9 (32.9)
sfm               pct_relevant     50   99.6 ( 3.5)   98.8 ( 6.5)   96.7 (10.9)   85.9 (22.4)
sfm               pct_relevant    100   99.7 ( 3.1)   99.1 ( 5.3)   97.3 ( 8.8)   96.9 ( 9.4)
sfm               pct_relevant    200   99.4 ( 3.9)   98.5 ( 6.0)   96.6 ( 8.9)   95.1 (11.0)
sfm               pct_relevant    500   98.8 ( 5.0)   96.4 ( 8.7)   94.3 (10.8)   92.2 (11.7)
weston            pct_relevant     20   94.8 (12.8)   81.2 (23.7)   58.0 (29.6)   32.5 (26.1)
weston            pct_relevant     50   94.0 (12.1)   87.6 (16.0)   85.0 (18.0)   79.7 (20.3)
weston            pct_relevant    100   93.1 (12.0)   87.0 (16.0)   83.4 (17.5)   83.1 (17.1)
weston            pct_relevant    200   89.0 (13.6)   82.9 (15.9)   80.3 (16.0)   80.6 (16.0)
weston            pct_relevant    500   82.2 (12.9)   76.2 (14.5)   73.5 (14.7)   74.1 (14.6)
svm_all_features  test_error_pct   20    4.1 ( 2.1)   23.3 ( 2.7)   40.6 ( 1.1)   47.0 ( 0.7)
svm_all_features  test_error_pct   50    1.5 ( 0.6)   12.4 ( 2.0)   34.5 ( 1.1)   44.9 ( 0.8)
svm_all_features  test_error_pct  100    0.9 ( 0.3)    6.5 ( 1.2)   28.5 ( 1.1)   42.8 ( 0.8)
svm_all_features  test_error_pct  200    0.7 ( 0.2)    3.2 ( 0.6)   21.4 ( 1.0)   39.7 ( 0.7)
svm_all_features  test_error_pct  500    0.5 ( 0.1)    1.5 ( 0.3)   11.9 ( 0.8)   34.0 ( 0.7)
weston            test_error_pct   20    5.0 ( 4.3)    8.4 ( 7.6)   17.5 (12.1)   30.6 (13.7)
weston            test_error_pct   50    2.2 ( 1.5)    2.5 ( 1.6)    2.7 ( 1.8)    3.5 ( 3.3)
weston            test_error_pct  100    1.5 ( 0.7)    1.5 ( 0.7)    1.6 ( 0.9)    1.7 ( 0.9)
weston            test_error_pct  200    1.1 ( 0.4)    1.1 ( 0.5)    1.1 ( 0.5)    1.2 ( 0.5)
weston            test_error_pct  500    0.8 ( 0.3)    0.8 ( 0.3)    0.8 ( 0.3)    0.8 ( 0.3)
sfm_refit_None    test_error_pct   20   12.4 ( 5.4)   14.2 ( 6.2)   19.0 ( 9.9)   27.7 (15.3)
sfm_refit_None    test_error_pct   50    5.3 ( 2.9)    5.5 ( 3.3)    6.1 ( 3.6)    8.4 ( 5.2)
sfm_refit_None    test_error_pct  100    3.0 ( 1.6)    2.9 ( 1.6)    2.9 ( 1.5)    3.0 ( 1.9)
sfm_refit_None    test_error_pct  200    1.7 ( 0.7)    1.6 ( 0.7)    1.7 ( 0.8)    1.7 ( 0.8)
sfm_refit_None    test_error_pct  500    1.0 ( 0.3)    1.0 ( 0.3)    1.0 ( 0.4)    1.0 ( 0.3)
"""
NOISE_LEVELS = (10, 100, 1000, 10000)


def _parse_published(text):
    """{(method, metric): {n: ["mean std" for each k* of NOISE_LEVELS]}} of the table above."""
    published = {}
    for line in text.strip().splitlines():
        method, metric, n, cells = line.split(maxsplit=3)
        published.setdefault((method, metric), {})[int(n)] = [
            f"{mean} {std}" for mean, std in re.findall(r"([\d.]+) \(\s*([\d.]+)\)", cells)]
    return published


PUBLISHED = _parse_published(_PUBLISHED_TEXT)
_SOURCE = {"n_features": "NC 2013 Table 1 = thesis Fig. 4.6", "pct_relevant": "NC 2013 Table 1 = thesis Fig. 4.6",
           "test_error_pct": "thesis Fig. 4.7"}
_NOTES = {("sfm", "test_error_pct"): "ours: linear SVM refit on the SFM's features (default refit='svm')",
          ("sfm_refit_center", "test_error_pct"): "ours: the LP direction re-centred in the gap",
          ("sfm_refit_None", "test_error_pct"): "the LP hyperplane, as in the thesis"}


def published_table():
    """The published numbers as a tidy frame (method, metric, n, k_star, published,
    published_std, published_se, cell: the published number's source and position)."""
    rows = []
    for (method, metric), table in PUBLISHED.items():
        for n, cells in table.items():
            for k_star, cell in zip(NOISE_LEVELS, cells):
                mean, std = map(float, cell.split())
                rows.append(dict(method=method, metric=metric, n=n, k_star=k_star,
                                 published=mean, published_std=std,
                                 published_se=std / np.sqrt(PUBLISHED_RUNS),
                                 cell=f"{_SOURCE[metric]}: {method} {metric}, n={n}, k*={k_star}"))
    return pd.DataFrame(rows)


def _percent_relevant(support):
    selected = np.flatnonzero(support)
    return 100.0 * np.mean(selected < N_RELEVANT) if selected.size else np.nan


def _data_seeds(seed):
    rng = np.random.default_rng(seed)
    return rng.integers(2**31), rng.integers(2**31)


def training_set(n, k_star, seed):
    """The training set (X, y) of one run: Weston's data, separable within the six relevant."""
    return make_weston(n, k_star, random_state=_data_seeds(seed)[0])


def one_run(n, k_star, seed):
    """Fit every method on one training set; return a list of (method, metric, value)."""
    X, y = training_set(n, k_star, seed)
    X_test, y_test = make_weston(N_TEST, k_star, separable=False, random_state=_data_seeds(seed)[1])
    out = []
    base = SupportFeatureMachine(refit=None).fit(X, y)
    out += [("sfm", "n_features", base.support_.sum()), ("sfm", "pct_relevant", _percent_relevant(base.support_))]
    for refit in ("svm", "center", None):
        model = base if refit is None else clone(base).set_params(refit=refit).fit(X, y)
        name = "sfm" if refit == "svm" else f"sfm_refit_{refit}"
        out.append((name, "test_error_pct", 100 * (1 - model.score(X_test, y_test))))
    weston = WestonZeroNormSVM().fit(X, y)
    out += [("weston", "n_features", weston.support_.sum()),
            ("weston", "pct_relevant", _percent_relevant(weston.support_)),
            ("weston", "test_error_pct", 100 * (1 - weston.score(X_test, y_test)))]
    svm = make_pipeline(SFMScaler(), SVC(kernel="linear", C=1e6)).fit(X, y)
    out.append(("svm_all_features", "test_error_pct", 100 * (1 - svm.score(X_test, y_test))))
    return [(n, k_star, seed, method, metric, float(value)) for method, metric, value in out]


def run_seeds(repetitions, random_state=0):
    """The seed of each run of every cell (the same runs in every cell)."""
    return np.random.default_rng(random_state).integers(2**31, size=repetitions)


def run(quick=False, repetitions=None, n_jobs=1, sizes: tuple[SAMPLES, ...] = (20, 50, 100),
        noise_levels: tuple[NOISE, ...] = (10, 100, 1000), random_state=0, verbose=False):
    """Reproduce the table; returns one row per (method, metric, n, k*) with our mean/std."""
    if repetitions is None:
        repetitions = 10 if quick else 100
    seeds = run_seeds(repetitions, random_state)
    jobs = [(n, k, int(s)) for n in sizes for k in noise_levels for s in seeds]
    records = Parallel(n_jobs=n_jobs, verbose=10 if verbose else 0)(delayed(one_run)(*job) for job in jobs)
    raw = pd.DataFrame([r for rec in records for r in rec],
                       columns=["n", "k_star", "seed", "method", "metric", "value"])
    summary = (raw.groupby(["method", "metric", "n", "k_star"])["value"]
               .agg(ours="mean", ours_std="std", runs="count").reset_index())
    table = summary.merge(published_table(), on=["method", "metric", "n", "k_star"], how="left")
    table["verdict"] = [_verdict(row) for row in table.itertuples()]
    table["note"] = [_NOTES.get((m, k), "") for m, k in zip(table["method"], table["metric"])]
    table.attrs["repetitions"] = repetitions
    return table


# Which direction is better for each metric (None: neither; fewer is not per se better).
_BETTER = {"pct_relevant": 1.0, "test_error_pct": -1.0, "n_features": None}


def _verdict(row):
    """'within MC error', or 'better'/'worse'/'above'/'below' than published."""
    if np.isnan(row.published):
        return ""
    se = np.sqrt(row.ours_std**2 / row.runs + row.published_se**2)
    gap = row.ours - row.published
    if abs(gap) <= 2 * se:
        return "within MC error"
    direction = _BETTER[row.metric]
    if direction is None:
        return "above" if gap > 0 else "below"
    return "better" if gap * direction > 0 else "worse"
