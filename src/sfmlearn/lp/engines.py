"""Engine registry: one name per way of solving a :class:`HyperplaneLP`.

=============  ==========================================================================
``auto``       row and/or column generation (:mod:`.rowgen`), chosen from the shape: the
               samples are restricted from 500 samples on, the features when there are
               more than 4 times as many columns as master rows (switch points measured
               by ``benchmarks/bench_switch_point.py``); otherwise the full LP, kept warm
               in one HiGHS model per fit (the default)
``rowcolgen``  row and column generation whatever the shape
``rowgen``     row generation alone (every feature in the master)
``colgen``     column generation alone (every sample in the master; :mod:`.colgen`)
``highs``      the full LP in HiGHS, a new model per solve (:mod:`.highs`)
``scipy``      the full LP through ``scipy.optimize.linprog(method="highs")``, a cross-check
``glpk``       the full LP in GLPK (optional ``swiglpk``), the thesis' open-source solver
=============  ==========================================================================

Estimators accept a name or an engine instance, so options can be passed:
``SupportFeatureMachine(solver=HighsEngine(presolve=True))``. Every engine follows the
protocol of :mod:`.protocol`, checked once by :func:`make_engine` when an estimator
sets up its fit. The engines above verify their own answers (an "optimal" against every
row, an "infeasible" with a Farkas certificate, :mod:`.certificates`); any other object
with ``solve`` is wrapped in :class:`CheckedEngine`, so that its answers get the same
checks before an estimator sees them.

``formulation`` (thesis 3.5: ``"standard"`` w = w+ - w-, or ``"sparse"`` free w with
s >= |w|) is a property of the full LP. The generation masters are always the standard
form (the sparse form would add two rows per feature to a master that is meant to be
small), so:

* ``solver="colgen"``, ``"rowgen"`` and ``"rowcolgen"`` with ``formulation="sparse"``
  raise ``ValueError`` instead of silently solving the standard form;
* ``solver="auto"`` with ``formulation="sparse"`` solves the problems it does not
  restrict as full sparse-form LPs in HiGHS (cold), and uses the sparse full LP when a
  master has no Farkas ray. Both forms have the same optimal value, so only speed and,
  on degenerate LPs, the chosen vertex can differ.
"""

from ..exceptions import SolverError
from .certificates import certify_infeasible
from .checks import check_solution
from .problems import LPSolution
from .protocol import LP, Engine, check_engine

__all__ = ["ENGINES", "make_engine", "CheckedEngine"]


def _standard_only(name, make):
    def build(formulation):
        if formulation != "standard":
            raise ValueError(
                f"solver={name!r} solves the standard formulation only (its master is always "
                f"w = w+ - w-); got formulation={formulation!r}. Use formulation='standard', or "
                "solver='highs' for the sparse formulation."
            )
        return make()
    return build


# Each builder imports its engine when chosen. ``sfmlearn.lp`` itself imports the HiGHS,
# generation and SciPy engines, so this defers only the column-generation and GLPK ones.

def _auto(formulation):
    from .highs import HighsEngine
    from .rowgen import GenerationEngine

    return GenerationEngine(full_lp=None if formulation == "standard" else HighsEngine(formulation))


def _generation(rows, columns):
    from .rowgen import GenerationEngine

    return GenerationEngine(rows=rows, columns=columns)


def _colgen():
    from .colgen import ColumnGenerationEngine

    return ColumnGenerationEngine(full_lp_below=0)


def _highs(formulation):
    from .highs import HighsEngine

    return HighsEngine(formulation)


def _scipy(formulation):
    from .scipy_engine import ScipyEngine

    return ScipyEngine(formulation)


def _glpk(formulation):
    from .glpk import GlpkEngine

    return GlpkEngine(formulation)


ENGINES = {
    "auto": _auto,
    "rowcolgen": _standard_only("rowcolgen", lambda: _generation(rows=True, columns=True)),
    "rowgen": _standard_only("rowgen", lambda: _generation(rows=True, columns=False)),
    "colgen": _standard_only("colgen", _colgen),
    "highs": _highs,
    "scipy": _scipy,
    "glpk": _glpk,
}


