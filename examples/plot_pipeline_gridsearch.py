"""
A Pipeline + GridSearchCV recipe
================================

The SFM is an ordinary scikit-learn estimator, selector and classifier in one. Here it
selects genes inside a :class:`~sklearn.pipeline.Pipeline` whose final step is a linear
SVM, C of the soft SFM is tuned by :class:`~sklearn.model_selection.GridSearchCV`, and
the whole search is evaluated by an outer cross-validation, so that neither the genes nor
C ever see the test samples (nested cross-validation; selecting on all samples first
would be optimistic).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import load_colon

colon = load_colon()
X, y = colon.data, colon.target
print(f"colon cancer data: {X.shape[0]} tissues x {X.shape[1]} genes")

pipeline = Pipeline([
    ("select", SupportFeatureMachine(class_weight="balanced")),
    ("scale", StandardScaler()),
    ("classify", LinearSVC(C=1.0)),
])
search = GridSearchCV(pipeline, {"select__C": [0.1, 0.3, 1.0, 3.0]},
                      cv=StratifiedKFold(3, shuffle=True, random_state=0))
outer = cross_validate(search, X, y, cv=StratifiedKFold(5, shuffle=True, random_state=1),
                       return_estimator=True)
print(f"nested 5-fold accuracy: {outer['test_score'].mean():.3f} "
      f"+- {outer['test_score'].std():.3f}")
chosen_C = [fitted.best_params_["select__C"] for fitted in outer["estimator"]]
n_genes = [int(fitted.best_estimator_["select"].get_support().sum()) for fitted in outer["estimator"]]
print("C chosen per outer fold:", chosen_C, " genes selected:", n_genes)

# %%
# The inner search's mean accuracy for every C, one line per outer fold.
fig, axis = plt.subplots(figsize=(6, 3.4))
for k, fitted in enumerate(outer["estimator"]):
    results = fitted.cv_results_
    axis.semilogx(results["param_select__C"].astype(float), results["mean_test_score"], "o-",
                  label=f"outer fold {k + 1}")
axis.set(xlabel="C of the soft SFM", ylabel="inner CV accuracy",
         title="GridSearchCV inside each outer fold")
axis.legend(fontsize=8)
plt.show()
