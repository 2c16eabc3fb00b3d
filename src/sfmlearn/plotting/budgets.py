"""The accuracy-versus-budget frontier of :func:`sfmlearn.diagnostics.compare_budgets`."""

import numpy as np
from matplotlib.figure import Figure

from ..exceptions import DataValidationError
from ._checks import check_length, check_mapping

__all__ = ["plot_budget_frontier"]


def _as_dict(comparison):
    """The comparison as a dict with at least one budget; anything else is refused before drawing."""
    result = check_mapping(comparison.to_dict() if hasattr(comparison, "to_dict") else comparison, "comparison",
                           "a BudgetComparison or its to_dict()")
    if not len(result.get("budgets") or ()):
        raise DataValidationError("comparison has no budgets, so there is no frontier to draw: compare at least "
                                  "one budget (compare_budgets(X, y, budgets=[...])).")
    return result


def _method_values(result, key, name):
    """``result[key][name]`` as floats (None as NaN), one per budget; missing or of another length is refused."""
    values = (result.get(key) or {}).get(name)
    if values is None:
        raise DataValidationError(f"comparison[{key!r}] has no values for the method {name!r}: give "
                                  f"'accuracy' and 'se' for every method in comparison['methods'].")
    check_length(f"comparison[{key!r}][{name!r}]", values, len(result["budgets"]), "budget")
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def plot_budget_frontier(comparison, ax=None):
    """Balanced accuracy (mean +- SE over outer folds; of the pooled predictions where a
    test part holds one class) against the feature budget.

    One line per method on a logarithmic budget axis, the automatic choice as a star at
    its mean number of features (written beside it), and chance (50 %) as a dashed line;
    the legend stands right of the axes, where it covers no point. Budgets a method never
    reaches are gaps; a method that reaches none has no legend entry.

    Parameters
    ----------
    comparison : BudgetComparison or dict
        The result of :func:`~sfmlearn.diagnostics.compare_budgets` or its
        :meth:`~sfmlearn.diagnostics.BudgetComparison.to_dict`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure that holds the axes (not shown).

    Raises
    ------
    DataValidationError
        When ``comparison`` is no dict (``DataTypeError``), has no budgets, or lacks
        accuracy or SE values, one per budget, for one of its methods.

    Examples
    --------
    >>> from sfmlearn.plotting.budgets import plot_budget_frontier
    >>> comparison = {"methods": ["SFM path"], "budgets": [1, 2, 5],
    ...               "accuracy": {"SFM path": [0.7, 0.85, 0.9]}, "se": {"SFM path": [0.05, 0.04, 0.03]},
    ...               "features": {"SFM path": [1.0, 2.0, 3.4]}, "n_folds": 5, "inner_cv": 5,
    ...               "automatic": {"name": "SupportFeatureMachineCV", "accuracy": 0.88, "se": 0.04,
    ...                             "features": 2.6}}
    >>> figure = plot_budget_frontier(comparison)
    >>> len(figure.axes[0].get_lines()) >= 3
    True
    """
    result = _as_dict(comparison)
    curves = {name: (100 * _method_values(result, "accuracy", name),
                     100 * np.nan_to_num(_method_values(result, "se", name))) for name in result["methods"]}
    if ax is None:
        figure = Figure(figsize=(7.5, 4.5), layout="constrained")
        ax = figure.subplots()
    else:
        figure = ax.figure
    budgets = np.asarray(result["budgets"], dtype=float)
    for i, (name, (accuracy, se)) in enumerate(curves.items()):
        ax.errorbar(budgets, accuracy, yerr=se, marker="o", ms=4, capsize=2, color=f"C{i}",
                    label=name if np.isfinite(accuracy).any() else None)
    automatic = result.get("automatic")
    if automatic:
        at = (max(automatic["features"], budgets.min()), 100 * automatic["accuracy"])
        ax.errorbar([at[0]], [at[1]], yerr=[100 * (automatic["se"] or 0.0)], marker="*", ms=14, color="k",
                    ls="none", capsize=3, label=f"automatic ({automatic['name']})")
        ax.annotate(f"{automatic['features']:.1f} features", at, xytext=(-10, 0), textcoords="offset points",
                    ha="right", va="center", fontsize="small")
        ax.margins(x=0.12)  # the star and its label clear of the axes' edge
    ax.axhline(50, color="0.5", ls="--", lw=1, label="chance")
    ax.set_xscale("log")
    ax.set_xticks(budgets, [str(int(k)) for k in budgets])
    ax.set_xlabel("feature budget k (at most k features)")
    ax.set_ylabel("balanced accuracy [%]")
    inner = f"chosen by {result['inner_cv']}-fold inner CV" if result.get("inner_cv") else "the densest within k"
    pooled = "; predictions pooled" if result.get("pooled") else ""
    ax.set_title(f"{result['n_folds']} outer folds{pooled}; fit per budget: {inner}", fontsize="small")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return figure
