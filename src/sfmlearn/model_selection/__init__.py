"""Validation for small samples (thesis 2.4, 6.3) on top of scikit-learn's splitters.

scikit-learn already has the splitters the papers use -- ``LeaveOneGroupOut`` (leave one
participant out), ``StratifiedKFold``, ``LeaveOneOut`` -- and ``permutation_test_score``
(label permutations within groups, ``n_jobs``). This package adds only what it lacks:

* :func:`make_cv`: the papers' default scheme from ``cv``/``groups``, with k-fold schemes
  shrunk to what the class sizes (or groups) allow (one place, so every command and
  estimator splits the same way); :func:`make_folds` splits with it and checks that no
  training fold lost a class (:func:`check_folds_keep_classes`), :func:`make_repeated_folds`
  repeats it with new shuffles; :func:`check_groups`
  validates group ids;
* :func:`hand_till_auc`: the AUC of Hand & Till (2001) from arbitrary scores (decision
  values need not be probabilities), multi-class as the mean pairwise AUC;
* :class:`BootstrapSplit` and :func:`bootstrap_632_score`: the .632 bootstrap of thesis 2.4;
* :func:`balanced_accuracy_p_value`: exact one-sided test of a balanced accuracy against
  guessing;
* :func:`cross_validate_selection`: per-fold supports, scores and selection frequencies
  (stability) of any selector, folds in parallel through joblib;
* :func:`scores_within_budget` / :func:`choose_budget`: path scores of every fold aligned
  by the number of selected features rather than by the grid index, and the
  cross-validated choice of a feature budget;
* :func:`resample_curve` / :func:`average_curves`: rSFM curves of different lengths on a
  common axis of discarded features, piecewise constant, averaged by mean or median
  (thesis 6.3, NC 4.4).

Modules: :mod:`.splits`, :mod:`.bootstrap`, :mod:`.budgets`, :mod:`.scores`, :mod:`.selection_cv`,
:mod:`.curves`. The package imports no estimator: the selectors use it (the rSFM's
chance test), so it sits below :mod:`sfmlearn.selection`.
"""

from .bootstrap import Bootstrap632Result, BootstrapSplit, bootstrap_632_score
from .budgets import choose_budget, densest_within_budget, scores_within_budget
from .curves import average_curves, resample_curve
from .scores import balanced_accuracy_p_value, hand_till_auc, mean_recall
from .selection_cv import SelectionCVResult, cross_validate_selection
from .splits import (check_folds_keep_classes, check_groups, describe_folds, fit_with_groups, is_shuffled_kfold, make_cv, make_folds,
                     make_repeated_folds, split_indices)

__all__ = [
    "Bootstrap632Result",
    "BootstrapSplit",
    "SelectionCVResult",
    "average_curves",
    "balanced_accuracy_p_value",
    "bootstrap_632_score",
    "check_folds_keep_classes",
    "choose_budget",
    "check_groups",
    "cross_validate_selection",
    "densest_within_budget",
    "describe_folds",
    "fit_with_groups",
    "hand_till_auc",
    "make_cv",
    "is_shuffled_kfold",
    "make_folds",
    "make_repeated_folds",
    "mean_recall",
    "resample_curve",
    "scores_within_budget",
    "split_indices",
]
