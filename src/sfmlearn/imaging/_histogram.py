"""Histogram matching of :func:`sfmlearn.imaging.pyramid.correct_illumination` (thesis 5.2).

The corrected samples are mapped monotonically, per channel, so that their histogram
matches that of the input's central part -- the middle half of every spatial axis -- as
in the thesis' texture experiment: it undoes the histogram change the correction may
cause, e.g. with saturated pixels.
"""

import numpy as np

from ..exceptions import DataValidationError


def match_central_histogram(corrected, values, mask):
    """``corrected`` (in-mask samples x channels) mapped onto the histogram of the centre of ``values``.

    ``values`` is the input with its channels on the last axis, ``mask`` its mask or None.
    """
    centre = _central_part(values.shape[:-1])
    reference = values[centre] if mask is None else values[centre][mask[centre]]
    if reference.size == 0:
        raise DataValidationError(
            "match_histogram: the mask has no samples in the central part of the image "
            "(the middle half of every axis) to take the reference histogram from: use a mask that "
            "covers the image centre, or match_histogram=False."
        )
    return np.column_stack([
        _match_histogram(corrected[:, c], reference[..., c].ravel())
        for c in range(values.shape[-1])
    ])


def _match_histogram(values, reference):
    """Map ``values`` monotonically so that their histogram matches ``reference``'s."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    ref_values, ref_counts = np.unique(reference, return_counts=True)
    quantiles = np.cumsum(counts) / values.size
    ref_quantiles = np.cumsum(ref_counts) / reference.size
    return np.interp(quantiles, ref_quantiles, ref_values)[inverse.ravel()]


def _central_part(shape):
    return tuple(slice(n // 4, n // 4 + max(1, n // 2)) for n in shape)
