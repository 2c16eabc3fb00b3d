"""All figures of the theory chapter as PNG files (thesis Fig. 2.5-2.9, 3.5, 4.1-4.3).

    sfmlearn separability --figures OUTDIR [--quick]

Full settings follow the thesis (100-1000 runs per point) and take about 40 minutes
on this project's shared 2-core machine (docs/guide/theory.md); ``--quick`` draws every
figure from small simulations in well under a minute (noisy curves, same effects).
"""

import inspect
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..diagnostics.geometry import concentration_curves
from ..outputs.atomic import save_figure
from .figures import theory as plots
from . import loo_border, loo_cv, subspace_separability

__all__ = ["FIGURES", "draw", "run"]


def _fig_2_5(quick, random_state):
    d_values = np.unique(np.round(np.logspace(0, 5, 11 if quick else 26)).astype(int))
    return plots.plot_distance_concentration(concentration_curves(d_values, n=10, n_runs=10 if quick else 100,
                                                                  random_state=random_state))


def _fig_4_1(quick, random_state, n_jobs):
    grid = loo_border.simulate(quick, random_state, n_jobs)
    return plots.plot_loo_grid(grid, loo_border.border_table(grid),
                               title="Random labels, hard margin: LOO error (white = 1)")


#: file stem -> function returning a Figure; it takes those of ``quick``, ``random_state`` and
#: ``n_jobs`` it uses (:func:`draw` passes only those)
FIGURES = {
    "fig2_5_distance_concentration": _fig_2_5,
    "fig2_6_prob_separable": lambda: plots.plot_prob_separable(),
    "fig2_7_prob_single_feature": lambda: plots.plot_prob_single_feature(),
    "fig2_8_subspace_separability": lambda quick, random_state, n_jobs: plots.plot_subspace_separability(
        subspace_separability.run(quick, random_state, n_jobs)),
    "fig2_9_loo_random_labels": lambda quick, random_state, n_jobs: plots.plot_loo_random(
        loo_cv.random_labels(quick, random_state, n_jobs)),
    "fig3_5_growth_function": lambda: plots.plot_growth_function(),
    "fig4_1_loo_border": _fig_4_1,
    "fig4_2_loo_two_classes": lambda quick, random_state, n_jobs: plots.plot_loo_grid(
        loo_cv.two_classes(quick, random_state, n_jobs), title="Two classes (mu^2 = 1/30), hard margin: LOO error"),
    "fig4_3_loo_softness": lambda quick, random_state, n_jobs: plots.plot_loo_softness(
        loo_cv.softness(quick, random_state, n_jobs)),
}


def draw(stem, **options):
    """The figure ``stem`` of :data:`FIGURES`, given those of ``options`` (quick, random_state,
    n_jobs) it takes."""
    make = FIGURES[stem]
    taken = inspect.signature(make).parameters
    return make(**{name: value for name, value in options.items() if name in taken})


def run(quick=False, outdir="figures", random_state=0, n_jobs=None, only=None, progress=None):
    """Write the figures (all, or the stems in ``only``) to ``outdir``; returns a table of files and times.

    ``progress`` (optional) is called with each stem after its figure is written.
    """
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    unknown = set(only or ()) - set(FIGURES)
    if unknown:
        raise ValueError(f"unknown figures {sorted(unknown)}; choose from {sorted(FIGURES)}.")
    rows = []
    for stem in FIGURES:
        if only and stem not in only:
            continue
        started = time.perf_counter()
        path = out / f"{stem}.png"
        save_figure(draw(stem, quick=quick, random_state=random_state, n_jobs=n_jobs), path, dpi=120)
        rows.append({"figure": stem, "path": str(path), "seconds": time.perf_counter() - started})
        if progress is not None:
            progress(stem)
    return pd.DataFrame(rows)
