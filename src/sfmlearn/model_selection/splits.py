"""The cross-validation schemes of the papers, with folds that keep every class (thesis 2.4, NC 4.4).

:func:`make_cv` turns ``cv`` (None, int, "loo", "logo" or a splitter) and ``groups`` into
a scikit-learn splitter, shrinking k-fold schemes to what the class sizes (or groups)
allow; :func:`make_folds` splits with it and refuses a training fold that lost a class
(:func:`check_folds_keep_classes`); :func:`check_groups` validates group ids. One place,
so every command and estimator splits the same way.
"""

import inspect
import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import LeaveOneGroupOut, LeaveOneOut, StratifiedGroupKFold, StratifiedKFold
from sklearn.utils import check_random_state

from .._validation import check_labels
from ..exceptions import DataValidationError
from ._docs import model_selection_doc

__all__ = ["DEFAULT_FOLDS", "check_folds_keep_classes", "check_groups", "describe_folds", "fit_with_groups",
           "is_shuffled_kfold", "make_cv", "make_folds", "make_repeated_folds", "split_indices"]

#: Folds of the stratified scheme used when ``cv`` is None and there are no groups.
DEFAULT_FOLDS = 5


def check_groups(groups, n_samples):
    """Group ids (participants, runs, molecules): one per sample, as a 1-D array.

    None stays None. Missing ids, complex numbers and a length other than
    ``n_samples`` raise a DataValidationError naming the problem.

    Parameters
    ----------
    groups : array-like of shape (n_samples,) or None
        The group ids.
    n_samples : int
        The number of samples they must match.

    Returns
    -------
    ndarray of shape (n_samples,) or None
        The ids as a 1-D array.

    Examples
    --------
    >>> from sfmlearn.model_selection import check_groups
    >>> check_groups(["a", "a", "b", "b"], 4)
    array(['a', 'a', 'b', 'b'], dtype='<U1')
    """
    if groups is None:
        return None
    groups = check_labels(groups, name="groups")
    if groups.shape != (n_samples,):
        raise DataValidationError(
            f"groups must hold one id per sample ({n_samples}); got shape {groups.shape}.")
    return groups


def describe_folds(n_folds, n_repeats=1, grouped=False):
    """A fold scheme in words, as reports print it.

    Parameters
    ----------
    n_folds : int
        Folds of one split (the groups, when ``grouped``).
    n_repeats : int, default=1
        Repeats of a shuffled k-fold split.
    grouped : bool, default=False
        The folds left one group out.

    Returns
    -------
    str

    Examples
    --------
    >>> from sfmlearn.model_selection import describe_folds
    >>> describe_folds(5, 3), describe_folds(4, grouped=True)
    ('5-fold CV x 3 repeats', 'leave-one-group-out CV (4 groups)')
    """
    if grouped:
        return f"leave-one-group-out CV ({n_folds} groups)"
    return f"{n_folds}-fold CV" + (f" x {n_repeats} repeats" if n_repeats > 1 else "")


def fit_with_groups(estimator, X, y, groups):
    """``estimator.fit(X, y)``, with ``groups=groups`` where ``fit`` names a ``groups`` parameter.

    sfmlearn's cross-validated estimators take them, and their inner folds then keep
    every group together, as the outer folds around them do. A ``fit`` that takes them
    only through ``**params`` (a Pipeline, ``GridSearchCV``) is not given them: route
    them yourself.

    Parameters
    ----------
    estimator : estimator
        Fitted in place.
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Training data.
    y : array-like of shape (n_samples,)
        Labels.
    groups : array-like of shape (n_samples,) or None
        Group ids of the training samples.

    Returns
    -------
    estimator
        The fitted ``estimator``.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachineCV
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.model_selection import fit_with_groups
    >>> X, y = make_weston(n_samples=40, n_noise=10, random_state=0)
    >>> model = fit_with_groups(SupportFeatureMachineCV(Cs=3), X, y, np.arange(40) % 4)
    >>> model.n_splits_   # leave one of the 4 groups out
    4
    """
    if groups is not None and "groups" in inspect.signature(estimator.fit).parameters:
        return estimator.fit(X, y, groups=groups)
    return estimator.fit(X, y)


