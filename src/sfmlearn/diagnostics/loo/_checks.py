"""Argument checks shared by the leave-one-out simulations, limits and regime."""

import numbers

import numpy as np

from ...exceptions import DataValidationError
from .._svm_loo import LOSSES


def check_int(name, value, minimum):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise DataValidationError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def check_nonneg(name, value, positive=False):
    if not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise DataValidationError(f"{name} must be a finite {kind} number; got {value!r}.")
    return float(value)


def check_svm(C, loss):
    if loss not in LOSSES:
        raise DataValidationError(f"loss must be one of {LOSSES}; got {loss!r}.")
    return None if C is None else check_nonneg("C", C, positive=True)
