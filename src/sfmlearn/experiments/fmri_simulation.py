"""The NC 4 / thesis 6.3 fMRI analysis on simulated button-press data with a known truth.

The button-press study of NC 4.1 (12 participants x 4 runs x left/right, 50 989 voxels)
is not public. :func:`sfmlearn.imaging.simulate.simulate_fmri` builds data of the same
design on the MNI152 grid with known informative voxels: bilateral hand-motor and
cerebellar clusters whose activity depends on the hand, a midline SMA cluster active in
both conditions, smooth noise (8 mm FWHM), participant maps, gains and anatomical
jitter. :func:`sfmlearn.mvpa.analyse` then runs what the paper ran, and we measure

* leave-one-participant-out accuracy of the SFM (features re-selected in every fold)
  and of a linear SVM on all voxels;
* the sizes of the rSFM subsets (NC: smallest 2.4, largest 77.7 voxels on average);
* the overlap of every fold's rSFM top q % with the t-map's top q % (NC Table 3,
  chance = q) and, which the paper could not measure, with the truth: ``recall``
  (share of the informative voxels in the top q %, chance q) and ``precision`` (share
  of the top q % that is informative, chance = the true fraction);
* the rSFM estimate of the informative fraction against the true fraction (NC's
  estimate for the real data: 34 %);
* the SFM on labels permuted within participants (thesis Fig. 6.8: accuracy at chance,
  yet small subsets) and the median error of SVMs on random voxel subsets of size
  1, 2, 4, ... (NC Fig. 3).

Published values are those of the real button-press data; they are a reference for
the shape of the results, not a target the simulation should hit.

    sfmlearn reproduce nc-table3-sim [--quick] [--n-jobs 2]

Full: 8 mm grid (3666 voxels), 12 participants x 4 runs, SVM every 10th repetition,
20 permutations, 100 random subsets per size. Quick: 16 mm grid (457 voxels), 6
participants x 4 runs, SVM every 2nd repetition, 5 permutations, 20 subsets per size.
"""

import time

import numpy as np
import pandas as pd

from ..imaging.simulate import mni152_mask, simulate_fmri
from ..imaging.volumes import downsample_mask
from ..mvpa import NC_TABLE3, QUANTILES, analyse, overlap_with_truth

__all__ = ["run", "SETTINGS"]

SETTINGS = {
    "full": {"grid_level": 1, "n_participants": 12, "n_runs": 4, "informative_every": 10,
             "n_permutations": 20, "random_subset_repeats": 100},
    "quick": {"grid_level": 2, "n_participants": 6, "n_runs": 4, "informative_every": 2,
              "n_permutations": 5, "random_subset_repeats": 20},
}
#: NC 4.4 (button-press data): mean smallest / largest rSFM subset, informative fraction.
NC_SUBSETS = (2.4, 77.7)
NC_INFORMATIVE = 0.34


def _row(quantity, value, *, method="", q=np.nan, chance=np.nan, published=np.nan):
    return {"quantity": quantity, "method": method, "q": q, "value": float(value),
            "chance": chance, "published": published}


def run(quick=False, *, random_state=0, n_jobs=None, verbose=0):
    """Simulate, analyse, compare with the truth; one row per measured quantity.

    Columns: quantity, method, q (top-q% threshold or NaN), value, chance, published
    (NC 2013 on the real button-press data, where it gives the number).
    """
    setting = SETTINGS["quick" if quick else "full"]
    mask = downsample_mask(mni152_mask(), setting["grid_level"])
    sim = simulate_fmri("buttonpress", mask=mask, n_participants=setting["n_participants"],
                        n_runs=setting["n_runs"], random_state=random_state)
    started = time.perf_counter()
    result = analyse(sim.X, sim.labels, sim.participants, repetitive=True,
                     informative_every=setting["informative_every"],
                     n_permutations=setting["n_permutations"],
                     random_subset_repeats=setting["random_subset_repeats"],
                     random_state=random_state, n_jobs=n_jobs, verbose=verbose)
    seconds = time.perf_counter() - started
    rep = result.repetitive
    sizes = [np.sort(p.sizes) for p in rep.paths if p.n_repetitions]
    rows = [
        _row("voxels", mask.n_voxels),
        _row("maps", sim.X.shape[0]),
        _row("true informative fraction", sim.truth_fraction),
        _row("accuracy", result.decoding.accuracy, method="SFM", chance=0.5),
        _row("accuracy", result.svm.accuracy, method="linear SVM, all voxels", chance=0.5),
        _row("selected voxels per fold", result.decoding.folds["n_selected"].mean(), method="SFM"),
        _row("smallest subset (mean over folds)", np.mean([s[0] for s in sizes]), method="rSFM",
             published=NC_SUBSETS[0]),
        _row("largest subset (mean over folds)", np.mean([s[-1] for s in sizes]), method="rSFM",
             published=NC_SUBSETS[1]),
        _row("repetitions per fold", np.mean([p.n_repetitions for p in rep.paths]), method="rSFM"),
        _row("informative fraction estimate", rep.informative.estimate, method="rSFM",
             chance=sim.truth_fraction, published=NC_INFORMATIVE),
        _row("seconds", seconds),
    ]
    permutations = result.permutations.summary()
    rows += [
        _row("accuracy on permuted labels (mean)", permutations["permuted_accuracy_mean"],
             method="SFM", chance=0.5),
        _row("selected voxels per fold on permuted labels", permutations["permuted_selected_mean"],
             method="SFM"),
        _row("permutation p-value", permutations["p_value"], method="SFM"),
    ]
    medians = result.random_subsets.groupby("size")["error"].median()
    rows += [_row("median error, SVM on random voxels", error, method=f"{size} voxels", chance=0.5)
             for size, error in medians.items()]
    for _, r in result.overlap.iterrows():
        rows.append(_row("overlap with t-map top set [%]", r["overlap"], method="rSFM", q=r["q"],
                         chance=r["expected"], published=NC_TABLE3[r["q"]][0]))
    truth = overlap_with_truth({"rSFM": rep.rankings, "t-map": np.abs(np.nan_to_num(result.tmap.t))},
                               sim.truth, QUANTILES)
    for _, r in truth.iterrows():
        rows.append(_row("recall of the truth [%]", r["recall"], method=r["method"], q=r["q"],
                         chance=r["recall_chance"]))
        rows.append(_row("precision against the truth [%]", r["precision"], method=r["method"],
                         q=r["q"], chance=r["precision_chance"]))
    return pd.DataFrame(rows)
