"""Figures of the SFM experiments (NC 2013 Figs. 1-2, thesis Figs. 4.4-4.15).

Each function takes the table of the matching :mod:`sfmlearn.experiments` module and
returns a :class:`matplotlib.figure.Figure` without showing it.
"""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_basic_sweep", "plot_noise_sweep", "plot_soft_sweep", "plot_runtimes"]

_METHOD_STYLE = {"sfm": "C0", "weston": "C1", "svm_all_features": "C2",
                 "sfm_refit_center": "C4", "sfm_refit_None": "C5"}
_LABELS = {"n_features": "selected features", "pct_relevant": "relevant among selected [%]",
           "train_error_pct": "training error [%]", "test_error_pct": "test error [%]",
           "exact_set_pct": "exactly the k relevant [%]"}


def plot_basic_sweep(table, sweeps=("k", "n")):
    """NC Fig. 1 / thesis Fig. 4.4 (sweep ``"k"``) and 4.5 (``"n"``), table of ``basic_sweeps.run``.

    One row of panels per sweep: selected features, % relevant, % runs with exactly the
    relevant set; lines: SFM and Weston, solid final, dashed after the first iteration.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`sfmlearn.experiments.basic_sweeps.run`: columns sweep, value, method,
        stage, n_features, pct_relevant, exact_set_pct, runs.
    sweeps : tuple of {"k", "n"}, default=("k", "n")
        The sweeps to draw, one row of panels each (those absent from ``table`` are
        skipped).

    Returns
    -------
    matplotlib.figure.Figure
        Three panels per sweep.

    Examples
    --------
    >>> from sfmlearn.experiments import basic_sweeps
    >>> from sfmlearn.experiments.figures.sfm_experiments import plot_basic_sweep
    >>> table = basic_sweeps.run(quick=True, repetitions=1, sweeps=("k",))
    >>> figure = plot_basic_sweep(table)
    >>> len(figure.axes), figure.axes[0].get_ylabel()
    (3, 'selected features')
    """
    sweeps = [s for s in sweeps if (table["sweep"] == s).any()]
    metrics = ("n_features", "pct_relevant", "exact_set_pct")
    fig = Figure(figsize=(12, 3.4 * len(sweeps)), layout="constrained")
    axes = np.atleast_2d(fig.subplots(len(sweeps), len(metrics)))
    for sweep, row_axes in zip(sweeps, axes):
        rows = table[table["sweep"] == sweep]
        for ax, metric in zip(row_axes, metrics):
            for (method, stage), line in rows.groupby(["method", "stage"], sort=False):
                line = line.sort_values("value")
                ax.plot(line["value"], line[metric], color=_METHOD_STYLE[method], marker=".",
                        ls="-" if stage == "final" else "--", label=f"{method} ({stage} iteration)")
            if sweep == "k" and metric == "n_features":
                ax.plot(rows["value"], rows["value"], color="grey", lw=0.8, label="k (truth)")
            if sweep == "n":
                ax.set_xscale("log")
            ax.set_xlabel("relevant features k (n = 100)" if sweep == "k" else "samples n (k = 5)")
            ax.set_ylabel(_LABELS[metric])
        row_axes[0].legend(fontsize=7)
    runs = int(table["runs"].min()) if len(table) else 0
    fig.suptitle(f"Basic experiment, d = 100 ({runs} runs per point)", fontsize=10)
    return fig


