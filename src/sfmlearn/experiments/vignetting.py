"""Thesis 5.2, Figure 5.2: illumination correction of a cos^4 vignetting image.

The input is natural vignetting by the cosine-fourth law, I(alpha) = I0 cos^4(alpha),
on a full-frame sensor (36 x 24 mm) behind a 10 mm lens, I0 = 200, 1280 x 1024 pixels.
The thesis corrects it with a 5-level Gaussian pyramid (f' = f - G'_0 + mean f) and
reads the corrected middle row 128 pixels in from both sides: the remaining border
artefact is 4.35 with the replicate boundary, 0.36 with linear and 0.08 with quadratic
extrapolation (Figure 5.2 caption).

Our error measure is that one: the intensity change (max - min) of the corrected middle
row over the 128 pixels next to the left and next to the right border; ``error`` is the
larger of the two sides. Geometry (the thesis does not give it): the pixel centres
sample the sensor uniformly, x_j = (j + 1/2) 36 mm / 1280 - 18 mm and likewise
y_i over 24 mm, so a pixel is 28.1 x 23.4 um (1280 x 1024 is 5:4, the sensor 3:2); the
lens is rectilinear, tan(alpha) = r / f. With 1024 rows there is no single middle row:
we use row 512 (row 511 is its mirror image and gives the same numbers).

Run ``sfmlearn reproduce thesis-fig5.2 [--out DIR] [--set levels=5] [--set sensor=36,24]``
(the figure is DIR/thesis-fig5.2.png).
"""


from typing import Annotated

import numpy as np
import pandas as pd

from ..imaging import correct_illumination
from .settings import Between

__all__ = ["PUBLISHED", "border_error", "corrected_images", "run", "vignetting_image"]

#: Peak border error after correction, thesis Figure 5.2 (5 levels).
PUBLISHED = {"replicate": 4.35, "linear": 0.36, "quadratic": 0.08}
BORDER = 128  # pixels from each side that the thesis' profile plot shows


def vignetting_image(width=1280, height=1024, sensor=(36.0, 24.0), focal_length=10.0,
                     peak=200.0):
    """I0 cos^4(alpha) with tan(alpha) = r / f on a sensor of ``sensor`` mm (width, height).

    Returns a (height, width) float64 array; pixel centres sample the sensor uniformly.
    """
    x = ((np.arange(width) + 0.5) / width - 0.5) * sensor[0]
    y = ((np.arange(height) + 0.5) / height - 0.5) * sensor[1]
    r2 = x[None, :] ** 2 + y[:, None] ** 2
    cos2 = focal_length**2 / (focal_length**2 + r2)  # cos^2(alpha)
    return peak * cos2**2


def border_error(corrected, border=BORDER):
    """Intensity change (max - min) of the middle row within ``border`` pixels of each side.

    Returns ``(left, right)``.
    """
    row = np.asarray(corrected)[corrected.shape[0] // 2]
    return float(np.ptp(row[:border])), float(np.ptp(row[-border:]))


def corrected_images(image, boundaries, levels=5):
    """``{boundary: correct_illumination(image, levels, boundary)}``."""
    return {b: correct_illumination(image, levels, b) for b in boundaries}


def run(quick=False, levels: Annotated[int, Between(1)] = 5, border=BORDER,
        sensor: tuple[Annotated[float, Between(0, open=True)], ...] = (36.0, 24.0)):
    """Our peak border error next to the published one, one row per boundary mode.

    ``quick`` runs only the three published modes; the full run adds "circular", which
    the thesis does not report. ``sensor`` (width, height in mm) lets one check how the
    numbers depend on the unpublished pixel geometry.
    """
    boundaries = list(PUBLISHED) if quick else ["replicate", "circular", "linear", "quadratic"]
    image = vignetting_image(sensor=tuple(sensor))
    rows = []
    for boundary, corrected in corrected_images(image, boundaries, levels).items():
        left, right = border_error(corrected, border)
        rows.append({
            "boundary": boundary,
            "levels": levels,
            "error": max(left, right),
            "error_left": left,
            "error_right": right,
            "published": PUBLISHED.get(boundary, np.nan),
        })
    return pd.DataFrame(rows)


def figure(levels=5, border=BORDER):
    """Figure 5.2 of the thesis for our implementation (see ``figures.imaging``)."""
    from .figures.imaging import illumination_correction_figure

    image = vignetting_image()
    return illumination_correction_figure(
        image, corrected_images(image, list(PUBLISHED), levels), border=border
    )
