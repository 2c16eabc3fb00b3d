"""Leave-one-participant-out repetitive SFM: fold rankings, SFM test errors, the estimate.

NC 4.4 / thesis 6.3: in every leave-one-participant-out fold the repetitive SFM runs on
the training participants to the end (the classes are no longer separable within the
remaining voxels). Each fold gives

* a ranking of all voxels (subsets sorted by size; :class:`~sfmlearn.RepetitiveSFM`);
* the test error of every repetition's SFM on the held-out participant (NC Fig. 4c);
* with ``informative_every=k``, the test error of a soft SVM on the remaining voxels
  after every k-th repetition, and from all folds the estimated fraction of
  informative voxels (:func:`~sfmlearn.estimate_informative_fraction`, which then runs
  the folds' rSFMs itself -- nothing is computed twice).
"""

import sys
from dataclasses import dataclass

import numpy as np
from joblib import delayed
from sklearn.base import clone

from ..outputs import to_jsonable
from ..selection import SupportFeatureMachine
from ..selection.repetitive import estimate_informative_fraction, run_repetitions
from ..utils.parallel import Parallel
from ._checks import check_grouped_problem, check_repetitive_options, leave_one_group_out, plain
from ._docs import mvpa_doc

__all__ = ["RepetitiveDecoding", "repetitive_decoding"]


@mvpa_doc
@dataclass
class RepetitiveDecoding:
    """Outcome of :func:`repetitive_decoding`.

    ``groups``: held-out group per fold; ``paths``: each fold's
    :class:`~sfmlearn.selection.repetitive.RepetitionPath`; ``rankings`` (n_folds,
    n_voxels); ``sfm_errors[f][t]``: test error of fold f's repetition t (in the order
    found); ``informative``: the :class:`~sfmlearn.selection.repetitive.InformativeFraction` or
    None.

    Parameters
    ----------
    groups : list
        Held-out group of every fold.
    paths : list of RepetitionPath
        Each fold's repetitions.
    rankings : ndarray of shape (n_folds, n_voxels)
        Each fold's ranking (1 = best).
    sfm_errors : list of list of float
        Test error of every repetition of every fold.
    informative : InformativeFraction or None
        The informative-fraction estimate, when requested.

    Examples
    --------
    %(toy_repetitive)s
    >>> result.rankings.shape, result.rankings[:2, :3]
    ((6, 50), array([[1, 2, 5],
           [1, 2, 5]]))
    """

    groups: list
    paths: list
    rankings: np.ndarray
    sfm_errors: list
    informative: object = None

    @property
    def n_features(self):
        return self.rankings.shape[1]

    @property
    def first_sfm_error(self):
        """Mean over folds of the first repetition's test error (the single SFM); NaN when
        no fold kept a repetition (a soft base whose first subset failed its chance test)."""
        first = [e[0] for e in self.sfm_errors if e.size]
        return float(np.mean(first)) if first else float("nan")

    def summary(self):
        """JSON-ready dict (NaN written as None): per fold repetitions, stop reason, subset
        sizes, SFM errors; the informative-fraction estimate."""
        out = {
            "n_features": self.n_features, "first_sfm_error": self.first_sfm_error,
            "folds": [{"group": plain(g),
                       "n_repetitions": p.n_repetitions, "stop_reason": p.stop_reason,
                       "n_ranked": int(p.sizes.sum()), "subset_sizes": p.sizes.tolist(),
                       "sfm_test_errors": e.tolist()}
                      for g, p, e in zip(self.groups, self.paths, self.sfm_errors)],
        }
        if self.informative is not None:
            est = self.informative
            out["informative_fraction"] = {
                "available": est.available, "estimate": est.estimate,
                "n_informative": est.n_informative, "fit": est.fit_used, "reason": est.reason,
                "extrapolated": est.extrapolated, "every": est.every,
                "aggregate": est.aggregate}
        return to_jsonable(out)


def _fold_path(estimator, X, y, groups, train, options, label):
    return run_repetitions(clone(estimator), X[train], y[train], groups[train], label=label,
                           **options)


