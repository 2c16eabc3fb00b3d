"""A cross-check engine: ``scipy.optimize.linprog(method="highs")`` on the same matrices.

It solves exactly the LP that :class:`~sfmlearn.lp.highs.HighsEngine` solves, through
SciPy's own HiGHS binding and its ``A_ub x <= b_ub`` / ``A_eq x = b_eq`` interface, so
disagreements point at our model building or at a solver interface, not at the maths.
"""

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.utils._param_validation import StrOptions

from ..exceptions import SolverError
from .certificates import certify_infeasible
from .assembly import FORMULATIONS, build_matrix_lp
from .checks import check_optimality, check_solution
from .problems import LPSolution
from .protocol import LP, TIME_LIMIT, Engine

__all__ = ["ScipyEngine"]


class ScipyEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` with ``scipy.optimize.linprog``.

    The registered engine ``solver="scipy"``: the same matrix LP as
    :class:`~sfmlearn.lp.highs.HighsEngine`, through SciPy's interface, as a
    cross-check. Answers are verified like every built-in engine's.

    Parameters
    ----------
    formulation : {"standard", "sparse"}, default="standard"
        Matrix form (thesis 3.5, NC A.2): w = w+ - w-, or free w with s >= |w|.
    method : {"highs", "highs-ds", "highs-ipm"}, default="highs"
        ``linprog``'s ``method`` (its HiGHS methods: the others report no row duals,
        which the optimality check needs).
    time_limit : float or None, default=None
        Seconds per LP (> 0); reaching it raises :class:`~sfmlearn.exceptions.SolverError`.

    Raises
    ------
    InvalidParameterError
        An option outside these values (scikit-learn's, a ``ValueError``), here, before
        any solve.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.datasets import make_nonseparable
    >>> from sfmlearn.lp import HighsEngine, ScipyEngine, weston_lp
    >>> X, y = make_nonseparable(n_samples=40, n_features=10, class_distance=2.0, random_state=0)
    >>> problem = weston_lp(X, y, np.ones(10), slack_cost=np.ones(40))
    >>> scipy_objective = ScipyEngine().solve(problem).objective
    >>> bool(np.isclose(scipy_objective, HighsEngine().solve(problem).objective))
    True
    """

    name = "scipy"
    kinds = frozenset({LP})
    _parameter_constraints = {
        "formulation": [StrOptions(set(FORMULATIONS))],
        "method": [StrOptions({"highs", "highs-ds", "highs-ipm"})],
        "time_limit": TIME_LIMIT,
    }

    def __init__(self, formulation="standard", *, method="highs", time_limit=None):
        self.formulation = formulation
        self.method = method
        self.time_limit = time_limit
        self._check_options()

    def solve(self, problem):
        lp = build_matrix_lp(problem, self.formulation)
        A = sp.csr_array(lp.to_scipy())
        is_eq = lp.row_lower == lp.row_upper
        # Every other row of our LPs is "row >= lower" with no upper bound.
        ub_rows = np.flatnonzero(~is_eq)
        eq_rows = np.flatnonzero(is_eq)
        options = {"presolve": False}
        if self.time_limit is not None:
            options["time_limit"] = float(self.time_limit)
        res = linprog(
            lp.cost,
            A_ub=-A[ub_rows], b_ub=-lp.row_lower[ub_rows],
            A_eq=A[eq_rows] if eq_rows.size else None,
            b_eq=lp.row_lower[eq_rows] if eq_rows.size else None,
            bounds=np.column_stack([lp.col_lower, lp.col_upper]),
            method=self.method, options=options,
        )
        info = {"iterations": int(getattr(res, "nit", 0)), "scipy_status": res.status,
                "message": res.message}
        if res.status == 2:
            info["certificate"] = certify_infeasible(problem, engine="scipy.optimize.linprog")
            return LPSolution("infeasible", iterations=info["iterations"], engine=self.name, info=info)
        if res.status != 0:
            raise SolverError(
                f"scipy.optimize.linprog stopped with status {res.status}: {res.message}",
                status=res.message,
            )
        w, b, xi = lp.split(res.x)
        n = problem.n_samples
        result = LPSolution(
            "optimal", w=w, b=b, xi=xi, objective=float(res.fun),
            margin_duals=-np.asarray(res.ineqlin.marginals)[:n],
            equality_dual=float(res.eqlin.marginals[0]) if eq_rows.size else 0.0,
            iterations=info["iterations"], engine=self.name, info=info,
        )
        return check_optimality(problem, check_solution(problem, result), engine="scipy's linprog")
