"""
Separability probabilities: how small a subset is meaningful?
=============================================================

With n samples and d candidate features, how likely is it that *random* labels are
linearly separable in some k features? :func:`sfmlearn.theory.prob_separable` gives Cover's
probability for one fixed subspace, :func:`sfmlearn.theory.prob_separable_single_feature`
the chance that one of d features alone separates, and
:func:`sfmlearn.theory.prob_separable_subspace_bounds` bounds the chance for some k of d
(thesis 2.5.4, 3.4). For leukemia (38 samples, 7129 genes) two genes are unlikely to be
chance without a bias (the upper bound is below 1 %).
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn.theory import prob_separable, prob_separable_subspace_bounds
from sfmlearn.theory import prob_separable_single_feature

ns = np.arange(4, 61)
fig, (left, right) = plt.subplots(1, 2, figsize=(9.5, 3.6))
for d in (1, 2, 5, 10, 20):
    left.plot(ns, [prob_separable(n, d) for n in ns], label=f"d = {d}")
left.set(xlabel="samples n", ylabel="P(separable)", title="Random labels, one subspace")
left.legend(fontsize=8)

for d in (100, 1000, 7129):
    right.plot(ns, [prob_separable_single_feature(n, d) for n in ns], label=f"one of d = {d}")
right.set(xlabel="samples n", ylabel="P(some single feature separates)",
          title="Many candidate features")
right.legend(fontsize=8)
plt.show()

# %%
# The bounds for "some 2 of 7129 genes" at leukemia's 38 samples:
lower, upper = prob_separable_subspace_bounds(38, 7129, 2)
print(f"P(random labels separable in some 2 of 7129 genes, n = 38): "
      f"between {lower:.3g} and {upper:.3g}")
