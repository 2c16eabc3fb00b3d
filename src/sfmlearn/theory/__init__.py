"""How likely is a separating feature subset by chance? (thesis 2.5.4, 3.4)

Exact probabilities and bounds for *incidental separability*: random data with few
samples and many features is separable far more often than intuition says, and an
embedded selector that finds k separating features out of d has more capacity than a
k-feature classifier. Every function is vectorised over NumPy-broadcastable integer
arguments and works in log space (``log=True`` returns natural logarithms), because
binomial coefficients like C(7129, 5) and powers like 2^-n overflow or underflow
doubles long before the probabilities themselves are uninteresting.

Wendel (1962) / Cover (1965), thesis 2.5.4: n points drawn from a rotationally
symmetric distribution in R^d lie in one half-space through the origin (are linearly
separable *without bias*, whatever their labels) with probability

    P_{d,n} = 2^(1-n) sum_{j=0}^{d-1} C(n-1, j)   for n > d,   1 otherwise.

Cover's function-counting theorem gives the same number for *any* n points in general
position with labels drawn uniformly from all 2^n labellings. A hyperplane *with* bias
in R^d is a hyperplane without bias on the points (x, 1) in R^(d+1), so for uniformly
random labels the probability of separability with bias is P_{d+1,n}
(``fit_intercept=True`` below).

The related growth function of linear classifiers without bias (thesis 3.4) is
G_d(n) = 2^n P_{d,n}.

The formulas live in :mod:`._counting`; the LP test, the Monte-Carlo estimate and the
table that combines them in :mod:`._simulation`. Import every name from here.
"""

from ._counting import (growth_function, log_binom, prob_separable, prob_separable_single_feature,
                        prob_separable_subspace_bounds, vc_dimension_selection)
from ._simulation import is_linearly_separable, prob_separable_subspace_mc, subset_separability

__all__ = [
    "prob_separable",
    "prob_separable_single_feature",
    "prob_separable_subspace_bounds",
    "prob_separable_subspace_mc",
    "subset_separability",
    "is_linearly_separable",
    "growth_function",
    "vc_dimension_selection",
    "log_binom",
]
