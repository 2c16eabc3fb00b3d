"""Incidental separability for the data shapes users meet (thesis 2.5.4, 4.4).

For leukemia (38 x 7129, Golub training set), colon (62 x 2000, Alon) and the thesis'
fMRI data (88 x 6362 voxels, thesis 6.4.4) and k = 1..5: the bounds of thesis eq. (2.3)
on the probability that random data of that shape is linearly separable in some k of
its features, without bias (the thesis' quantity) and with a bias (what the selectors
fit; labels uniformly random), the exact value for k = 1, and the VC bound h* of
selecting k of d features (thesis 3.4). The thesis quotes P_{2,7129,38} <= 0.007
(thesis 4.4).

    sfmlearn reproduce thesis-sep-bounds
"""

import numpy as np
import pandas as pd

from ..theory import subset_separability

__all__ = ["SHAPES", "run"]

#: name -> (n_samples, n_features)
SHAPES = {
    "leukemia": (38, 7129),
    "colon": (62, 2000),
    "fMRI": (88, 6362),
}

#: (name, k) -> the thesis' number (an upper bound, thesis 4.4).
PUBLISHED = {("leukemia", 2): 0.007}
#: this table's names of the columns of subset_separability
_COLUMNS = {"p_fixed_subset": "lower", "upper_bound": "upper", "upper_bound_with_bias": "upper_with_bias"}


def run(quick=False, k_values=(1, 2, 3, 4, 5), shapes=None):
    """One row per (dataset, k) (:func:`~sfmlearn.theory.subset_separability` per shape).

    ``quick`` only serves the experiments interface: the table is exact and instant.
    """
    tables = []
    for name, (n, d) in (shapes or SHAPES).items():
        table = subset_separability(n, d, k_values).rename(columns=_COLUMNS)
        table.insert(0, "dataset", name)
        table.insert(1, "n", n)
        table.insert(2, "d", d)
        table["published"] = [PUBLISHED.get((name, k), np.nan) for k in table["k"]]
        tables.append(table[["dataset", "n", "d", "k", "lower", "upper", "exact", "upper_with_bias", "vc_bound",
                             "published"]])
    return pd.concat(tables, ignore_index=True)


def to_markdown(table):
    """The table as GitHub markdown (used for docs/guide/theory.md and the README)."""
    head = ("| data | n x d | k | P_k,n (one subset) | upper bound, no bias | exact (k=1) "
            "| upper bound, with bias | VC bound h* | thesis |")
    lines = [head, "|" + "---|" * 9]
    for r in table.itertuples():
        exact = f"{r.exact:.3g}" if np.isfinite(r.exact) else ""
        published = f"<= {r.published:g}" if np.isfinite(r.published) else ""
        lines.append(f"| {r.dataset} | {r.n} x {r.d} | {r.k} | {r.lower:.3g} | {r.upper:.3g} | {exact} "
                     f"| {r.upper_with_bias:.3g} | {r.vc_bound} | {published} |")
    return "\n".join(lines)
