"""Incidental separability for the data shapes users meet (thesis 2.5.4, 4.4).

For leukemia (38 x 7129, Golub training set), colon (62 x 2000, Alon) and the thesis'
fMRI data (88 x 6362 voxels, thesis 6.4.4) and k = 1..5: the bounds of thesis eq. (2.3)
on the probability that random data of that shape is linearly separable in some k of
its features, without bias (the thesis' quantity) and with a bias (what the selectors
fit; labels uniformly random), the exact value for k = 1, and the VC bound h* of
selecting k of d features (thesis 3.4). The thesis quotes P_{2,7129,38} <= 0.007
(thesis 4.4).

    python -m sfmlearn.experiments.separability_table
"""

import numpy as np
import pandas as pd

from ..theory import prob_separable_single_feature, prob_separable_subspace_bounds, vc_dimension_selection

__all__ = ["SHAPES", "run"]

#: name -> (n_samples, n_features)
SHAPES = {
    "leukemia": (38, 7129),
    "colon": (62, 2000),
    "fMRI": (88, 6362),
}

#: (name, k) -> the thesis' number (an upper bound, thesis 4.4).
PUBLISHED = {("leukemia", 2): 0.007}


def run(quick=False, k_values=(1, 2, 3, 4, 5), shapes=None):
    """One row per (dataset, k). ``quick`` only serves the experiments interface: the table is exact and instant."""
    rows = []
    for name, (n, d) in (shapes or SHAPES).items():
        for k in k_values:
            lower, upper = prob_separable_subspace_bounds(n, d, k)
            _, upper_bias = prob_separable_subspace_bounds(n, d, k, fit_intercept=True)
            rows.append({
                "dataset": name, "n": n, "d": d, "k": k,
                "lower": lower,
                "upper": upper,
                "exact": prob_separable_single_feature(n, d) if k == 1 else np.nan,
                "upper_with_bias": upper_bias,
                "vc_bound": vc_dimension_selection(d, k),
                "published": PUBLISHED.get((name, k), np.nan),
            })
    return pd.DataFrame(rows)


def to_markdown(table):
    """The table as GitHub markdown (used for docs/theory.md and the README)."""
    head = ("| data | n x d | k | P_k,n (one subset) | upper bound, no bias | exact (k=1) "
            "| upper bound, with bias | VC bound h* | thesis |")
    lines = [head, "|" + "---|" * 9]
    for r in table.itertuples():
        exact = f"{r.exact:.3g}" if np.isfinite(r.exact) else ""
        published = f"<= {r.published:g}" if np.isfinite(r.published) else ""
        lines.append(f"| {r.dataset} | {r.n} x {r.d} | {r.k} | {r.lower:.3g} | {r.upper:.3g} | {exact} "
                     f"| {r.upper_with_bias:.3g} | {r.vc_bound} | {published} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_markdown(run()))
