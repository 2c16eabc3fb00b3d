"""GLPK, the open-source solver of the thesis' run-time study (thesis 4.3), via swiglpk.

Optional (``pip install sfmlearn[glpk]``); used as a reference engine in the benchmarks.
It solves the same matrix LP as :class:`~sfmlearn.lp.highs.HighsEngine` with GLPK's
primal/dual simplex (``glp_simplex``) and default options, like the thesis did.
``info["solve_seconds"]`` is the time inside ``glp_simplex`` alone, as measured in the
thesis ("only the time consumed by the entire solver").
"""

import time

import numpy as np
from sklearn.utils._param_validation import StrOptions

from ..exceptions import SolverError
from .certificates import certify_infeasible
from .assembly import FORMULATIONS, build_matrix_lp
from .checks import check_optimality, check_solution
from .problems import LPSolution
from .protocol import LP, Engine

__all__ = ["GlpkEngine"]


def _glpk():
    try:
        import swiglpk
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "solver='glpk' needs the swiglpk package: pip install swiglpk "
            "(or pip install 'sfmlearn[glpk]')"
        ) from exc
    return swiglpk


class GlpkEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances with GLPK's simplex."""

    name = "glpk"
    kinds = frozenset({LP})
    _parameter_constraints = {"formulation": [StrOptions(set(FORMULATIONS))]}

    def __init__(self, formulation="standard"):
        self.formulation = formulation
        self._check_options()

    def solve(self, problem):
        glp = _glpk()
        lp = build_matrix_lp(problem, self.formulation)
        n_rows, n_cols = lp.shape
        prob = glp.glp_create_prob()
        try:
            glp.glp_set_obj_dir(prob, glp.GLP_MIN)
            glp.glp_add_rows(prob, n_rows)
            glp.glp_add_cols(prob, n_cols)
            for i in range(n_rows):
                lo, hi = lp.row_lower[i], lp.row_upper[i]
                kind = glp.GLP_FX if lo == hi else glp.GLP_LO
                glp.glp_set_row_bnds(prob, i + 1, kind, float(lo), float(hi if lo == hi else 0.0))
            for j in range(n_cols):
                lo, hi = lp.col_lower[j], lp.col_upper[j]
                if np.isinf(lo) and np.isinf(hi):
                    kind, lo, hi = glp.GLP_FR, 0.0, 0.0
                elif lo == hi:
                    kind = glp.GLP_FX
                else:
                    kind, hi = glp.GLP_LO, 0.0
                glp.glp_set_col_bnds(prob, j + 1, kind, float(lo), float(hi))
                glp.glp_set_obj_coef(prob, j + 1, float(lp.cost[j]))
            columns = np.repeat(np.arange(n_cols), np.diff(lp.start))
            nnz = int(lp.value.size)
            # GLPK arrays are 1-based (element 0 unused); swiglpk fills them one by one.
            rows, cols, vals = glp.intArray(nnz + 1), glp.intArray(nnz + 1), glp.doubleArray(nnz + 1)
            for k, (i, j, v) in enumerate(zip((lp.index + 1).tolist(), (columns + 1).tolist(),
                                              lp.value.tolist()), start=1):
                rows[k], cols[k], vals[k] = i, j, v
            glp.glp_load_matrix(prob, nnz, rows, cols, vals)
            params = glp.glp_smcp()
            glp.glp_init_smcp(params)
            params.msg_lev = glp.GLP_MSG_OFF
            started = time.perf_counter()
            code = glp.glp_simplex(prob, params)
            seconds = time.perf_counter() - started
            status = glp.glp_get_status(prob)
            info = {"solve_seconds": seconds, "iterations": 0, "glpk_status": status}
            if status in (glp.GLP_NOFEAS, glp.GLP_INFEAS) and code == 0:
                info["certificate"] = certify_infeasible(problem, engine="GLPK")
                return LPSolution("infeasible", engine=self.name, info=info)
            if code != 0 or status != glp.GLP_OPT:
                raise SolverError(f"GLPK stopped with return code {code}, status {status}.",
                                  status=str(status))
            x = np.array([glp.glp_get_col_prim(prob, j + 1) for j in range(n_cols)])
            duals = np.array([glp.glp_get_row_dual(prob, i + 1) for i in range(n_rows)])
            objective = glp.glp_get_obj_val(prob)
        finally:
            glp.glp_delete_prob(prob)
        w, b, xi = lp.split(x)
        n = problem.n_samples
        result = LPSolution(
            "optimal", w=w, b=b, xi=xi, objective=objective, margin_duals=duals[:n],
            equality_dual=float(duals[n]) if lp.has_equality else 0.0,
            engine=self.name, info=info,
        )
        return check_optimality(problem, check_solution(problem, result), engine="GLPK")
