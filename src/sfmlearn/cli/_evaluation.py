"""Cross-validated accuracy of a selector, shared by ``select`` and ``repeat``."""

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

from ._common import CLIError, progress

__all__ = ["cross_validate_selector"]


def cross_validate_selector(estimator, X, y, groups, k, seed, show_progress):
    """k-fold accuracy with features re-selected in every fold (grouped when ``groups``).

    Returns ``(k_used, scores, support_sizes)``; k shrinks to the smallest class (or the
    number of groups) and must stay at least 2.
    """
    _, counts = np.unique(y, return_counts=True)
    limit = int(counts.min()) if groups is None else np.unique(groups).size
    k_used = min(k, limit)
    if k_used < 2:
        raise CLIError(f"--cv {k}: the smallest class (or the number of groups) is {limit}; need at least 2")
    if groups is None:
        splitter = StratifiedKFold(n_splits=k_used, shuffle=True, random_state=seed)
    else:
        splitter = StratifiedGroupKFold(n_splits=k_used, shuffle=True, random_state=seed)
    scores, sizes = [], []
    with progress(f"{k_used}-fold cross-validation", k_used, enabled=show_progress) as advance:
        for train, test in splitter.split(X, y, groups):
            fold = clone(estimator).fit(X[train], y[train])
            scores.append(fold.score(X[test], y[test]))
            sizes.append(int(fold.support_.sum()))
            advance()
    return k_used, np.array(scores), np.array(sizes)
