"""Linear programming: one problem model (:mod:`.problems`), its matrix form
(:mod:`.assembly`) and the check of every answer (:mod:`.checks`), several engines.

Every engine follows the protocol of :mod:`.protocol`; :mod:`.engines` is the registry
of the names estimators accept as ``solver``.
"""

from .checks import check_solution
from .engines import ENGINES, CheckedEngine, make_engine
from .highs import HighsEngine
from .problems import HyperplaneLP, LPSolution, sfm_lp, weston_lp
from .protocol import KINDS, Engine, check_engine
from .rowgen import GenerationEngine
from .scipy_engine import ScipyEngine

__all__ = [
    "ENGINES", "KINDS", "CheckedEngine", "Engine", "check_engine", "make_engine",
    "GenerationEngine", "HighsEngine", "ScipyEngine",
    "HyperplaneLP", "LPSolution", "check_solution", "sfm_lp", "weston_lp",
]
