"""Quadratic FSV's LP (ML05 3.2.1, eq. 9, 4.2.3): the monomial feature map and its engine.

Quadratic FSV is FSV on the explicit monomials of degree <= 2,
phi(x) = (x_j, x_j^2, x_j x_k : j < k), d' = d (d + 3) / 2 of them, with every monomial
bounded by the v_j of each original feature it contains. One DCA step is the LP

    minimise  sum_j c_j v_j + sum_i C_i xi_i
    s.t.      y_i (w . phi(x_i) + b) >= 1 - xi_i,  xi >= 0,
              -v_j <= w_m <= v_j   for every monomial m and every feature j in m,

the problem kind ``monomial_lp`` of :mod:`.protocol`, solved in HiGHS by
:class:`MonomialEngine`. The estimator is :class:`~sfmlearn.selection.QuadraticFSV`.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..exceptions import ConstraintViolationError, SolverError
from .assembly import MatrixLP
from .checks import FEASIBILITY_TOL, check_solution
from .highs_model import solve_matrix_lp_highs
from .problems import HyperplaneLP, LPSolution
from .protocol import MONOMIAL_LP, Engine

__all__ = ["MonomialEngine", "MonomialLP", "monomial_values", "quadratic_monomials"]


def quadratic_monomials(n_features):
    """Index pairs of the monomials of degree <= 2, in ML05's order of phi.

    Returns an int array of shape (d (d + 3) / 2, 2): (j, -1) for x_j, (j, j) for x_j^2
    and (j, k), j < k, for x_j x_k.
    """
    j = np.arange(n_features)
    upper_j, upper_k = np.triu_indices(n_features, k=1)
    first = np.r_[j, j, upper_j]
    second = np.r_[np.full(n_features, -1), j, upper_k]
    return np.column_stack([first, second])


def monomial_values(X, pairs):
    """phi(X): the values of the monomials ``pairs`` (see :func:`quadratic_monomials`)."""
    second = np.where(pairs[:, 1] >= 0, X[:, np.maximum(pairs[:, 1], 0)], 1.0)
    return X[:, pairs[:, 0]] * second


@dataclass(frozen=True)
class MonomialLP:
    """One DCA step of quadratic FSV (ML05 4.2.3): the problem of kind ``monomial_lp``.

    ``Phi`` holds the values of the monomials ``pairs`` of the problem's features
    (column positions 0 .. k - 1 in ``pairs``, -1 for none: :func:`quadratic_monomials`);
    ``feature_cost`` (length k) prices the bounds v_j, ``slack_cost`` the slack of each
    sample.
    """

    Phi: np.ndarray
    y: np.ndarray
    pairs: np.ndarray
    feature_cost: np.ndarray
    slack_cost: np.ndarray


def _link_rows(pairs):
    """(monomial, feature) index pairs of the rows v_j - |w_m| >= 0."""
    first, second = pairs[:, 0], pairs[:, 1]
    monomial = np.arange(pairs.shape[0])
    extra = (second >= 0) & (second != first)
    return np.r_[monomial, monomial[extra]], np.r_[first, second[extra]]


class MonomialEngine(Engine):
    """Solve :class:`MonomialLP` instances with HiGHS and verify the solution.

    Columns (w+, w-, b, xi, v), rows y_i (phi_i . (w+ - w-) + b) + xi_i >= 1 and, for
    every monomial m and feature j in it, v_j - w+_m - w-_m >= 0 (w = w+ - w-; some
    optimum has min(w+_m, w-_m) = 0, so this is -v_j <= w_m <= v_j). Returns an
    :class:`~sfmlearn.lp.problems.LPSolution` whose ``w`` is v (one entry per
    feature, what the reweighting loop tracks) and whose ``info["monomial_weights"]``
    and ``info["pairs"]`` give the classifier.
    """

    name = "highs-monomial"
    kinds = frozenset({MONOMIAL_LP})

    def solve(self, problem):
        Phi, y = problem.Phi, problem.y
        n, n_mono = Phi.shape
        k = problem.feature_cost.size
        link_m, link_j = _link_rows(problem.pairs)
        n_link = link_m.size
        YPhi = sp.csr_array(Phi * y[:, None])
        E = sp.csr_array((np.ones(n_link), (np.arange(n_link), link_m)), shape=(n_link, n_mono))
        G = sp.csr_array((np.ones(n_link), (np.arange(n_link), link_j)), shape=(n_link, k))
        A = sp.block_array([
            [YPhi, -YPhi, sp.csr_array(y[:, None]), sp.eye_array(n), None],
            [-E, -E, None, None, G],
        ], format="csc")
        A.sort_indices()
        n_cols = A.shape[1]
        cost = np.r_[np.zeros(2 * n_mono + 1), problem.slack_cost, problem.feature_cost]
        col_lower = np.zeros(n_cols)
        col_lower[2 * n_mono] = -np.inf
        lp = MatrixLP(
            cost=cost, col_lower=col_lower, col_upper=np.full(n_cols, np.inf),
            row_lower=np.r_[np.ones(n), np.zeros(n_link)], row_upper=np.full(n + n_link, np.inf),
            start=A.indptr.astype(np.int64), index=A.indices.astype(np.int32), value=A.data,
            formulation="standard", n_columns=n_mono, n_samples=n, has_equality=False,
        )
        status, x, _, info = solve_matrix_lp_highs(lp)
        if status != "optimal":  # xi makes every row satisfiable
            raise SolverError("HiGHS reported the quadratic FSV LP infeasible.", status=status)
        w = x[:n_mono] - x[n_mono:2 * n_mono]
        b = float(x[2 * n_mono])
        xi = x[2 * n_mono + 1:2 * n_mono + 1 + n]
        v = x[2 * n_mono + 1 + n:]
        check_solution(HyperplaneLP(Phi, y, np.zeros(n_mono), 1.0, slack_cost=problem.slack_cost),
                       LPSolution("optimal", w=w, b=b, xi=xi))
        excess = np.abs(w[link_m]) - v[link_j]
        if excess.size and excess.max() > FEASIBILITY_TOL * (1.0 + np.abs(v).max()):
            raise ConstraintViolationError(
                f"Quadratic FSV solution has a monomial weight above its feature bound by "
                f"{excess.max():.3g}.", status="constraint violation",
            )
        objective = float(problem.feature_cost @ v + problem.slack_cost @ xi)
        if abs(objective - info["objective"]) > 1e-6 * (1.0 + abs(objective)):
            raise ConstraintViolationError(
                f"Reported objective {info['objective']:.9g} differs from the recomputed "
                f"{objective:.9g}.", status="objective mismatch",
            )
        return LPSolution(
            "optimal", w=v, b=b, xi=xi, objective=objective, iterations=info["iterations"],
            engine=self.name, info={"monomial_weights": w, "pairs": problem.pairs},
        )
