"""
Weston's data: SFM vs zero-norm SVM vs l1-SVM
=============================================

The benchmark of NC 2013 Table 1: six relevant (and redundant) features among many noise
features, few samples. We fit the hard SFM, Weston et al.'s zero-norm SVM and an
l1-regularised SVM (:class:`sfmlearn.L1SVM`, Bradley & Mangasarian) on a few training
sets and count how many features each selects and how many of them are relevant.
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn import L1SVM, SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.datasets import make_weston

models = {
    "SFM": lambda: SupportFeatureMachine(),
    "Weston zero-norm SVM": lambda: WestonZeroNormSVM(),
    "l1-SVM": lambda: L1SVM(),
}
n_runs, n_noise = 10, 100
selected = {name: [] for name in models}
relevant = {name: [] for name in models}
for seed in range(n_runs):
    X, y = make_weston(n_samples=30, n_noise=n_noise, random_state=seed)
    for name, make in models.items():
        support = make().fit(X, y).get_support()
        selected[name].append(support.sum())
        relevant[name].append(support[:6].sum() / support.sum())

for name in models:
    print(f"{name:22s} features {np.mean(selected[name]):5.1f}   "
          f"relevant {100 * np.mean(relevant[name]):5.1f} %")

# %%
# The SFM selects the fewest features, and nearly all of them are relevant.
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
names = list(models)
left.boxplot([selected[m] for m in names])
left.set_xticks([1, 2, 3], names)
left.set(ylabel="selected features", title=f"n = 30, {n_noise} noise features")
right.bar(names, [100 * np.mean(relevant[m]) for m in names], color=["C0", "C1", "C2"])
right.set(ylabel="% of selected features that are relevant", ylim=(0, 105))
for axis in (left, right):
    axis.tick_params(axis="x", labelsize=8)
plt.show()
