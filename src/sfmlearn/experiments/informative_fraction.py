"""The repetitive SFM's informative-fraction estimate on data where the answer is known.

NC 4.4 / thesis 6.3 estimate the fraction of informative voxels of real fMRI data (88
samples of 12 participants, 6362 voxels after downsampling; published estimate 34 % in
NC, 35 % in the thesis) but cannot check it: the truth is unknown. Here the data have
the same shape and a known number of informative, redundant features: the first k
columns are N(mu y, 1), the rest N(0, 1) noise (``make_basic``, mu = 0.3, balanced
classes), so every informative feature carries the same information about y on its
own. Samples form 12 "participants" of 4 + 4 samples; there is no participant effect.

For k = 200, 1000 and 3000 informative features we report

* the estimate of :func:`~sfmlearn.estimate_informative_fraction` (leave one
  participant out, SVM after every 2nd repetition, C by nested leave-one-participant-
  out over 17 values, mean of the fold curves) against the truth k / d, and how far the
  rSFM had to go before 90 % / all of the informative features were discarded (the
  rSFM also discards noise features on the way, so these exceed k / d);
* how many of the truly informative features are among the first q % of the ranking of
  a repetitive SFM fitted on all samples (``recall@q``; a random ranking gets q) and
  the fraction of those q % that are informative (``precision@q``; chance k / d).

    sfmlearn reproduce extra-informative-fraction [--set informative=200,1000,3000]
        [--quick] [--set every=2] [--n-jobs 1] [--set class_distance=0.3]

The curve and fit of every scenario go into the result folder (``--out``), as
``extra-informative-fraction/figures/informative_fraction_K_muMU.png``.

``quick`` uses 48 samples (6 participants) and 600 features with k = 30, 120, 300
(the same fractions as 200, 1000, 3000 of 6362 would be 3 %, 16 %, 47 %).
"""

import time
from typing import Annotated

import numpy as np
import pandas as pd

from ..datasets import make_basic
from ..selection.repetitive import estimate_informative_fraction
from ..selection import RepetitiveSFM, SupportFeatureMachine
from .settings import Between

__all__ = ["run", "make_redundant", "ranking_overlap", "QUANTILES"]

#: The thresholds of NC Table 3 (percent of all features).
QUANTILES = (1.0, 2.5, 5.0, 20.0, 34.0, 50.0)
FULL = {"n_samples": 88, "n_features": 6362, "n_groups": 12, "informative": (200, 1000, 3000)}
QUICK = {"n_samples": 48, "n_features": 600, "n_groups": 6, "informative": (30, 120, 300)}


def make_redundant(n_informative, *, n_samples=88, n_features=6362, n_groups=12,
                   class_distance=0.3, random_state=0):
    """Data with ``n_informative`` redundant informative features (the first columns).

    Returns ``X, y, groups``: ``make_basic`` data (balanced classes, not resampled) and
    ``n_groups`` groups that each hold the same number of samples of both classes.
    """
    X, y = make_basic(n_samples, n_features, n_informative, class_distance=class_distance,
                      positive_fraction=0.5, separable=False, random_state=random_state)
    groups = np.empty(n_samples, dtype=int)
    for label in (-1.0, 1.0):
        members = np.flatnonzero(y == label)
        groups[members] = np.arange(members.size) * n_groups // members.size
    return X, y, groups


def ranking_overlap(ranking, n_informative, quantiles=QUANTILES):
    """recall@q and precision@q of the first q % of ``ranking`` for the first features."""
    n_features = ranking.size
    rows = []
    for q in quantiles:
        top = ranking <= int(round(q / 100 * n_features))
        hits = int(top[:n_informative].sum())
        rows.append({"q": q, "recall": 100 * hits / n_informative, "recall_chance": q,
                     "precision": 100 * hits / max(int(top.sum()), 1),
                     "precision_chance": 100 * n_informative / n_features})
    return pd.DataFrame(rows)


def _mean_discarded_when_gone(result, n_informative, share):
    """Mean over folds of the % of features discarded once ``share`` of the informative
    ones (the first columns) were discarded (NaN for folds that never got there)."""
    percents = []
    for fold in result.folds:
        path = fold["path"]
        found = np.cumsum([np.count_nonzero(s < n_informative) for s in path.subsets])
        reached = np.flatnonzero(found >= share * n_informative)
        percents.append(100 * path.discarded[reached[0] + 1] / path.n_features if reached.size else np.nan)
    return float(np.nanmean(percents)) if np.isfinite(percents).any() else float("nan")


def run(quick=False, informative: tuple[Annotated[int, Between(1)], ...] | None = None,
        every: Annotated[int, Between(1)] = 2, n_jobs=None, random_state=0, verbose=0, out=None,
        class_distance: Annotated[float, Between(0)] = 0.3):
    """Estimate vs truth and ranking overlap for every number of informative features.

    Returns one row per scenario: truth, estimate, which fit, the per-fold repetitions,
    the fraction of features discarded (mean over folds) when 90 % and when all of the
    informative features were gone, and the recall/precision of the ranking at the NC
    Table 3 thresholds. ``every=2`` (NC used 10): the resampled curve holds each value
    until the next evaluation, which shifts it right by up to one evaluation step; NC's
    real data gave ~2.5 features per repetition (10 repetitions = 0.4 % of the voxels),
    these data ~27 (10 repetitions = 4 %, more than the 3 % to be estimated).
    ``out`` (a :class:`~sfmlearn.outputs.result_folder.ResultFolder`) receives the curve and fit of
    every scenario as a figure (``figures/informative_fraction_K_muMU.png``). ``class_distance``
    is mu, the class shift of every informative feature (0.3 as in the benchmarks).
    """
    shape = QUICK if quick else FULL
    informative = shape["informative"] if informative is None else informative
    d = shape["n_features"]
    rows = []
    for k in informative:
        X, y, groups = make_redundant(k, n_samples=shape["n_samples"], n_features=d,
                                      n_groups=shape["n_groups"], class_distance=class_distance,
                                      random_state=random_state)
        started = time.perf_counter()
        result = estimate_informative_fraction(
            X, y, groups, estimator=SupportFeatureMachine(), informative_every=every, n_jobs=n_jobs,
            random_state=random_state, verbose=verbose)
        seconds = time.perf_counter() - started
        ranking = RepetitiveSFM(random_state=random_state).fit(X, y).ranking_
        overlap = ranking_overlap(ranking, k)
        row = {
            "n_features": d, "mu": class_distance, "n_informative": k, "true_percent": 100 * k / d,
            "estimate_percent": 100 * result.estimate, "fit": result.fit_used or "none",
            "estimated_count": result.n_informative, "reason": result.reason,
            "mean_repetitions": np.mean([f["path"].n_repetitions for f in result.folds]),
            "gone90_percent": _mean_discarded_when_gone(result, k, 0.9),
            "gone100_percent": _mean_discarded_when_gone(result, k, 1.0),
            "seconds": seconds,
        }
        if out is not None:
            from ..plotting.repetitive import informative_fraction_figure

            out.add_figure(f"informative_fraction_{k}_mu{class_distance:g}", informative_fraction_figure(result),
                           f"k = {k} informative of {d} features (truth {row['true_percent']:.1f} %, mu = "
                           f"{class_distance:g}): subset sizes per fold, SVM error curve and sigmoid fit", dpi=120)
        for _, o in overlap.iterrows():
            row[f"recall@{o.q:g}%"] = o.recall
            row[f"precision@{o.q:g}%"] = o.precision
        rows.append(row)
    return pd.DataFrame(rows)
