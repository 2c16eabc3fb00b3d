"""Engine registry: one name per way of solving a :class:`HyperplaneLP`.

=========  ==============================================================================
``auto``   column generation (:mod:`.colgen`) when the LP has more than 4 (n + 1)
           columns, the full LP in HiGHS otherwise (the default; switch point measured in
           ``benchmarks/bench_solvers.py``)
``colgen`` column generation whatever the size
``highs``  the full LP in HiGHS (:mod:`.highs`)
``scipy``  the full LP through ``scipy.optimize.linprog(method="highs")``, a cross-check
``glpk``   the full LP in GLPK (optional ``swiglpk``), the thesis' open-source solver
=========  ==============================================================================

Estimators accept a name or an engine instance, so options can be passed:
``SupportFeatureMachine(solver=HighsEngine(presolve=True))``.
"""

from .colgen import ColumnGenerationEngine
from .glpk import GlpkEngine
from .highs import HighsEngine
from .scipy_engine import ScipyEngine

__all__ = ["ENGINES", "make_engine"]

ENGINES = {
    "auto": lambda formulation: ColumnGenerationEngine(full_lp=HighsEngine(formulation)),
    "colgen": lambda formulation: ColumnGenerationEngine(full_lp_below=0),
    "highs": HighsEngine,
    "scipy": ScipyEngine,
    "glpk": GlpkEngine,
}


def make_engine(solver, formulation="standard"):
    """Resolve ``solver`` (a registered name or an object with ``solve``) to an engine."""
    if hasattr(solver, "solve"):
        return solver
    try:
        factory = ENGINES[solver]
    except (KeyError, TypeError):
        raise ValueError(
            f"solver must be one of {sorted(ENGINES)} or an engine object; got {solver!r}."
        ) from None
    return factory(formulation)
