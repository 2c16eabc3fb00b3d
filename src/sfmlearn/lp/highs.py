"""The default engine: HiGHS through ``highspy``, model passed in one call.

Measured on the SFM LPs (``benchmarks/bench_formulations.py``, numbers in the README):
the standard formulation with presolve off and the dual simplex is the fastest
configuration at every benchmark shape, so it is the default. Presolve costs more than
it saves on these LPs: they need only a handful of simplex iterations, and time goes
into setting the model up. Interior point without crossover would destroy the exact
zeros of a vertex solution, so it is only available with crossover on.
"""

from sklearn.utils._param_validation import StrOptions

from ..exceptions import SolverError
from .assembly import FORMULATIONS, build_matrix_lp
from .certificates import certify_infeasible
from .checks import check_optimality, check_solution
from .highs_model import dual_ray, new_highs, solve_matrix_lp_highs  # noqa: F401
from .problems import LPSolution
from .protocol import LP, TIME_LIMIT, Engine

__all__ = ["HighsEngine", "dual_ray", "new_highs", "solve_matrix_lp_highs"]

#: HiGHS' name of the time limit's model status: a limit the user set is not retried.
TIME_LIMIT_STATUS = "Time limit reached"


class HighsEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances with HiGHS.

    Each :meth:`solve` builds the matrix LP (:func:`~sfmlearn.lp.assembly.build_matrix_lp`)
    and passes it to a new, silent HiGHS model; the answer is verified: feasible
    (:func:`~sfmlearn.lp.checks.check_solution`) and certified optimal by its multipliers
    (:func:`~sfmlearn.lp.checks.check_optimality`), or a Farkas certificate for
    "infeasible", :mod:`sfmlearn.lp.certificates`) before it is returned. This is the
    registered engine ``solver="highs"``; ``solver="auto"`` keeps one model warm per fit
    instead (:class:`~sfmlearn.lp.GenerationEngine`).

    Parameters
    ----------
    formulation : {"standard", "sparse"}, default="standard"
        Matrix form (thesis 3.5, NC A.2): w = w+ - w-, or free w with s >= |w|.
    presolve : bool, default=False
        Run HiGHS' presolve (off by default: it costs more than it saves on these
        LPs, module docstring).
    method : {"simplex", "ipm"}, default="simplex"
        HiGHS' ``solver`` option; "ipm" always runs crossover so that the solution
        is a vertex with exact zeros. When the simplex ends without an answer (neither
        optimal nor infeasible, nor the time limit) the LP is solved again by "ipm".
    time_limit : float or None, default=None
        Seconds per LP (> 0); reaching it raises :class:`~sfmlearn.exceptions.SolverError`.

    Raises
    ------
    InvalidParameterError
        An option outside these values (scikit-learn's, a ``ValueError``), here, before
        any solve.

    Examples
    --------
    Both matrix forms of the same LP reach the same optimum:

    >>> import numpy as np
    >>> from sfmlearn.datasets import make_basic
    >>> from sfmlearn.lp import HighsEngine, sfm_lp
    >>> X, y = make_basic(n_samples=40, n_features=20, random_state=0)
    >>> problem = sfm_lp(X, y, np.ones(20))
    >>> sparse = HighsEngine(formulation="sparse").solve(problem)
    >>> standard = HighsEngine().solve(problem)
    >>> sparse.status, sparse.engine, bool(np.isclose(sparse.objective, standard.objective))
    ('optimal', 'highs', True)
    """

    name = "highs"
    kinds = frozenset({LP})
    _parameter_constraints = {
        "formulation": [StrOptions(set(FORMULATIONS))],
        "presolve": ["boolean"],
        "method": [StrOptions({"simplex", "ipm"})],
        "time_limit": TIME_LIMIT,
    }

    def __init__(self, formulation="standard", *, presolve=False, method="simplex", time_limit=None):
        self.formulation = formulation
        self.presolve = presolve
        self.method = method
        self.time_limit = time_limit
        self._check_options()

    def solve(self, problem):
        lp = build_matrix_lp(problem, self.formulation)
        try:
            status, x, row_dual, info = solve_matrix_lp_highs(
                lp, presolve=self.presolve, method=self.method, time_limit=self.time_limit
            )
        except SolverError as exc:
            if self.method != "simplex" or exc.status == TIME_LIMIT_STATUS:
                raise
            # The simplex ended without an answer (status "Unknown" on the hard-margin LP of
            # 1600 madelon samples): the interior point method with crossover decides.
            status, x, row_dual, info = solve_matrix_lp_highs(
                lp, presolve=self.presolve, method="ipm", time_limit=self.time_limit
            )
            info["method"] = "ipm after the simplex failed"
        if status == "infeasible":
            ray = info.pop("dual_ray")
            # Multipliers of the linking rows of the sparse formulation are 0 in any
            # valid ray (s >= 0 is unbounded above), so the margin and equality rows
            # carry the whole proof.
            rows = problem.n_samples + lp.has_equality
            info["certificate"] = certify_infeasible(
                problem, ray=None if ray is None else ray[:rows], engine="HiGHS")
            return LPSolution("infeasible", iterations=info["iterations"], engine=self.name, info=info)
        w, b, xi = lp.split(x)
        n = problem.n_samples
        result = LPSolution(
            "optimal", w=w, b=b, xi=xi, objective=info["objective"],
            margin_duals=row_dual[:n],
            equality_dual=float(row_dual[n]) if lp.has_equality else 0.0,
            iterations=info["iterations"], engine=self.name, info=info,
        )
        return check_optimality(problem, check_solution(problem, result), engine="HiGHS")
