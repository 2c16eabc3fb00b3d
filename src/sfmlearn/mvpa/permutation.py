"""Chance level by label permutation within participants (thesis 6.4.1, Fig. 6.8).

"To assess incidental separability, we randomly permuted the class labels for each
participant separately and repeated the experiment" (thesis 6.4.1; 20 permutations).
On permuted labels the decoding accuracy falls to chance (0.5), but the SFM still finds
small subsets (15.5-16.3 voxels against the VC bound of 79): a small subset alone
proves nothing. Each permutation reruns the whole leave-one-participant-out decoding;
the p-value of the real accuracy is (1 + #{permutations at least as accurate}) / (1 + B).
Permutations within participants keep each participant's class balance and the group
structure of the null hypothesis (:func:`sfmlearn.diagnostics.permute_labels`).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from joblib import delayed

from .._validation import data_first
from ..diagnostics import permute_labels
from ..exceptions import DataValidationError, NotSeparableError
from ..selection import SupportFeatureMachine
from ..utils import spawn_seeds
from ..utils.parallel import Parallel
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
    maps; NaN if the estimator found no solution on some fold) and mean_selected.

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
    def p_value(self):
        acc = self.permutations["accuracy"].to_numpy()
        as_good = np.count_nonzero(np.nan_to_num(acc, nan=-np.inf) >= self.accuracy - 1e-12)
        return (1 + as_good) / (1 + acc.size)

    def summary(self):
        perm = self.permutations
        return {"accuracy": self.accuracy, "mean_selected": self.mean_selected,
                "n_permutations": int(len(perm)), "p_value": self.p_value,
                "permuted_accuracy_mean": float(perm["accuracy"].mean()),
                "permuted_accuracy_sd": float(perm["accuracy"].std(ddof=0)),
                "permuted_selected_mean": float(perm["mean_selected"].mean()),
                "n_failed": int(perm["accuracy"].isna().sum())}


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
    if isinstance(n_permutations, bool) or not isinstance(n_permutations, (int, np.integer)) \
            or n_permutations < 1:
        raise DataValidationError(f"n_permutations must be a positive integer; got {n_permutations!r}.")
    X, labels, _, groups = check_grouped_problem(X, y, groups)
    estimator = SupportFeatureMachine() if estimator is None else estimator
    real = decode(X, labels, groups, estimator, n_jobs=n_jobs)
    seeds = spawn_seeds(random_state, n_permutations)
    jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_permuted)(estimator, X, labels, groups, s) for s in seeds)
    rows = list(counted(jobs, progress, n_permutations))
    return PermutationDecoding(
        accuracy=real.accuracy, mean_selected=float(real.folds["n_selected"].mean()),
        permutations=pd.DataFrame(rows, columns=["accuracy", "mean_selected"]))
