"""Column generation alone: the engine of ``solver="colgen"`` (the fast path for d >> n).

An SFM LP has n + 1 rows and 2d + 1 (+ n) columns, and an optimal basis holds at most
n + 1 non-zero weights (NC appendix A.1, Lemma 1): almost every column is irrelevant.
Column generation solves a restricted master on a working set of features - every
sample's row stays in it - and prices the rest with one product Z^T (lambda y) per
round (:mod:`.pricing`). It is :class:`~.rowgen.GenerationEngine` with the rows
unrestricted; see :mod:`.rowgen` for the rounds, the certificate and the warm sessions.

Its first master holds the 2n features with the largest |a_j| / c_j (class-mean
difference per unit cost; |Z^T y|_j / c_j without an equality row) and each round adds
up to n + 1 (one basis' worth): the choices of the column generation of the first
release, which found the SFM optimum in one pricing round in every benchmark.
"""

from numbers import Integral

from sklearn.utils._param_validation import Interval

from .highs import HighsEngine
from .rowgen import GenerationEngine

__all__ = ["ColumnGenerationEngine"]


class ColumnGenerationEngine(GenerationEngine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances by column generation.

    Parameters
    ----------
    initial_size : int >= 0 or None
        Features in the first master (default 2n).
    batch_size : int >= 1 or None
        Features added per pricing round (default n + 1).
    full_lp_below : int >= 0 or None
        Problems with at most this many columns go to ``full_lp`` (default
        ``4 * (n + 1)``, where the full LP was faster: ``benchmarks/bench_switch_point.py``).
    pricing_tol : float
        A feature enters when |g_j| > c_j (1 + pricing_tol).
    max_rounds : int
    full_lp : engine
        Used below ``full_lp_below`` and when HiGHS gives no verifiable Farkas ray
        (default :class:`~sfmlearn.lp.highs.HighsEngine`).
    """

    name = "colgen"
    # Its own names first, so that a bad initial_size is reported as that.
    _parameter_constraints = {
        "initial_size": [None, Interval(Integral, 0, None, closed="left")],
        "batch_size": [None, Interval(Integral, 1, None, closed="left")],
        "full_lp_below": [None, Interval(Integral, 0, None, closed="left")],
        **GenerationEngine._parameter_constraints,
    }

    def __init__(self, *, initial_size=None, batch_size=None, full_lp_below=None,
                 pricing_tol=1e-7, max_rounds=10_000, full_lp=None):
        self.initial_size = initial_size
        self.batch_size = batch_size
        self.full_lp_below = full_lp_below
        super().__init__(rows=False, columns=True, initial_columns=initial_size,
                         column_batch=batch_size, pricing_tol=pricing_tol, max_rounds=max_rounds,
                         full_lp=HighsEngine() if full_lp is None else full_lp)

    def restriction(self, problem):
        n, m = problem.n_samples, problem.n_columns
        threshold = 4 * (n + 1) if self.full_lp_below is None else self.full_lp_below
        return False, m > threshold