def _fold_limit(y, groups):
    """Most folds the data allow: the smallest class count, or the number of groups.

    Fewer than two raises: no k-fold scheme can then keep every class in every
    training fold.
    """
    if groups is not None:
        n_groups = np.unique(groups).size
        if n_groups < 2:
            raise DataValidationError(
                f"there is {n_groups} group; grouped cross-validation needs at least 2 groups "
                "(all samples are in one group).")
        return n_groups
    counts = np.unique(y, return_counts=True)[1]
    smallest = int(counts.min())
    if smallest < 2:
        raise DataValidationError(
            f"the smallest class has {smallest} sample; stratified cross-validation needs at "
            "least 2 per class, so that every training fold holds every class.")
    return smallest


def make_cv(cv=None, *, y=None, groups=None, random_state=None):
    """The cross-validation scheme for ``cv`` (None, int, "loo", "logo" or a splitter).

    None: leave one group out when ``groups`` are given (participants, NC 4.4), else
    stratified 5-fold. An int k: stratified k-fold, group-aware (``StratifiedGroupKFold``)
    when ``groups`` are given. Shuffled folds use ``random_state``. Splitter objects
    (anything with ``split``) and iterables of (train, test) pass through unchanged.

    With the labels ``y``, k-fold schemes (None without groups, or an int) shrink to what
    the data allow: k becomes at most the smallest class count (without groups) or the
    number of groups, so that a class can appear in every training and test fold; a
    limit below 2 raises a DataValidationError that says so (e.g. "the smallest class
    has 1 sample"). The number of folds used is ``make_cv(...).get_n_splits()``.

    Parameters
    ----------
    cv : None, int, "loo", "logo", splitter or iterable, default=None
        The scheme (above).
    y : array-like of shape (n_samples,), optional
        Labels: k-fold schemes shrink to the smallest class (or the number of groups).
    groups : array-like of shape (n_samples,), optional
        Group ids (participants, runs).
    random_state : int, RandomState or None
        Seeds shuffled folds.

    Returns
    -------
    splitter
        A scikit-learn cross-validator.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.model_selection import make_cv
    >>> y = np.array([0] * 6 + [1] * 4)
    >>> make_cv(None, y=y, random_state=0).get_n_splits()   # 5 folds shrink to the 4 of class 1
    4
    >>> make_cv(None, groups=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
    LeaveOneGroupOut()
    """
    if groups is not None:
        groups = check_groups(groups, len(groups) if y is None else len(y))
    if cv is None:
        if groups is not None:
            _fold_limit(y, groups)  # at least two groups
            return LeaveOneGroupOut()
        cv = DEFAULT_FOLDS
    elif isinstance(cv, str):
        if cv == "loo":
            return LeaveOneOut()
        if cv == "logo":
            if groups is None:
                raise DataValidationError("cv='logo' (leave one group out) needs groups.")
            _fold_limit(y, groups)
            return LeaveOneGroupOut()
        raise DataValidationError(f"cv must be None, an int, 'loo', 'logo' or a splitter; got {cv!r}.")
    elif not (isinstance(cv, numbers.Integral) and not isinstance(cv, bool)):
        if hasattr(cv, "split") or hasattr(cv, "__iter__"):
            return cv
        raise DataValidationError(f"cv must be None, an int, 'loo', 'logo' or a splitter; got {cv!r}.")
    if cv < 2:
        raise DataValidationError(f"cv={cv}: k-fold cross-validation needs k >= 2.")
    k = int(cv) if y is None else min(int(cv), _fold_limit(np.asarray(y), groups))
    kind = StratifiedGroupKFold if groups is not None else StratifiedKFold
    return kind(k, shuffle=True, random_state=random_state)


