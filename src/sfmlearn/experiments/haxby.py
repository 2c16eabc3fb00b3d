"""Haxby et al. (2001) subject 1: leave-one-run-out SFM decoding on real fMRI data.

The two fMRI studies of the thesis are not public; the Haxby data that ship with
sfmlearn (:func:`sfmlearn.datasets.load_haxby`) are real data of one participant, so
folds leave one of the 12 runs out instead of one participant. Samples are single
volumes (TR 2.5 s) of the two categories: 9 volumes per category and run, 216 maps per
pair, 198 for training in every fold. For every view and mask that ships --

* ``slice``: the PyMVPA example slice, 530 voxels (3.1 x 3.75 x 3.75 mm);
* ``25mm``: the whole brain at 25 mm, masks ``brain`` (129 voxels), ``hoc`` (45,
  Harvard-Oxford cortex) and ``vt`` (ventral temporal cortex -- a single voxel at
  this resolution, so it says little; it is reported because the issue asks for it);

-- and the pairs face vs house and cat vs chair we report the leave-one-run-out
accuracy and the number of voxels selected per fold of the hard SFM (NaN when the
training volumes are not linearly separable: then the hard SFM has no solution), of the
soft SFM (C = 1) and of a linear SVM (C = 1) on all voxels of the mask (standardised).
The weights of the soft SFM fitted on all runs are NIfTI maps on the data's grid (zero =
not selected) in the result folder (``--out``), as
``thesis-ch6-haxby/maps/haxby_<view>_<mask>_<a>-<b>_sfm.nii.gz``.

    sfmlearn reproduce thesis-ch6-haxby [--quick] [--out DIR]

Quick: face vs house on the slice and the 25 mm brain mask only.
"""

import time

import numpy as np
import pandas as pd
from sklearn.base import clone

from ..datasets import load_haxby
from ..exceptions import NotSeparableError
from ..imaging.volumes import VolumeMask
from ..mvpa import decode, reference_svm
from ..selection import SupportFeatureMachine

__all__ = ["run", "PAIRS", "VIEWS"]

PAIRS = (("face", "house"), ("cat", "chair"))
VIEWS = (("slice", "slice"), ("25mm", "brain"), ("25mm", "hoc"), ("25mm", "vt"))
QUICK_VIEWS = (("slice", "slice"), ("25mm", "brain"))
METHODS = {"SFM (hard)": SupportFeatureMachine(),
           "SFM (soft, C=1)": SupportFeatureMachine(C=1.0),
           "linear SVM, all voxels": reference_svm()}


def _decode(X, y, runs, estimator):
    started = time.perf_counter()
    try:
        result = decode(X, y, runs, estimator)
    except NotSeparableError:
        return {"accuracy": np.nan, "accuracy_sd": np.nan, "mean_selected": np.nan,
                "seconds": time.perf_counter() - started, "note": "not separable in some fold"}
    return {"accuracy": result.accuracy, "accuracy_sd": float(result.folds["accuracy"].std(ddof=0)),
            "mean_selected": float(result.folds["n_selected"].mean()),
            "seconds": time.perf_counter() - started, "note": ""}


def _write_weights(out, view, mask_name, pair, bunch, X, y):
    """Soft SFM (C = 1, always solvable) on all runs -> a NIfTI map of ``out``; returns its
    path in ``out`` and the voxels selected."""
    sfm = clone(METHODS["SFM (soft, C=1)"]).fit(X, y)
    mask = VolumeMask(np.asarray(bunch.mask_img.dataobj), bunch.mask_img.affine)
    image = mask.inverse_transform(sfm.coef_.ravel(), description="sfmlearn SFM weights, Haxby 2001 (CC BY-SA 3.0)")
    count = int(sfm.support_.sum())
    path = out.add_map(f"haxby_{view}_{mask_name}_{pair[0]}-{pair[1]}_sfm", image,
                       f"soft SFM (C = 1) weights on all runs, {pair[0]} vs {pair[1]}, {view} {mask_name} "
                       f"({count} voxels selected; zero = not selected)")
    return path, count


def run(quick=False, *, out=None, pairs=PAIRS):
    """One row per (view, mask, pair, method): accuracy, accuracy_sd over runs, voxels.

    Columns: view, mask, n_voxels, pair, n_maps, method, accuracy (pooled over the 12
    held-out runs), accuracy_sd (over runs), mean_selected (per fold; NaN for the SVM),
    seconds, note; with ``out`` (a :class:`~sfmlearn.outputs.result_folder.ResultFolder`,
    which receives the weight maps) also nifti (the map's path in ``out``) and
    all_runs_selected (voxels of the soft SFM fitted on all runs).
    """
    views = QUICK_VIEWS if quick else VIEWS
    pairs = pairs[:1] if quick else pairs
    rows = []
    for view, mask_name in views:
        bunch = load_haxby(view, mask=mask_name)
        for pair in pairs:
            keep = np.isin(bunch.target, pair)
            X, y, runs = bunch.data[keep], bunch.target[keep], bunch.runs[keep]
            common = {"view": view, "mask": mask_name, "n_voxels": X.shape[1],
                      "pair": f"{pair[0]} vs {pair[1]}", "n_maps": X.shape[0]}
            extra = {}
            if out is not None:
                name, count = _write_weights(out, view, mask_name, pair, bunch, X, y)
                extra = {"nifti": name, "all_runs_selected": count}
            for method, estimator in METHODS.items():
                rows.append({**common, "method": method, **_decode(X, y, runs, estimator), **extra})
    return pd.DataFrame(rows)
