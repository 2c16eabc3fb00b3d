"""Linear programming: one problem builder (:mod:`.problems`), several engines."""

from .engines import ENGINES, make_engine
from .highs import HighsEngine
from .problems import HyperplaneLP, LPSolution, check_solution, sfm_lp, weston_lp
from .scipy_engine import ScipyEngine

__all__ = [
    "ENGINES", "make_engine", "HighsEngine", "ScipyEngine",
    "HyperplaneLP", "LPSolution", "check_solution", "sfm_lp", "weston_lp",
]
