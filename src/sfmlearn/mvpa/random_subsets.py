"""SVMs on randomly chosen voxel subsets (NC 4.3 Fig. 3, thesis Figs. 6.2 and 6.6).

A baseline of how much information is spread over the voxels: for subset sizes
k = 1, 2, 4, ..., (up to all voxels) draw k voxels at random, train a linear SVM in a
leave-one-participant-out scheme on them and record the cross-validated error; repeat
(NC: 1000 times per size). "The test error was below chance for the large majority of
repetitions even if only a single dimension was selected at random" (NC 4.3).

The papers use a hard-margin SVM. A hard margin does not exist when a subset does not
separate the training data (a single voxel rarely does), so the SVM here is
the hinge-loss SVM (scikit-learn's SVC) with a large softness C (default 10) on the linear
kernel of the standardised voxels divided by the mean squared training norm. On a subset
that separates the training maps it equals the hard-margin SVM as soon as C exceeds the
largest dual variable of the hard problem; on one that does not, it is the usual soft
compromise. Pass a larger C to get closer to the hard margin. Voxels are
standardised with the training fold's statistics. Every (size, repetition) draws its
voxels from its own seed, so the result does not depend on ``n_jobs``.
"""

import numpy as np
import pandas as pd
import sklearn
from joblib import delayed, effective_n_jobs
from sklearn.svm import SVC

from ..exceptions import DataValidationError
from ..utils import spawn_seeds
from ..utils.parallel import Parallel
from .._validation import check_count
from ._checks import check_estimator_options, check_grouped_problem, leave_one_group_out
from ._docs import mvpa_doc
from ._progress import counted

__all__ = ["random_subset_svm", "subset_sizes"]


def subset_sizes(n_features):
    """1, 2, 4, ..., the largest power of two below ``n_features``, and ``n_features``.

    Parameters
    ----------
    n_features : int
        Number of voxels.

    Returns
    -------
    ndarray of int
        The sizes.

    Examples
    --------
    >>> from sfmlearn.mvpa import subset_sizes
    >>> subset_sizes(10)
    array([ 1,  2,  4,  8, 10])
    """
    powers = 2 ** np.arange(int(np.floor(np.log2(max(n_features, 1)))) + 1)
    return np.unique(np.r_[powers[powers < n_features], n_features]).astype(int)


def _check_sizes(sizes, n_features):
    """The distinct subset sizes, sorted; a DataValidationError unless they are whole numbers in 1..n_features."""
    values = np.asarray(sizes)
    whole = values.dtype.kind in "iu" or (values.dtype.kind == "f" and np.all(values == np.round(values)))
    if values.ndim != 1 or values.size == 0 or not whole or values.min() < 1 or values.max() > n_features:
        raise DataValidationError(
            f"subset sizes must be whole numbers of voxels in 1..{n_features}; got {values.tolist()}.")
    return np.unique(values.astype(int))


def _standardised_folds(X, folds):
    out = []
    for _, train, test in folds:
        mean = X[train].mean(axis=0)
        sd = X[train].std(axis=0)
        sd[sd == 0] = 1.0
        rows = np.r_[train, test]
        out.append(((X[rows] - mean) / sd, train.size))
    return out


def _cv_error(Z_folds, y_folds, columns, C):
    """Leave-one-group-out error (all held-out maps pooled) of the SVM on ``columns``."""
    wrong = total = 0
    with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
        for (Z, n_train), y in zip(Z_folds, y_folds):
            Zs = Z[:, columns]
            K = Zs @ Zs.T
            scale = K.diagonal()[:n_train].mean()
            K = K / scale if scale > 0 else K
            model = SVC(kernel="precomputed", C=C).fit(K[:n_train, :n_train], y[:n_train])
            predicted = model.predict(K[n_train:, :n_train])
            wrong += int(np.sum(predicted != y[n_train:]))
            total += y.size - n_train
    return wrong / total


def _chunk(Z_folds, y_folds, tasks, n_features, C):
    return [(k, r, _cv_error(Z_folds, y_folds,
                             np.random.default_rng(seed).choice(n_features, k, replace=False), C))
            for k, r, seed in tasks]


@mvpa_doc
def random_subset_svm(X, y, groups, *, sizes=None, n_repeats=100, C=10.0,
                      random_state=None, n_jobs=None, progress=None):
    """Leave-one-group-out error of SVMs on random voxel subsets (NC Fig. 3).

    Parameters
    ----------
    X, y, groups
        Maps, two classes, participant per map.
    sizes : sequence of int, optional
        Subset sizes; default 1, 2, 4, ..., and all voxels (:func:`subset_sizes`).
    n_repeats : int, default=100
        Random subsets per size (NC: 1000). Only one for the size of all voxels.
    C : float, default=10
        SVM softness on the normalised kernel (> 0; large: nearly hard margin).
    random_state, n_jobs
        Seeds and parallel jobs (joblib).
    progress : callable(done, total), optional
        Called after every finished chunk of subsets.

    Returns
    -------
    DataFrame with columns size, repeat, error (pooled over the held-out maps).

    Examples
    --------
    %(toy_maps)s
    >>> from sfmlearn.mvpa import random_subset_svm
    >>> table = random_subset_svm(X, y, groups, sizes=[1, 50], n_repeats=3, random_state=0)
    >>> table.round(3)
       size  repeat  error
    0     1       0  0.792
    1     1       1  0.500
    2     1       2  0.542
    3    50       0  0.250
    """
    n_repeats = check_count("n_repeats", n_repeats, 1)
    check_estimator_options("random_subset_svm", SVC, C=C)
    X, labels, _, groups = check_grouped_problem(X, y, groups)
    n_features = X.shape[1]
    sizes = subset_sizes(n_features) if sizes is None else _check_sizes(sizes, n_features)
    folds = leave_one_group_out(labels, groups)
    Z_folds = _standardised_folds(X, folds)
    y_folds = [labels[np.r_[train, test]] for _, train, test in folds]
    plan = [(int(k), r) for k in sizes for r in range(1 if k == n_features else n_repeats)]
    seeds = spawn_seeds(random_state, len(plan))
    tasks = [(k, r, s) for (k, r), s in zip(plan, seeds)]
    # a few chunks per worker: little dispatch overhead, still a moving progress bar
    chunks = np.array_split(np.arange(len(tasks)), min(len(tasks), 16 * effective_n_jobs(n_jobs)))
    jobs = Parallel(n_jobs=n_jobs, return_as="generator", what="chunks of random-subset SVMs")(
        delayed(_chunk)(Z_folds, y_folds, [tasks[i] for i in chunk], n_features, C)
        for chunk in chunks)
    outcomes = counted(jobs, progress, len(chunks), what="chunks of random-subset SVMs")
    rows = [row for outcome in outcomes for row in outcome]
    return pd.DataFrame(rows, columns=["size", "repeat", "error"])
