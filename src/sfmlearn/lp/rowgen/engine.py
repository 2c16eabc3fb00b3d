"""The generation engine and its sessions (warm state over a sequence of problems)."""

from dataclasses import KW_ONLY, dataclass
from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, StrOptions

from ..engines import make_engine
from ..highs import HighsEngine
from ..protocol import LP, Engine
from . import tuning
from .loop import GenerationLoop
from .state import SessionState

__all__ = ["GenerationEngine", "GenerationSession"]


@dataclass(eq=False)
class GenerationEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances by row and column
    generation (:mod:`sfmlearn.lp.rowgen`), warm across a session.

    Parameters
    ----------
    rows, columns : {"auto", True, False}
        Whether the samples / the features are restricted to working sets.
    initial_rows : int >= 0 or None
        Samples in the first master when the rows are restricted (default 100: those
        nearest the class-mean hyperplane).
    initial_columns : int >= 0 or None
        Features in the first master when the columns are restricted (default twice
        the master's rows: the largest |a_j| / c_j, or |Z^T (C y)|_j / c_j without an
        equality row).
    row_batch, column_batch : int >= 1 or None
        Samples (default: the initial rows) and features (default: master rows + 1)
        added per round.
    pricing_tol : float >= 0
        A feature enters when |g_j| > c_j (1 + pricing_tol).
    max_rounds : int >= 1
        Master solves per problem; reaching it raises
        :class:`~sfmlearn.exceptions.SolverError`.
    full_lp : engine, engine name or None
        Solves problems where neither side is restricted (None: the warm master does),
        and problems whose master is infeasible without a verifiable Farkas ray
        (None: :class:`~sfmlearn.lp.highs.HighsEngine`). A name or an object that is no
        :class:`~sfmlearn.lp.protocol.Engine` goes through
        :func:`~sfmlearn.lp.engines.make_engine`.

    Raises
    ------
    InvalidParameterError
        An option outside these values (scikit-learn's, a ``ValueError``), here, before
        any solve.

    Examples
    --------
    A soft SFM LP on 600 samples, solved on a working set of them:

    >>> import numpy as np
    >>> from sfmlearn.datasets import make_nonseparable
    >>> from sfmlearn.lp import GenerationEngine, HighsEngine, sfm_lp
    >>> X, y = make_nonseparable(n_samples=600, n_features=50, random_state=0)
    >>> problem = sfm_lp(X, y, np.ones(50), slack_cost=np.ones(600))
    >>> solution = GenerationEngine(rows=True).solve(problem)
    >>> solution.info["working_rows"] < 600
    True
    >>> bool(np.isclose(solution.objective, HighsEngine().solve(problem).objective))
    True
    """

    name = "auto"
    kinds = frozenset({LP})

    rows: object = "auto"
    columns: object = "auto"
    _: KW_ONLY
    initial_rows: int | None = None
    initial_columns: int | None = None
    row_batch: int | None = None
    column_batch: int | None = None
    pricing_tol: float = 1e-7
    max_rounds: int = 10_000
    full_lp: object = None

    _parameter_constraints = {
        "rows": [StrOptions({"auto"}), "boolean"],
        "columns": [StrOptions({"auto"}), "boolean"],
        "initial_rows": [None, Interval(Integral, 0, None, closed="left")],
        "initial_columns": [None, Interval(Integral, 0, None, closed="left")],
        "row_batch": [None, Interval(Integral, 1, None, closed="left")],
        "column_batch": [None, Interval(Integral, 1, None, closed="left")],
        "pricing_tol": [Interval(Real, 0, None, closed="left")],
        "max_rounds": [Interval(Integral, 1, None, closed="left")],
    }

    def __post_init__(self):
        self._check_options()
        if self.full_lp is not None:
            make_engine(self.full_lp)  # an unknown name or an object without solve fails here

    def session(self):
        """A :class:`GenerationSession`: solves problems on the same data warm."""
        return GenerationSession(self)

    def solve(self, problem):
        """One problem, cold. Without a restriction the full LP is passed to HiGHS in one
        call, which is faster than building a master to keep warm (the session does
        that when more problems follow)."""
        if self.restriction(problem) == (False, False):
            return self.fallback().solve(problem)
        return self.session().solve(problem)

    # -- the defaults the parameters leave to the problem's shape ---------------------
    def restriction(self, problem):
        """(restrict rows, restrict columns) for ``problem``: "auto" restricts the samples
        from :data:`~.tuning.ROWS_FROM` on and the features beyond
        :data:`~.tuning.COLUMN_RATIO` times the master's expected rows + 1."""
        n, m = problem.n_samples, problem.n_columns
        rows = n >= tuning.ROWS_FROM if self.rows == "auto" else bool(self.rows)
        if self.columns != "auto":
            return rows, bool(self.columns)
        expected_rows = min(n, self.initial_row_count(n)) if rows else n
        return rows, m > tuning.COLUMN_RATIO * (expected_rows + 1)

    def initial_row_count(self, n):
        """Samples in the first master of an ``n``-sample problem."""
        return min(n, tuning.INITIAL_ROWS if self.initial_rows is None else self.initial_rows)

    def initial_column_count(self, n, restrict_rows):
        """Features in the first master: twice its rows unless ``initial_columns``."""
        if self.initial_columns is not None:
            return self.initial_columns
        return 2 * (self.initial_row_count(n) if restrict_rows else n)

    def row_batch_size(self, n):
        """Hard violated samples given rows per round."""
        return self.row_batch if self.row_batch is not None else max(self.initial_row_count(n), 1)

    def column_batch_size(self, master_rows):
        """Features added per round."""
        return self.column_batch if self.column_batch is not None else master_rows + 1

    def fallback(self):
        """The full-LP engine of unrestricted and unprovable problems: ``full_lp``
        through :func:`~sfmlearn.lp.engines.make_engine` (a name, an engine, or an
        object whose answers get checked), or :class:`~sfmlearn.lp.highs.HighsEngine`."""
        return HighsEngine() if self.full_lp is None else make_engine(self.full_lp)

    @staticmethod
    def subsample_engine(columns):
        """The engine of a cold start's subsample LP: every sample's row."""
        return GenerationEngine(rows=False, columns=columns)


class GenerationSession:
    """Warm state of a :class:`GenerationEngine` over a sequence of problems on the same
    data (:mod:`sfmlearn.lp.rowgen`, "Sessions"): one HiGHS model and the partition of
    the samples. A problem on other data starts anew. Not thread-safe, not picklable:
    create it inside the fit that uses it."""

    def __init__(self, engine):
        self.engine = engine
        self.state = None

    def solve(self, problem):
        """Solve ``problem`` from the state the previous problems left."""
        engine = self.engine
        rows, columns = engine.restriction(problem)
        if not rows and not columns and engine.full_lp is not None:
            return engine.fallback().solve(problem)
        if self.state is None or not self.state.serves(problem):
            self.state = SessionState(problem)
        return GenerationLoop(engine, self.state, problem, rows, columns).run()

    @property
    def master(self):
        """The session's HiGHS model (:class:`~sfmlearn.lp.master.Master`), None before
        the first problem."""
        return None if self.state is None else self.state.master

