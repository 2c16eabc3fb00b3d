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
from .colgen import ColumnGenerationEngine
from .glpk import GlpkEngine
from .highs import HighsEngine
from .problems import LPSolution, check_solution
from .protocol import LP, Engine, check_engine
from .rowgen import GenerationEngine
from .scipy_engine import ScipyEngine

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


def _auto(formulation):
    return GenerationEngine(full_lp=None if formulation == "standard" else HighsEngine(formulation))


ENGINES = {
    "auto": _auto,
    "rowcolgen": _standard_only("rowcolgen", lambda: GenerationEngine(rows=True, columns=True)),
    "rowgen": _standard_only("rowgen", lambda: GenerationEngine(rows=True, columns=False)),
    "colgen": _standard_only("colgen", lambda: ColumnGenerationEngine(full_lp_below=0)),
    "highs": HighsEngine,
    "scipy": ScipyEngine,
    "glpk": GlpkEngine,
}


class CheckedEngine(Engine):
    """An ``lp`` engine that is no :class:`~.protocol.Engine`, its answers checked like
    the built-in engines' own.

    "optimal" goes through :func:`~sfmlearn.lp.problems.check_solution`; "infeasible"
    needs a certificate, computed here (:func:`~sfmlearn.lp.certificates.certify_infeasible`,
    a phase-1 LP) whatever the engine says, or :class:`~sfmlearn.exceptions.SolverError`.
    Other attributes are the wrapped engine's.
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
    """
    if isinstance(solver, str) or solver is None:
        names = ENGINES if kind == LP else {}
        if solver in names:
            return names[solver](formulation)
        choices = f"one of {sorted(names)} or " if names else ""
        raise ValueError(f"solver must be {choices}an engine object; got {solver!r}.")
    engine = check_engine(solver, kind)
    return engine if isinstance(engine, Engine) else CheckedEngine(engine)
