"""Difference-of-convex programming: the generic DCA (ML05 4.1-4.2.1).

DCA (Pham Dinh & Le Thi 1998; ML05 Alg. 4.1) minimises f = g - h with g, h convex:

    choose x^0 in dom g
    repeat   y^k in dh(x^k)                          (a (sub)gradient of h)
             x^{k+1} in dg*(y^k) = argmin_x g(x) - <y^k, x>
    until    min(|x_i^{k+1} - x_i^k|, |(x_i^{k+1} - x_i^k) / x_i^k|) <= tol  for all i

f(x^k) never increases (ML05 Theorem 1), so :attr:`DCAResult.history` records it.
SLA (Bradley & Mangasarian; ML05 Alg. 4.2), a sequence of LPs minimising a concave f
over a polyhedron X, is DCA with g = chi_X (the indicator of X) and h = -f (ML05
Corollary 2).

A problem is a small object with the methods :func:`dca` needs (checked before
running, as in skglm's solvers): ``subgradient_h(x)``, ``argmin_linearised(slope, x)``
(a minimiser of g(z) - <slope, z>; ``x`` is a warm start), ``objective(x)``
(g(x) - h(x)), and optionally ``stopping_part(x)``: the coordinates the stopping rule
watches (ML05 stops on v only; default all of x). Kernel-target alignment
(:mod:`sfmlearn.selection.competitors.alignment`) runs on it.

The hyperplane problems (FSV by SLA, the l2-l0-SVM, quadratic FSV, and the zero-norm
reweighting of the SFM) run the same scheme in :mod:`.reweighting`, whose module
docstring says why it is a loop of its own; both use :func:`stopped_moving`, and
``tests/optim/test_dca.py`` checks that :func:`dca` on FSV's split g = chi_X gives the
iterates of :class:`~sfmlearn.selection.FSV`.
"""

import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["DCAResult", "dca", "stopped_moving"]


def stopped_moving(new, old, tol):
    """ML05's rule: min(|dx_i|, |dx_i / x_i|) <= tol for every i.

    Parameters
    ----------
    new, old : ndarray
        The current and the previous iterate.
    tol : float
        Tolerance.

    Returns
    -------
    bool
        Whether every coordinate stopped moving.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import stopped_moving
    >>> stopped_moving(np.array([1.0, 2.0]), np.array([1.0, 2.0000001]), 1e-5)
    True
    >>> stopped_moving(np.array([1.0]), np.array([2.0]), 1e-5)
    False
    """
    delta = np.abs(new - old)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(old != 0, delta / np.abs(old), np.inf)
    return bool(np.all(np.minimum(delta, relative) <= tol))


@dataclass
class DCAResult:
    """Outcome of :func:`dca`: the last iterate and the objective at every iterate.

    ``history["objective"][k]`` is f(x^k) (k = 0 is the start), ``history["seconds"]``
    the time of each step; ``iterates`` holds x^0, x^1, ... when requested.

    Parameters
    ----------
    x : ndarray
        The last iterate.
    n_iter : int, default=0
        Steps taken.
    converged : bool, default=False
        Whether the stopping rule was met before ``max_iter``.
    history : dict of lists
        ``objective`` and ``seconds`` per iterate.
    iterates : list of ndarray or None
        x^0, x^1, ... with ``keep_iterates=True``.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.optim import dca
    >>> class Toy:   # f(x) = x^2 - |x|: g(x) = x^2, h(x) = |x|
    ...     def subgradient_h(self, x):
    ...         return np.sign(x)
    ...     def argmin_linearised(self, slope, x):
    ...         return slope / 2   # argmin_z z^2 - slope z
    ...     def objective(self, x):
    ...         return float(np.sum(x ** 2 - np.abs(x)))
    >>> result = dca(Toy(), np.array([2.0]))
    >>> result.x, result.n_iter, result.converged, result.history["objective"]
    (array([0.5]), 2, True, [2.0, -0.25, -0.25])
    """

    x: np.ndarray
    n_iter: int = 0
    converged: bool = False
    history: dict = field(default_factory=lambda: {"objective": [], "seconds": []})
    iterates: list | None = None


def _require(problem, methods, algorithm):
    missing = [name for name in methods if not callable(getattr(problem, name, None))]
    if missing:
        raise TypeError(
            f"{algorithm} needs a problem with methods {methods}; "
            f"{type(problem).__name__} lacks {missing}."
        )


def dca(problem, x0, *, tol=1e-5, max_iter=100, keep_iterates=False):
    """Run DCA (ML05 Alg. 4.1) on ``problem`` from ``x0`` (see the module docstring).

    Stops after ``max_iter`` steps or when the watched coordinates satisfy ML05's rule
    with ``tol``. Returns a :class:`DCAResult`.
    """
    _require(problem, ("subgradient_h", "argmin_linearised", "objective"), "dca")
    part = getattr(problem, "stopping_part", None) or (lambda x: x)
    x = np.array(x0, dtype=np.float64)
    result = DCAResult(x, iterates=[x.copy()] if keep_iterates else None)
    result.history["objective"].append(float(problem.objective(x)))
    result.history["seconds"].append(0.0)
    for iteration in range(1, max_iter + 1):
        started = time.perf_counter()
        x_new = np.asarray(problem.argmin_linearised(problem.subgradient_h(x), x), dtype=np.float64)
        result.history["objective"].append(float(problem.objective(x_new)))
        result.history["seconds"].append(time.perf_counter() - started)
        if keep_iterates:
            result.iterates.append(x_new.copy())
        converged = stopped_moving(part(x_new), part(x), tol)
        x = x_new
        result.n_iter = iteration
        if converged:
            result.converged = True
            break
    result.x = x
    return result