def plot_noise_sweep(table, metrics=("n_features", "pct_relevant", "test_error_pct")):
    """NC Table 1 / thesis Figs. 4.6-4.7 (``nc2013_table1.run``): metric against the number
    of noise features k*, one line per (method, n); published values as open markers.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`sfmlearn.experiments.nc2013_table1.run`: columns method, metric, n,
        k_star, ours, ours_std, runs and (optionally) published.
    metrics : tuple of str, default=("n_features", "pct_relevant", "test_error_pct")
        One panel per metric.

    Returns
    -------
    matplotlib.figure.Figure
        Lines are our means +- their standard error.

    Examples
    --------
    >>> from sfmlearn.experiments import nc2013_table1
    >>> from sfmlearn.experiments.figures.sfm_experiments import plot_noise_sweep
    >>> table = nc2013_table1.run(quick=True, repetitions=1, sizes=(20,))
    >>> figure = plot_noise_sweep(table, metrics=("n_features",))
    >>> figure.axes[0].get_xlabel(), figure.axes[0].get_ylabel()
    ('noise features k*', 'selected features')
    """
    fig = Figure(figsize=(4 * len(metrics), 3.8), layout="constrained")
    for ax, metric in zip(np.atleast_1d(fig.subplots(1, len(metrics))), metrics):
        rows = table[table["metric"] == metric]
        for (method, n), line in rows.groupby(["method", "n"], sort=False):
            line = line.sort_values("k_star")
            color = _METHOD_STYLE.get(method, "k")
            style = {"20": "-", "50": "--", "100": ":"}.get(str(n), "-.")
            ax.errorbar(line["k_star"], line["ours"], yerr=line["ours_std"] / np.sqrt(line["runs"]),
                        color=color, ls=style, marker=".", label=f"{method}, n={n}")
            if "published" in line:
                ax.plot(line["k_star"], line["published"], "o", mfc="none", color=color)
        ax.set_xscale("log")
        ax.set_xlabel("noise features k*")
        ax.set_ylabel(_LABELS[metric])
    fig.axes[0].legend(fontsize=7, ncol=2)
    fig.suptitle("Exponentially growing noise (lines: ours +- s.e.; open circles: published)", fontsize=10)
    return fig


def plot_soft_sweep(table):
    """NC Fig. 2 / thesis Fig. 4.8 (``soft_sfm_sweep.run``): each metric against C, one
    line per scenario; published points (scenario 2, C = 0.34) as stars.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`sfmlearn.experiments.soft_sfm_sweep.run`: columns scenario, C, metric
        (n_features, pct_relevant, train_error_pct, test_error_pct), ours, published.

    Returns
    -------
    matplotlib.figure.Figure
        Four panels, C on a log scale.

    Examples
    --------
    The quick sweep of scenario 2 with one repetition; the y labels of the four panels:

    >>> from sfmlearn.experiments import soft_sfm_sweep
    >>> from sfmlearn.experiments.figures.sfm_experiments import plot_soft_sweep
    >>> table = soft_sfm_sweep.run(quick=True, repetitions=1, scenarios=(2,))
    >>> figure = plot_soft_sweep(table)
    >>> [ax.get_ylabel() for ax in figure.axes]
    ['selected features', 'relevant among selected [%]', 'training error [%]', 'test error [%]']
    """
    metrics = ("n_features", "pct_relevant", "train_error_pct", "test_error_pct")
    fig = Figure(figsize=(13, 3.6), layout="constrained")
    for ax, metric in zip(fig.subplots(1, len(metrics)), metrics):
        rows = table[table["metric"] == metric]
        for scenario, line in rows.groupby("scenario"):
            line = line.sort_values("C")
            ax.plot(line["C"], line["ours"], marker=".", label=f"scenario {scenario}")
            published = line.dropna(subset=["published"])
            ax.plot(published["C"], published["published"], "*", ms=12, color="k",
                    label="published" if scenario == 2 else None)
        ax.set_xscale("log")
        ax.set_xlabel("softness C")
        ax.set_ylabel(_LABELS[metric])
    fig.axes[0].legend(fontsize=8)
    fig.suptitle("Soft SFM on overlapping classes", fontsize=10)
    return fig


