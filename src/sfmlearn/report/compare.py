"""The report of ``sfmlearn compare``: the accuracy-versus-budget frontier of a dataset."""

from ..diagnostics import BudgetComparison
from ..plotting.budgets import plot_budget_frontier
from .analyses import as_json
from .html import Report

__all__ = ["compare_report"]


def _table(comparison):
    """One row per method and budget, in percent."""
    frame = BudgetComparison.from_dict(comparison).to_frame()
    frame[["balanced_accuracy", "se"]] *= 100
    return frame.rename(columns={"budget": "budget k", "balanced_accuracy": "balanced accuracy [%]",
                                 "se": "SE [%]", "mean_features": "mean features used"}).round(2)


def compare_report(result, *, subtitle=None):
    """The report of one ``sfmlearn compare`` run.

    Parameters
    ----------
    result : CompareResult or dict
        A :class:`~sfmlearn.analysis.CompareResult`, or its JSON as printed by
        ``sfmlearn compare --json``.
    subtitle : str, optional
        Shown under the title, e.g. the command line.

    Returns
    -------
    Report
        Sections Data and Accuracy per feature budget (the frontier figure and the
        table); not written yet (:meth:`Report.write`).

    Examples
    --------
    >>> from sfmlearn.report import compare_report
    >>> comparison = {"methods": ["SFM path"], "budgets": [1, 2], "accuracy": {"SFM path": [0.7, 0.9]},
    ...               "se": {"SFM path": [0.05, 0.03]}, "features": {"SFM path": [1.0, 2.0]},
    ...               "fold_accuracy": {}, "fold_features": {}, "chosen_budgets": {},
    ...               "n_folds": 5, "inner_cv": 5, "automatic": None, "seconds": 1.0}
    >>> result = {"data": "toy.csv", "n_samples": 40, "n_features": 30, "classes": ["a", "b"],
    ...           "class_counts": {"a": 20, "b": 20}, "grouped": False, "comparison": comparison,
    ...           "seconds": 1.0}
    >>> [section.anchor for section in compare_report(result).sections]
    ['data', 'frontier']
    """
    result = as_json(result)
    comparison = result["comparison"]
    report = Report(f"How many features? {result['data']}", subtitle=subtitle)
    report.section("Data", anchor="data").add_facts({
        "data": result["data"], "samples": result["n_samples"], "features": result["n_features"],
        "classes": ", ".join(f"{k} ({v})" for k, v in result["class_counts"].items())})
    section = report.section("Accuracy per feature budget", anchor="frontier")
    inner = (f"an inner {comparison['inner_cv']}-fold cross-validation on the training part"
             if comparison["inner_cv"] else "the densest fit within the budget on the training part")
    grouped = result.get("scheme") or ("leave-one-group-out" if result["grouped"] else f"{comparison['n_folds']}-fold")
    section.add_text(f"Nested {grouped} cross-validation: every method is fitted along its path in each "
                     f"outer training part; for a budget k the fit used on the outer test part is chosen by "
                     f"{inner}, and never uses more than k features. The table: balanced accuracy in %, "
                     + ("of the held-out predictions of all folds pooled (some test part holds one class), "
                        "its binomial standard error" if comparison.get("pooled") else
                        "its standard error over the outer folds")
                     + ", and the mean number of features used; empty where a method has no fit within the "
                     "budget in some fold.")
    section.add_figure(plot_budget_frontier(comparison),
                       caption="Balanced accuracy (± SE) against the feature budget; the star is the "
                               "automatic choice at its mean number of features, the dashed line chance.")
    section.add_table(_table(comparison), caption="Per method and budget; the automatic choice has no budget")
    automatic = comparison.get("automatic")
    if automatic:
        section.add_facts({f"automatic choice ({automatic['name']})":
                           f"{100 * automatic['accuracy']:.1f} % with {automatic['features']:.1f} features "
                           "on average"})
    section.add_facts({"time": f"{result['seconds']:.1f} s"})
    return report
