"""Row and column generation: the SFM-family LPs cheap in samples *and* features.

At an optimum of an LP of :mod:`sfmlearn.lp.problems` at most n + 1 weights are
non-zero (NC appendix A.1) and only the samples on the margin (t_i = margin, t_i =
y_i (z_i . w + b)) carry the basis. A *restricted master* (:mod:`.working`) holds working
sets of both; every other sample is ``OUT`` (assumed satisfied) or ``ERR`` (assumed a
margin error, summed per class into one aggregated row, :mod:`sfmlearn.lp.master`,
which keeps the master a bounded relaxation). Each round solves the master, moves the
samples whose assumption fails into it (:mod:`.partition`) and prices every column with
the extended multipliers (:mod:`sfmlearn.lp.pricing`); Dedieu, Mazumder & Wang (JMLR
2022, arXiv 1901.01585) showed how effective the combination is for l1-SVMs. With a
consistent partition and no column pricing out, the master's optimum is the full LP's;
it is returned only with its certificate (:mod:`.certificates`).

**Starts** (:mod:`.starts`): a cold soft solve starts from FISTA on l1-``LinearSVC``'s
objective (:mod:`sfmlearn.lp.first_order`; Beck & Teboulle 2009), a cold hard one from
the LP on a subsample; a warm one from the previous solution, scaled to the new
right-hand side (mirrored for the other sign of the soft SFM).

**Sessions** (:class:`GenerationSession`, :mod:`.state`): one HiGHS model and the
partition serve a sequence of problems on the same data - the reweighting loop, both
signs of the soft SFM, the repetitions of the repetitive SFM, a path of slack costs -
each with any subset of the columns, new costs and right-hand side.

**Modes**: ``rows`` and ``columns`` ("auto", True, False) say what is restricted; "auto"
decides from the shape (:mod:`.tuning`). How the constants were chosen, with the
benchmark commands that measure them: the guide's row-generation page.
"""

from .engine import GenerationEngine, GenerationSession
from .state import ERR, OUT, ROW  # noqa: F401
from .tuning import (COLD_ERRORS_GET_ROWS, COLUMN_RATIO, DROP_AFTER,  # noqa: F401
                     FIRST_ORDER_FROM, FIRST_ORDER_SAMPLES_PER_COLUMN, GAP_TOL, MAX_DROPS,
                     ON_MARGIN, ROWS_FROM, SUBSAMPLE, WARM_BAND)

__all__ = ["GenerationEngine"]
