"""
The Potential SVM and redundancy control
========================================

Hochreiter & Obermayer's P-SVM selects features by a box-constrained QP on the feature
columns. Its parameter ``C`` bounds every ``|alpha_j|``: without a bound (``C=None``) a
set of mutually redundant relevant features is represented by few of them; a small C
forces the weight to spread over the redundant copies, so more of them are selected
(PSVM 3.2, Table 1). The data: 100 features, of which features 1-6 are relevant and
redundant (either 1-3 or 4-6 carry the class), the rest noise
(:func:`sfmlearn.datasets.make_psvm_redundancy`).
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn import PotentialSVM
from sfmlearn.datasets import make_psvm_redundancy

X, y = make_psvm_redundancy("table1_top", n_samples=200, random_state=0)
settings = {"C = None (no redundancy control)": None, "C = 0.1": 0.1}
fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), sharey=True)
for axis, (title, C) in zip(axes, settings.items()):
    psvm = PotentialSVM(C=C, n_features_to_select=20).fit(X, y)
    chosen = np.flatnonzero(psvm.get_support())
    print(f"{title}: {np.sum(chosen < 6)} of the 6 relevant features among the "
          f"{chosen.size} selected; training accuracy {psvm.score(X, y):.2f}")
    axis.bar(np.arange(X.shape[1]), psvm.relevance_,
             color=np.where(np.arange(X.shape[1]) < 6, "C3", "C0"))
    axis.set(title=title, xlabel="feature (red: relevant)")
axes[0].set_ylabel("relevance |alpha_j|")
plt.show()
