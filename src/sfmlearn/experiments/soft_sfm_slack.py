"""Soft SFM: reweight the slack (faithful C ||xi||_0) or price it linearly (C sum xi)?

The soft-SFM objective is ||w||_0 + C ||xi||_0 (NC eq. 2.9, thesis eq. 3.3). The iterated
scheme can approximate ||xi||_0 by reweighting the slack like w (``reweight_slack=True``)
or keep C sum_i xi_i in every LP. This experiment runs both on the scenarios of thesis
Fig. 4.8 / NC Fig. 2 (:data:`sfmlearn.datasets.NONSEPARABLE_SCENARIOS`) over a grid of
C and reports the mean number of selected features, the percentage that are truly
relevant and the test error. NC 3.3.2 reports, for scenario 2, the optimum at
C = 0.34 with 5.42 features, 86.7 % of them relevant, 27.6 % test error (``published``);
the thesis (4.2.3) puts the optimum of the same scenario at C = 0.2.

NC gives no spread: :func:`add_published` sets the standard error of its means over
100 runs to ours_std / 10, the value it has if both come from the same distribution
(the hypothesis an agreement test checks).

    sfmlearn reproduce extra-soft-slack [--quick]
"""

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from ..datasets import NONSEPARABLE_SCENARIOS, make_nonseparable
from ..selection import SupportFeatureMachine

__all__ = ["run", "PUBLISHED", "add_published"]

PUBLISHED = {(2, 0.34): {"n_features": 5.42, "pct_relevant": 86.7, "test_error_pct": 27.6}}
#: NC 3.3: every point of Fig. 2 is a mean over 100 runs
PUBLISHED_RUNS = 100


def add_published(table):
    """Add ``published``, ``published_se`` and ``cell`` to a table with columns scenario, C,
    metric, ours_std (module docstring: the published standard error)."""
    table["published"] = [PUBLISHED.get((s, round(C, 6)), {}).get(m, np.nan)
                          for s, C, m in zip(table.scenario, table.C, table.metric)]
    table["published_se"] = np.where(table["published"].notna(),
                                     table["ours_std"] / np.sqrt(PUBLISHED_RUNS), np.nan)
    table["cell"] = [f"NC 2013 3.3.2: scenario {s}, C={C:g}, {m}" if np.isfinite(p) else ""
                     for s, C, m, p in zip(table.scenario, table.C, table.metric, table.published)]
    return table


def one_run(scenario, C, reweight, seed):
    params = NONSEPARABLE_SCENARIOS[scenario]
    rng = np.random.default_rng(seed)
    X, y = make_nonseparable(**params, random_state=rng.integers(2**31))
    X_test, y_test = make_nonseparable(**{**params, "n_samples": 2000}, random_state=rng.integers(2**31))
    model = SupportFeatureMachine(C=C, reweight_slack=reweight).fit(X, y)
    selected = np.flatnonzero(model.support_)
    return dict(scenario=scenario, C=C, reweight_slack=reweight, seed=seed,
                n_features=selected.size,
                pct_relevant=100 * np.mean(selected < params["n_relevant"]) if selected.size else np.nan,
                test_error_pct=100 * (1 - model.score(X_test, y_test)))


def run(quick=False, repetitions=None, scenarios=(2, 3), Cs=None, n_jobs=1, random_state=0):
    repetitions = repetitions or (5 if quick else 30)
    Cs = np.round(np.logspace(-2, 2, 9), 3) if Cs is None else Cs
    Cs = sorted(set(np.r_[Cs, 0.2, 0.34]))  # the thesis' (0.2) and NC's (0.34) optimum
    seeds = np.random.default_rng(random_state).integers(2**31, size=repetitions)
    rows = Parallel(n_jobs=n_jobs)(
        delayed(one_run)(s, C, rw, int(seed))
        for s in scenarios for C in Cs for rw in (True, False) for seed in seeds
    )
    raw = pd.DataFrame(rows)
    long = raw.melt(id_vars=["scenario", "C", "reweight_slack", "seed"],
                    value_vars=["n_features", "pct_relevant", "test_error_pct"], var_name="metric")
    long = (long.groupby(["scenario", "C", "reweight_slack", "metric"])["value"]
            .agg(ours="mean", ours_std="std", runs="count").reset_index())
    long = add_published(long)
    # The published numbers belong to NC's C ||xi||_0, i.e. the reweighted slack; the
    # linear slack is our variant without a published counterpart.
    linear = ~long["reweight_slack"].astype(bool)
    long.loc[linear, ["published", "published_se"]] = np.nan
    long.loc[linear, "cell"] = ""
    long.attrs["repetitions"] = repetitions
    return long
