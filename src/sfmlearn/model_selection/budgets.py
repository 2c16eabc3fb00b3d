r"""Path scores aligned by sparsity: the fits of every fold compared at equal feature budgets.

A regularisation path (the soft SFM's C, a lasso's lambda) fitted in every training fold
gives, per fold f and grid point i, a held-out score :math:`s_{f,i}` and a number of
selected features :math:`n_{f,i}`. Averaging s over folds at a fixed i compares fits of
different sparsity: the grid is computed once, but every fold's path crosses it
differently (on colon the same C selects 1 feature in one fold and 4 in another).
Aligning the folds by *budget* compares like with like. For a budget k the fold's fit
is the densest one within the budget,

.. math::

    i_f(k) = \min \big\{ i : n_{f,i} = \max \{ n_{f,j} : n_{f,j} \le k \} \big\}

and its score is :math:`s_f(k) = s_{f, i_f(k)}`; NaN when no fit of the fold is within
the budget. Among equally dense fits the first is taken, the most regularised: where the
path first reaches that many features. Later fits of the same size swap features to fit
the training set better; on DOROTHEA (5 x 2 outer CV, soft-SFM path) the last one chose
a worse single feature (65.3 % balanced accuracy against 73.7 % with the first), while
on colon the two agreed within a standard error (78.9 % with the first, 79.5 % with the
last, SE 2.0-2.2; hard-margin SVM refit; rows "k best x3" and "k best last x3" of
``benchmarks/bench_choice.py --datasets colon,DOROTHEA --n-Cs 12``). The rule looks only at the training fold's path, never at the
held-out scores, so :math:`s_f(k)` is an honest held-out score of "the path's fit with
at most k features" and a cross-validated
choice over k (:func:`choose_budget`) is a choice of sparsity, aligned across folds.
"""

import numpy as np

from ..exceptions import DataValidationError

__all__ = ["choose_budget", "densest_within_budget", "scores_within_budget"]


def densest_within_budget(n_features, budget):
    """Index of the densest fit with at most ``budget`` features (module docstring).

    Parameters
    ----------
    n_features : array-like of int, shape (n_points,)
        Features selected by each fit of one path.
    budget : int
        The most features allowed.

    Returns
    -------
    int
        The index of the densest fit within the budget (the first among equally dense
        ones), or -1 when every fit is larger.

    Examples
    --------
    >>> from sfmlearn.model_selection import densest_within_budget
    >>> densest_within_budget([1, 2, 2, 4], 3), densest_within_budget([2, 3], 1)
    (1, -1)
    """
    n_features = np.asarray(n_features)
    within = np.flatnonzero(n_features <= budget)
    if within.size == 0:
        return -1
    densest = within[n_features[within] == n_features[within].max()]
    return int(densest[0])


def scores_within_budget(scores, n_features, budgets):
    """Held-out scores of every fold's densest fit within each budget.

    Parameters
    ----------
    scores : array-like of shape (n_folds, n_points)
        Held-out score of every grid point's fit, per fold.
    n_features : array-like of int, shape (n_folds, n_points)
        Features selected by that fit.
    budgets : array-like of int, shape (n_budgets,)

    Returns
    -------
    ndarray of shape (n_folds, n_budgets)
        s_f(k) of the module docstring; NaN where a fold has no fit within the budget.

    Examples
    --------
    >>> from sfmlearn.model_selection import scores_within_budget
    >>> scores_within_budget([[0.6, 0.8, 0.7]], [[1, 3, 3]], [1, 2, 3]).tolist()
    [[0.6, 0.6, 0.8]]
    """
    scores = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    n_features = np.atleast_2d(np.asarray(n_features))
    if scores.shape != n_features.shape:
        raise ValueError(f"scores {scores.shape} and n_features {n_features.shape} must have the same shape")
    out = np.full((scores.shape[0], len(budgets)), np.nan)
    for f, (fold_scores, fold_sizes) in enumerate(zip(scores, n_features)):
        for b, budget in enumerate(budgets):
            i = densest_within_budget(fold_sizes, budget)
            if i >= 0:
                out[f, b] = fold_scores[i]
    return out


def choose_budget(budget_scores, budgets, select="best"):
    """Index of the chosen budget from per-fold scores aligned by budget.

    Only budgets every fold reaches compete. ``select="best"``: the highest mean score
    (ties: the smaller budget); ``select="1se"``: the smallest budget whose mean is at
    least the best mean minus its standard error SD / sqrt(folds), the SD over folds
    with divisor folds (ddof=0, as :class:`~sfmlearn.selection.SupportFeatureMachineCV`'s
    ``sem_test_score``). It is the rule of ``cv.glmnet``'s lambda.1se, whose SD divides
    by folds - 1: its standard error is sqrt(folds / (folds - 1)) times this one.

    Parameters
    ----------
    budget_scores : array-like of shape (n_folds, n_budgets)
        :func:`scores_within_budget`'s output (NaN where a fold has no fit).
    budgets : array-like of int, shape (n_budgets,)
        The budgets, strictly increasing.
    select : {"best", "1se"}, default="best"
        The rule.

    Returns
    -------
    int
        Index of the chosen budget in ``budgets``.

    Examples
    --------
    >>> from sfmlearn.model_selection import choose_budget
    >>> choose_budget([[0.7, 0.8, 0.8], [0.7, 0.9, 0.8]], [1, 2, 3])
    1
    >>> choose_budget([[0.7, 0.9], [0.8, 0.7]], [1, 2], select="1se")
    0
    """
    budget_scores = np.atleast_2d(np.asarray(budget_scores, dtype=np.float64))
    _check_budget_choice(budget_scores, np.asarray(budgets), select)
    complete = ~np.isnan(budget_scores).any(axis=0)
    if not complete.any():
        raise ValueError("no budget is reached by every fold's path")
    mean = np.where(complete, np.nan_to_num(budget_scores.mean(axis=0)), -np.inf)
    top = int(np.argmax(mean))
    if select == "best":
        return top
    sem = budget_scores[:, top].std() / np.sqrt(budget_scores.shape[0])
    return int(np.flatnonzero(mean >= mean[top] - sem - 1e-12)[0])


def _check_budget_choice(budget_scores, budgets, select):
    """:func:`choose_budget`'s arguments: a known rule, one strictly increasing budget per
    score column (the rules prefer the smaller budget by its position), some folds."""
    if select not in ("best", "1se"):
        raise DataValidationError(f"select must be 'best' or '1se'; got {select!r}.")
    if budget_scores.ndim != 2 or budget_scores.shape[0] == 0:
        raise DataValidationError(
            f"budget_scores must hold one row per fold and one column per budget; got shape {budget_scores.shape}.")
    if budgets.shape != (budget_scores.shape[1],):
        raise DataValidationError(
            f"budgets must hold one budget per column of budget_scores ({budget_scores.shape[1]}); "
            f"got shape {budgets.shape}.")
    if np.any(np.diff(budgets) <= 0):
        raise DataValidationError(
            f"budgets must be strictly increasing (the rules prefer the smaller budget); got {budgets.tolist()}. "
            "Sort the budgets and the score columns together: order = np.argsort(budgets).")
