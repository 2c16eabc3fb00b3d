"""The figure of ``sfmlearn path``: cross-validated score and feature count against C."""

import numpy as np
from matplotlib.figure import Figure

from ..model_selection import describe_folds

__all__ = ["chosen_fit", "inner_scheme", "softness_path_figure"]


def softness_path_figure(summary):
    """CV score (mean +- SE) and mean selected features against C, the chosen C marked.

    Parameters
    ----------
    summary : dict
        ``result["C_auto"]`` of ``sfmlearn path --json`` / ``select --C auto --json``:
        ``table`` (rows with ``C``, ``mean_score``, ``se_score``, ``mean_features``),
        ``C`` (the chosen), ``select`` and ``folds``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    table = summary["table"]
    C = np.array([row["C"] for row in table])
    score = 100 * np.array([row["mean_score"] for row in table])
    se = 100 * np.array([row["se_score"] for row in table])
    features = np.array([row["mean_features"] for row in table])
    fig = Figure(figsize=(7.5, 4.2), layout="constrained")
    score_ax = fig.subplots()
    score_ax.errorbar(C, score, yerr=se, marker="o", ms=4, capsize=2, color="C0", label="CV score")
    score_ax.set_xscale("log")
    score_ax.set_xlabel("softness C")
    score_ax.set_ylabel("cross-validated score [%]", color="C0")
    features_ax = score_ax.twinx()
    features_ax.plot(C, features, marker="s", ms=3, color="C1", label="features")
    features_ax.set_ylabel("mean selected features per fold", color="C1")
    if summary["C"] is not None:  # else the chosen fit lies beyond the path (repetitive-SFM subsets)
        score_ax.axvline(summary["C"], color="k", ls="--", lw=1)
    score_ax.set_title(f"chosen: {chosen_fit(summary)} ({summary['select']}, {inner_scheme(summary)})")
    return fig


def inner_scheme(summary):
    """The folds of a ``C_auto`` summary's choice, in words: its ``scheme``, or for a
    summary written without it, :func:`~sfmlearn.model_selection.describe_folds` of its
    folds and repeats."""
    return summary.get("scheme") or describe_folds(summary["folds"], summary.get("repeats", 1))


def chosen_fit(summary):
    """What a ``C_auto`` summary chose, in words: its ``chosen_fit`` (``"C = 0.5"``, or a
    union of repetitive-SFM subsets); a summary written without it names its C."""
    return summary.get("chosen_fit") or f"C = {summary['C']:.4g}"
