"""Linear programming: one problem model (:mod:`.problems`), its matrix form
(:mod:`.assembly`) and the check of every answer (:mod:`.checks`), several engines.

Every engine follows the protocol of :mod:`.protocol`; :mod:`.engines` is the registry
of the names estimators accept as ``solver``.
"""

from .assembly import FORMULATIONS, MatrixLP, build_matrix_lp, data_columns
from .checks import FEASIBILITY_TOL, check_solution
from .engines import ENGINES, CheckedEngine, make_engine
from .highs import HighsEngine
from .problems import Equality, HyperplaneLP, LPSolution, class_mean_weights, sfm_lp, weston_lp
from .protocol import KINDS, Engine, check_engine
from .rowgen import GenerationEngine
from .scipy_engine import ScipyEngine

__all__ = [
    "ENGINES", "KINDS", "CheckedEngine", "Engine", "check_engine", "make_engine",
    "GenerationEngine", "HighsEngine", "ScipyEngine",
    "Equality", "HyperplaneLP", "LPSolution", "check_solution", "class_mean_weights", "sfm_lp",
    "weston_lp", "FEASIBILITY_TOL", "FORMULATIONS", "MatrixLP", "build_matrix_lp", "data_columns",
]
