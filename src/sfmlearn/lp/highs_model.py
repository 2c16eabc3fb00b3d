"""HiGHS models: the one factory that makes them silent, and the solve of a whole
:class:`~sfmlearn.lp.assembly.MatrixLP` in one call (:mod:`.highs` builds its engine on
it; :mod:`.certificates` its phase-1 LP).
"""

import time

import highspy
import numpy as np

from ..exceptions import SolverError
from ..outputs.streams import stdout_to_devnull

__all__ = ["dual_ray", "new_highs", "solve_matrix_lp_highs"]

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
    """Solve a :class:`~sfmlearn.lp.assembly.MatrixLP`; returns (status, x, row_dual, info).

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
        raise SolverError("HiGHS rejected the model (passModel returned an error): a cost, bound or "
                          "matrix entry it cannot use, such as a matrix value of 1e15 or more, which it "
                          "reads as infinite. Rescale X (divide it by a power of ten, or scale it).",
                          status="model error")
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
        fix = ("Increase time_limit." if model_status == _STATUS.kTimeLimit else
               "The LP is numerically difficult: rescale the data, or try solver='scipy' or "
               "'glpk' to cross-check.")
        raise SolverError(
            f"HiGHS stopped with model status '{info['highs_status']}' (not optimal). {fix}",
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

