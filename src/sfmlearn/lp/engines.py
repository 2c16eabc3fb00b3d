"""Engine registry: one name per way of solving a :class:`HyperplaneLP`.

``make_engine("highs")`` returns the default engine. Estimators accept either a name
(``solver="highs"``) or an engine instance, so a user can pass options:
``SupportFeatureMachine(solver=HighsEngine(presolve=True))``.
"""

from .highs import HighsEngine
from .scipy_engine import ScipyEngine

__all__ = ["ENGINES", "make_engine"]

ENGINES = {
    "highs": HighsEngine,
    "scipy": ScipyEngine,
}


def make_engine(solver, formulation="standard"):
    """Resolve ``solver`` (a registered name or an object with ``solve``) to an engine."""
    if hasattr(solver, "solve"):
        return solver
    try:
        cls = ENGINES[solver]
    except (KeyError, TypeError):
        raise ValueError(
            f"solver must be one of {sorted(ENGINES)} or an engine object; got {solver!r}."
        ) from None
    return cls(formulation=formulation)