class CheckedEngine(Engine):
    """An ``lp`` engine that is no :class:`~.protocol.Engine`, its answers checked like
    the built-in engines' own.

    "optimal" goes through :func:`~sfmlearn.lp.checks.check_solution`; "infeasible"
    needs a certificate, computed here (:func:`~sfmlearn.lp.certificates.certify_infeasible`,
    a phase-1 LP) whatever the engine says, or :class:`~sfmlearn.exceptions.SolverError`.
    Other attributes are the wrapped engine's. :func:`make_engine` wraps such objects
    itself; there is rarely a reason to build one by hand.

    Parameters
    ----------
    engine : object
        Anything with a method ``solve(problem) -> LPSolution`` for
        :class:`~sfmlearn.lp.problems.HyperplaneLP` problems.

    Examples
    --------
    A home-made engine whose answer violates the rows is caught before an estimator
    sees it:

    >>> import numpy as np
    >>> from sfmlearn.lp import LPSolution, make_engine, weston_lp
    >>> class Zero:
    ...     def solve(self, problem):
    ...         return LPSolution("optimal", w=np.zeros(problem.n_columns), objective=0.0)
    >>> engine = make_engine(Zero())
    >>> type(engine).__name__, engine.name
    ('CheckedEngine', 'Zero')
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> engine.solve(weston_lp(X, y, np.ones(2)))
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.ConstraintViolationError: LP solution violates margin row 0: ...
    """

    kinds = frozenset({LP})

    def __init__(self, engine):
        self.engine = engine
        self.name = getattr(engine, "name", type(engine).__name__)

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def solve(self, problem):
        solution = self.engine.solve(problem)
        name = self.name
        if not isinstance(solution, LPSolution):
            raise SolverError(f"The engine {name!r} returned {type(solution).__name__}; an "
                              "engine must return an sfmlearn.lp.problems.LPSolution.",
                              status="not an LPSolution")
        if solution.status == "infeasible":
            solution.info["certificate"] = certify_infeasible(problem, engine=f"The engine {name!r}")
            return solution
        if solution.status != "optimal":
            raise SolverError(f"The engine {name!r} returned status {solution.status!r}; an "
                              "engine must return 'optimal' or 'infeasible' (or raise).",
                              status=str(solution.status))
        return check_solution(problem, solution)


def make_engine(solver, formulation="standard", kind=LP):
    """The engine for ``solver``: a registered name (``lp`` problems) or an engine object.

    The object is checked against the protocol for problems of ``kind``
    (:func:`~sfmlearn.lp.protocol.check_engine`: ``TypeError`` if it cannot solve
    them); an object that is no :class:`~sfmlearn.lp.protocol.Engine` is wrapped in
    :class:`CheckedEngine`. An unknown name raises ``ValueError``.

    Parameters
    ----------
    solver : str or engine
        A key of :data:`ENGINES` (module docstring), or an engine object.
    formulation : {"standard", "sparse"}, default="standard"
        The matrix form of the full LP (thesis 3.5) given to a named engine; ignored
        for an engine object. The generation engines accept "standard" only.
    kind : str, default="lp"
        The kind of problem the caller builds, a key of
        :data:`~sfmlearn.lp.protocol.KINDS`; names are registered for ``lp`` only.

    Returns
    -------
    Engine
        The named engine, ``solver`` itself if it is an :class:`~sfmlearn.lp.protocol.Engine`,
        or ``solver`` wrapped in :class:`CheckedEngine`.

    Raises
    ------
    ValueError
        Unknown name, or a formulation the named engine cannot solve.
    TypeError
        An object that cannot solve problems of ``kind``.

    Examples
    --------
    >>> from sfmlearn.lp import make_engine
    >>> make_engine("highs", "sparse").formulation
    'sparse'
    >>> type(make_engine("auto")).__name__
    'GenerationEngine'
    >>> make_engine("simplex")
    Traceback (most recent call last):
    ...
    ValueError: solver must be one of [...] or an engine object; got 'simplex'.
    """
    if isinstance(solver, str) or solver is None:
        names = ENGINES if kind == LP else {}
        if solver in names:
            return names[solver](formulation)
        choices = f"one of {sorted(names)} or " if names else ""
        raise ValueError(f"solver must be {choices}an engine object; got {solver!r}.")
    engine = check_engine(solver, kind)
    return engine if isinstance(engine, Engine) else CheckedEngine(engine)
