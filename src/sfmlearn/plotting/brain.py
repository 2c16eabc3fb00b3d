"""Figures of the fMRI analysis (NC Figs. 3 and 5, Table 3; thesis Figs. 6.4-6.5).

Brain maps are drawn as montages of axial slices with matplotlib only (no nilearn
needed): the mask in grey, the map in colour on top, every slice labelled with its
MNI z (mm). :func:`glass_brain` adds nilearn's glass brain when nilearn is installed.
"""

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .._validation import check_count
from ..outputs.atomic import save_figure
from ._checks import check_length
from ._docs import plotting_doc

__all__ = ["glass_brain", "overlap_bars", "overlap_montage", "random_subsets_boxplot",
           "slice_montage"]


def _slices(mask, n_slices):
    """Axial slice indices with in-mask voxels, evenly spread (at most ``n_slices``, at least one)."""
    occupied = np.flatnonzero(mask.data.any(axis=(0, 1)))
    count = min(check_count("n_slices", n_slices, 1), occupied.size)
    return occupied[np.round(np.linspace(0, occupied.size - 1, count)).astype(int)]


def _grid(n):
    columns = int(np.ceil(np.sqrt(n * 1.5)))
    return int(np.ceil(n / columns)), columns


def _montage(mask, layers, title, n_slices, colorbar=None):
    """Draw ``layers`` [(volume, kwargs)] over the grey mask on axial slices."""
    slices = _slices(mask, n_slices)
    rows, columns = _grid(slices.size)
    fig = Figure(figsize=(1.9 * columns, 2.1 * rows + 0.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, columns)).ravel()
    image = None
    for ax, k in zip(axes, slices):
        ax.imshow(mask.data[:, :, k].T, origin="lower", cmap="Greys", vmin=0, vmax=4)
        for volume, options in layers:
            image = ax.imshow(np.ma.masked_invalid(volume[:, :, k]).T, origin="lower", **options)
        z = (mask.affine @ np.array([0.0, 0.0, k, 1.0]))[2]
        ax.set_title(f"z = {z:.0f} mm", fontsize=8)
    for ax in axes:
        ax.set_axis_off()
    if colorbar and image is not None:
        fig.colorbar(image, ax=axes.tolist(), shrink=0.6, label=colorbar)
    fig.suptitle(title)
    return fig


@plotting_doc
def slice_montage(mask, values, *, title="", label=None, symmetric=False, threshold=None,
                  n_slices=12, cmap=None):
    """Axial montage of one value per in-mask voxel (weights, t, frequencies, ranks).

    Parameters
    ----------
    mask : VolumeMask
        The voxels the values belong to; drawn in grey underneath.
    values : array (n_voxels,)
        One value per in-mask voxel, in the mask's voxel order.
    title : str, default=""
        Figure title.
    label : str, optional
        Label of the colour bar; None draws none.
    symmetric : bool
        Colour range -max|v| .. +max|v| with a diverging map (weights, t values). The
        range spans the finite values; an infinite one is drawn at its end.
    threshold : float, optional
        Hide voxels with |value| <= threshold (e.g. 0 for sparse weights).
    n_slices : int, default=12
        At most this many axial slices with in-mask voxels, evenly spread (at least 1).
    cmap : str or Colormap, optional
        Default "RdBu_r" when ``symmetric``, "hot" otherwise.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per slice, titled with its MNI z in mm.

    Examples
    --------
    %(coarse_mni_mask)s
    >>> from sfmlearn.plotting.brain import slice_montage
    >>> weights = np.where(np.arange(mask.n_voxels) % 50 == 0, 1.0, 0.0)
    >>> figure = slice_montage(mask, weights, title="SFM weights", label="weight", symmetric=True,
    ...                        threshold=0, n_slices=4)
    >>> figure.get_suptitle(), figure.axes[0].get_title().startswith("z = ")
    ('SFM weights', True)
    """
    volume = mask.volumes(np.asarray(values, dtype=float), fill=np.nan)
    if threshold is not None:
        volume[np.abs(volume) <= threshold] = np.nan
    finite = volume[np.isfinite(volume)]
    if symmetric:
        top = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
        options = {"cmap": cmap or "RdBu_r", "vmin": -top, "vmax": top}
    else:
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        options = {"cmap": cmap or "hot", "vmin": lo, "vmax": hi if hi > lo else lo + 1}
    volume[np.isposinf(volume)] = options["vmax"]  # an infinite value (a paired t of zero variance)
    volume[np.isneginf(volume)] = options["vmin"]  # is drawn at the colour bar's end, not hidden
    return _montage(mask, [(volume, options)], title, n_slices, colorbar=label)


