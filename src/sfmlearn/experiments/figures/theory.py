"""Figures of the high-dimensional small-sample theory (thesis Fig. 2.5-2.9, 3.5, 4.1-4.3).

Analytic figures (2.6, 2.7, 3.5) compute their curves here; simulated ones take the
tables produced by :mod:`sfmlearn.diagnostics` / :mod:`sfmlearn.experiments` so that
the expensive part can be cached, sized (quick / full) and tested separately. Every
function returns a :class:`matplotlib.figure.Figure` without showing it;
:mod:`sfmlearn.experiments.theory_figures` writes them all as PNG files.
"""

import numpy as np
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...theory import (
    growth_function,
    log_binom,
    prob_separable,
    prob_separable_single_feature,
    vc_dimension_selection,
)

__all__ = [
    "plot_distance_concentration",
    "plot_prob_separable",
    "plot_prob_single_feature",
    "plot_subspace_separability",
    "plot_loo_random",
    "plot_growth_function",
    "plot_loo_grid",
    "plot_loo_softness",
]

_UNDEFINED = "#b9d3ee"  # cells without a value (hard margin on non-separable data)

_CONCENTRATION_PANELS = (
    ("norm", "distance to the origin / sqrt(d)"),
    ("distance", "pairwise distance / sqrt(2d)"),
    ("angle", "pairwise angle (degrees)"),
    ("eigenvalue", "eigenvalues of X X' / d"),
)


def plot_distance_concentration(curves):
    """Thesis Fig. 2.5 from :func:`~sfmlearn.diagnostics.concentration_curves`: mean (solid) and extremes (dashed).

    Parameters
    ----------
    curves : pandas.DataFrame
        Columns d, quantity ("norm", "distance", "angle", "eigenvalue"), mean, min, max;
        ``attrs["n"]``, the number of points, goes into the title.

    Returns
    -------
    matplotlib.figure.Figure
        Four panels, one per quantity, against d (log scale).

    Examples
    --------
    >>> from sfmlearn.diagnostics import concentration_curves
    >>> from sfmlearn.experiments.figures.theory import plot_distance_concentration
    >>> curves = concentration_curves([10, 100, 1000], n=10, n_runs=5, random_state=0)
    >>> figure = plot_distance_concentration(curves)
    >>> len(figure.axes), figure.get_suptitle()
    (4, 'Distance concentration (n = 10 points)')
    """
    fig = Figure(figsize=(9, 6.5), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True)
    n_points = curves.attrs.get("n")
    for ax, (quantity, label) in zip(axes.ravel(), _CONCENTRATION_PANELS):
        part = curves[curves["quantity"] == quantity].sort_values("d")
        ax.plot(part["d"], part["mean"], "k-", label="mean")
        ax.plot(part["d"], part["min"], "k--", label="min / max")
        ax.plot(part["d"], part["max"], "k--")
        ax.set_xscale("log")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("dimension d")
    axes[0, 0].legend()
    title = "Distance concentration" + (f" (n = {n_points} points)" if n_points else "")
    fig.suptitle(title)
    return fig


