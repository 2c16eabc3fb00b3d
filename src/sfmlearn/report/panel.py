"""The report of ``sfmlearn panel``: a marker panel, its held-out accuracy and its dot plot."""

import pandas as pd

from ..plotting.dotplot import dotplot_figure
from .analyses import add_class_tables, as_json, percent
from .html import Report

__all__ = ["panel_report"]


def panel_report(result, *, subtitle=None):
    """The report of one ``sfmlearn panel`` run.

    Parameters
    ----------
    result : PanelResult or dict
        A :class:`~sfmlearn.analysis.PanelResult`, or its JSON as printed by
        ``sfmlearn panel --json``: the data summary, the ``panel`` table, the held-out
        ``balanced_accuracy``, ``per_type`` sensitivity and specificity, the
        ``confusion_matrix`` and the ``dotplot`` values.
    subtitle : str, optional
        Shown under the title, e.g. the command line.

    Returns
    -------
    Report
        Sections Data, Panel, Held-out accuracy and Dot plot; not written yet
        (:meth:`Report.write`, atomic).

    Examples
    --------
    A result as ``sfmlearn panel --json`` prints it (here written by hand: two types, two
    genes):

    >>> from sfmlearn.report import panel_report
    >>> result = {
    ...     "data": "cells.h5ad", "n_cells": 40, "n_genes": 30, "cell_types": ["B", "T"],
    ...     "cell_counts": {"B": 20, "T": 20}, "size": 2, "panel_size": 2, "normalize": "log1p",
    ...     "include": [], "exclude": [], "test_size": 0.3, "random_state": 0, "n_train": 28,
    ...     "n_test": 12, "fit_seconds": 0.4, "seconds": 0.5, "balanced_accuracy": 0.9167,
    ...     "panel": [{"gene": "MS4A1", "index": 3, "cell_type": "B", "weight": 1.2,
    ...                "direction": "up", "t": 9.1, "level": "fine", "source": "sfm"},
    ...               {"gene": "CD3E", "index": 7, "cell_type": "T", "weight": 0.8,
    ...                "direction": "up", "t": 7.4, "level": "fine", "source": "sfm"}],
    ...     "per_type": [{"cell_type": "B", "n_test": 6, "sensitivity": 1.0, "specificity": 0.8333},
    ...                  {"cell_type": "T", "n_test": 6, "sensitivity": 0.8333, "specificity": 1.0}],
    ...     "confusion_matrix": [[6, 0], [1, 5]],
    ...     "dotplot": {"cells": "all", "cell_types": ["B", "T"], "genes": ["MS4A1", "CD3E"],
    ...                 "fraction_expressing": [[0.9, 0.1], [0.05, 0.8]],
    ...                 "mean_expression": [[2.1, 0.1], [0.0, 1.7]]}}
    >>> report = panel_report(result)
    >>> [section.anchor for section in report.sections]
    ['data', 'panel', 'accuracy', 'dotplot']
    """
    result = as_json(result)
    report = Report(f"Marker panel: {result['data']}", subtitle=subtitle)
    values = "raw counts, normalised (log1p of 10^4 x count / cell total)" if result["normalize"] == "log1p" \
        else "values as given"
    report.section("Data", anchor="data").add_facts({
        "source": result["data"], "cells": result["n_cells"], "genes": result["n_genes"], "values": values,
        "cells per type": ", ".join(f"{t}: {k}" for t, k in result["cell_counts"].items()),
        "training / test cells": f"{result['n_train']} / {result['n_test']} "
                                 f"({100 * result['test_size']:g} % of every type held out)"})
    _panel_section(report, result)
    _accuracy_section(report, result)
    dots = result["dotplot"]
    report.section("Dot plot", anchor="dotplot").add_figure(
        dotplot_figure(dots["cell_types"], dots["genes"], dots["fraction_expressing"], dots["mean_expression"],
                       gene_types=[row["cell_type"] for row in result["panel"]], scale_per_gene=True),
        caption=f"Panel genes (grouped by the type they mark) in every cell type ({dots['cells']} cells): "
                "dot size = fraction of the type's cells expressing the gene (count > 0), colour = its mean "
                "normalised expression, scaled per gene from 0 (the type of lowest mean) to 1 (highest).")
    return report


def _panel_section(report, result):
    section = report.section("Panel", anchor="panel")
    section.add_facts({"genes on the panel": f"{result['panel_size']} of {result['size']} asked for",
                       "included by request": ", ".join(result["include"]) or "none",
                       "excluded": f"{len(result['exclude'])} gene(s)" if result["exclude"] else "none",
                       "fit time": f"{result['fit_seconds']:.2f} s (training cells only)"})
    section.add_text("Genes in the order they were added. Each gene's cell type is the type whose soft-SFM "
                     "path offered it, else the type of largest |t|; weight: its soft-SFM weight at entry "
                     "(scaled data); direction: up or down in that type (- for t = 0); t: Welch t, the type "
                     "against the other cells; source: why the gene is on the panel, sfm (the type's SFM selected it, "
                     "weight != 0), ranking (one of the type's largest Welch t, no SFM weight) or include.")
    section.add_table(pd.DataFrame(result["panel"]).rename(columns={"index": "column (from 0)",
                                                                      "cell_type": "cell type"}),
                      max_rows=500)


def _accuracy_section(report, result):
    section = report.section("Held-out accuracy", anchor="accuracy")
    section.add_facts({"balanced accuracy": percent(result["balanced_accuracy"]),
                       "test cells": f"{result['n_test']} (never seen by the panel's choice)"})
    section.add_text("A test cell is assigned the type of the nearest class centre on the panel genes "
                     "(normalised values); balanced accuracy is the mean of the types' sensitivities.")
    add_class_tables(section, result["cell_types"], result["confusion_matrix"],
                     [(row["cell_type"], row["n_test"], row["sensitivity"], row["specificity"])
                      for row in result["per_type"]],
                     names=("cell type", "test cells"), held_out="test cells")