@plotting_doc
def overlap_montage(mask, first, second, *, names=("rSFM", "t-map"), title="", n_slices=12):
    """NC Fig. 5: voxels of ``first`` only red, of ``second`` only green, of both yellow.

    Parameters
    ----------
    mask : VolumeMask
        The voxels the sets refer to.
    first, second : array-like of bool, shape (n_voxels,)
        The two voxel sets (e.g. the rSFM's top q % and the |t| map's top q %).
    names : tuple of str, default=("rSFM", "t-map")
        Names of the two sets in the legend line.
    title : str, default=""
        Figure title.
    n_slices : int, default=12
        At most this many axial slices (at least 1).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per slice and a line counting each colour's voxels.

    Examples
    --------
    %(coarse_mni_mask)s
    >>> from sfmlearn.plotting.brain import overlap_montage
    >>> first, second = np.arange(mask.n_voxels) < 40, np.arange(mask.n_voxels) >= 20
    >>> figure = overlap_montage(mask, first, second, n_slices=4)
    >>> figure.texts[-1].get_text()
    'red: rSFM only (20), green: t-map only (417), yellow: both (20)'
    """
    check_length("names", names, 2, "voxel set")
    first, second = _voxel_set("first", first, mask), _voxel_set("second", second, mask)
    code = np.where(first & second, 3.0, np.where(first, 1.0, np.where(second, 2.0, np.nan)))
    colours = ListedColormap(["red", "green", "yellow"])
    volume = mask.volumes(code, fill=np.nan)
    fig = _montage(mask, [(volume, {"cmap": colours, "vmin": 0.5, "vmax": 3.5,
                                    "interpolation": "nearest"})], title, n_slices)
    fig.text(0.01, 0.01, f"red: {names[0]} only ({int((first & ~second).sum())}), green: "
             f"{names[1]} only ({int((second & ~first).sum())}), yellow: both "
             f"({int((first & second).sum())})", fontsize=8)
    return fig


def _voxel_set(name, members, mask):
    """``members`` as a boolean mask of the in-mask voxels; another length is refused, naming both."""
    members = np.asarray(members, bool)
    check_length(name, members, mask.n_voxels, "in-mask voxel")
    return members


def overlap_bars(table):
    """NC Table 3 as bars: observed overlap per threshold q, chance q, and NC's values.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per threshold: columns q (percent), overlap, overlap_sd, expected (the
        chance overlap, q) and optionally published_overlap
        (:func:`sfmlearn.mvpa.overlap_with_tmap`).

    Returns
    -------
    matplotlib.figure.Figure
        One panel: observed (and published) overlap bars per q, chance as a marker.

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.plotting.brain import overlap_bars
    >>> table = pd.DataFrame({"q": [1, 5, 20], "overlap": [30.0, 40.0, 55.0],
    ...                       "overlap_sd": [5.0, 4.0, 3.0], "expected": [1, 5, 20]})
    >>> overlap_bars(table).axes[0].get_xlabel()
    'top q % of voxels'
    """
    fig = Figure(figsize=(6.5, 4.0), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(table))
    ax.bar(x - 0.2, table["overlap"], 0.4, yerr=table["overlap_sd"], label="observed (mean over folds)")
    if "published_overlap" in table and table["published_overlap"].notna().any():
        ax.bar(x + 0.2, table["published_overlap"], 0.4, label="NC 2013 Table 3 (button press)",
               alpha=0.6)
    ax.plot(x, table["expected"], "k_", markersize=22, mew=2, label="chance (= q)")
    ax.set_xticks(x, [f"{q:g} %" for q in table["q"]])
    ax.set_xlabel("top q % of voxels")
    ax.set_ylabel("overlap of rSFM and |t| top sets [%]")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    return fig


