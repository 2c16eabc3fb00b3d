"""Figures for the image-processing part (thesis 5): illumination correction."""

import numpy as np
from matplotlib.figure import Figure

__all__ = ["illumination_correction_figure"]


def illumination_correction_figure(image, corrected, *, border=128, isophotes=12):
    """Input, corrected images and their border profiles, like thesis Figure 5.2.

    Parameters
    ----------
    image : 2-D array
        The input image.
    corrected : dict
        ``{label: corrected 2-D image}``, e.g. one entry per boundary mode.
    border : int
        How many pixels of the middle row next to each side the profiles show.
    isophotes : int
        Number of contour levels (lines of equal intensity) drawn over every image.

    Returns
    -------
    matplotlib.figure.Figure
        Row 1: the input; row 2: each corrected image with its isophotes; row 3: the
        middle row of each corrected image against the distance from the left and the
        right border.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.imaging import correct_illumination
    >>> from sfmlearn.experiments.figures.imaging import illumination_correction_figure
    >>> image = 100 + 0.5 * np.mgrid[0:64, 0:64][1]   # brighter to the right
    >>> corrected = {mode: correct_illumination(image, levels=3, boundary=mode)
    ...              for mode in ("quadratic", "replicate")}
    >>> figure = illumination_correction_figure(image, corrected, border=16)
    >>> [ax.get_title() for ax in figure.axes][:3]
    ['input', 'corrected: quadratic', 'quadratic: border change 0.00']
    """
    image = np.asarray(image, dtype=float)
    if image.ndim != 2 or not corrected:
        raise ValueError("pass a 2-D image and at least one corrected image")
    columns = len(corrected)
    fig = Figure(figsize=(3.6 * columns, 9.0), layout="constrained")
    grid = fig.add_gridspec(3, columns)
    middle = image.shape[0] // 2

    ax = fig.add_subplot(grid[0, :])
    _show(ax, image, isophotes)
    ax.set_title("input")

    distance = np.arange(border)
    for column, (label, result) in enumerate(corrected.items()):
        result = np.asarray(result, dtype=float)
        ax = fig.add_subplot(grid[1, column])
        _show(ax, result, isophotes)
        ax.set_title(f"corrected: {label}")

        ax = fig.add_subplot(grid[2, column])
        row = result[middle]
        ax.plot(distance, row[:border], label="left border")
        ax.plot(distance, row[::-1][:border], label="right border")
        ax.set_xlabel("pixels from the border")
        ax.set_ylabel(f"intensity, row {middle}")
        peak = max(np.ptp(row[:border]), np.ptp(row[-border:]))
        ax.set_title(f"{label}: border change {peak:.2f}")
        ax.legend(loc="best", fontsize="small")
    return fig


def _show(ax, image, isophotes):
    ax.imshow(image, cmap="gray")
    ax.contour(image, levels=isophotes, colors="tab:orange", linewidths=0.6)
    ax.set_xticks([])
    ax.set_yticks([])
