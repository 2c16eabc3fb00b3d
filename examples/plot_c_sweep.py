"""
Choosing C: the soft-SFM path and cross-validated softness
==========================================================

A soft SFM pays 1 for every feature and C for every training error. :func:`sfmlearn.sfm_path`
fits it over a grid of C that adapts to the data (thesis 3.2): from the C at which exactly
one feature is selected (the largest scaled class-mean difference) up to the C beyond which
the solution no longer changes. :class:`sfmlearn.SupportFeatureMachineCV` chooses C on that
grid by cross-validation (features re-selected in every fold, the folds compared at equal
numbers of selected features), either the best mean score or, with ``select="1se"``, the
sparsest choice within one standard error of it (as glmnet's ``lambda.1se``), and reports
how often each feature was selected across the folds. The right panel shows the mean
score per grid point, which the choice by C (``align="C"``) would use.
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn import SupportFeatureMachineCV, sfm_path
from sfmlearn.datasets import make_basic

X, y = make_basic(n_samples=60, n_features=50, n_relevant=5, class_distance=0.5,
                  separable=False, random_state=0)
path = sfm_path(X, y, Cs=12)
for C, k, err in zip(path.Cs, path.n_features, path.training_error):
    print(f"C = {C:8.4f}: {k:2d} features, training error {err:.2f}")

# max_repetitions=0: the choice along the path alone (by default the candidates go on beyond
# the path's hard end with unions of the repetitive SFM's subsets; user guide, choosing C)
best = SupportFeatureMachineCV(Cs=path.Cs, cv=5, max_repetitions=0, random_state=0).fit(X, y)
sparse = SupportFeatureMachineCV(Cs=path.Cs, cv=5, select="1se", max_repetitions=0, random_state=0).fit(X, y)
print(f"best C = {best.C_:.4f} ({best.get_support().sum()} features); "
      f"1se C = {sparse.C_:.4f} ({sparse.get_support().sum()} features)")
print("selection frequency of the first five (relevant) features:",
      np.round(best.selection_frequency_[:5], 2))

# %%
results = best.cv_results_
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
left.semilogx(path.Cs, path.n_features, "o-", label="path (all data)")
left.semilogx(results["C"], results["mean_n_features"], "s--", label="mean over CV folds")
left.set(xlabel="C", ylabel="selected features", title="Fewer features as C shrinks")
left.legend()
right.errorbar(results["C"], results["mean_test_score"], yerr=results["sem_test_score"],
               marker="o", capsize=2, label="CV balanced accuracy")
right.semilogx(path.Cs, 1 - path.training_error, "s-", label="training accuracy")
right.axvline(best.C_, color="k", ls="--", lw=1, label="best")
right.axvline(sparse.C_, color="gray", ls=":", lw=1, label="1se")
right.set(xscale="log", xlabel="C", ylabel="accuracy", title="Chosen by cross-validation")
right.legend(fontsize="small")
plt.show()
