"""The default engine: HiGHS through ``highspy``, model passed in one call.

Measured on the SFM LPs (``benchmarks/bench_formulations.py``, numbers in the README):
the standard formulation with presolve off and the dual simplex is the fastest
configuration at every benchmark shape, so it is the default. Presolve costs more than
it saves on these LPs: they need only a handful of simplex iterations, and time goes
into setting the model up. Interior point without crossover would destroy the exact
zeros of a vertex solution, so it is only available with crossover on.
"""

import time

import highspy
import numpy as np

from ..exceptions import SolverError
from ..outputs.streams import stdout_to_devnull
from .certificates import certify_infeasible
from .problems import LPSolution, build_matrix_lp, check_solution
from .protocol import LP, Engine

__all__ = ["HighsEngine", "dual_ray", "new_highs", "solve_matrix_lp_highs"]

_STATUS = highspy.HighsModelStatus


def new_highs(**options):
    """A silent ``highspy.Highs`` with the given options set: the one place models are made.

    ``output_flag`` is switched off, and the construction runs with file descriptor 1
    pointed at ``os.devnull`` (:func:`sfmlearn.outputs.streams.stdout_to_devnull`): highspy
    1.16 prints its banner on stdout while constructing, before any option can be set,
    and older or newer versions may log elsewhere in the constructor. Nothing reaches
    stdout whatever the version; log output after construction is off by the flag.

    Cost (highspy 1.16, Linux, median of 2000 constructions, stdout a file): 0.035 ms for
    a bare ``highspy.Highs()``, 0.049 ms through this factory, i.e. about 14 us for the
    lock, the two flushes and the descriptor swaps - negligible against the 1-100 ms an
    SFM LP takes. (HiGHS prints its banner at the first construction in a process only,
    which is why a leak was easy to miss.)

    Options are HiGHS option names (``presolve="off"``, ``time_limit=10.0`` ...); an
    unknown name or a rejected value raises ``ValueError``.
    """
    with stdout_to_devnull():
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
    for name, value in options.items():
        if h.setOptionValue(name, value) != highspy.HighsStatus.kOk:
            raise ValueError(f"HiGHS rejected the option {name}={value!r}.")
    return h


def solve_matrix_lp_highs(lp, *, presolve=False, method="simplex", time_limit=None,
                          objective_bound=None):
    """Solve a :class:`~sfmlearn.lp.problems.MatrixLP`; returns (status, x, row_dual, info).

    ``status`` is ``"optimal"`` or ``"infeasible"``; anything else raises
    :class:`SolverError` naming HiGHS' model status. With ``objective_bound`` the dual
    simplex stops as soon as its objective - a lower bound on the optimum, since every
    basis it visits is dual feasible - exceeds it: ``status`` is then ``"bound"`` and
    ``row_dual`` holds those dual-feasible multipliers (HiGHS' ``objective_bound``).
    """
    if lp.value.size >= 2**31:
        raise SolverError(
            f"The LP has {lp.value.size} non-zeros, beyond HiGHS' 32-bit index range. "
            "Use solver='colgen', which only builds the columns it needs."
        )
    options = {"presolve": "on" if presolve else "off", "solver": method}
    if method == "ipm":
        options["run_crossover"] = "on"
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    if objective_bound is not None:
        options["objective_bound"] = float(objective_bound)
    h = new_highs(**options)
    n_rows, n_cols = lp.shape
    started = time.perf_counter()
    status = h.passModel(
        n_cols, n_rows, int(lp.value.size), 1, 1, 0.0,
        lp.cost, lp.col_lower, lp.col_upper, lp.row_lower, lp.row_upper,
        lp.start.astype(np.int32), lp.index, lp.value, np.zeros(n_cols, dtype=np.int32),
    )
    if status == highspy.HighsStatus.kError:
        raise SolverError("HiGHS rejected the model (passModel returned an error).", status="model error")
    h.run()
    model_status = h.getModelStatus()
    info = {
        "iterations": int(h.getInfo().simplex_iteration_count),
        "solve_seconds": time.perf_counter() - started,
        "highs_status": h.modelStatusToString(model_status),
    }
    # Our objectives are sums of non-negative terms, so the LP is never unbounded:
    # "unbounded or infeasible" can only mean infeasible. The claim still needs a proof:
    # HiGHS' Farkas ray, if it has one, goes to the caller in info["dual_ray"].
    if model_status in (_STATUS.kInfeasible, _STATUS.kUnboundedOrInfeasible):
        info["dual_ray"] = dual_ray(h)
        return "infeasible", None, None, info
    if model_status == _STATUS.kObjectiveBound and objective_bound is not None:
        solution = h.getSolution()
        info["objective"] = h.getInfo().objective_function_value
        return ("bound", np.asarray(solution.col_value, dtype=np.float64),
                np.asarray(solution.row_dual, dtype=np.float64), info)
    if model_status != _STATUS.kOptimal:
        raise SolverError(
            f"HiGHS stopped with model status '{info['highs_status']}' (not optimal). "
            "Increase time_limit, or try solver='scipy' to cross-check.",
            status=info["highs_status"],
        )
    solution = h.getSolution()
    x = np.asarray(solution.col_value, dtype=np.float64)
    row_dual = np.asarray(solution.row_dual, dtype=np.float64)
    info["objective"] = h.getInfo().objective_function_value
    return "optimal", x, row_dual, info


def dual_ray(h):
    """HiGHS' Farkas ray after an infeasible solve (row multipliers), or None."""
    try:
        _, has_ray, ray = h.getDualRay()
    except (TypeError, ValueError):  # pragma: no cover - another highspy signature
        return None
    return np.asarray(ray, dtype=np.float64) if has_ray else None


class HighsEngine(Engine):
    """Solve :class:`~sfmlearn.lp.problems.HyperplaneLP` instances with HiGHS.

    Each :meth:`solve` builds the matrix LP (:func:`~sfmlearn.lp.problems.build_matrix_lp`)
    and passes it to a new, silent HiGHS model; the answer is verified
    (:func:`~sfmlearn.lp.problems.check_solution`, or a Farkas certificate for
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
        is a vertex with exact zeros.
    time_limit : float or None, default=None
        Seconds per LP; reaching it raises :class:`~sfmlearn.exceptions.SolverError`.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.lp import HighsEngine, sfm_lp
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> solution = HighsEngine(formulation="sparse").solve(sfm_lp(X, y, np.ones(2)))
    >>> solution.status, solution.engine, solution.w.round(6)
    ('optimal', 'highs', array([0.333333, 0.      ]))
    """

    name = "highs"
    kinds = frozenset({LP})

    def __init__(self, formulation="standard", *, presolve=False, method="simplex", time_limit=None):
        self.formulation = formulation
        self.presolve = presolve
        self.method = method
        self.time_limit = time_limit

    def solve(self, problem):
        lp = build_matrix_lp(problem, self.formulation)
        status, x, row_dual, info = solve_matrix_lp_highs(
            lp, presolve=self.presolve, method=self.method, time_limit=self.time_limit
        )
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
        return check_solution(problem, result)