def plot_runtimes(table, part):
    """Thesis Figs. 4.9-4.15 (``runtimes.run``): LP seconds per engine for one part.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`sfmlearn.experiments.runtimes.run`: columns part, n, d, k, mu, soft,
        solver, formulation, seconds, runs.
    part : str
        The part to draw: "samples", "dimensions", "formulation", "intrinsic", "soft"
        (seconds against the varied size, log-log) or "grid_hard", "grid_soft" (the
        fastest engine per (n, d) as a heat map).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per varied quantity (or the heat map).

    Examples
    --------
    >>> from sfmlearn.experiments import runtimes
    >>> from sfmlearn.experiments.figures.sfm_experiments import plot_runtimes
    >>> table = runtimes.run(quick=True, repetitions=1, parts=("samples",))
    >>> figure = plot_runtimes(table, "samples")
    >>> figure.axes[0].get_xlabel(), figure.axes[0].get_yscale()
    ('samples n', 'log')
    """
    rows = table[table["part"] == part].copy()
    rows["config"] = rows["solver"] + np.where(rows["formulation"] == "sparse", " (sparse)", "")
    if part in ("grid_hard", "grid_soft"):
        return _fastest_grid(rows, part)
    axes_of = {"samples": [("n", rows)], "dimensions": [("d", rows)], "formulation": [("d", rows[rows.n == 200]),
               ("n", rows[rows.d == 100])],
               "intrinsic": [("k", rows[rows.mu == 0.1]), ("mu", rows[rows.k == 5])],
               "soft": [("n", rows[rows.d == 50]), ("d", rows[rows.n == 200])]}[part]
    axes_of = [(axis, sub) for axis, sub in axes_of if sub[axis].nunique() > 1]
    fig = Figure(figsize=(5.5 * len(axes_of), 4), layout="constrained")
    for ax, (axis, sub) in zip(np.atleast_1d(fig.subplots(1, len(axes_of))), axes_of):
        groups = ["config", "soft"] if part == "soft" else ["config"]
        for key, line in sub.groupby(groups, sort=False):
            line = line.sort_values(axis)
            label = " ".join(str(k) for k in np.atleast_1d(key)) if part != "soft" else \
                f"{key[0]} {'soft C=1' if key[1] else 'hard'}"
            ax.plot(line[axis], line["seconds"], marker=".", label=label,
                    ls="--" if part == "soft" and key[1] else "-")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel({"n": "samples n", "d": "features d", "k": "relevant features k",
                       "mu": "class distance mu"}[axis])
        ax.set_ylabel("LP seconds (sum over iterations)")
        ax.legend(fontsize=7)
    runs = int(rows["runs"].min()) if len(rows) else 0
    fig.suptitle(f"SFM run time, part '{part}' ({runs} runs per point, one BLAS thread)", fontsize=10)
    return fig


def _fastest_grid(rows, part):
    wide = rows.pivot_table(index="n", columns="d", values="seconds", aggfunc="min")
    best = rows.loc[rows.groupby(["n", "d"])["seconds"].idxmin()].set_index(["n", "d"])["config"]
    fig = Figure(figsize=(1.6 * wide.shape[1] + 2, 1.0 * wide.shape[0] + 1.5), layout="constrained")
    ax = fig.subplots()
    mesh = ax.imshow(np.log10(wide.to_numpy()), cmap="viridis", aspect="auto")
    for i, n in enumerate(wide.index):
        for j, d in enumerate(wide.columns):
            if (n, d) in best.index:
                ax.text(j, i, f"{best[(n, d)]}\n{wide.loc[n, d]:.3g} s", ha="center", va="center",
                        fontsize=7, bbox={"facecolor": "white", "alpha": 0.8, "lw": 0})
    ax.set_xticks(range(wide.shape[1]), [str(d) for d in wide.columns])
    ax.set_yticks(range(wide.shape[0]), [str(n) for n in wide.index])
    ax.set_xlabel("features d")
    ax.set_ylabel("samples n")
    fig.colorbar(mesh, ax=ax, label="log10 seconds of the fastest engine")
    ax.set_title(f"Fastest engine per (n, d), {'soft (C = 1)' if part == 'grid_soft' else 'hard'} SFM",
                 fontsize=10)
    return fig
