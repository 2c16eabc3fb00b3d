"""Input checks shared by the MVPA functions: a two-class problem with one group per sample."""

import numpy as np
from sklearn.base import BaseEstimator

from .._validation import check_binary_problem
from ..exceptions import DataValidationError
from ..model_selection import check_groups

__all__ = ["check_grouped_problem", "leave_one_group_out"]


def check_grouped_problem(X, y, groups, *, min_groups=2):
    """Validate X (n, d), two-class y and ``groups``; return (X, labels, classes, groups).

    ``labels`` are the given labels (``classes`` sorted, ``classes[1]`` positive).
    """
    X, y_signed, classes = check_binary_problem(BaseEstimator(), X, y)
    labels = classes[(y_signed > 0).astype(int)]
    if groups is None:
        raise DataValidationError(
            "groups (one participant or run id per sample) are required: folds leave one "
            "group out.")
    groups = check_groups(groups, labels.size)
    n_groups = np.unique(groups).size
    if n_groups < min_groups:
        raise DataValidationError(
            f"found {n_groups} group(s); leaving one out needs at least {min_groups}.")
    return X, labels, classes, groups


def check_both_classes_per_group(labels, classes, groups):
    """Every group (participant) has maps of both ``classes``: the paired t-test needs
    them. Checked before any fit, so that a run fails at once, not after the decoding."""
    for group in np.unique(groups):
        own = labels[groups == group]
        for c in classes:
            if not np.any(own == c):
                raise DataValidationError(
                    f"participant '{group}' has no map of class '{c}'; the paired t-test needs both classes "
                    "for every participant: give the participants as groups (not runs or sessions that hold "
                    "one class each), or leave that participant out.")


def leave_one_group_out(labels, groups):
    """(held-out group, train indices, test indices) per group, groups in sorted order.

    Raises if a training set would lack a class (the group holds all of that class).
    """
    folds = []
    for group in np.unique(groups):
        test = np.flatnonzero(groups == group)
        train = np.flatnonzero(groups != group)
        if np.unique(labels[train]).size < 2:
            raise DataValidationError(
                f"leaving out group {group!r} leaves one class only in the training set; "
                "every class must occur in at least two groups.")
        folds.append((group, train, test))
    return folds
