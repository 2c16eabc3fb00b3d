"""Decoding across spatial resolution and time slices on simulated data (thesis 6.4.3-6.4.4).

The thesis decodes the emotion study at pyramid levels 0-3 (Fig. 6.20: 50 989, 6362,
791, 98 voxels) and in 4 s time slices from -2 s to 30 s around the 20 s trials
(Figs. 6.15-6.16). Those data are not public; this script runs the same sweeps with
the hard SFM (leave one participant out) on simulated button-press data
(:func:`sfmlearn.imaging.simulate.simulate_fmri`, 12 participants x 4 runs):

* ``sweep="level"``: the 4 mm MNI152 grid (29 398 voxels) downsampled to levels 0-3
  (:func:`sfmlearn.mvpa.level_sweep`: level 1 subsampling, then pyramid reduce);
* ``sweep="time"``: maps of every time slice of the block response on the 8 mm grid
  (:func:`sfmlearn.mvpa.time_slice_sweep`; the signal follows the canonical HRF's
  response to a 20 s block, so -2 s carries none).

    sfmlearn reproduce thesis-fig6-sweeps [--quick]

Quick: 6 participants, levels 1-3, slices -2, 6, 14 s.
"""


import pandas as pd

from ..imaging.simulate import THESIS_TIME_SLICES, mni152_mask, simulate_fmri
from ..imaging.volumes import downsample_mask
from ..mvpa import level_sweep, time_slice_sweep
from ..selection import SupportFeatureMachine

__all__ = ["run"]


def run(quick=False, *, random_state=0):
    """One row per level and per time slice: sweep, level/time, n_voxels, n_maps,
    accuracy (pooled over held-out maps), accuracy_sd (over folds), mean_selected."""
    n_participants = 6 if quick else 12
    levels = (1, 2, 3) if quick else (0, 1, 2, 3)
    slices = (-2.0, 6.0, 14.0) if quick else THESIS_TIME_SLICES
    sim = simulate_fmri("buttonpress", n_participants=n_participants, random_state=random_state)
    by_level = level_sweep(sim.mask.volumes(sim.X), sim.mask, sim.labels, sim.participants,
                           SupportFeatureMachine(), levels=levels)
    by_level.insert(0, "sweep", "level")
    by_level["n_maps"] = sim.X.shape[0]
    timed = simulate_fmri("buttonpress", mask=downsample_mask(mni152_mask(), 1),
                          n_participants=n_participants, time_slices=slices,
                          random_state=random_state)
    by_time = time_slice_sweep(timed.X, timed.labels, timed.participants, timed.times,
                               SupportFeatureMachine())
    by_time.insert(0, "sweep", "time")
    by_time["n_voxels"] = timed.mask.n_voxels
    columns = ["sweep", "level", "voxel_size", "time", "n_voxels", "n_maps", "accuracy",
               "accuracy_sd", "mean_selected"]
    return pd.concat([by_level, by_time], ignore_index=True).reindex(columns=columns)
