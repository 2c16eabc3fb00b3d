"""Figures of the fMRI experiments (thesis 6.4 analyses on Haxby 2001 and on simulations).

Each function takes the table of the matching :mod:`sfmlearn.experiments` module and
returns a :class:`matplotlib.figure.Figure` without showing it.
"""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_haxby", "plot_fmri_sweeps"]


def plot_haxby(table):
    """Leave-one-run-out accuracy per data view and method, one panel per category pair
    (table of :func:`sfmlearn.experiments.haxby.run`); error bars: SD over runs.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns pair (e.g. "face vs house"), view, mask, method, accuracy, accuracy_sd
        (fractions).

    Returns
    -------
    matplotlib.figure.Figure
        One bar chart per pair; the dashed line is chance (50 %).

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.experiments.figures.fmri_experiments import plot_haxby
    >>> table = pd.DataFrame({"pair": ["face vs house"] * 2, "view": ["full"] * 2,
    ...                       "mask": ["ventral"] * 2, "method": ["SFM", "SVM"],
    ...                       "accuracy": [0.95, 0.97], "accuracy_sd": [0.05, 0.04]})
    >>> figure = plot_haxby(table)
    >>> figure.axes[0].get_title(), figure.axes[0].get_ylabel()
    ('face vs house', 'leave-one-run-out accuracy [%]')
    """
    pairs = list(dict.fromkeys(table["pair"]))
    views = list(dict.fromkeys(table["view"] + " / " + table["mask"].astype(str)))
    methods = list(dict.fromkeys(table["method"]))
    fig = Figure(figsize=(5.5 * len(pairs), 3.8), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(pairs), sharey=True))
    width = 0.8 / len(methods)
    for ax, pair in zip(axes, pairs):
        rows = table[table["pair"] == pair]
        label = rows["view"] + " / " + rows["mask"].astype(str)
        for k, method in enumerate(methods):
            mine = rows[rows["method"] == method].set_index(label[rows["method"] == method])
            mine = mine.reindex(views)
            ax.bar(np.arange(len(views)) + (k - (len(methods) - 1) / 2) * width,
                   100 * mine["accuracy"], width, yerr=100 * mine["accuracy_sd"],
                   label=method, capsize=2)
        ax.axhline(50, color="grey", lw=0.8, ls="--")
        ax.set_xticks(np.arange(len(views)), views, rotation=20, ha="right")
        ax.set_title(pair)
        ax.set_ylim(0, 105)
    axes[0].set_ylabel("leave-one-run-out accuracy [%]")
    axes[0].legend(fontsize=8, loc="lower left")
    return fig


def plot_fmri_sweeps(table):
    """Decoding accuracy over pyramid levels (thesis 6.4.4) and over time slices (thesis
    6.4.3), table of :func:`sfmlearn.experiments.fmri_sweeps.run`.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns sweep ("level" or "time"), level, time, accuracy, accuracy_sd (fractions).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: accuracy against the pyramid level and against the time slice.

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.experiments.figures.fmri_experiments import plot_fmri_sweeps
    >>> table = pd.DataFrame({"sweep": ["level", "level", "time", "time"],
    ...                       "level": [0, 1, 0, 0], "time": [4.0, 4.0, 2.0, 6.0],
    ...                       "accuracy": [0.8, 0.85, 0.6, 0.9], "accuracy_sd": [0.1, 0.1, 0.15, 0.05]})
    >>> [ax.get_title() for ax in plot_fmri_sweeps(table).axes]
    ['SFM over downsampling levels', 'SFM over time slices']
    """
    fig = Figure(figsize=(10, 3.6), layout="constrained")
    ax_level, ax_time = fig.subplots(1, 2)
    for ax, sweep, x, xlabel in ((ax_level, "level", "level", "pyramid level"),
                                 (ax_time, "time", "time", "time after onset [s]")):
        rows = table[table["sweep"] == sweep].sort_values(x)
        ax.errorbar(rows[x], 100 * rows["accuracy"], yerr=100 * rows["accuracy_sd"], marker="o",
                    capsize=3)
        ax.axhline(50, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(xlabel)
        ax.set_ylim(0, 105)
    ax_level.set_ylabel("leave-one-participant-out accuracy [%]")
    ax_level.set_title("SFM over downsampling levels")
    ax_time.set_title("SFM over time slices")
    return fig
