"""The report of ``sfmlearn path``: the cross-validated softness path of a dataset."""

import pandas as pd

from ..plotting.softness import softness_path_figure
from .html import Report

__all__ = ["path_report"]


def path_report(result, *, subtitle=None):
    """The report of one ``sfmlearn path`` run (``result`` as printed by ``--json``)."""
    report = Report(f"Softness path: {result['data']}", subtitle=subtitle)
    summary = result["C_auto"]
    report.section("Data", anchor="data").add_facts({
        "data": result["data"], "samples": result["n_samples"], "features": result["n_features"],
        "classes": ", ".join(f"{k} ({v})" for k, v in result["class_counts"].items())})
    method = report.section("Choice of C", anchor="choice")
    method.add_facts({"method": result["method"], "rule": summary["select"],
                      "scoring": summary["scoring"], "folds": summary["folds"],
                      "chosen C": summary["C"], "features selected on all data": result["n_selected"]})
    method.add_text("Every training fold fits the whole path (features re-selected in every fold); "
                    "each C is scored on the held-out fold. 'best' takes the highest mean score, "
                    "'1se' the fewest features within one standard error of it.")
    method.add_figure(softness_path_figure(summary),
                      caption="Mean CV score (± SE, left axis) and mean selected features per fold "
                              "(right axis) against C; the dashed line marks the chosen C.")
    method.add_table(pd.DataFrame(summary["table"]), caption="One row per C")
    stable = pd.DataFrame(summary["selection_frequency"])
    section = report.section("Selection frequency", anchor="stability")
    if stable.empty:
        section.add_text("No feature was selected in any fold at the chosen C.", note=True)
    else:
        section.add_table(stable, caption="Fraction of folds whose fit at the chosen C selected "
                                          "each feature", max_rows=50)
    return report
