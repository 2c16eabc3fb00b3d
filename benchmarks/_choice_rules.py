"""Choice rules of ``bench_choice.py --part rules``: which budget would another rule pick,
and how much does the inner cross-validation know?

For one outer training part, :class:`~sfmlearn.SupportFeatureMachineCV` (the default)
aligns its inner folds by the number of selected features (``budget_results_``: a
score per inner fold f and budget k, :math:`s_f(k)`) and fits its candidates on the whole
training part (the path and the unions). A rule maps the aligned scores to a budget; the
outer candidate densest within it is scored on the outer test part. Every rule thus
chooses among the *same* fits, and only the rule differs. Only budgets every inner fold
reaches compete (as :func:`~sfmlearn.model_selection.choose_budget`). With
:math:`\\bar s(k)` the mean over the F inner folds and :math:`k^*` the best budget:

* ``best``: :math:`\\arg\\max_k \\bar s(k)` (the default; ties: the smaller budget);
* ``a se``: the smallest k with :math:`\\bar s(k) \\ge \\bar s(k^*) - a\\,\\mathrm{SD}_f
  s_f(k^*) / \\sqrt F` (``1 se`` is cv.glmnet's lambda.1se);
* ``paired a se``: the smallest k whose paired differences
  :math:`d_f = s_f(k^*) - s_f(k)` have :math:`\\bar d \\le a\\,\\mathrm{SD}(d) / \\sqrt F`
  (the folds' common difficulty cancels);
* ``within t``: the smallest k with :math:`\\bar s(k) \\ge \\bar s(k^*) - t`;
* ``log penalty l``: :math:`\\arg\\max_k \\bar s(k) - l \\log k`;
* ``mean rank``: the budget of lowest mean rank over folds (ties: higher mean);
* ``smoothed w``: the arg max of :math:`\\bar s` averaged over the budgets with
  :math:`|\\log k - \\log k'| \\le w`.

:func:`inner_information` asks how far the inner mean predicts the outer score at all:
the rank correlation over the distinct (inner mean, outer candidate) points of a fold,
and the outer score of the best rule's choice against the mean over the candidates the
budgets reach (a candidate drawn at random) and the best of them (picked with the test
part, an optimistic ceiling).
"""

import numpy as np
from scipy.stats import rankdata, spearmanr

from sfmlearn.model_selection import choose_budget, densest_within_budget

__all__ = ["RULES", "inner_information", "outer_choice"]


def _complete_mean(aligned):
    """Mean over folds of the budgets every fold reaches; -inf elsewhere."""
    complete = ~np.isnan(aligned).any(axis=0)
    return np.where(complete, np.nan_to_num(aligned.mean(axis=0)), -np.inf), complete


def _se_rule(factor):
    def rule(aligned, budgets):
        mean, _ = _complete_mean(aligned)
        top = int(np.argmax(mean))
        sem = aligned[:, top].std() / np.sqrt(aligned.shape[0])
        return int(np.flatnonzero(mean >= mean[top] - factor * sem - 1e-12)[0])
    return rule


def _paired_rule(factor):
    def rule(aligned, budgets):
        mean, complete = _complete_mean(aligned)
        top = int(np.argmax(mean))
        for k in np.flatnonzero(complete):
            difference = aligned[:, top] - aligned[:, k]
            if difference.mean() <= factor * difference.std(ddof=1) / np.sqrt(difference.size) + 1e-12:
                return int(k)
        return top
    return rule


def _tolerance_rule(points):
    def rule(aligned, budgets):
        mean, _ = _complete_mean(aligned)
        return int(np.flatnonzero(mean >= mean.max() - points - 1e-12)[0])
    return rule


def _log_penalty_rule(weight):
    def rule(aligned, budgets):
        mean, _ = _complete_mean(aligned)
        return int(np.argmax(mean - weight * np.log(budgets)))
    return rule


def _mean_rank(aligned, budgets):
    mean, complete = _complete_mean(aligned)
    competing = np.flatnonzero(complete)
    ranks = np.array([rankdata(-fold[competing]) for fold in aligned]).mean(axis=0)
    lowest = competing[ranks <= ranks.min() + 1e-12]
    return int(lowest[np.argmax(mean[lowest])])


def _smoothed_rule(width):
    def rule(aligned, budgets):
        mean, complete = _complete_mean(aligned)
        log_budget = np.log(budgets)
        smoothed = [mean[complete & (np.abs(log_budget - log_budget[k]) <= width)].mean() if complete[k] else -np.inf
                    for k in range(budgets.size)]
        return int(np.argmax(smoothed))
    return rule


#: name -> rule(aligned scores (folds x budgets, NaN where a fold's path does not reach
#: the budget), budgets) -> index of the chosen budget (module docstring).
RULES = {
    "best": lambda aligned, budgets: choose_budget(aligned, budgets, "best"),
    "1 se": lambda aligned, budgets: choose_budget(aligned, budgets, "1se"),
    "0.5 se": _se_rule(0.5),
    "0.25 se": _se_rule(0.25),
    "paired 1 se": _paired_rule(1.0),
    "paired 0.5 se": _paired_rule(0.5),
    "within 1 point": _tolerance_rule(0.01),
    "within 2 points": _tolerance_rule(0.02),
    "log penalty 0.005": _log_penalty_rule(0.005),
    "log penalty 0.01": _log_penalty_rule(0.01),
    "mean rank": _mean_rank,
    "smoothed 0.3": _smoothed_rule(0.3),
    "smoothed 0.7": _smoothed_rule(0.7),
}


def _outer_index(sizes, budget):
    """The outer candidate densest within ``budget`` (the smallest when none is: as the CV's refit)."""
    chosen = densest_within_budget(sizes, budget)
    return chosen if chosen >= 0 else int(np.argmin(sizes))


def outer_choice(fold, rule):
    """(outer test score, features) of the candidate ``rule`` picks for one outer fold:
    ``fold`` holds ``aligned`` and ``budgets`` (the CV's ``budget_results_``), and the
    outer candidates' test ``scores`` and ``sizes``."""
    budget = int(fold["budgets"][rule(fold["aligned"], fold["budgets"])])
    chosen = _outer_index(fold["sizes"], budget)
    return float(fold["scores"][chosen]), int(fold["sizes"][chosen])


def inner_information(fold):
    """For one outer fold: the rank correlation (Spearman) between the inner mean score of
    each budget every inner fold reaches and the outer test score of that budget's
    candidate, over the distinct (mean, candidate) pairs (NaN when either side is
    constant or there are fewer than three); and the outer scores of the ``best`` rule's
    candidate, of the best candidate and their mean over the distinct candidates those
    budgets reach (a candidate drawn at random)."""
    mean, complete = _complete_mean(fold["aligned"])
    budgets = fold["budgets"][complete]
    outer = [_outer_index(fold["sizes"], int(k)) for k in budgets]
    pairs = np.array(sorted({(round(float(m), 12), i) for m, i in zip(mean[complete], outer)}))
    inner_mean, outer_score = pairs[:, 0], fold["scores"][pairs[:, 1].astype(int)]
    varied = len(pairs) >= 3 and np.ptp(inner_mean) > 0 and np.ptp(outer_score) > 0
    reached = fold["scores"][np.unique(outer)]
    return {"spearman": float(spearmanr(inner_mean, outer_score).statistic) if varied else np.nan,
            "chosen": outer_choice(fold, RULES["best"])[0],
            "best_candidate": float(reached.max()), "random_candidate": float(reached.mean())}
