"""
The SFM on leukemia, and could it be chance?
============================================

The hard Support Feature Machine on Golub's leukemia training set (38 patients x 7129
genes, shipped with sfmlearn) selects two genes. Two genes out of 7129 in 38 samples is
exactly the situation where random labels might be separable too, so we refit the SFM on
permuted labels (:func:`sfmlearn.chance_report`) and compare the subset sizes.
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn import SupportFeatureMachine, chance_report

from sfmlearn.diagnostics import format_verdict
from sfmlearn.datasets import load_leukemia

data = load_leukemia()
sfm = SupportFeatureMachine().fit(data.X_train, data.y_train)
genes = data.feature_names[sfm.get_support()]
print("selected genes:", list(genes))
print(f"accuracy on the 34 independent test patients: {sfm.score(data.X_test, data.y_test):.3f}")

# %%
# The chance check refits the same estimator on labels permuted at random. If random
# labels were also separable in two genes, two genes would mean little.
report = chance_report(data.X_train, data.y_train, SupportFeatureMachine(),
                       n_permutations=20, random_state=0)
print(format_verdict(report))

# %%
# Selected subset size on the real labels against the permuted ones.
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
left.barh(genes, sfm.coef_.ravel()[sfm.get_support()])
left.set(xlabel="weight (input space)", title="Genes selected by the SFM")
sizes = np.asarray(report.permutation_sizes)
right.hist(sizes, bins=np.arange(sizes.min(), sizes.max() + 2) - 0.5, color="0.7",
           label="permuted labels")
right.axvline(report.subset_size, color="C3", lw=2, label="real labels")
right.set(xlabel="number of selected genes", ylabel="permutations",
          title=f"Chance check (p = {report.p_value:.3g})")
right.legend()
plt.show()
