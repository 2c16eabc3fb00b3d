"""
How many features do I need? The accuracy-versus-budget frontier
================================================================

:func:`sfmlearn.compare_budgets` answers the question on your own data: for every feature
budget k it estimates, by nested cross-validation, the balanced accuracy that a sparse
method reaches with at most k features. Each method is fitted along its path (the soft-SFM
path over C, the repetitive SFM's subsets, l1- and elastic-net logistic regression over
their penalty) in every outer training fold, and the fit used at budget k is chosen on the
training part only, so the outer test folds stay unseen. The star is the automatic choice
of :class:`sfmlearn.SupportFeatureMachineCV`.

To stay fast this example uses the colon data (62 tissues x 2000 genes), budgets up to
10, shorter paths, 3 outer folds and a single inner split for the automatic choice; the
fit at each budget is the densest training fit within it (``compare_budgets``' default).
``sfmlearn compare --dataset colon`` runs the full comparison.
"""

import matplotlib.pyplot as plt

from sfmlearn import SupportFeatureMachineCV, compare_budgets
from sfmlearn.datasets import load_colon
from sfmlearn.diagnostics.budget_paths import SOFT_SUBSETS_BASE, LogisticPath, RepetitiveSubsetsPath, SFMPath
from sfmlearn.plotting.budgets import plot_budget_frontier

colon = load_colon()
methods = {"SFM path": SFMPath(n_Cs=10), "repetitive SFM": RepetitiveSubsetsPath(max_repetitions=4),
           "soft repetitive SFM": RepetitiveSubsetsPath(SOFT_SUBSETS_BASE, max_repetitions=4, classifier="logistic"),
           "l1-logistic": LogisticPath(n_Cs=10)}
comparison = compare_budgets(colon.data, colon.target, budgets=(1, 2, 3, 5, 10), methods=methods, cv=3,
                             automatic=SupportFeatureMachineCV(Cs=8, cv=3, n_repeats=1))
print(comparison.format_table())

# %%
fig, ax = plt.subplots(figsize=(7.5, 4.5), layout="constrained")
plot_budget_frontier(comparison, ax=ax)
plt.show()
