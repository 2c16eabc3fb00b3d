"""What a generation session keeps between the problems it solves on the same data.

The master model, the partition of the samples into ``ROW`` (a master row), ``OUT``
(assumed satisfied) and ``ERR`` (assumed a margin error, in its class's aggregated row),
the per-sample counters that decide when an idle row leaves the master, and the
solutions of the current and the previous run of the reweighting loop, from which the
next problem starts.
"""

from typing import NamedTuple

import numpy as np

from ..master import Master
from . import tuning

__all__ = ["ERR", "OUT", "ROW", "SessionState", "Solved", "locate"]

OUT, ROW, ERR = 0, 1, 2


def locate(haystack, needles):
    """(positions in ``haystack`` of the ``needles`` found there, mask of those found)."""
    needles = np.asarray(needles)
    if haystack.size == 0 or needles.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(needles.size, dtype=bool)
    order = np.argsort(haystack, kind="stable")
    at = order[np.minimum(np.searchsorted(haystack, needles, sorter=order), haystack.size - 1)]
    found = haystack[at] == needles
    return at[found].astype(np.intp), found


class Solved(NamedTuple):
    """One solution kept as a start: raw feature ids of its support, their weights, the
    bias and the right-hand side of the equality it satisfied (0 without one)."""

    ids: np.ndarray
    w: np.ndarray
    b: float
    rhs: float


def data_key(problem):
    """What must not change for a master to serve ``problem``: the data objects, the
    margin, the kind of equality, the intercept and the softness."""
    X, eq = problem.X, problem.equality
    return (id(X.X), id(X.factor), id(X.mean), X.shape[0], float(problem.margin),
            None if eq is None else float(eq.bias_coef), bool(problem.fit_intercept),
            problem.is_soft)


class SessionState:
    """The master and the sample partition of one session on one data set."""

    def __init__(self, problem):
        eq = problem.equality
        self.master = Master(problem.y, problem.margin, None if eq is None else eq.bias_coef,
                             problem.fit_intercept, problem.is_soft, tuning.TIGHT_TOLERANCES)
        self.key = data_key(problem)
        self.data = problem.X.X
        n = problem.n_samples
        self.partition = np.full(n, OUT, dtype=np.int8)
        self._errors = None  # error_classes of the current partition (repartition and admit reset it)
        self.inactive = np.zeros(n, dtype=np.int64)  # consecutive idle solves of each row
        self.drops = np.zeros(n, dtype=np.int64)  # times each sample left the master
        self.last = None  # Solved: the last problem's solution
        self.this_run = []  # Solved of every problem of the current run, in order
        self.last_run = []  # ... and of the run before
        self.n_columns = None  # columns of the last problem
        self.pool = np.zeros(0, dtype=np.int64)  # last broad working set of feature ids

    def serves(self, problem):
        """Whether ``problem`` is on this state's data (else the session starts anew)."""
        return (self.key == data_key(problem) and problem.X.X is self.data
                and np.array_equal(problem.y, self.master.y))

    def begin(self, n_columns):
        """(new run, step) for a problem with ``n_columns`` columns. A problem with more
        columns than the last one starts a new run of the reweighting loop (the other
        sign, the next repetition): its k-th problem resembles the k-th of the last run
        more than the last one."""
        new_run = self.n_columns is None or n_columns > self.n_columns
        if new_run:
            self.last_run, self.this_run = self.this_run, []
        return new_run, len(self.this_run)

    def record(self, solved, n_columns, pool=None):
        """Keep a problem's solution as the start of the next one."""
        self.last = solved
        self.this_run.append(solved)
        self.n_columns = n_columns
        if pool is not None:
            self.pool = pool

    def error_classes(self, y):
        """The ``ERR`` samples of the class y = +1 and of the class y = -1 (``y``: the
        session's labels; computed once per partition, asked for many times a round)."""
        if self._errors is None:
            err = self.partition == ERR
            self._errors = (np.flatnonzero(err & (y > 0)), np.flatnonzero(err & (y < 0)))
        return self._errors

    def repartition(self, new_partition):
        """Adopt ``new_partition``: (samples leaving the master, samples entering it).
        A leaving sample counts a drop and restarts its idle count."""
        leaving = np.flatnonzero((self.partition == ROW) & (new_partition != ROW))
        entering = np.flatnonzero((self.partition != ROW) & (new_partition == ROW))
        self.drops[leaving] += 1
        self.inactive[leaving] = 0
        self.partition[:] = new_partition
        self._errors = None
        return leaving, entering

    def admit(self, samples):
        """``samples`` get master rows during a solve (they never leave one then)."""
        self.partition[samples] = ROW
        self._errors = None

    def count_idle(self, rows, idle):
        """One more idle solve for the master ``rows`` where ``idle``; the others restart."""
        self.inactive[rows[idle]] += 1
        self.inactive[rows[~idle]] = 0