def _test_errors(path, X_test, y_test, classes):
    """Test error of every repetition's classifier (rows of ``path.coefs``)."""
    if path.n_repetitions == 0:
        return np.zeros(0)
    decision = path.coefs @ X_test.T + path.intercepts[:, None]  # (repetitions, n_test)
    predicted = classes[(decision > 0).astype(int)]
    return np.mean(predicted != y_test[None, :], axis=1)


@mvpa_doc
def repetitive_decoding(X, y, groups, *, estimator=None, max_repetitions=None,
                        informative_every=None, svm_Cs=None, aggregate="mean",
                        random_state=None, n_jobs=None, verbose=0, progress=None):
    """Repetitive SFM in every leave-one-group-out fold (NC 4.4, thesis 6.3).

    Parameters
    ----------
    X, y, groups
        Maps (n_maps, n_voxels), two classes, participant (or run) per map.
    estimator : binary selector, default=SupportFeatureMachine()
        The base SFM (a soft one stops by a chance test; see RepetitiveSFM).
    max_repetitions : int or None
        Stop every fold's rSFM after this many subsets (None: to the end).
    informative_every : int or None
        Also estimate the fraction of informative voxels, evaluating a soft SVM on the
        remaining voxels after every k-th repetition (NC: 10).
    svm_Cs, aggregate
        Passed to :func:`~sfmlearn.estimate_informative_fraction`; only with
        ``informative_every`` (given without it, they are refused). The options are
        checked as :class:`~sfmlearn.RepetitiveSFM` checks them, before any fit.
    random_state, n_jobs
        Seeds (soft chance tests, nested folds) and parallel folds (joblib).
    verbose : int
        1: one line per fold on stderr; 2: also one per repetition.
    progress : callable(stage, done, total), optional
        Stages "rSFM" (folds) and, with the estimate, "SVM" (evaluations).

    Returns
    -------
    RepetitiveDecoding

    Examples
    --------
    %(toy_repetitive)s
    >>> [len(path.subsets) for path in result.paths]
    [3, 3, 3, 3, 3, 3]
    """
    check_repetitive_options("repetitive_decoding", estimator=estimator, max_repetitions=max_repetitions,
                             informative_every=informative_every, svm_Cs=svm_Cs, aggregate=aggregate)
    X, labels, classes, groups = check_grouped_problem(X, y, groups)
    estimator = SupportFeatureMachine() if estimator is None else estimator
    folds = leave_one_group_out(labels, groups)
    if informative_every is not None:
        estimate = estimate_informative_fraction(
            X, labels, groups, estimator=estimator, informative_every=informative_every,
            svm_Cs=svm_Cs,
            cv=[(train, test) for _, train, test in folds], aggregate=aggregate,
            max_repetitions=max_repetitions, random_state=random_state, n_jobs=n_jobs,
            verbose=verbose, progress=progress)
        paths = [record["path"] for record in estimate.folds]
    else:
        estimate = None
        options = {"max_repetitions": max_repetitions, "random_state": random_state,
                   "verbose": max(verbose - 1, 0)}
        jobs = Parallel(n_jobs=n_jobs, return_as="generator", what="rSFM folds")(
            delayed(_fold_path)(estimator, X, labels, groups, train, options,
                                f"rSFM fold {f + 1}")
            for f, (_, train, _) in enumerate(folds))
        paths = []
        if progress is not None:
            progress("rSFM", 0, len(folds))
        for f, path in enumerate(jobs):
            paths.append(path)
            if verbose:
                print(f"[repetitive decoding] fold {f + 1}/{len(folds)}: {path.n_repetitions} "
                      f"repetitions ({path.stop_reason})", file=sys.stderr)
            if progress is not None:
                progress("rSFM", f + 1, len(folds))
    errors = [_test_errors(path, X[test], labels[test], classes)
              for path, (_, _, test) in zip(paths, folds)]
    return RepetitiveDecoding(groups=[g for g, _, _ in folds], paths=paths,
                              rankings=np.array([p.ranking() for p in paths]),
                              sfm_errors=errors, informative=estimate)
