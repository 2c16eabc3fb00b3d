"""
Scaling out with Dask
=====================

Every parallel loop in sfmlearn (folds, repetitions, permutations, SVM evaluations) runs
through joblib's ``n_jobs``, so the same code runs on a Dask cluster by switching joblib's
backend. Here a local two-worker cluster runs the chance check of a selector (refits on
permuted labels) and the result is compared with a run on one core: randomness flows
only through ``random_state``, so the answers are identical.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from dask.distributed import Client, LocalCluster
from joblib import parallel_config

from sfmlearn import SupportFeatureMachine, chance_report

from sfmlearn.diagnostics import format_verdict
from sfmlearn.datasets import load_colon

colon = load_colon()
X, y = colon.data, colon.target

start = time.perf_counter()
local = chance_report(X, y, SupportFeatureMachine(C=1.0), n_permutations=16,
                      random_state=0, n_jobs=1)
seconds_local = time.perf_counter() - start

with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                  dashboard_address=None) as cluster, Client(cluster):
    with parallel_config(backend="dask"):
        start = time.perf_counter()
        distributed = chance_report(X, y, SupportFeatureMachine(C=1.0), n_permutations=16,
                                    random_state=0, n_jobs=-1)
        seconds_dask = time.perf_counter() - start

same = np.array_equal(local.permutation_sizes, distributed.permutation_sizes)
print(f"one core: {seconds_local:.1f} s, Dask: {seconds_dask:.1f} s, identical results: {same}")
print(format_verdict(distributed))

# %%
fig, axis = plt.subplots(figsize=(6, 3.4))
sizes = np.asarray(distributed.permutation_sizes)
axis.hist(sizes, bins=np.arange(sizes.min(), sizes.max() + 2) - 0.5, color="0.7",
          label="permuted labels (computed on Dask)")
axis.axvline(distributed.subset_size, color="C3", lw=2, label="real labels")
axis.set(xlabel="selected genes", ylabel="permutations", title="Colon data: soft SFM, C = 1")
axis.legend(fontsize=8)
plt.show()
