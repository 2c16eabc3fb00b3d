"""
The accuracy-versus-budget frontier on the six data sets that ship with sfmlearn
================================================================================

Nested cross-validation of the SFM family (the soft-SFM path with the hard-margin SVM
or logistic regression on the selected features, the subsets of the repetitive SFM with
the hard and with the soft SFM, the features the SFM path selects most often on halves
of the data) against
l1- and elastic-net logistic regression, at every feature budget k: the balanced
accuracy each method reaches with at most k features, the fit per budget being the
densest training fit within it, and the automatic choice of
:class:`sfmlearn.SupportFeatureMachineCV` as a star.

The full comparison takes about eleven minutes on two cores, so this page plots the table
that ``benchmarks/bench_frontier.py --n-jobs 2 --out frontier_shipped_sets.csv`` wrote
(stored next
to this example; the guide's "How many features do I need?" page gives the run's date,
version and the per-budget counts). ``sfmlearn compare --dataset colon`` or
:func:`sfmlearn.compare_budgets` run the same comparison on one data set or your own.
"""

import matplotlib.pyplot as plt
import pandas as pd

from sfmlearn.plotting.budgets import plot_budget_frontier

# Sphinx-Gallery runs the example in its own folder, where the table is stored.
table = pd.read_csv("frontier_shipped_sets.csv")


def comparison_of(rows):
    """The dictionary form of one data set's comparison, rebuilt from its rows of the table."""
    paths = rows[rows["budget"].notna()]
    methods = list(dict.fromkeys(paths["method"]))
    by_method = {name: paths[paths["method"] == name] for name in methods}
    automatic = rows[rows["budget"].isna()]
    return {
        "methods": methods,
        "budgets": sorted(int(k) for k in paths["budget"].unique()),
        "accuracy": {name: part["balanced_accuracy"].tolist() for name, part in by_method.items()},
        "se": {name: part["se"].tolist() for name, part in by_method.items()},
        "features": {name: part["mean_features"].tolist() for name, part in by_method.items()},
        "automatic": None if automatic.empty else {
            "name": automatic["method"].iloc[0], "accuracy": automatic["balanced_accuracy"].iloc[0],
            "se": automatic["se"].iloc[0], "features": automatic["mean_features"].iloc[0]},
        "n_folds": int(rows["n_folds"].iloc[0]),
        "inner_cv": None,
    }


# %%
# One panel per data set; where an SE bar is missing the outer scheme is a single split.
names = list(dict.fromkeys(table["data"]))
fig, axes = plt.subplots(3, 2, figsize=(11, 12), layout="constrained")
for ax, name in zip(axes.ravel(), names):
    rows = table[table["data"] == name]
    plot_budget_frontier(comparison_of(rows), ax=ax)
    ax.set_title(f"{name} ({rows['scheme'].iloc[0]})")
    ax.legend().set_visible(ax is axes.ravel()[0])
plt.show()
