"""Our numbers against the published ones: the default figure of a reproduced table."""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_ours_vs_published"]


def plot_ours_vs_published(comparison, *, title=None, max_panels=6):
    """Scatter of ours (y) against published (x), one panel per metric, identity line.

    ``comparison`` has columns ``ours``, ``published``, ``agrees`` and optionally
    ``metric`` (one panel each; metrics have different units). Agreeing rows are
    drawn as dots, misses as crosses, rows without a verdict as grey points.

    Parameters
    ----------
    comparison : pandas.DataFrame
        Columns ours, published, agrees (True, False or missing) and optionally metric:
        the comparison table of a reproduced experiment.
    title : str, optional
        Figure title.
    max_panels : int, default=6
        At most this many metrics are drawn (the first ones).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per metric.

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.experiments.figures.comparison import plot_ours_vs_published
    >>> comparison = pd.DataFrame({"metric": ["features", "features", "test error"],
    ...                            "ours": [3.1, 7.0, 0.12], "published": [3.0, 5.2, 0.11],
    ...                            "agrees": [True, False, True]})
    >>> figure = plot_ours_vs_published(comparison, title="NC Table 1")
    >>> [ax.get_title() for ax in figure.axes], figure.get_suptitle()
    (['features', 'test error'], 'NC Table 1')
    """
    groups = (list(comparison.groupby("metric", sort=False)) if "metric" in comparison
              else [("", comparison)])[:max_panels]
    fig = Figure(figsize=(3.6 * len(groups), 3.6), layout="constrained")
    for ax, (metric, rows) in zip(np.atleast_1d(fig.subplots(1, len(groups))), groups):
        ok, miss = rows["agrees"].eq(True).to_numpy(), rows["agrees"].eq(False).to_numpy()
        ax.scatter(rows["published"][ok], rows["ours"][ok], marker="o", color="tab:blue", label="agrees")
        ax.scatter(rows["published"][miss], rows["ours"][miss], marker="x", color="tab:red", label="differs")
        other = ~(ok | miss)
        if other.any():
            ax.scatter(rows["published"][other], rows["ours"][other], marker=".", color="grey",
                       label="not judged")
        values = np.r_[rows["published"].to_numpy(float), rows["ours"].to_numpy(float)]
        values = values[np.isfinite(values)]
        if values.size:
            low, high = values.min(), values.max()
            pad = 0.05 * (high - low) or 0.05 * abs(high) or 1.0
            ax.plot([low - pad, high + pad], [low - pad, high + pad], color="grey", lw=0.8)
        ax.set_xlabel("published")
        ax.set_ylabel("ours")
        ax.set_title(str(metric), fontsize=10)
        ax.legend(fontsize=8)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig
