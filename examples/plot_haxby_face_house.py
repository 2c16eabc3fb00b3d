"""
Haxby 2001: face vs house, with brain maps
==========================================

Subject 1 of Haxby et al. (2001) ships with sfmlearn (one axial slice, 530 voxels). We
decode "face" against "house" leaving one run out (:func:`sfmlearn.mvpa.decode`) with a
soft SFM, compare with a linear SVM on all voxels, and draw the voxels the SFM selected
in any fold next to the group t-map (:func:`sfmlearn.mvpa.paired_t_map` needs several
participants, so for one subject a two-sample t statistic per voxel stands in for it).
With nilearn installed the maps are drawn on the slice with
:func:`nilearn.plotting.plot_stat_map`; without it, with matplotlib.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import load_haxby
from sfmlearn.mvpa import decode

haxby = load_haxby()  # view="slice"
keep = np.isin(haxby.target, ["face", "house"])
X, y, runs = haxby.data[keep], haxby.target[keep], haxby.runs[keep]
print(f"{X.shape[0]} volumes x {X.shape[1]} voxels, {np.unique(runs).size} runs")

sfm = decode(X, y, runs, SupportFeatureMachine(C=1.0))
svm = decode(X, y, runs, make_pipeline(StandardScaler(), LinearSVC(C=0.001)))
print(f"leave-one-run-out accuracy: SFM {sfm.folds['accuracy'].mean():.3f} "
      f"with {sfm.folds['n_selected'].mean():.1f} voxels per fold, "
      f"linear SVM on all voxels {svm.folds['accuracy'].mean():.3f}")

# %%
# Back to the brain: how often each voxel was selected across the 12 folds, and the
# face-minus-house t statistic of every voxel.
frequency = sfm.supports.mean(axis=0)
t_values = stats.ttest_ind(X[y == "face"], X[y == "house"]).statistic


def to_volume(values):
    volume = np.zeros(haxby.mask_img.shape)
    i, j, k = haxby.voxel_indices.T
    volume[i, j, k] = values
    return volume


try:
    import nibabel as nib
    from nilearn import image, plotting
    background = image.mean_img(haxby.bold, copy_header=True)  # the mean EPI of the slice
except ImportError:  # plain matplotlib
    plotting = None

fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
maps = {"SFM selection frequency": (frequency, 0.01),
        "t, face - house (|t| > 3)": (t_values, 3.0)}
for axis, (title, (values, threshold)) in zip(axes, maps.items()):
    volume = to_volume(values)
    if plotting is not None:
        stat_image = nib.Nifti1Image(volume, haxby.mask_img.affine)
        plotting.plot_stat_map(stat_image, bg_img=background, display_mode="z", cut_coords=1,
                               axes=axis, title=title, threshold=threshold, annotate=False,
                               draw_cross=False, black_bg=False)
    else:
        shown = axis.imshow(volume[..., 0].T, origin="lower", cmap="RdBu_r")
        fig.colorbar(shown, ax=axis)
        axis.set(title=title, xticks=[], yticks=[])
plt.show()
