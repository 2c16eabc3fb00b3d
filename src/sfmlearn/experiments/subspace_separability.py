"""Thesis Fig. 2.8: separability in some k of d features, simulated and bounded.

For each (d, k) and n: the Monte-Carlo estimate of P_{k,d,n} (standard-normal data, two
balanced classes, subsets enumerated with the LP test until one separates, thesis
2.5.4) next to the bounds of thesis eq. (2.3). The thesis reports no numbers, only that
the estimates lie between the bounds and meet them for k = 1 and k = d, and that for
P_{4,5,n} the upper bound almost matches.

    sfmlearn reproduce thesis-fig2.8 [--quick]
"""


import numpy as np
import pandas as pd

from ..theory import prob_separable_subspace_bounds, prob_separable_subspace_mc

__all__ = ["settings", "run"]


def settings(quick=False):
    """(d, k) pairs, sample sizes and trials: full = thesis (1000 trials, about 8 minutes), quick = CI size."""
    left = [(5, k) for k in range(1, 6)]
    right = [(10, 1), (10, 2), (50, 1), (6, 3)]
    if quick:
        return {"pairs": [(5, 1), (5, 2), (5, 5), (10, 1)], "n_values": [2, 4, 6, 8, 12], "n_trials": 30}
    return {"pairs": left + right, "n_values": list(range(2, 25, 2)), "n_trials": 1000}


def run(quick=False, random_state=0, n_jobs=None):
    """Tidy table: d, k, n, empirical, lower, upper, n_trials, published (NaN: no numbers given)."""
    cfg = settings(quick)
    rows = []
    for i, (d, k) in enumerate(cfg["pairs"]):
        for j, n in enumerate(cfg["n_values"]):
            lower, upper = prob_separable_subspace_bounds(n, d, k)
            seed = (None if random_state is None
                    else int(np.random.SeedSequence([random_state, i, j]).generate_state(1)[0]))
            estimate = prob_separable_subspace_mc(n, d, k, cfg["n_trials"], random_state=seed, n_jobs=n_jobs)
            rows.append({"d": d, "k": k, "n": n, "empirical": estimate, "lower": lower,
                         "upper": upper, "n_trials": cfg["n_trials"], "published": float("nan")})
    return pd.DataFrame(rows)
