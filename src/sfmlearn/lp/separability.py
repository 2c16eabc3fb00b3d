"""The LP test of linear separability (thesis 2.5.4, Fig. 2.8).

    minimise sum_i xi_i   s.t.   y_i (w . x_i + b) + xi_i >= 1,   xi >= 0

The data are linearly separable if and only if the optimum is 0 (any strictly separating
hyperplane can be scaled to margin 1). Points with xi_i > 0 are the ones no hyperplane
of the minimum-slack solution puts on the correct side; the synthetic generators
resample them to make training sets separable within their relevant features.
"""

from dataclasses import replace

import numpy as np

from .certificates import farkas_check
from .engines import make_engine
from .assembly import build_matrix_lp
from .highs_model import solve_matrix_lp_highs
from .inputs import check_lp_data, check_signed_labels
from .operators import as_scaled_matrix
from .problems import HyperplaneLP

__all__ = ["SeparationWitness", "is_separable", "inseparable_count", "minimum_slack_hyperplane",
           "strictly_separating_plane"]

#: Slack below this is numerically zero (the margin is 1, so this is relative).
SEPARABLE_TOL = 1e-7
#: :func:`is_separable` first tries at least this many samples.
SUBSAMPLE = 400


def minimum_slack_hyperplane(X, y, *, fit_intercept=True, solver="auto"):
    """Solve the separability LP; returns ``(w, b, xi)`` with ``xi.sum() == 0`` iff separable.

    ``X`` is checked like every LP's data (:mod:`.inputs`), ``y`` must hold -1 and +1."""
    X = as_scaled_matrix(X)
    n, d = X.shape
    problem = HyperplaneLP(
        X, y, np.zeros(d), margin=1.0, slack_cost=np.ones(n), fit_intercept=fit_intercept
    )
    solution = make_engine(solver).solve(problem)
    xi = np.where(solution.xi > SEPARABLE_TOL, solution.xi, 0.0)
    return solution.w, solution.b, xi


def is_separable(X, y, *, fit_intercept=True, solver="auto"):
    """Whether the separability LP's optimum is 0, deciding "no" early when it can.

    Rows only add constraints: a subset of the samples that is not separable proves
    that the whole is not. The LP is solved on growing subsets (evenly spaced within each
    class; max(:data:`SUBSAMPLE`, 4 (d + 1)) samples, then twice as many ...) and on
    all samples only when every subset was separable. Each is decided by
    :func:`_certified_verdict` (the dual simplex stopped once the optimum is known to
    be positive), or, where that proves nothing, by :func:`minimum_slack_hyperplane`
    with ``solver``. The overlapping selections of a soft SFM with thousands of samples
    are decided by a small LP, a fraction of the way to its optimum. ``X`` is checked
    like every LP's data (:mod:`.inputs`), ``y`` must hold -1 and +1.
    """
    X = check_lp_data(X)
    n, d = X.shape
    y = check_signed_labels(y, n)
    size = max(SUBSAMPLE, 4 * (d + 1))
    while True:
        rows = None if size >= n else np.unique(np.concatenate([
            members[np.linspace(0, members.size - 1, max(1, round(size * members.size / n)))
                    .round().astype(int)]
            for members in (np.flatnonzero(y > 0), np.flatnonzero(y <= 0)) if members.size]))
        X_rows, y_rows = (X, y) if rows is None else (X[rows], y[rows])
        verdict = _certified_verdict(X_rows, y_rows, fit_intercept)
        if verdict is None:
            verdict = not minimum_slack_hyperplane(
                X_rows, y_rows, fit_intercept=fit_intercept, solver=solver)[2].any()
        if not verdict:
            return False
        if rows is None:
            return True
        size *= 2


def _certified_verdict(X, y, fit_intercept):
    """True (separable), False (not) or None (unproven), from one run of HiGHS' dual
    simplex on the separability LP, stopped once its objective passes SEPARABLE_TOL.

    Every basis the dual simplex visits is dual feasible, so its objective sum_i lambda_i
    is a lower bound on the optimum, and its row duals 0 <= lambda <= 1 satisfy
    Z^T (lambda * y) = 0 and lambda . y = 0 (w and b are free, their costs 0). Stopped
    there, lambda is a Farkas certificate that the rows y_i (w . x_i + b) >= 1 have no
    solution: adding them up gives 0 >= sum_i lambda_i > 0. It is verified on the data
    (:func:`~.certificates.farkas_check`, the LP without slacks) before it is believed.
    Solved to the end instead, the optimum is at most SEPARABLE_TOL and the hyperplane
    is checked directly: every slack 1 - y_i (w . x_i + b), recomputed from the data, at
    most SEPARABLE_TOL.
    """
    n, d = X.shape
    problem = HyperplaneLP(
        X, y, np.zeros(d), margin=1.0, slack_cost=np.ones(n), fit_intercept=fit_intercept
    )
    lp = build_matrix_lp(problem, "standard")
    status, x, row_dual, _ = solve_matrix_lp_highs(lp, objective_bound=SEPARABLE_TOL)
    if status == "bound":
        proven, _ = farkas_check(replace(problem, slack_cost=None), row_dual[:n])
        return False if proven else None
    if status != "optimal":
        return None
    w, b, _ = lp.split(x)
    support = np.flatnonzero(w)
    slack = 1.0 - y * (problem.X.matvec(w[support], support) + b)
    return True if slack.max(initial=0.0) <= SEPARABLE_TOL else None


