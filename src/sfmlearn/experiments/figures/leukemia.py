"""Leukemia figures of the thesis (Figs. 4.16-4.18) from ``experiments.leukemia_repetitive``."""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["plot_leukemia_repetitive"]


def plot_leukemia_repetitive(table, X, y, genes, gene_names):
    """Three panels: (a) Golub's genes (rows) over the training patients (columns, ALL
    then AML), each gene standardised; (b) genes and test error of every rSFM repetition;
    (c) test accuracy of an SVM on the accumulated subsets against their size.

    Thesis Figs. 4.16-4.18; :func:`sfmlearn.experiments.leukemia_repetitive.figure`
    draws it from that experiment's table.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`sfmlearn.experiments.leukemia_repetitive.run`: columns part
        ("repetitions", "accumulated"), setting ("hard", "soft"), metric ("genes",
        "test error", "test accuracy %"), step, ours, published.
    X : ndarray of shape (n_samples, n_genes)
        Training expression values.
    y : ndarray of shape (n_samples,)
        Training labels, "ALL" or "AML".
    genes : array-like of int
        Indices of the genes of panel (a) (Golub's 25 + 25).
    gene_names : array-like of str
        Names of all genes (indexed by ``genes``).

    Returns
    -------
    matplotlib.figure.Figure
        Three panels (and the twin axis of panel b).

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.datasets import load_leukemia
    >>> from sfmlearn.experiments.figures.leukemia import plot_leukemia_repetitive
    >>> data = load_leukemia()
    >>> table = pd.DataFrame({
    ...     "part": ["repetitions"] * 2 + ["accumulated"] * 2, "setting": ["hard"] * 4,
    ...     "metric": ["genes", "test error", "genes", "test accuracy %"], "step": [1, 1, 1, 1],
    ...     "ours": [2, 0.15, 2, 85.0], "published": [None, None, None, None]})
    >>> figure = plot_leukemia_repetitive(table, data.X_train, data.y_train, [0, 1, 2],
    ...                                   data.feature_names)
    >>> len(figure.axes)
    4
    """
    fig = Figure(figsize=(15, 6), layout="constrained")
    heat, reps, accumulated = fig.subplots(1, 3, width_ratios=(1.3, 1, 1))
    order = np.argsort(y == "AML", kind="stable")
    block = X[np.ix_(order, genes)]
    block = (block - block.mean(axis=0)) / block.std(axis=0)
    heat.imshow(block.T, cmap="RdBu_r", vmin=-3, vmax=3, aspect="auto", interpolation="nearest")
    heat.axvline(np.sum(y != "AML") - 0.5, color="k", lw=1)
    heat.set_yticks(range(len(genes)), [str(gene_names[g])[:18] for g in genes], fontsize=5)
    heat.set_xticks([])
    heat.set_xlabel("training patients: ALL | AML")
    heat.set_title("(a) Golub's 25 + 25 genes (Fig. 4.16)", fontsize=10)

    per_rep = table[table["part"] == "repetitions"]
    errors_ax = reps.twinx()
    for offset, (setting, color) in zip((-0.2, 0.2), (("hard", "C0"), ("soft", "C1"))):
        rows = per_rep[per_rep["setting"] == setting]
        genes_per = rows[rows["metric"] == "genes"]
        errors = rows[rows["metric"] == "test error"]
        reps.bar(genes_per["step"] + offset, genes_per["ours"], width=0.4, color=color, alpha=0.6,
                 label=f"{setting}: genes")
        errors_ax.plot(errors["step"], errors["ours"], "o-", color=color, label=f"{setting}: test error")
        published = errors.dropna(subset=["published"])
        errors_ax.plot(published["step"], published["published"], "x", color=color, ms=8,
                       label=f"{setting}: published test error" if len(published) else None)
    reps.set_xlabel("repetition")
    reps.set_ylabel("genes selected")
    errors_ax.set_ylabel("test error")
    reps.legend(loc="upper left", fontsize=7)
    errors_ax.legend(loc="upper right", fontsize=7)
    reps.set_title("(b) rSFM repetitions (Fig. 4.17)", fontsize=10)

    acc = table[table["part"] == "accumulated"]
    for setting, color in (("hard", "C0"), ("soft", "C1")):
        rows = acc[acc["setting"] == setting]
        sizes = rows[rows["metric"] == "genes"].set_index("step")["ours"]
        accuracy = rows[rows["metric"] == "test accuracy %"].set_index("step")["ours"]
        accumulated.plot(sizes, accuracy.reindex(sizes.index), "o-", color=color, label=f"{setting} rSFM")
    accumulated.axhline(94, color="grey", ls="--", lw=0.8, label="published: 94 % with 5 genes")
    accumulated.set_xlabel("accumulated genes (subsets sorted by size)")
    accumulated.set_ylabel("test accuracy of a linear SVM [%]")
    accumulated.legend(fontsize=7)
    accumulated.set_title("(c) accumulated subsets (Fig. 4.18)", fontsize=10)
    return fig
