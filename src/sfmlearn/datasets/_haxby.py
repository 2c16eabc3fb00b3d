"""Loader of the Haxby et al. (2001) fMRI data, subject 1, as shipped with PyMVPA.

Two views of the same 1452 volumes (12 runs x 121 volumes, TR 2.5 s, block design with
8 object categories): the PyMVPA example -- the posterior half of one axial slice at
the acquired resolution with a 530-voxel mask -- and the OpenFMRI whole-brain runs
downsampled to 25 mm voxels with five masks. The data are CC BY-SA 3.0 (the original
authors); ``DESCR`` carries the attribution.
"""

import numpy as np

from ..exceptions import DataValidationError
from ..utils.grids import AFFINE_TOL, affine_gap
from ._arguments import FLAG, checked
from ._base import data_path, frame_bunch, load_arrays, make_bunch, read_descr

__all__ = ["load_haxby", "HAXBY_MASKS"]

#: Category names in PyMVPA's numeric code order (0 = rest).
CATEGORIES = ("rest", "face", "house", "shoe", "cat", "scissors", "scrambledpix", "bottle",
              "chair")

#: Masks available for each view; the first is the default.
HAXBY_MASKS = {"slice": ("slice",), "25mm": ("brain", "gray", "hoc", "vt", "white")}

TR_SECONDS = 2.5
N_RUNS = 12
def _load_image(name):
    import nibabel as nib  # only the fMRI loader needs it: `sfmlearn select` starts without

    image = nib.load(str(data_path(name)))
    return nib.Nifti1Image(np.asarray(image.dataobj), image.affine, image.header)


def _bold(view):
    import nibabel as nib

    if view == "slice":
        return _load_image("haxby2001_slice_bold.nii.gz")
    runs = [_load_image(f"haxby2001_25mm_bold_run{r:02d}.nii.gz") for r in range(1, N_RUNS + 1)]
    if not all(np.allclose(run.affine, runs[0].affine) for run in runs):
        raise RuntimeError("the packaged Haxby runs have different affines; reinstall sfmlearn")
    data = np.concatenate([np.asarray(run.dataobj) for run in runs], axis=3)
    return nib.Nifti1Image(data, runs[0].affine, runs[0].header)


def _masks(view):
    if view == "slice":
        return {"slice": _load_image("haxby2001_slice_mask.nii.gz")}
    return {name: _load_image(f"haxby2001_25mm_mask_{name}.nii.gz") for name in HAXBY_MASKS[view]}


def _mask_array(mask, masks, bold, view):
    """(name, boolean 3-D array) for a mask name, a 3-D array or a NIfTI image."""
    if mask is None:
        mask = HAXBY_MASKS[view][0]
    if isinstance(mask, str):
        if mask not in masks:
            raise ValueError(f"unknown mask '{mask}' for view '{view}'; choose one of "
                             f"{', '.join(masks)} or pass a boolean array / NIfTI image")
        return mask, np.asarray(masks[mask].dataobj) > 0
    if hasattr(mask, "affine"):
        _check_mask_grid(mask.affine, bold.affine, view)
    values = np.asarray(mask.dataobj) if hasattr(mask, "dataobj") else np.asarray(mask)
    return "custom", _inside(values, bold.shape[:3], view)


def _check_mask_grid(affine, bold_affine, view):
    """Refuse a mask image whose affine differs from the volumes': another grid, even of the same shape."""
    gap = affine_gap(affine, bold_affine)
    if gap <= AFFINE_TOL:
        return
    raise DataValidationError(
        f"the mask image is not on the grid of the '{view}' volumes: its affine differs from theirs by up "
        f"to {gap:.3g} mm (tolerance {AFFINE_TOL:g}); resample it onto their grid first, e.g. "
        f"nilearn.image.resample_to_img(mask, load_haxby('{view}').bold, interpolation='nearest')")


