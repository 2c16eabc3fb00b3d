"""How likely is a separating subset by chance for a data shape (thesis 2.5.4, 3.4, 4.1)?

:func:`separability_summary` gives, for n samples and d features, the probability that
random data of that shape are linearly separable (Wendel/Cover:
P_{d,n} = 2^{1-n} sum_{k<d} C(n-1, k)), the bounds on separability in some k of the d
features (thesis eq. 2.3, P_{k,d,n} <= min(1, P_{d,n}, C(d, k) P_{k,n})), optionally a
Monte-Carlo estimate, the VC bound of selecting k of d features (thesis 3.4), and the
leave-one-out regime of a linear SVM (thesis 4.1). :func:`theory_figures` writes the
theory figures.
"""

import numpy as np

from ..diagnostics import loo_regime
from ..exceptions import DataValidationError
from ..experiments import theory_figures as _theory_figures
from ..outputs.atomic import to_jsonable
from ..theory import log_binom, prob_separable, subset_separability
from .names import MAX_MC_SUBSETS

__all__ = ["MAX_K_VALUES", "MAX_MC_SUBSETS", "MAX_MC_SAMPLES", "MAX_MC_TESTS", "MAX_SUBSET_SIZE",
           "separability_summary", "theory_figure_files", "theory_figures"]

#: Largest subset size k: the exact bound sums k terms (k = 10^5 takes about a second).
MAX_SUBSET_SIZE = 100_000
#: At most this many subset sizes in one call.
MAX_K_VALUES = 100
#: A Monte-Carlo run may test at most this many (trial, subset) pairs in all (each a small
#: separability test; this many take some ten seconds on one core).
MAX_MC_TESTS = 10_000
#: A Monte-Carlo run simulates data of at most this many samples.
MAX_MC_SAMPLES = 10_000


def separability_summary(n, d, k_values, *, C=None, monte_carlo=0, random_state=0):
    """All numbers ``sfmlearn separability`` prints, as a JSON-ready dict.

    DataValidationError, before any work, for more than :data:`MAX_K_VALUES` subset sizes,
    a k above :data:`MAX_SUBSET_SIZE`, a Monte-Carlo run that would enumerate more than
    :data:`MAX_MC_SUBSETS` subsets per trial or test more than :data:`MAX_MC_TESTS`
    (trial, subset) pairs, or a shape the bounds do not cover.
    """
    _check_sizes(k_values)
    if monte_carlo:
        _check_monte_carlo(n, d, k_values, monte_carlo)
    subsets = subset_separability(n, d, k_values, monte_carlo=monte_carlo, random_state=random_state)
    result = {"n": n, "d": d,
              "p_separable": prob_separable(n, d),
              "p_separable_with_bias": prob_separable(n, d, fit_intercept=True),
              "subsets": to_jsonable(subsets.to_dict(orient="records"))}
    if np.isnan([result["p_separable"], result["p_separable_with_bias"]]).any():  # scipy's binomial tail
        raise DataValidationError(f"n = {n} and d = {d} are beyond what the probabilities can be computed for in "
                                  "double precision (they come out NaN); ask for fewer samples or features")
    if n >= 4:
        regime = loo_regime(n, d, C)
        result["loo"] = {"C": C, "effective_dimension": regime.effective_dimension,
                         "border_dimension": regime.border_dimension,
                         "infinite_like": regime.infinite_like, "text": str(regime)}
    return result


def _check_sizes(k_values):
    """Refuse subset sizes whose bounds would take minutes, before any of them is computed."""
    if len(k_values) > MAX_K_VALUES:
        raise DataValidationError(f"--k: {len(k_values)} subset sizes given; at most {MAX_K_VALUES} are allowed")
    largest = max(k_values)
    if largest > MAX_SUBSET_SIZE:
        raise DataValidationError(f"--k {largest}: subset sizes above {MAX_SUBSET_SIZE} are refused (the bound "
                                  "sums k terms); ask for a smaller k")


def _check_monte_carlo(n, d, k_values, trials):
    """Refuse a simulation that would enumerate too many subsets, before any of it runs."""
    tests = 0.0
    for k in k_values:
        n_subsets = float(np.exp(log_binom(d, k)))
        if k > 1 and n_subsets > MAX_MC_SUBSETS:
            raise DataValidationError(
                f"--monte-carlo with k = {k} of d = {d} would test up to {n_subsets:.3g} subsets per trial "
                f"(limit {MAX_MC_SUBSETS}); use the bounds, or a smaller d or k")
        tests += trials * (1.0 if k == 1 else n_subsets)
    if tests > MAX_MC_TESTS:
        raise DataValidationError(
            f"--monte-carlo {trials} would test {tests:.3g} (trial, subset) pairs (limit {MAX_MC_TESTS}); "
            "ask for fewer trials, or a smaller d or k")
    if not 2 <= n <= MAX_MC_SAMPLES:
        raise DataValidationError(f"--monte-carlo needs --n from 2 to {MAX_MC_SAMPLES}; got {n}")


def theory_figure_files():
    """The names of the files :func:`theory_figures` writes into its folder, one PNG per
    figure; it writes no other file there."""
    return [f"{stem}.png" for stem in _theory_figures.FIGURES]


def theory_figures(outdir, *, quick=False, random_state=0, n_jobs=None, progress=None):
    """Write thesis Fig. 2.5-2.9, 3.5, 4.1-4.3 as PNG files into ``outdir``; the table of
    figures written (path, seconds). ``progress(stem)`` is called after each figure."""
    return _theory_figures.run(quick=quick, outdir=outdir, random_state=random_state, n_jobs=n_jobs,
                               progress=progress)
