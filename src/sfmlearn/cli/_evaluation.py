"""Cross-validated accuracy of a selector, shared by ``select`` and ``repeat``."""

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

from ._common import CLIError, progress

__all__ = ["cross_validate_selector", "cv_splitter"]


def cv_splitter(y, groups, k, seed):
    """The (grouped) stratified k-fold splitter of ``--cv k``, or a one-line error.

    k shrinks to the smallest class (or the number of groups) and must stay at least 2.
    Commands call it before any fitting, so a hopeless ``--cv`` fails at once.
    """
    _, counts = np.unique(y, return_counts=True)
    if groups is None:
        limit = int(counts.min())
        if limit < 2:
            raise CLIError(f"--cv {k}: the smallest class has {limit} sample; cross-validation needs at "
                           "least 2 per class (or --cv 0 to skip it)")
    else:
        limit = np.unique(groups).size
        if limit < 2:
            raise CLIError("--groups: all samples are in one group; grouped cross-validation needs at "
                           "least 2 groups (or --cv 0 to skip it)")
    k_used = min(k, limit)
    if groups is None:
        return StratifiedKFold(n_splits=k_used, shuffle=True, random_state=seed)
    return StratifiedGroupKFold(n_splits=k_used, shuffle=True, random_state=seed)


def cross_validate_selector(estimator, X, y, groups, k, seed, show_progress):
    """k-fold accuracy with features re-selected in every fold (grouped when ``groups``).

    Returns ``(k_used, scores, support_sizes)`` (see :func:`cv_splitter` for k_used).
    """
    splitter = cv_splitter(y, groups, k, seed)
    k_used = splitter.get_n_splits()
    scores, sizes = [], []
    with progress(f"{k_used}-fold cross-validation", k_used, enabled=show_progress) as advance:
        for train, test in splitter.split(X, y, groups):
            fold = clone(estimator).fit(X[train], y[train])
            scores.append(fold.score(X[test], y[test]))
            sizes.append(int(fold.support_.sum()))
            advance()
    return k_used, np.array(scores), np.array(sizes)