def _inside(values, shape, view):
    """The voxels of a custom mask (values > 0) on the view's grid ``shape``; trailing axes of
    length 1 may be left out, as in NIfTI. Refused: non-numbers, NaN, another shape, no voxel."""
    if values.dtype.kind not in "biuf":
        raise DataValidationError(f"the mask must hold booleans or numbers (voxels > 0 are inside); got "
                                  f"dtype {values.dtype}")
    if values.ndim < 3 and values.shape + (1,) * (3 - values.ndim) == shape:
        values = values.reshape(shape)
    if values.shape != shape:
        raise DataValidationError(f"mask has shape {values.shape}; the '{view}' volumes are {shape}")
    n_nan = int(np.count_nonzero(np.isnan(values))) if values.dtype.kind == "f" else 0
    if n_nan:
        raise DataValidationError(f"the mask holds {n_nan} NaN values, which are neither inside nor outside "
                                  "(voxels > 0 are inside); set them to 0 (outside) or 1 (inside) first")
    inside = values > 0
    if not inside.any():
        raise DataValidationError("the mask is empty: it selects no voxel (voxels are inside where it is > 0); "
                                  "check that it is the mask and not a map")
    return inside


@checked(as_frame=FLAG, return_X_y=FLAG)
def load_haxby(view="slice", *, mask=None, as_frame=False, return_X_y=False):
    """Haxby et al. (2001), subject 1: BOLD volumes, masks, category labels, runs.

    Parameters
    ----------
    view : {"slice", "25mm"}, default="slice"
        "slice": the PyMVPA example, 40 x 20 x 1 voxels (3.1 x 3.75 x 3.75 mm), the
        posterior half of one axial slice, with its 530-voxel mask. "25mm": the
        whole brain downsampled to 25 mm voxels (6 x 10 x 10), the 12 OpenFMRI runs
        concatenated, with masks "brain" (129 voxels), "gray" (28), "white" (34),
        "hoc" (45; non-zero voxels of a Harvard-Oxford cortical label image) and "vt"
        (ventral temporal cortex, a single voxel at this resolution).
    mask : str, bool array or NIfTI image, optional
        Which voxels form the columns of ``data``: a mask name of the view (default:
        "slice" resp. "brain") or your own 3-D mask on the view's grid (voxels > 0 are
        inside; a NIfTI image must have the volumes' affine, to 0.001 mm). A mask that
        selects no voxel, or holds NaN, is refused.
    as_frame : bool, default=False
        Return ``data`` as a DataFrame (columns ``v_i_j_k``) and ``target`` as a Series.
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.

    Returns
    -------
    Bunch with ``bold`` (4-D ``nibabel.Nifti1Image``, 1452 volumes), ``masks`` (dict of
    3-D images), ``mask`` (the name used), ``mask_img``, ``data`` (1452 x n_voxels
    float64: the masked volumes, one row per volume), ``target`` (category name per
    volume, "rest" between blocks: 8 x 108 category volumes and 588 rest),
    ``target_names`` (the 9 names, PyMVPA code order), ``runs`` (1-12, PyMVPA chunks
    0-11; use as ``groups`` for leave-one-run-out), ``voxel_indices`` (n_voxels x 3,
    the i, j, k of each column), ``feature_names``, ``tr`` (2.5 s) and ``DESCR``
    (citation and the CC BY-SA 3.0 attribution). There is one participant only.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.datasets import load_haxby
    >>> haxby = load_haxby()   # the slice view
    >>> haxby.data.shape, sorted(set(haxby.runs)) == list(range(1, 13))
    ((1452, 530), True)
    >>> faces_and_houses = np.isin(haxby.target, ["face", "house"])
    >>> int(faces_and_houses.sum())
    216
    """
    import nibabel as nib

    if view not in HAXBY_MASKS:
        raise ValueError(f"view must be one of {', '.join(HAXBY_MASKS)}; got {view!r}")
    bold = _bold(view)
    masks = _masks(view)
    mask_name, inside = _mask_array(mask, masks, bold, view)
    voxels = np.argwhere(inside)
    X = np.asarray(bold.dataobj)[inside].T.astype(np.float64)
    attributes = load_arrays("haxby2001_attributes.npz")
    labels = attributes["labels"].astype(object)
    names = np.array([f"v_{i}_{j}_{k}" for i, j, k in voxels], dtype=object)
    frame = None
    if as_frame:
        X, labels, frame = frame_bunch(X, labels, names)
    if return_X_y:
        return X, labels
    return make_bunch(
        bold=bold, masks=masks, mask=mask_name,
        mask_img=nib.Nifti1Image(inside.astype(np.uint8), bold.affine),
        data=X, target=labels, frame=frame, target_names=np.array(CATEGORIES, dtype=object),
        runs=attributes["runs"].astype(np.int64), voxel_indices=voxels, feature_names=names,
        tr=TR_SECONDS, DESCR=read_descr("haxby2001"),
    )