@model_selection_doc
def split_indices(cv, X, y, groups=None):
    """List of (train, test) index arrays of ``cv`` (a splitter or an iterable of pairs).

    Parameters
    ----------
    cv : splitter or iterable of (train, test)
        The scheme.
    X : array-like of shape (n_samples, n_features)
        The samples.
    y : array-like of shape (n_samples,)
        The labels.
    groups : array-like of shape (n_samples,), optional
        Group ids, passed to the splitter.

    %(index_pairs)s

    Examples
    --------
    %(six_and_four)s
    >>> from sklearn.model_selection import StratifiedKFold
    >>> from sfmlearn.model_selection import split_indices
    >>> [(train.size, test.size) for train, test in split_indices(StratifiedKFold(2), X, y)]
    [(5, 5), (5, 5)]
    """
    y = np.asarray(y)
    if y.dtype.kind == "O":  # scikit-learn's stratified splitters cannot type object labels (0/1 as objects)
        y = np.unique(y, return_inverse=True)[1].reshape(y.shape)
    pairs = cv.split(X, y, groups) if hasattr(cv, "split") else cv
    try:
        return [(np.asarray(train), np.asarray(test)) for train, test in pairs]
    except ValueError as exc:  # scikit-learn's group splitters without groups
        if groups is None and "groups" in str(exc):
            raise DataValidationError(f"{type(cv).__name__} splits by groups; pass groups (one id per sample).") from None
        raise


def check_folds_keep_classes(folds, labels, *, what="cross-validation"):
    """Every training part of ``folds`` must hold every class (else the fit cannot run).

    The error names the fold, the class it lost, the class counts and the fixes,
    instead of the "only one class" error of the fit inside the fold.

    Parameters
    ----------
    folds : sequence of (train, test) index arrays
        The folds.
    labels : ndarray of shape (n_samples,)
        The labels.
    what : str, default="cross-validation"
        Names the scheme in the message.

    Raises
    ------
    DataValidationError
        When a training part lacks a class.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.model_selection import check_folds_keep_classes
    >>> try:
    ...     check_folds_keep_classes([(np.array([0, 1, 2]), np.array([3]))], np.array([0, 0, 0, 1]))
    ... except ValueError as error:
    ...     print(str(error)[:66])
    The training part of cross-validation fold 1 of 1 has no sample of
    """
    classes, counts = np.unique(labels, return_counts=True)
    for f, (train, _) in enumerate(folds):
        present = np.unique(labels[train])
        if present.size < classes.size:
            lost = [c for c in classes.tolist() if c not in present.tolist()][0]
            raise DataValidationError(
                f"The training part of {what} fold {f + 1} of {len(folds)} has no sample of "
                f"class {lost!r} (class counts in the data: "
                f"{dict(zip(classes.tolist(), counts.tolist()))}), so nothing can be fitted "
                f"on it. {_keep_class_fix(lost, counts[classes.tolist().index(lost)])}")


def _keep_class_fix(lost, count):
    """What makes a scheme keep class ``lost`` (``count`` samples) in every training fold."""
    if count < 2:
        return (f"Class {lost!r} has a single sample, so every fold that tests it trains without "
                "it, whatever the scheme: add samples of that class or drop it.")
    return ("Use k-fold cross-validation (it keeps every class in every training fold), or "
            "groups that each hold samples of every class.")


@model_selection_doc
def make_folds(cv, X, y, groups=None, *, random_state=None, what="cross-validation", labels=None):
    """(train, test) index pairs of :func:`make_cv`, checked to keep every class in training.

    k-fold schemes shrink to the class sizes or groups, as in :func:`make_cv`.

    Parameters
    ----------
    %(fold_parameters)s
    random_state : int, RandomState or None
        Seeds shuffled folds.
    what : str, default="cross-validation"
        Names the scheme in errors.
    labels : array-like of shape (n_samples,), optional
        The labels as the user knows them, one-to-one with ``y`` (which may be an
        encoding, e.g. -1/+1): an error about a lost class names the class by them.

    %(index_pairs)s

    Examples
    --------
    %(six_and_four)s
    >>> from sfmlearn.model_selection import make_folds
    >>> folds = make_folds(3, X, y, random_state=0)
    >>> len(folds), folds[0][1]
    (3, array([2, 4, 7, 9]))
    """
    y = np.asarray(y)
    groups = check_groups(groups, _n_samples(X))
    try:
        splitter = make_cv(cv, y=y, groups=groups, random_state=random_state)
    except DataValidationError as exc:
        raise DataValidationError(f"{what} folds: {exc}") from None
    folds = split_indices(splitter, X, y, groups)
    check_folds_keep_classes(folds, y if labels is None else np.asarray(labels), what=what)
    return folds


