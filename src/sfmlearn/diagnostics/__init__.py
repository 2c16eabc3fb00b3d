"""Diagnostics for high-dimensional, small-sample results (thesis 2.5, 4.1, 6.4).

* :mod:`.chance` - could the selected subset be chance? (:func:`chance_report`)
* :mod:`.loo` - when leave-one-out cross-validation of an SVM lies, and how far your
  (n, d, C) is from that regime;
* :mod:`.geometry` - distance concentration and hubness measures;
* :mod:`.sampling` - exact Gaussian Gram matrices at any dimension;
* :mod:`.budgets` - how many features do I need? Nested-CV accuracy of sparse methods at
  every feature budget (:func:`compare_budgets`, path methods in :mod:`.budget_paths`).
"""

from .budget_result import BudgetComparison
from .budgets import compare_budgets
from .chance import ChanceReport, chance_report, check_permutable_groups, format_verdict, permute_labels
from .geometry import (
    angle_statistics,
    concentration_curves,
    hubness,
    k_occurrence,
    norm_concentration,
    pairwise_angles,
    relative_variance,
)
from .loo import (
    INFINITE_BORDER_COEF,
    LOORegime,
    asymptotic_loo_error,
    behaves_infinite_dimensional,
    critical_sample_size,
    effective_dimension,
    fit_infinite_border,
    infinite_border_points,
    infinite_dimension_border,
    loo_error,
    loo_error_grid,
    loo_regime,
    simulate_loo_error,
)
from .sampling import sample_embedded_classes

__all__ = [
    "BudgetComparison",
    "compare_budgets",
    "ChanceReport",
    "chance_report",
    "check_permutable_groups",
    "format_verdict",
    "permute_labels",
    "angle_statistics",
    "concentration_curves",
    "hubness",
    "k_occurrence",
    "norm_concentration",
    "pairwise_angles",
    "relative_variance",
    "INFINITE_BORDER_COEF",
    "LOORegime",
    "asymptotic_loo_error",
    "behaves_infinite_dimensional",
    "critical_sample_size",
    "effective_dimension",
    "fit_infinite_border",
    "infinite_border_points",
    "infinite_dimension_border",
    "loo_error",
    "loo_error_grid",
    "loo_regime",
    "simulate_loo_error",
    "sample_embedded_classes",
]
