"""Image and volume processing: the Gaussian pyramid with boundary extrapolation (thesis 5).

``reduce``/``expand`` are the pyramid steps, ``lowpass`` the expanded low-pass image and
``correct_illumination`` removes smooth illumination gradients (f' = f - G'_0 + mean f)
from 2-D grey, colour and 3-D images, optionally inside an arbitrary mask. See
:mod:`sfmlearn.imaging.pyramid` for the boundary modes.
"""

from .pyramid import (
    BOUNDARY_MODES,
    correct_illumination,
    expand,
    extend,
    lowpass,
    reduce,
    reduce_mask,
)

__all__ = ["BOUNDARY_MODES", "correct_illumination", "expand", "extend", "lowpass", "reduce",
           "reduce_mask"]
