"""Thesis Fig. 4.1: where leave-one-out of a hard-margin SVM starts to behave as if d = infinity.

Random data (two balanced classes from the same standard normal distribution),
n = 4, 6, ..., 40 and log-spaced d in [10, 1e5], 100 runs per cell (thesis 4.1). For
every n the lowest d whose mean LOO error exceeds 0.99 is a border point; a
least-squares 2nd-order polynomial d_poly(n) = a0 + a1 n + a2 n^2 through the first 6
border points approximates the border (the thesis does the same but prints no
coefficients). The thesis reads n = 20 -> about d = 50000 off its figure.

    sfmlearn reproduce thesis-fig4.1           # about 5 minutes on 1 core
    sfmlearn reproduce thesis-fig4.1 --quick

Its coefficients are :data:`sfmlearn.diagnostics.loo.INFINITE_BORDER_COEF`.
"""

import numpy as np
import pandas as pd

from ..diagnostics import fit_infinite_border, infinite_border_points, infinite_dimension_border, loo_error_grid

__all__ = ["settings", "simulate", "border_table", "run"]

#: thesis 4.1: "for approximately d = 50000" at n = 20
PUBLISHED_BORDER = {20: 50000.0}
N_FIT = 6


def settings(quick=False):
    """Grid of the simulation: full = thesis 4.1 (10 d values per decade), quick = CI size."""
    if quick:
        return {"n_values": list(range(4, 16, 2)),
                "d_values": np.unique(np.round(np.logspace(1, 5, 13)).astype(int)), "n_runs": 10}
    return {"n_values": list(range(4, 42, 2)),
            "d_values": np.unique(np.round(np.logspace(1, 5, 41)).astype(int)), "n_runs": 100}


def simulate(quick=False, random_state=0, n_jobs=None):
    """The LOO-error grid of thesis Fig. 4.1 (see :func:`~sfmlearn.diagnostics.loo_error_grid`)."""
    return loo_error_grid(**settings(quick), random_state=random_state, n_jobs=n_jobs)


def border_table(grid, threshold=0.99):
    """Border points per n, the fitted d_poly(n), and the thesis' reading where it gives one.

    Columns n, border_d, fitted_d, used_in_fit, published and ``note``, which spells out
    d_poly on the rows with a published reading; ``attrs["coef"]`` holds (a0, a1, a2).
    """
    points = infinite_border_points(grid, threshold)
    coef = fit_infinite_border(points, N_FIT)
    table = pd.DataFrame({"n": sorted(grid["n"].unique())})
    table = table.merge(points.rename(columns={"d": "border_d"}), on="n", how="left")
    table["fitted_d"] = infinite_dimension_border(table["n"].to_numpy(), coef)
    table["used_in_fit"] = table["n"].isin(points["n"].head(N_FIT))
    table["published"] = table["n"].map(PUBLISHED_BORDER).astype(float)
    # the fitted border on the rows the thesis reads, so that the comparison shows it
    a0, a1, a2 = coef
    table["note"] = np.where(table["published"].notna(),
                             f"d_poly(n) = {a0:.6g} + ({a1:.6g}) n + ({a2:.6g}) n^2, fitted to the first "
                             f"{N_FIT} border points", "")
    table.attrs["coef"] = coef
    return table


def run(quick=False, random_state=0, n_jobs=None):
    """Border table (``table.attrs["coef"]`` holds the fitted (a0, a1, a2))."""
    return border_table(simulate(quick, random_state, n_jobs))
