"""Chance level by label permutation within participants (thesis 6.4.1, Fig. 6.8).

"To assess incidental separability, we randomly permuted the class labels for each
participant separately and repeated the experiment" (thesis 6.4.1; 20 permutations).
On permuted labels the decoding accuracy falls to chance (0.5), but the SFM still finds
small subsets (15.5-16.3 voxels against the VC bound of 79): a small subset alone
proves nothing. Each permutation reruns the whole leave-one-participant-out decoding;
the p-value of the real accuracy is (1 + #{permutations at least as accurate}) / (1 + B).
A permutation on which the estimator finds no solution (a hard SFM on labels no
hyperplane separates) has no accuracy: it is left out, B counting the others.
Permutations within participants keep each participant's class balance and the group
structure of the null hypothesis (:func:`sfmlearn.diagnostics.permute_labels`); groups
that each hold one class (runs of one condition) leave nothing to permute and are refused.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import delayed

from .._validation import data_first
from ..diagnostics import check_permutable_groups, permute_labels
from ..exceptions import NotSeparableError
from ..outputs import to_jsonable
from ..selection import SupportFeatureMachine
from ..utils import spawn_seeds
from ..utils.parallel import Parallel
from .._validation import check_count
from ._checks import check_grouped_problem
from ._docs import mvpa_doc
from ._progress import counted
from .decoding import decode

__all__ = ["PermutationDecoding", "permuted_decoding"]


@mvpa_doc
@dataclass
class PermutationDecoding:
    """Decoding on the real labels and on ``n_permutations`` within-group permutations.

    ``permutations`` has one row per permutation: accuracy (pooled over held-out
    maps; NaN if the estimator found no solution on some fold: a failed permutation)
    and mean_selected.

    Parameters
    ----------
    accuracy : float
        Pooled accuracy on the real labels.
    mean_selected : float
        Mean number of selected features on the real labels.
    permutations : pandas.DataFrame
        One row per permutation (above).

    Examples
    --------
    %(toy_permuted)s
    >>> round(result.accuracy, 3), result.permutations["accuracy"].round(3).tolist()
    (0.917, [0.375, 0.292, 0.667])
    """

    accuracy: float
    mean_selected: float
    permutations: pd.DataFrame

    @property
    def n_failed(self):
        """Permutations on which the estimator found no solution (NaN accuracy)."""
        return int(self.permutations["accuracy"].isna().sum())

    @property
    def p_value(self):
        """(1 + #{permutations at least as accurate}) / (1 + #{permutations that succeeded}).

        A failed permutation is evidence neither way, so it is left out (not counted as
        less accurate); NaN when every permutation failed.
        """
        accuracy = self.permutations["accuracy"].dropna().to_numpy()
        if accuracy.size == 0:
            return float("nan")
        return float((1 + np.count_nonzero(accuracy >= self.accuracy - 1e-12)) / (1 + accuracy.size))

    def summary(self):
        """JSON-ready dict (NaN written as None): real and permuted accuracies, the p-value."""
        perm = self.permutations
        return to_jsonable({
            "accuracy": self.accuracy, "mean_selected": self.mean_selected,
            "n_permutations": int(len(perm)), "p_value": self.p_value,
            "permuted_accuracy_mean": float(perm["accuracy"].mean()),
            "permuted_accuracy_sd": float(perm["accuracy"].std(ddof=0)),
            "permuted_selected_mean": float(perm["mean_selected"].mean()),
            "n_failed": self.n_failed})


def _permuted(estimator, X, labels, groups, seed):
    permuted = permute_labels(labels, groups, np.random.default_rng(seed))
    try:
        result = decode(X, permuted, groups, estimator)
    except NotSeparableError:  # a hard SFM on labels no hyperplane separates
        return np.nan, np.nan
    mean_selected = result.folds["n_selected"].mean()
    return result.accuracy, float(mean_selected)


@data_first
@mvpa_doc
def permuted_decoding(X, y, groups, estimator=None, *, n_permutations=20, random_state=None,
                      n_jobs=None, progress=None):
    """Leave-one-group-out decoding on real and within-group permuted labels (Fig. 6.8).

    Parameters
    ----------
    X, y, groups : maps, two classes, participant per map
    estimator : classifier, default=None
        None means the SFM; a selector also reports subset sizes. Passed first (the
        order before 0.2) it still works for one release and warns.
    n_permutations : int, default=20 (thesis 6.4.1)
        Permutations within groups; the groups must not each hold one class only.
    random_state, n_jobs : seeds (one per permutation, so independent of n_jobs), joblib
    progress : callable(done, total), optional

    Returns
    -------
    PermutationDecoding

    Examples
    --------
    %(toy_permuted)s
    >>> bool((result.permutations["accuracy"] < result.accuracy).all())
    True
    """
    n_permutations = check_count("n_permutations", n_permutations, 1)
    X, labels, _, groups = check_grouped_problem(X, y, groups)
    check_permutable_groups(labels, groups, "give the participants as groups (runs or sessions of one condition "
                                            "each leave nothing to permute)")
    estimator = SupportFeatureMachine() if estimator is None else estimator
    real = decode(X, labels, groups, estimator, n_jobs=n_jobs)
    seeds = spawn_seeds(random_state, n_permutations)
    jobs = Parallel(n_jobs=n_jobs, return_as="generator", what="label permutations")(
        delayed(_permuted)(estimator, X, labels, groups, s) for s in seeds)
    rows = list(counted(jobs, progress, n_permutations, what="label permutations"))
    result = PermutationDecoding(
        accuracy=real.accuracy, mean_selected=float(real.folds["n_selected"].mean()),
        permutations=pd.DataFrame(rows, columns=["accuracy", "mean_selected"]))
    if result.n_failed == n_permutations:
        warnings.warn(
            f"the estimator found no solution on any of the {n_permutations} permuted labelings (a hard SFM "
            "cannot separate them), so there is no p-value (NaN); pass a soft estimator, e.g. "
            "SupportFeatureMachine(C=1.0).", UserWarning, stacklevel=3)  # the caller
    return result
