"""
Choosing C: the soft SFM over its softness
==========================================

A soft SFM pays 1 for every feature and C for every training error. Sweeping C on
overlapping classes shows the trade-off: few features and many errors for small C,
more features and fewer training errors for large C, and a cross-validated error with a
minimum in between (NC 2013 Fig. 2, thesis Fig. 4.8).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import StratifiedKFold, cross_val_score

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import make_basic

X, y = make_basic(n_samples=60, n_features=50, n_relevant=5, class_distance=0.5,
                  separable=False, random_state=0)
Cs = np.logspace(-2, 1, 10)
cv = StratifiedKFold(5, shuffle=True, random_state=0)
n_features, train_error, cv_error = [], [], []
for C in Cs:
    sfm = SupportFeatureMachine(C=C, class_weight="balanced").fit(X, y)
    n_features.append(sfm.get_support().sum())
    train_error.append(1 - sfm.score(X, y))
    cv_error.append(1 - cross_val_score(SupportFeatureMachine(C=C, class_weight="balanced"),
                                        X, y, cv=cv).mean())
    print(f"C = {C:6.3f}: {n_features[-1]:2d} features, training error {train_error[-1]:.2f}, "
          f"cross-validated error {cv_error[-1]:.2f}")

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
left.semilogx(Cs, n_features, "o-")
left.set(xlabel="C", ylabel="selected features", title="Fewer features as C shrinks")
right.semilogx(Cs, train_error, "o-", label="training")
right.semilogx(Cs, cv_error, "s-", label="5-fold cross-validated")
right.set(xlabel="C", ylabel="error", title="Training and test error")
right.legend()
plt.show()