def random_subsets_boxplot(table, *, sfm_error=None):
    """NC Fig. 3: leave-one-participant-out error of SVMs on random voxel subsets.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns size (voxels drawn) and error (one row per random draw), as
        :func:`sfmlearn.mvpa.random_subset_svm` returns.
    sfm_error : float, optional
        The SFM's error on its selected voxels, drawn as a horizontal line.

    Returns
    -------
    matplotlib.figure.Figure
        One box per subset size.

    Examples
    --------
    >>> import pandas as pd
    >>> from sfmlearn.plotting.brain import random_subsets_boxplot
    >>> table = pd.DataFrame({"size": [5, 5, 5, 50, 50, 50], "error": [0.5, 0.4, 0.45, 0.3, 0.35, 0.25]})
    >>> figure = random_subsets_boxplot(table, sfm_error=0.1)
    >>> [label.get_text() for label in figure.axes[0].get_xticklabels()]
    ['5', '50']
    """
    fig = Figure(figsize=(7.0, 4.0), layout="constrained")
    ax = fig.subplots()
    sizes = np.sort(table["size"].unique())
    ax.boxplot([table.loc[table["size"] == k, "error"] for k in sizes],
               tick_labels=[str(k) for k in sizes])
    ax.axhline(0.5, color="grey", ls="--", lw=1, label="chance")
    if sfm_error is not None:
        ax.axhline(sfm_error, color="C3", lw=1, label="SFM (selected voxels)")
    ax.set_xlabel("voxels drawn at random")
    ax.set_ylabel("cross-validated error")
    ax.tick_params(axis="x", labelrotation=45)
    ax.legend(fontsize=8)
    return fig


def _finite_image(image):
    """``image`` (nibabel image or path) with +-inf at the largest finite |value|, which
    nilearn would otherwise draw as 0 (a paired t of zero variance is infinite)."""
    import nibabel as nib

    image = image if hasattr(image, "dataobj") else nib.load(image)
    data = np.asarray(image.dataobj, dtype=np.float64)
    if not np.isinf(data).any():
        return image
    finite = np.abs(data[np.isfinite(data)])
    top = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    return nib.Nifti1Image(np.clip(data, -top, top), image.affine)


@plotting_doc
def glass_brain(image, path, *, title=None):
    """Save nilearn's glass brain of a NIfTI image to ``path``; False without nilearn.

    Parameters
    ----------
    image : nibabel image or path-like
        A 3-D NIfTI map in MNI space; an infinite value is drawn at the largest finite
        magnitude.
    path : path-like
        The PNG (or other matplotlib format) to write, atomically.
    title : str, optional
        Title drawn on the glass brain.

    Returns
    -------
    bool
        True when the file was written, False when nilearn is not installed.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    %(coarse_mni_mask)s
    >>> from sfmlearn.plotting.brain import glass_brain
    >>> image = mask.inverse_transform(np.linspace(-1, 1, mask.n_voxels))
    >>> folder = tempfile.TemporaryDirectory()
    >>> written = glass_brain(image, Path(folder.name) / "glass.png", title="weights")
    >>> written == (Path(folder.name) / "glass.png").exists()
    True
    >>> folder.cleanup()
    """
    try:
        from nilearn import plotting
    except ImportError:
        return False
    display = plotting.plot_glass_brain(_finite_image(image), title=title, colorbar=True, plot_abs=False)
    try:
        save_figure(display, path)
    finally:
        display.close()
    return True