def strictly_separating_plane(X, y, w, b):
    """A hyperplane that separates dense ``(X, y)`` strictly, made from ``(w, b)`` that
    separates it weakly (t_i = y_i (x_i . w + b) >= 0, some t_i = 0), or None.

    The samples on the hyperplane, T = {i : t_i <= rounding}, are moved off it along the
    least-norm (delta, delta_b) with y_i (x_i . delta + delta_b) = 1 on T; every other
    sample keeps its side for eps < t_i / |s_i|, s_i = y_i (x_i . delta + delta_b) < 0.
    At a vertex of a zero-margin LP (the hard SFM's) the rows of T are linearly
    independent, so delta exists. The plane (w, b) + eps (delta, delta_b), eps half the
    largest such step, is returned only if every margin, recomputed, exceeds 4 (k + 2) eps
    times the sum of its terms' magnitudes (its rounding error bound): a proof of
    strict separation without an LP. None when that check fails (dependent rows of T,
    e.g. one point with both labels, or margins too thin to trust): the LP decides.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    k = X.shape[1]
    t, rounding = _margins(X, y, w, b)
    on_plane = t <= rounding
    if on_plane.any():
        rows = np.hstack([X[on_plane], np.ones((np.count_nonzero(on_plane), 1))]) * y[on_plane, None]
        direction = np.linalg.lstsq(rows, np.ones(rows.shape[0]), rcond=None)[0]
        s = y * (X @ direction[:k] + direction[k])
        pushed_back = ~on_plane & (s < 0)
        step = 0.5 * float(np.min(t[pushed_back] / -s[pushed_back], initial=2.0))
        w, b = w + step * direction[:k], b + step * direction[k]
        t, rounding = _margins(X, y, w, b)
    if not np.all(t > rounding):
        return None
    return w, float(b)


def _margins(X, y, w, b):
    """The margins t_i = y_i (x_i . w + b) of dense X and the bound on each one's
    rounding error, 4 (k + 2) eps times the sum of its terms' magnitudes (k columns):
    t_i above it proves that sample i lies strictly on its side."""
    eps_terms = 4 * (X.shape[1] + 2) * np.finfo(np.float64).eps
    return y * (X @ w + b), eps_terms * (np.abs(X) @ np.abs(w) + abs(b))


class SeparationWitness:
    """A hyperplane known to separate one data set's samples strictly, on a few of its
    columns (``columns``: indices of the data's columns; ``w`` their weights, ``b``):
    :func:`inseparable_count` answers from it, without an LP, for every set of columns
    that still holds them. A fit that asks about shrinking column sets of the same
    samples (the repetitive SFM removes each repetition's subset) keeps one."""

    def __init__(self):
        self.columns, self.w, self.b = None, None, 0.0


def inseparable_count(X, y, witness=None):
    """How many samples the separability LP's optimum on the columns of ``X`` (an array
    or a :class:`~.operators.ScaledMatrix` view) leaves with slack: 0 when the columns
    separate the samples strictly.

    When ``witness``'s hyperplane lies on columns that X still exposes and its margins,
    recomputed from the data, exceed their rounding bound, that proves it without an LP.
    Otherwise :func:`minimum_slack_hyperplane` decides on all of X's columns, and a
    separating solution becomes the witness.
    """
    X = as_scaled_matrix(X)
    y = np.asarray(y, dtype=np.float64)
    if witness is not None and witness.columns is not None:
        position = np.full(X.X.shape[1], -1, dtype=np.intp)
        position[X.columns] = np.arange(X.columns.size)
        at = position[witness.columns]
        if at.min(initial=0) >= 0:
            t, rounding = _margins(X.dense_block(at), y, witness.w, witness.b)
            if np.all(t > rounding):
                return 0
    w, b, slack = minimum_slack_hyperplane(X, y, solver="auto")
    if witness is not None and not slack.any():
        support = np.flatnonzero(w)
        witness.columns, witness.w, witness.b = X.columns[support], w[support], b
    return int(np.count_nonzero(slack))
