"""Figures only the HTML report draws: weights, permutation sizes, rSFM subset sizes.

Each function takes plain numbers (as in the commands' JSON results) and returns a
``matplotlib.figure.Figure`` (no pyplot, so nothing is shown and no global state kept).
Text that comes from the user's data (feature names, class labels) goes through
:func:`literal`, so a ``$`` in a name is drawn as a dollar sign instead of starting
matplotlib's mathtext (which would misdraw the name or fail to render), and a name
longer than :data:`~sfmlearn.io.labelled.NAME_IN_MESSAGE` characters is cut (a whole
data row read as a name would take the figure's space and its drawing time).
"""

import numpy as np
from matplotlib.figure import Figure

from ..io.labelled import short_name

__all__ = ["literal", "weights_figure", "permutation_sizes_figure", "subset_sizes_figure"]


def literal(text):
    """``text`` as matplotlib should draw it, character for character (``$`` escaped), cut
    when long (:func:`~sfmlearn.io.labelled.short_name`)."""
    return short_name(text).replace("$", r"\$")


def weights_figure(names, weights, classes, max_features=30, space="scaled"):
    """Horizontal bars of the selected features' weights, largest magnitude on top.

    Parameters
    ----------
    names : sequence of str
    weights : sequence of float
        Positive favours ``classes[1]``.
    classes : sequence of two str
    max_features : int
        Draw at most this many (the largest magnitudes).
    space : {"scaled", "standardised", "input"}
        Whether the weights refer to the SFM's scaled features, to standardised ones
        (a stability selection's logistic regression) or to the input (axis label).
    """
    weights = np.asarray(weights, dtype=float)
    order = np.argsort(-np.abs(weights), kind="stable")[:max_features]
    shown_w, shown_n = weights[order][::-1], [literal(names[j]) for j in order][::-1]
    fig = Figure(figsize=(8.0, 1.2 + 0.28 * len(order)), layout="constrained")
    ax = fig.subplots()
    colors = np.where(shown_w > 0, "#c0392b", "#1f5f99")
    ax.barh(np.arange(len(order)), shown_w, color=colors)
    ax.set_yticks(np.arange(len(order)), shown_n, fontsize="small")
    ax.axvline(0, color="0.3", lw=0.8)
    what = {"scaled": "weight on the scaled feature", "standardised": "weight on the standardised feature",
            "input": "weight (input space)"}[space]
    ax.set_xlabel(f"{what} (+ favours {literal(classes[1])}, - favours {literal(classes[0])})")
    more = f" (largest {len(order)} of {weights.size})" if weights.size > len(order) else ""
    ax.set_title(f"selected features{more}")
    return fig


def permutation_sizes_figure(permutation_sizes, subset_size):
    """Histogram of subset sizes on permuted labels, with the size on the real labels.

    ``permutation_sizes`` may hold None/NaN for permutations without a solution; they
    are counted in the title, not drawn.
    """
    sizes = np.array([np.nan if s is None else s for s in permutation_sizes], dtype=float)
    fitted = sizes[np.isfinite(sizes)]
    fig = Figure(figsize=(7.0, 3.2), layout="constrained")
    ax = fig.subplots()
    if fitted.size:
        edges = np.arange(min(fitted.min(), subset_size) - 0.5, max(fitted.max(), subset_size) + 1.5)
        ax.hist(fitted, bins=edges, color="0.7", edgecolor="0.4", label="permuted labels")
    ax.axvline(subset_size, color="#c0392b", lw=2, label=f"real labels ({subset_size})")
    ax.set_xlabel("features selected")
    ax.set_ylabel("permutations")
    failed = sizes.size - fitted.size
    ax.set_title(f"{sizes.size} label permutations" + (f", {failed} without solution" if failed else ""))
    ax.legend(loc="upper right", fontsize="small")
    return fig


def subset_sizes_figure(subsets_in_order, n_features):
    """The repetitive SFM on all samples: subset size per repetition and features ranked.

    Parameters
    ----------
    subsets_in_order : sequence of sequences
        The subsets in the order the repetitions found them.
    n_features : int
    """
    sizes = np.array([len(s) for s in subsets_in_order], dtype=int)
    repetition = np.arange(1, sizes.size + 1)
    fig = Figure(figsize=(10.0, 3.6), layout="constrained")
    size_ax, total_ax = fig.subplots(1, 2)
    size_ax.plot(repetition, sizes, marker="o", ms=3, lw=1)
    size_ax.set_xlabel("repetition")
    size_ax.set_ylabel("features in the subset")
    size_ax.set_title("subset found by each repetition")
    total_ax.plot(repetition, 100 * np.cumsum(sizes) / n_features, drawstyle="steps-post")
    total_ax.set_xlabel("repetition")
    total_ax.set_ylabel("features ranked [% of all]")
    total_ax.set_title("features removed so far")
    total_ax.set_ylim(bottom=0)
    for ax in (size_ax, total_ax):
        ax.set_xlim(0.5, max(sizes.size, 1) + 0.5)
    return fig
