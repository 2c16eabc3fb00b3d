"""The report of ``sfmlearn path``: the cross-validated softness path of a dataset."""

import pandas as pd

from ..outputs.atomic import save_figure
from ..plotting.softness import chosen_fit, inner_scheme, softness_path_figure
from .analyses import as_json
from .html import Report

__all__ = ["path_report", "write_path_figure"]


def write_path_figure(result, path):
    """Save the figure of a softness path (score and features against C, chosen C marked).

    Parameters
    ----------
    result : PathResult or dict
        A :class:`~sfmlearn.analysis.PathResult` or its JSON (``sfmlearn path --json``).
    path : path
        The PNG file to write (atomically).

    Returns
    -------
    path-like
        ``path``, once the figure is there.

    Examples
    --------
    >>> import os, tempfile
    >>> from sfmlearn.analysis import load_dataset, run_path
    >>> from sfmlearn.report import write_path_figure
    >>> png = os.path.join(tempfile.mkdtemp(), "leukemia_path.png")
    >>> result = run_path(load_dataset("leukemia"), Cs=3, cv=3)
    >>> os.path.getsize(write_path_figure(result, png)) > 1000
    True
    """
    save_figure(softness_path_figure(as_json(result)["C_auto"]), path, dpi=110)
    return path


def path_report(result, *, subtitle=None):
    """The report of one ``sfmlearn path`` run: the cross-validated choice of C.

    Parameters
    ----------
    result : PathResult or dict
        A :class:`~sfmlearn.analysis.PathResult`, or its JSON as printed by
        ``sfmlearn path --json``: the data summary, the method, and in ``C_auto`` the
        rule, the chosen C, one row per C (mean score, its standard error, mean features,
        chosen) and the selection frequencies at the chosen C.
    subtitle : str, optional
        Shown under the title, e.g. the command line.

    Returns
    -------
    Report
        Sections Data, Choice of C (with the path figure) and Selection frequency; not
        written yet (:meth:`Report.write`).

    Examples
    --------
    A result written by hand with a two-point grid:

    >>> from sfmlearn.report import path_report
    >>> table = [{"C": 0.2, "mean_score": 0.8, "se_score": 0.05, "mean_features": 1.0, "chosen": False},
    ...          {"C": 0.9, "mean_score": 0.95, "se_score": 0.03, "mean_features": 2.4, "chosen": True}]
    >>> result = {"data": "toy.csv", "n_samples": 50, "n_features": 106,
    ...           "class_counts": {"-1": 25, "1": 25}, "method": "SupportFeatureMachineCV",
    ...           "n_selected": 2,
    ...           "C_auto": {"select": "best", "C": 0.9, "folds": 5, "scoring": "balanced_accuracy",
    ...                      "table": table,
    ...                      "selection_frequency": [{"index": 2, "name": "x2", "frequency": 1.0}]}}
    >>> report = path_report(result)
    >>> [section.anchor for section in report.sections]
    ['data', 'choice', 'stability']
    """
    result = as_json(result)
    report = Report(f"Softness path: {result['data']}", subtitle=subtitle)
    summary = result["C_auto"]
    report.section("Data", anchor="data").add_facts({
        "data": result["data"], "samples": result["n_samples"], "features": result["n_features"],
        "classes": ", ".join(f"{k} ({v})" for k, v in result["class_counts"].items())})
    method = report.section("Choice of C", anchor="choice")
    method.add_facts({"method": result["method"], "rule": summary["select"],
                      "scoring": summary["scoring"], "folds": inner_scheme(summary),
                      "chosen fit": chosen_fit(summary), "features selected on all data": result["n_selected"]})
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
