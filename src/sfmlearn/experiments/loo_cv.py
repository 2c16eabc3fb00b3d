"""Thesis Fig. 2.9, 4.2, 4.3: leave-one-out error of linear SVMs in high dimensions.

* Fig. 2.9 (:func:`random_labels`): hard margin, random labels, LOO error against d for
  several n - it climbs from 0.5 to 1 (Theorem 2.5.1).
* Fig. 4.2 (:func:`two_classes`): hard margin, two classes with mu^2 = 1/30 (thesis 4.1);
  the LOO error tends to 1 for small n and to 0 for large n; Theorem 2.5.2 puts the
  switch at n = 12 (the thesis' number).
* Fig. 4.3 (:func:`softness`): the same data with a soft margin, C = 1, 0.5, 0.2, 0.1.
  We use the two-norm soft margin on data divided by sqrt(d) (mean squared norm 1),
  for which thesis 2.5.5 gives the theory: the softness adds per-feature noise of
  variance 1/C, so the critical n follows from Theorem 2.5.2 with sigma^2 = 1 + 1/C.
  The thesis does not say which soft margin or data scale its Fig. 4.3 used.

:func:`run` compares the critical sample sizes: theory, our simulation (largest n whose
mean LOO error at the largest simulated d is at least 0.25 - halfway between the limits
0 above and 0.5 at the critical n) and the thesis (n = 12 for the hard margin).

    sfmlearn reproduce thesis-fig4.2 thesis-fig4.3 [--quick]
"""

import numpy as np
import pandas as pd

from ..diagnostics import critical_sample_size, loo_error_grid
from .loo_border import settings as border_settings

__all__ = ["MU2", "SOFTNESS", "random_labels", "two_classes", "softness", "run"]

#: thesis 4.1: squared mean distance per feature of the two classes
MU2 = 1.0 / 30.0
#: thesis Fig. 4.3
SOFTNESS = (1.0, 0.5, 0.2, 0.1)


def _grid_settings(quick):
    cfg = border_settings(quick)
    if quick:
        cfg["n_values"] = [4, 8, 12, 16, 20]
    return cfg


def random_labels(quick=False, random_state=0, n_jobs=None):
    """Fig. 2.9: hard-margin LOO error on random labels, d from n to 1e5 (1000 runs; quick: 20).

    Even n only: with classes of (n+1)/2 and (n-1)/2 the limit is not 1 but
    ((n+1)/2 * 0.5 + (n-1)/2) / n (see :func:`~sfmlearn.diagnostics.asymptotic_loo_error`).
    """
    n_values = [4, 8, 12, 16, 20] if quick else [4, 6, 8, 10, 14, 20, 30, 40]
    d_values = np.unique(np.round(np.logspace(np.log10(4), 5, 10 if quick else 20)).astype(int))
    return loo_error_grid(n_values, d_values, n_runs=20 if quick else 1000,
                          random_state=random_state, n_jobs=n_jobs)


def two_classes(quick=False, random_state=0, n_jobs=None):
    """Fig. 4.2: hard margin, two Gaussian classes with mu^2 = 1/30 (grid of Fig. 4.1)."""
    return loo_error_grid(**_grid_settings(quick), mu2=MU2, random_state=random_state, n_jobs=n_jobs)


def softness(quick=False, random_state=0, n_jobs=None, C_values=SOFTNESS):
    """Fig. 4.3: two-norm soft margin on data divided by sqrt(d); returns {C: grid}."""
    return {C: loo_error_grid(**_grid_settings(quick), mu2=MU2, C=C, loss="squared_hinge",
                              normalize=True, random_state=random_state, n_jobs=n_jobs)
            for C in C_values}


def simulated_critical_n(grid, threshold=0.25):
    """Largest n whose mean LOO error at the largest simulated d is >= ``threshold`` (NaN if none)."""
    top = grid[grid["d"] == grid["d"].max()]
    failing = top[top["loo_error"] >= threshold]["n"]
    return float(failing.max()) if len(failing) else float("nan")


def run(quick=False, random_state=0, n_jobs=None):
    """Critical sample sizes for mu^2 = 1/30: hard margin (Fig. 4.2) and each C (Fig. 4.3)."""
    rows = [{"svm": "hard margin", "C": np.nan,
             "theory": critical_sample_size(MU2),
             "simulated": simulated_critical_n(two_classes(quick, random_state, n_jobs)),
             "published": 12.0, "cell": "thesis 4.1 (Fig. 4.2): critical n, hard margin, mu^2 = 1/30"}]
    for C, grid in softness(quick, random_state, n_jobs).items():
        rows.append({"svm": "2-norm soft margin, data / sqrt(d)", "C": C,
                     "theory": critical_sample_size(MU2, sigma2=1 + 1 / C, tau2=1 + 1 / C),
                     "simulated": simulated_critical_n(grid), "published": np.nan, "cell": ""})
    return pd.DataFrame(rows)
