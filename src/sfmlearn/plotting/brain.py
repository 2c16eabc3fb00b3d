"""Figures of the fMRI analysis (NC Figs. 3 and 5, Table 3; thesis Figs. 6.4-6.5).

Brain maps are drawn as montages of axial slices with matplotlib only (no nilearn
needed): the mask in grey, the map in colour on top, every slice labelled with its
MNI z (mm). :func:`glass_brain` adds nilearn's glass brain when nilearn is installed.
"""

import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from ..io.atomic import save_figure

__all__ = ["glass_brain", "overlap_bars", "overlap_montage", "random_subsets_boxplot",
           "slice_montage"]


def _slices(mask, n_slices):
    """Axial slice indices with in-mask voxels, evenly spread (at most ``n_slices``)."""
    occupied = np.flatnonzero(mask.data.any(axis=(0, 1)))
    count = min(n_slices, occupied.size)
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


def slice_montage(mask, values, *, title="", label=None, symmetric=False, threshold=None,
                  n_slices=12, cmap=None):
    """Axial montage of one value per in-mask voxel (weights, t, frequencies, ranks).

    Parameters
    ----------
    mask : VolumeMask
    values : array (n_voxels,)
    symmetric : bool
        Colour range -max|v| .. +max|v| with a diverging map (weights, t values).
    threshold : float, optional
        Hide voxels with |value| <= threshold (e.g. 0 for sparse weights).
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
    return _montage(mask, [(volume, options)], title, n_slices, colorbar=label)


def overlap_montage(mask, first, second, *, names=("rSFM", "t-map"), title="", n_slices=12):
    """NC Fig. 5: voxels of ``first`` only red, of ``second`` only green, of both yellow."""
    first, second = np.asarray(first, bool), np.asarray(second, bool)
    code = np.where(first & second, 3.0, np.where(first, 1.0, np.where(second, 2.0, np.nan)))
    colours = ListedColormap(["red", "green", "yellow"])
    volume = mask.volumes(code, fill=np.nan)
    fig = _montage(mask, [(volume, {"cmap": colours, "vmin": 0.5, "vmax": 3.5,
                                    "interpolation": "nearest"})], title, n_slices)
    fig.text(0.01, 0.01, f"red: {names[0]} only ({int((first & ~second).sum())}), green: "
             f"{names[1]} only ({int((second & ~first).sum())}), yellow: both "
             f"({int((first & second).sum())})", fontsize=8)
    return fig


def overlap_bars(table):
    """NC Table 3 as bars: observed overlap per threshold q, chance q, and NC's values."""
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
    """NC Fig. 3: leave-one-participant-out error of SVMs on random voxel subsets."""
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


def glass_brain(image, path, *, title=None):
    """Save nilearn's glass brain of a NIfTI image to ``path``; False without nilearn."""
    try:
        from nilearn import plotting
    except ImportError:
        return False
    display = plotting.plot_glass_brain(image, title=title, colorbar=True, plot_abs=False)
    try:
        save_figure(display, path)
    finally:
        display.close()
    return True
