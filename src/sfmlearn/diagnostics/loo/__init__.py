"""When leave-one-out cross-validation of a linear SVM lies (thesis 2.5.5, 4.1).

With few samples in many dimensions the points sit on the vertices of a regular
simplex (thesis 2.5.2) and leave-one-out (LOO) cross-validation of an SVM breaks:

* random labels (Theorem 2.5.1): the LOO error of a hard-margin SVM tends to 1, not
  to the chance level 0.5, as d grows for fixed n - the left-out sample always belongs
  to the class that just became the smaller one;
* two real classes (Theorem 2.5.2, Hall et al. 2005): with per-feature mean variances
  sigma^2, tau^2 and squared mean distance per feature mu^2, a class of k samples against
  one of l samples, sigma^2/k >= tau^2/l: as d -> infinity every new sample is classified
  correctly if mu^2 > sigma^2/k - tau^2/l, otherwise every new sample goes to the second
  class. Under LOO the class sizes differ by one, so below a critical sample size the
  LOO error tends to 1 although the classes differ;
* soft margin (thesis eq. 2.5): a two-norm soft-margin SVM with softness C on d unit-
  variance features behaves like a hard-margin SVM on d + 1/C features.

The modules: :mod:`.error` the exact LOO error, on your data or simulated (thesis
Fig. 2.9, 4.1-4.3); :mod:`.limits` its limits as d -> infinity; :mod:`.regime` the
border of the infinite-dimension-like regime (thesis Fig. 4.1).
"""

from .error import loo_error, loo_error_grid, simulate_loo_error
from .limits import asymptotic_loo_error, critical_sample_size
from .regime import (
    INFINITE_BORDER_COEF,
    LOORegime,
    behaves_infinite_dimensional,
    effective_dimension,
    fit_infinite_border,
    infinite_border_points,
    infinite_dimension_border,
    loo_regime,
)

__all__ = [
    "loo_error",
    "simulate_loo_error",
    "loo_error_grid",
    "asymptotic_loo_error",
    "critical_sample_size",
    "effective_dimension",
    "infinite_border_points",
    "fit_infinite_border",
    "infinite_dimension_border",
    "behaves_infinite_dimensional",
    "INFINITE_BORDER_COEF",
    "LOORegime",
    "loo_regime",
]
