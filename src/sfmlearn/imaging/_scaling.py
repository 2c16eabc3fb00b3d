"""Exact scaling that keeps the pyramid's arithmetic finite for values near the float64 limit.

The pyramid's filters, extrapolations and means are linear in the values, so they can
run on the values divided by a power of two and be multiplied back: a power of two
changes only the exponent, so for every value of normal size the result is the same to
the last bit. Divided by the power of two at or below their largest magnitude, the
values lie within +-2, and no sum overflows however large the input is.
"""

import numpy as np

from ..exceptions import DataValidationError


def power_of_two_scale(values):
    """The power of two at or below the largest magnitude of the finite ``values``; 1 for magnitudes below 2."""
    largest = float(np.max(np.abs(values), initial=0.0))
    return float(np.ldexp(1.0, max(0, int(np.frexp(largest)[1]) - 1)))


def unscaled(values, scale):
    """``values * scale``; results beyond the float64 range are refused, not made infinite.

    ``values`` are finite (NaN marks samples outside a mask), so an infinity is an overflow.
    """
    with np.errstate(over="ignore"):
        result = values * scale
    if np.isinf(result).any():
        raise DataValidationError(
            f"the result holds values beyond the range of float64 (+-{np.finfo(np.float64).max:.3g}): the "
            "image's values are too close to that limit; rescale the image first (e.g. divide it by its "
            "largest value).")
    return result
