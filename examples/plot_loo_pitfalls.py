"""
Leave-one-out pitfalls in few samples and many dimensions
=========================================================

Labels drawn at random carry no information, so any honest error estimate should be
near 50 %. Leave-one-out of a hard-margin linear SVM is not (thesis 2.5.5, 4.1): with
n samples in d >= n dimensions the left-out sample's label is predicted *against* the
majority of the remaining ones, and the estimate is biased -- above 50 % for small n,
and it depends on d. :func:`sfmlearn.diagnostics.simulate_loo_error` simulates it
exactly; the lesson is to compare with a permutation baseline on the same pipeline
instead of trusting 50 %.
"""

import matplotlib.pyplot as plt
import numpy as np

from sfmlearn.diagnostics import simulate_loo_error

ns = [6, 8, 10, 14, 20, 30]
dims = [50, 200, 1000]
fig, axis = plt.subplots(figsize=(6, 3.8))
for d in dims:
    errors = [simulate_loo_error(n, d, n_runs=60, random_state=0) for n in ns]
    means = np.array([e.mean() for e in errors])
    sems = np.array([e.std(ddof=1) / np.sqrt(e.size) for e in errors])
    axis.errorbar(ns, 100 * means, 100 * 2 * sems, marker="o", capsize=3, label=f"d = {d}")
    print(f"d = {d:4d}: LOO error on random labels",
          ", ".join(f"n={n}: {100 * m:.0f} %" for n, m in zip(ns, means)))
axis.axhline(50, color="0.5", ls=":", label="chance")
axis.set(xlabel="samples n", ylabel="leave-one-out error (%)",
         title="Hard-margin SVM, random labels (mean, 2 s.e.)")
axis.legend()
plt.show()