def _curves_over_n(probability, n_max, d_values, ylabel, title, chance_line=False):
    """One curve ``probability(n, d)`` over n = 1 ... n_max for every d (thesis Figs. 2.6, 2.7)."""
    fig = Figure(figsize=(6.5, 4.5), layout="constrained")
    ax = fig.subplots()
    n = np.arange(1, n_max + 1)
    for d in d_values:
        ax.plot(n, probability(n, d), marker=".", label=f"d = {d}")
    if chance_line:
        ax.axhline(0.5, color="0.6", lw=0.8, ls=":")
    ax.set_xlabel("sample size n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def plot_prob_separable(n_max=60, d_values=(1, 2, 5, 10, 20)):
    """Thesis Fig. 2.6: P_{d,n}, probability that n random points are separable without bias in R^d.

    P_{d,n} = 2^(1-n) sum_{j=0}^{d-1} C(n-1, j) for n > d, 1 otherwise
    (:func:`~sfmlearn.theory.prob_separable`, Wendel 1962).

    Parameters
    ----------
    n_max : int, default=60
        Largest sample size n on the x axis (n = 1 ... n_max).
    d_values : sequence of int, default=(1, 2, 5, 10, 20)
        Dimensions, one curve each.

    Returns
    -------
    matplotlib.figure.Figure
        One panel; the dotted line marks probability 1/2 (reached at n = 2d).

    Examples
    --------
    >>> from sfmlearn.experiments.figures.theory import plot_prob_separable
    >>> figure = plot_prob_separable(n_max=30, d_values=(1, 5))
    >>> [line.get_label() for line in figure.axes[0].get_lines()[:2]]
    ['d = 1', 'd = 5']
    """
    return _curves_over_n(prob_separable, n_max, d_values, "P(separable without bias)",
                          "Probability of linear separability, $P_{d,n}$", chance_line=True)


def plot_prob_single_feature(n_max=30, d_values=(1, 10, 100, 1000, 10000)):
    """Thesis Fig. 2.7: P_{1,d,n}, separable (no bias) in at least one of d single features.

    P_{1,d,n} = 1 - (1 - 2^(1-n))^d for independent features
    (:func:`~sfmlearn.prob_separable_single_feature`).

    Parameters
    ----------
    n_max : int, default=30
        Largest sample size n on the x axis (n = 1 ... n_max).
    d_values : sequence of int, default=(1, 10, 100, 1000, 10000)
        Numbers of features, one curve each.

    Returns
    -------
    matplotlib.figure.Figure
        One panel.

    Examples
    --------
    >>> from sfmlearn.experiments.figures.theory import plot_prob_single_feature
    >>> figure = plot_prob_single_feature(n_max=20, d_values=(1, 1000))
    >>> figure.axes[0].get_xlabel(), len(figure.axes[0].get_lines())
    ('sample size n', 2)
    """
    return _curves_over_n(prob_separable_single_feature, n_max, d_values, "P(separable in some single feature)",
                          "Separability in one of d features, $P_{1,d,n}$")


def plot_subspace_separability(table):
    """Thesis Fig. 2.8: Monte-Carlo P_{k,d,n} (dots) between its bounds (dashed).

    Left: d = 5 and every k; right: the other (d, k). The bounds are those of
    :func:`~sfmlearn.theory.prob_separable_subspace_bounds` (thesis eq. 2.3).

    Parameters
    ----------
    table : pandas.DataFrame
        From :mod:`sfmlearn.experiments.subspace_separability`: columns d, k, n,
        empirical, lower, upper.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels sharing the y axis.

    Examples
    --------
    >>> from sfmlearn.experiments import subspace_separability
    >>> from sfmlearn.experiments.figures.theory import plot_subspace_separability
    >>> table = subspace_separability.run(quick=True)   # 30 trials per point
    >>> figure = plot_subspace_separability(table)
    >>> [ax.get_title() for ax in figure.axes]
    ['d = 5, all k', 'other (d, k)']
    """
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    pairs = table[["d", "k"]].drop_duplicates().sort_values(["d", "k"]).itertuples(index=False)
    colours = iter(colormaps["tab10"].colors * 2)
    for d, k in pairs:
        ax = left if d == 5 else right
        part = table[(table["d"] == d) & (table["k"] == k)].sort_values("n")
        colour = next(colours)
        ax.plot(part["n"], part["empirical"], "o", color=colour, ms=4, label=f"d = {d}, k = {k}")
        ax.plot(part["n"], part["lower"], "--", color=colour, lw=0.8)
        ax.plot(part["n"], part["upper"], "--", color=colour, lw=0.8)
    for ax, title in ((left, "d = 5, all k"), (right, "other (d, k)")):
        ax.set_xlabel("sample size n")
        ax.set_title(title)
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
    left.set_ylabel("P(separable in some k-subset)")
    fig.suptitle("Separability in a k-dimensional subspace: simulation (dots) and bounds (dashed)")
    return fig


def plot_loo_random(grid):
    """Thesis Fig. 2.9: LOO error of a hard-margin SVM on random labels against d, one curve per n.

    As d grows the leave-one-out error on random labels tends to 1, not to 1/2 (thesis
    2.5.5): the left-out point is always classified as the other class.

    Parameters
    ----------
    grid : pandas.DataFrame
        From :func:`~sfmlearn.diagnostics.loo_error_grid`: columns n, d, loo_error (NaN
        where undefined).

    Returns
    -------
    matplotlib.figure.Figure
        One panel, d on a log scale.

    Examples
    --------
    Five runs for n = 4 and 8 samples in d = 10 and 100 dimensions; one line per n:

    >>> from sfmlearn.diagnostics import loo_error_grid
    >>> from sfmlearn.experiments.figures.theory import plot_loo_random
    >>> grid = loo_error_grid([4, 8], [10, 100], n_runs=5, random_state=0)
    >>> figure = plot_loo_random(grid)
    >>> [line.get_label() for line in figure.axes[0].get_lines()[:2]]
    ['n = 4', 'n = 8']
    """
    fig = Figure(figsize=(6.5, 4.5), layout="constrained")
    ax = fig.subplots()
    for n, part in grid.dropna(subset=["loo_error"]).groupby("n"):
        part = part.sort_values("d")
        ax.plot(part["d"], part["loo_error"], marker=".", label=f"n = {n}")
    ax.axhline(0.5, color="0.6", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("dimension d")
    ax.set_ylabel("leave-one-out error")
    ax.set_title("Hard-margin SVM on random labels: LOO error -> 1")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return fig


def plot_growth_function(scenarios=((5, 4), (100, 1), (100, 2), (1000, 5)), n_max=None):
    """Thesis Fig. 3.5: log2 of 2^n, G_k(n) and C(d,k) G_k(n), with h = k and the bound h*.

    G_k(n) = 2^n P_{k,n} is the growth function of linear classifiers (without bias) in
    k dimensions; selecting k of d features multiplies it by at most C(d, k), which
    bounds the VC dimension of the selection by h* (:func:`~sfmlearn.vc_dimension_selection`).

    Parameters
    ----------
    scenarios : sequence of (d, k), default=((5, 4), (100, 1), (100, 2), (1000, 5))
        One panel per pair: k features selected out of d.
    n_max : int, optional
        Largest n on the x axis; default 1.5 h* + 2 for every panel.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels per row.

    Examples
    --------
    >>> from sfmlearn.experiments.figures.theory import plot_growth_function
    >>> figure = plot_growth_function(scenarios=((100, 1), (100, 2)))
    >>> [ax.get_title() for ax in figure.axes]
    ['1 of d = 100 features', '2 of d = 100 features']
    """
    fig = Figure(figsize=(10, 7), layout="constrained")
    axes = np.atleast_1d(fig.subplots(int(np.ceil(len(scenarios) / 2)), 2)).ravel()
    for ax, (d, k) in zip(axes, scenarios):
        h_star = vc_dimension_selection(d, k)
        n = np.arange(1, (n_max or int(1.5 * h_star) + 2) + 1)
        log2_g = growth_function(n, k, log=True) / np.log(2)
        ax.plot(n, n, "k:", label="$2^n$")
        ax.plot(n, log2_g, label=f"$G_{{{k}}}(n)$")
        ax.plot(n, log2_g + log_binom(d, k) / np.log(2), label=f"$\\binom{{{d}}}{{{k}}} G_{{{k}}}(n)$")
        ax.axvline(k, color="C0", ls="--", lw=0.8, label=f"h = {k}")
        ax.axvline(h_star, color="C1", ls="--", lw=0.8, label=f"h* = {h_star}")
        ax.set_title(f"{k} of d = {d} features")
        ax.set_xlabel("sample size n")
        ax.set_ylabel("log2(number of labellings)")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
    for ax in axes[len(scenarios):]:
        ax.set_visible(False)
    fig.suptitle("Growth function and VC bound of selecting k of d features")
    return fig


def plot_loo_grid(grid, border=None, *, ax=None, title=None):
    """Thesis Fig. 4.1 / 4.2: mean LOO error over (n, d) as grey levels (white 1, black 0).

    Parameters
    ----------
    grid : pandas.DataFrame
        From :func:`~sfmlearn.diagnostics.loo_error_grid`: columns n, d, loo_error.
    border : pandas.DataFrame, optional
        From :func:`sfmlearn.experiments.loo_border.border_table`: adds the border points
        (black: used in the fit, white: extrapolation) and the fitted d_poly(n).
    ax : matplotlib.axes.Axes, optional
        Draw into this panel (with its colour bar) instead of a new figure.
    title : str, optional
        Panel title; default "Mean leave-one-out error".

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or the figure of ``ax``.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_error_grid
    >>> from sfmlearn.experiments.loo_border import border_table
    >>> from sfmlearn.experiments.figures.theory import plot_loo_grid
    >>> grid = loo_error_grid([4, 6, 8, 10, 12, 14, 16], [10, 100, 1000, 10000], n_runs=5,
    ...                       random_state=0)
    >>> figure = plot_loo_grid(grid, border_table(grid))
    >>> len(figure.axes), figure.axes[0].get_title()   # the panel and its colour bar
    (2, 'Mean leave-one-out error')
    """
    fig = None
    if ax is None:
        fig = Figure(figsize=(6.5, 5), layout="constrained")
        ax = fig.subplots()
    table = grid.pivot(index="d", columns="n", values="loo_error").sort_index()
    n_values, d_values = table.columns.to_numpy(), table.index.to_numpy()
    cmap = colormaps["gray"].with_extremes(bad=_UNDEFINED)
    mesh = ax.pcolormesh(_edges(n_values), _edges(d_values, log=True), table.to_numpy(),
                         cmap=cmap, vmin=0, vmax=1, shading="flat")
    handles = [Patch(color=_UNDEFINED, label="undefined (hard margin, d < n - 1)")] if table.isna().any().any() else []
    ax.set_yscale("log")
    ax.set_xlabel("sample size n")
    ax.set_ylabel("dimension d")
    if border is not None:
        found = border.dropna(subset=["border_d"])
        fit = found[found["used_in_fit"]]
        extra = found[~found["used_in_fit"]]
        ax.plot(fit["n"], fit["border_d"], "o", mfc="black", mec="white", label="border (fit)")
        ax.plot(extra["n"], extra["border_d"], "o", mfc="white", mec="black", label="border (extrapolation)")
        ax.plot(border["n"], border["fitted_d"], "-", color="C3", label="$d_{poly}(n)$")
        ax.set_ylim(d_values.min() * 0.9, d_values.max() * 1.1)
    if handles or border is not None:
        ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, fontsize="small", loc="lower right")
    ax.set_title(title or "Mean leave-one-out error")
    owner = fig if fig is not None else ax.figure
    owner.colorbar(mesh, ax=ax, label="LOO error")
    return fig if fig is not None else ax.figure


def plot_loo_softness(grids):
    """Thesis Fig. 4.3: one :func:`plot_loo_grid` panel per softness C.

    Parameters
    ----------
    grids : dict of float to pandas.DataFrame
        Softness C -> LOO-error grid (:func:`sfmlearn.experiments.loo_cv.softness`).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels per row, each with its colour bar.

    Examples
    --------
    >>> from sfmlearn.diagnostics import loo_error_grid
    >>> from sfmlearn.experiments.figures.theory import plot_loo_softness
    >>> grids = {C: loo_error_grid([4, 8], [10, 100], C=C, loss="squared_hinge", n_runs=5,
    ...                            random_state=0) for C in (0.1, 10.0)}
    >>> figure = plot_loo_softness(grids)
    >>> [ax.get_title() for ax in figure.axes if ax.get_title()]
    ['C = 0.1', 'C = 10']
    """
    fig = Figure(figsize=(11, 8.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(int(np.ceil(len(grids) / 2)), 2)).ravel()
    for ax, (C, grid) in zip(axes, grids.items()):
        plot_loo_grid(grid, ax=ax, title=f"C = {C:g}")
    for ax in axes[len(grids):]:
        ax.set_visible(False)
    fig.suptitle("Soft-margin SVM, two classes: mean LOO error for several C")
    return fig


def _edges(centres, log=False):
    """Cell edges around sorted centres (geometric midpoints on a log axis)."""
    c = np.log(centres) if log else np.asarray(centres, dtype=float)
    mid = (c[1:] + c[:-1]) / 2
    first = c[0] - (mid[0] - c[0]) if c.size > 1 else c[0] - 0.5
    last = c[-1] + (c[-1] - mid[-1]) if c.size > 1 else c[-1] + 0.5
    edges = np.r_[first, mid, last]
    return np.exp(edges) if log else edges
