"""The figure of ``sfmlearn path``: the cross-validated choice of C (or of a budget), the choice marked."""

import numpy as np
from matplotlib.figure import Figure

from ..exceptions import DataValidationError
from ..model_selection import describe_folds
from ._checks import check_mapping

__all__ = ["chosen_fit", "inner_scheme", "softness_path_figure"]


def softness_path_figure(summary):
    """The cross-validated choice a summary made, with the chosen fit marked.

    Chosen by C (``sfmlearn path``): CV score (mean +- SE) and mean selected features
    against C. Chosen over the number of features (``select --C auto``, the default
    ``align="n_features"``): CV score against the budget, at most k features per fold,
    which is what that choice compared (repetitive-SFM unions included).

    Parameters
    ----------
    summary : dict
        ``result["C_auto"]`` of ``sfmlearn path --json`` / ``select --C auto --json``:
        ``table`` (rows with ``C``, ``mean_score``, ``se_score``, ``mean_features``),
        ``budget_table`` when chosen over budgets (rows with ``max_features``,
        ``mean_score``, ``se_score``, ``chosen``), ``C`` (the chosen), ``select`` and
        ``folds``.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    DataValidationError
        When ``summary`` is no dict (``DataTypeError``) or its table has no rows.
    """
    check_mapping(summary, "summary", "the dict result['C_auto'] of sfmlearn path --json")
    by_budget = "budget_table" in summary
    rows = _rows(summary, "budget_table" if by_budget else "table")
    fig = Figure(figsize=(7.5, 4.2), layout="constrained")
    if by_budget:
        _budget_axes(fig.subplots(), rows)
    else:
        _softness_axes(fig.subplots(), rows, summary["C"])
    fig.suptitle(f"chosen: {chosen_fit(summary)}\n({summary['select']}, {inner_scheme(summary)})", fontsize=10)
    return fig


def _rows(summary, key):
    """The rows of ``summary[key]``; a missing or empty table is refused (there would be no curve)."""
    rows = summary.get(key)
    if not rows:
        raise DataValidationError(f"summary[{key!r}] has no rows, so there is no curve to draw: pass the "
                                  f"C_auto summary of a run that scored at least one "
                                  f"{'budget' if key == 'budget_table' else 'C'}.")
    return rows


def _budget_axes(ax, rows):
    budget = np.array([row["max_features"] for row in rows])
    score = 100 * np.array([row["mean_score"] for row in rows])
    se = 100 * np.array([row["se_score"] for row in rows])
    ax.errorbar(budget, score, yerr=se, marker="o", ms=4, capsize=2, color="C0", label="CV score")
    if budget.max() > 20 * budget.min():
        ax.set_xscale("log")
    ax.set_xlabel("at most k selected features (folds aligned by the number of features)")
    ax.set_ylabel("cross-validated score [%]", color="C0")
    for row in rows:
        if row["chosen"]:
            ax.axvline(row["max_features"], color="k", ls="--", lw=1)


def _softness_axes(score_ax, table, chosen_C):
    C = np.array([row["C"] for row in table])
    score = 100 * np.array([row["mean_score"] for row in table])
    se = 100 * np.array([row["se_score"] for row in table])
    features = np.array([row["mean_features"] for row in table])
    score_ax.errorbar(C, score, yerr=se, marker="o", ms=4, capsize=2, color="C0", label="CV score")
    score_ax.set_xscale("log")
    score_ax.set_xlabel("softness C")
    score_ax.set_ylabel("cross-validated score [%]", color="C0")
    features_ax = score_ax.twinx()
    features_ax.plot(C, features, marker="s", ms=3, color="C1", label="features")
    features_ax.set_ylabel("mean selected features per fold", color="C1")
    score_ax.axvline(chosen_C, color="k", ls="--", lw=1)


def inner_scheme(summary):
    """The folds of a ``C_auto`` summary's choice, in words: its ``scheme``, or for a
    summary written without it, :func:`~sfmlearn.model_selection.describe_folds` of its
    folds and repeats."""
    return summary.get("scheme") or describe_folds(summary["folds"], summary.get("repeats", 1))


def chosen_fit(summary):
    """What a ``C_auto`` summary chose, in words: its ``chosen_fit`` (``"C = 0.5"``, or a
    union of repetitive-SFM subsets); a summary written without it names its C."""
    return summary.get("chosen_fit") or f"C = {summary['C']:.4g}"
