"""Argument checks shared by the diagnostics: non-negative numbers, the SVM model (counts are
checked by :func:`sfmlearn._validation.check_count`, shared with :mod:`sfmlearn.mvpa`).

Every diagnostic checks its arguments with these before any work, so a bad argument
fails the same way everywhere, with a DataValidationError naming the argument, what it
must be and what was given. Counts refuse True and False (which Python counts as 1 and 0).
"""

import numbers

import numpy as np

from ..exceptions import DataValidationError
from ._svm_loo import LOSSES

__all__ = ["check_nonneg", "check_svm"]


def _shown(value):
    """``value`` as a message shows it: NumPy scalars as the plain number (1, not np.int64(1))."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def check_nonneg(name, value, positive=False):
    """``value`` as a float, or a DataValidationError unless it is finite and >= 0 (> 0 if ``positive``)."""
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)) or not np.isfinite(value) \
            or value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise DataValidationError(f"{name} must be a finite {kind} number; got {_shown(value)}.")
    return float(value)


def check_svm(C, loss):
    """The softness C as a float (None: hard margin), after checking it and the loss."""
    if loss not in LOSSES:
        raise DataValidationError(f"loss must be one of {LOSSES}; got {loss!r}.")
    return None if C is None else check_nonneg("C", C, positive=True)
