"""How often does the iterated-l1 SFM find the true minimum support?

The papers approximate min ||w||_0 by iterated one-norm minimisation and could not say
how far the approximation is from the true minimum. On the NC Table 1 data (Weston et
al.'s benchmark, n training points, k* noise features) we solve the l0 problem exactly
as a MILP (:mod:`sfmlearn.lp.exact`, warm-started with the l1 solution, time limit per
problem) and count, among the problems the MILP solves to proven optimality, how often
the l1 support already has the minimum size.

    sfmlearn reproduce extra-exact-vs-l1 [--quick] [--repetitions 50]
        [--set time_limit=30] [--set sizes=20,50,100] [--set noise_levels=10,100,1000]
"""

import warnings
from typing import Annotated

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from ..datasets import make_weston
from ..selection import SupportFeatureMachine
from .nc2013_table1 import NOISE, SAMPLES
from .settings import Between

__all__ = ["run"]


def one_problem(n, k_star, seed, time_limit):
    X, y = make_weston(n, k_star, random_state=seed)
    l1 = SupportFeatureMachine(refit=None).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        exact = SupportFeatureMachine(refit=None, method="exact", time_limit=time_limit).fit(X, y)
    result = exact.exact_
    return dict(n=n, k_star=k_star, seed=seed, l1_size=int(l1.support_.sum()),
                exact_size=int(result.support.size), lower_bound=result.lower_bound,
                proven=result.is_optimal, milp_seconds=result.seconds,
                l1_relevant=float(np.mean(np.flatnonzero(l1.support_) < 6)),
                exact_relevant=float(np.mean(result.support < 6)))


def run(quick=False, repetitions=None, time_limit: Annotated[float, Between(0, open=True)] = 30.0,
        sizes: tuple[SAMPLES, ...] = (20, 50, 100), noise_levels: tuple[NOISE, ...] | None = None, n_jobs=1,
        random_state=0):
    """One row per (n, k*): problems, how many the MILP proved optimal, mean l1 and minimum
    support sizes, median MILP seconds, % relevant of both, and ``l1_finds_minimum_pct``
    (among the proven problems, how often the l1 support has the minimum size).

    Full: 50 problems per cell, k* = 10, 100, 1000. ``quick``: 5 per cell and
    k* = 10, 100 (with k* = 1000 most MILPs run into the time limit).
    """
    repetitions = repetitions or (5 if quick else 50)
    if noise_levels is None:
        noise_levels = (10, 100) if quick else (10, 100, 1000)
    seeds = np.random.default_rng(random_state).integers(2**31, size=repetitions)
    jobs = [(n, k, int(s), time_limit) for n in sizes for k in noise_levels for s in seeds]
    rows = Parallel(n_jobs=n_jobs)(delayed(one_problem)(*job) for job in jobs)
    raw = pd.DataFrame(rows)
    proven = raw[raw.proven]
    summary = raw.groupby(["n", "k_star"]).agg(
        problems=("seed", "size"), proven_optimal=("proven", "sum"),
        mean_l1_size=("l1_size", "mean"), mean_exact_size=("exact_size", "mean"),
        milp_seconds_median=("milp_seconds", "median"),
        l1_pct_relevant=("l1_relevant", lambda v: 100 * v.mean()),
        exact_pct_relevant=("exact_relevant", lambda v: 100 * v.mean()),
    ).reset_index()
    hits = (proven.assign(hit=proven.l1_size == proven.exact_size)
            .groupby(["n", "k_star"]).hit.mean().mul(100).rename("l1_finds_minimum_pct"))
    summary = summary.merge(hits.reset_index(), on=["n", "k_star"], how="left")
    summary.attrs["raw"] = raw
    return summary