def is_shuffled_kfold(cv, groups=None):
    """Whether :func:`make_cv` gives a shuffled k-fold scheme for ``cv`` and ``groups``.

    Parameters
    ----------
    cv : None, int, "loo", "logo", splitter or iterable
        As in :func:`make_cv`.
    groups : array-like or None
        Group ids.

    Returns
    -------
    bool
        True for an int, or None without groups: another ``random_state`` gives other folds.

    Examples
    --------
    >>> from sfmlearn.model_selection import is_shuffled_kfold
    >>> is_shuffled_kfold(5), is_shuffled_kfold(None, groups=[1, 1, 2, 2]), is_shuffled_kfold("loo")
    (True, False, False)
    """
    if cv is None:
        return groups is None
    return isinstance(cv, numbers.Integral) and not isinstance(cv, bool)


@model_selection_doc
def make_repeated_folds(cv, X, y, groups=None, *, n_repeats=1, random_state=None,
                        what="cross-validation", labels=None):
    """:func:`make_folds` repeated ``n_repeats`` times with different shuffles.

    Only shuffled k-fold schemes (:func:`is_shuffled_kfold`) are repeated; a fixed
    scheme (leave one out, leave one group out, a splitter or a list of folds) would
    give the same folds again and is split once. The first repeat uses ``random_state``
    itself, so ``n_repeats=1`` gives exactly :func:`make_folds`' folds; the others use
    seeds drawn from it.

    Parameters
    ----------
    %(fold_parameters)s
    n_repeats : int, default=1
        Repeats of a shuffled k-fold scheme.
    random_state : int, RandomState or None
        Seeds the first repeat and the seeds of the others.
    what : str, default="cross-validation"
        Names the scheme in errors.
    labels : array-like of shape (n_samples,), optional
        The labels as the user knows them (:func:`make_folds`).

    Returns
    -------
    list of (train, test) index arrays
        ``n_repeats`` x k folds (or the fixed scheme's folds), repeat by repeat.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.model_selection import make_repeated_folds
    >>> X, y = np.zeros((12, 1)), np.array([0, 1] * 6)
    >>> len(make_repeated_folds(3, X, y, n_repeats=2, random_state=0))
    6
    >>> len(make_repeated_folds("loo", X, y, n_repeats=2))
    12
    """
    if not (isinstance(n_repeats, numbers.Integral) and not isinstance(n_repeats, bool) and n_repeats >= 1):
        raise DataValidationError(
            f"n_repeats must be a positive integer (1: split once); got {n_repeats!r}.")
    folds = make_folds(cv, X, y, groups, random_state=random_state, what=what, labels=labels)
    if n_repeats == 1 or not is_shuffled_kfold(cv, groups):
        return folds
    seeds = check_random_state(random_state).randint(np.iinfo(np.int32).max, size=n_repeats - 1)
    for seed in seeds:
        folds += make_folds(cv, X, y, groups, random_state=int(seed), what=what, labels=labels)
    return folds


def _as_indexable(X):
    """Row-indexable data: arrays, CSR and CSC matrices unchanged; DataFrames and lists as
    arrays, the other sparse formats (COO, ...) as CSR."""
    if sp.issparse(X):
        return X if X.format in ("csr", "csc") else X.tocsr()
    return X.to_numpy() if hasattr(X, "to_numpy") else np.asarray(X)


def _n_samples(X):
    """Rows of X: the first entry of its shape (arrays, sparse matrices, DataFrames), else its length."""
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape else len(X)
