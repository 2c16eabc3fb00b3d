"""Input checks shared by the MVPA functions: a two-class problem with one group per sample,
and the options, all checked before any fit.

fMRI maps are dense by nature (every voxel has a value), so a sparse X saves nothing:
every MVPA function converts it to a dense array first (:func:`dense_maps`), and all of
them then run on the same kind of data.
"""


import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import InvalidParameterError, validate_parameter_constraints

from .._validation import check_binary_problem
from ..exceptions import DataValidationError
from ..model_selection import check_groups
from ..selection import RepetitiveSFM
from ..selection.repetitive.informative import check_cs

__all__ = ["check_both_classes_per_group", "check_estimator_options", "check_grouped_problem",
           "check_repetitive_options", "dense_maps", "leave_one_group_out", "plain"]


def plain(value):
    """A NumPy scalar as the Python value (np.int64(1) -> 1), for tables, JSON and messages."""
    return value.item() if isinstance(value, np.generic) else value


def dense_maps(X):
    """``X`` as a dense array: maps are dense by nature, so a sparse matrix is converted."""
    return X.toarray() if sp.issparse(X) else X


def check_grouped_problem(X, y, groups, *, min_groups=2):
    """Validate X (n, d), two-class y and ``groups``; return (X, labels, classes, groups).

    ``labels`` are the given labels (``classes`` sorted, ``classes[1]`` positive); X is
    dense (:func:`dense_maps`).
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
    return dense_maps(X), labels, classes, groups


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
                f"leaving out group {plain(group)!r} leaves one class only in the training set; "
                "every class must occur in at least two groups.")
        folds.append((group, train, test))
    return folds


def check_estimator_options(caller, estimator_class, **options):
    """Check options that ``caller`` passes on to ``estimator_class`` against the constraints
    that class declares for them (scikit-learn's ``_parameter_constraints``), before any
    work: the same values are allowed, and the message names ``caller``."""
    constraints = {name: estimator_class._parameter_constraints[name] for name in options}
    validate_parameter_constraints(constraints, options, caller_name=caller)


def check_repetitive_options(caller, *, estimator, max_repetitions, informative_every, svm_Cs=None,
                             aggregate="mean"):
    """The repetitive SFM's options as :class:`~sfmlearn.RepetitiveSFM` checks them, and none
    that would be ignored: ``svm_Cs`` and ``aggregate`` serve the informative-fraction
    estimate, which runs only with ``informative_every``."""
    check_estimator_options(caller, RepetitiveSFM, estimator=estimator, max_repetitions=max_repetitions,
                            informative_every=informative_every, svm_Cs=svm_Cs, aggregate=aggregate)
    if informative_every is None:
        ignored = [name for name, given in (("svm_Cs", svm_Cs is not None), ("aggregate", aggregate != "mean"))
                   if given]
        if ignored:
            names = " and ".join(ignored)
            raise InvalidParameterError(
                f"{caller}: {names} {'apply' if len(ignored) > 1 else 'applies'} only to the informative-fraction "
                f"estimate, which runs with informative_every; pass informative_every=k (NC: 10), or drop {names}.")
    else:
        check_cs(svm_Cs)
