r"""The linear P-SVM problem of one data matrix (PSVM 2, eq. 8 and 12).

.. math::

    \min_\alpha \; \tfrac{1}{2} \alpha^\top F^\top F \alpha - y^\top F \alpha
    + \epsilon \|\alpha\|_1 \quad \text{s.t.} \quad -C \le \alpha_j \le C

F is X with every column centred and scaled to unit Euclidean length (implicitly:
sparse X stays sparse). Constant columns get alpha = 0 and exact duplicate columns are
merged before :func:`sfmlearn.optim.cd.solve_box_l1_qp` solves the QP; the solution on
all columns is re-verified against the KKT conditions. A target feature count is met by
a search over epsilon (:meth:`LinearPSVMProblem.solve_count`).
"""

import numpy as np
import scipy.sparse as sp

from ....exceptions import DataValidationError
from ....optim.cd import ImplicitDesign, check_kkt, solve_box_l1_qp
from ....preprocessing import column_statistics, first_duplicates

__all__ = ["LinearPSVMProblem", "check_count", "column_standardisation"]


def column_standardisation(X):
    """Column means, unit-length scales and the mask of non-constant columns.

    The statistics of :class:`~sfmlearn.SFMScaler` (overflow-safe, sparse input never
    densified; constant = no spread beyond rounding relative to the column's magnitude):
    the unit-length scale of a column is sqrt(n) times its standard deviation.
    """
    mean, std, constant, _ = column_statistics(X)
    return mean, np.where(constant, 1.0, np.sqrt(X.shape[0]) * std), ~constant


class LinearPSVMProblem:
    """The P-SVM problem of one data matrix: solve for a fixed epsilon or a feature count.

    Constant columns get alpha = 0. Exact duplicate columns are merged: the QP depends
    only on their total weight, so it is solved once per distinct column with the box
    g C for g copies (duplicates make the QP degenerate and coordinate descent crawl;
    half of DOROTHEA's columns are duplicates). The total goes to the first copy and
    spills to the next copies only beyond C, the sparsest of the equally good solutions;
    :meth:`expand` re-verifies the KKT conditions on the full problem.
    """

    def __init__(self, X, C, tol, max_iter):
        X = sp.csc_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        if sp.issparse(X):
            X.sum_duplicates()
            X.sort_indices()
        self.X, self.n_features = X, X.shape[1]
        self.mean, self.scale, keep = column_standardisation(X)
        self.kept = np.flatnonzero(keep)
        X_kept = X if self.kept.size == X.shape[1] else X[:, self.kept]
        rep = first_duplicates(X_kept)
        self.groups, position = np.unique(rep, return_inverse=True)  # first copies
        self.order = np.argsort(position, kind="stable")
        self.bounds = np.searchsorted(position[self.order], np.arange(self.groups.size + 1))
        columns = self.kept[self.groups]
        self.design = ImplicitDesign(X_kept[:, self.groups] if self.groups.size < self.kept.size
                                     else X_kept, self.mean[columns], self.scale[columns])
        self.C = C
        self.group_C = C * np.diff(self.bounds)
        self.tol, self.max_iter = tol, max_iter
        self.n_sweeps = 0

    def expand(self, alpha, y=None, epsilon=None):
        """Coefficients on all input columns from the merged solution; verified if y given."""
        out = np.zeros(self.n_features)
        for g in np.flatnonzero(alpha):
            members = self.kept[self.order[self.bounds[g]:self.bounds[g + 1]]]
            remaining, sign = abs(alpha[g]), np.sign(alpha[g])
            for member in members:
                out[member] = sign * min(self.C, remaining)
                remaining -= self.C
                if remaining <= 0:
                    break
        if y is not None:
            full = ImplicitDesign(self.X, self.mean, self.scale)
            check_kkt(full, y, out, epsilon, self.C, self._tol())
        return out

    def merge(self, coefficients):
        """The merged-problem solution of coefficients on all input columns (the inverse of
        :meth:`expand`): each group of duplicate columns gets its members' total."""
        if self.groups.size == 0:
            return np.zeros(0)
        return np.add.reduceat(coefficients[self.kept[self.order]], self.bounds[:-1])

    def count(self, alpha):
        return int(np.count_nonzero(self.expand(alpha)))

    def _tol(self):
        return self.tol * max(1.0, np.sqrt(self.design.n))

    def epsilon_max(self, y):
        """Smallest epsilon with alpha = 0: max_j |f_j' y| (the KKT condition at 0)."""
        if self.groups.size == 0:
            return 0.0
        return float(np.abs(self.design.gradient(-y, 0.0)).max())

    def solve(self, y, epsilon, alpha0=None):
        """Merged-problem solution (see :meth:`expand`)."""
        result = solve_box_l1_qp(self.design, y, epsilon, self.group_C, alpha0=alpha0,
                                 tol=self._tol(), max_iter=self.max_iter)
        self.n_sweeps += result.n_sweeps
        return result.alpha

    def solve_count(self, y, k):
        """epsilon and alpha with exactly k non-zero coefficients, by bisection on log epsilon.

        The count n(epsilon) is 0 for epsilon >= epsilon_max. The search halves epsilon
        from epsilon_max until n >= k, then bisects (geometric midpoint) keeping
        n(lo) > k > n(hi). In general position n changes by +-1 where a feature enters or
        leaves (a coefficient reaching the box bound does not change it), so an epsilon
        with n = k exists between lo and hi and the bisection finds it once the bracket
        is narrower than that interval. Returns (epsilon, alpha, exact); exact is False
        when the interval is too narrow to find (tied or duplicate columns make n jump
        by more than one) or k is beyond the largest count reached down to
        1e-6 epsilon_max; alpha is then the solution at lo (or that smallest epsilon).
        """
        eps_hi = self.epsilon_max(y)
        alpha = np.zeros(self.groups.size)
        if eps_hi == 0.0:
            return 0.0, alpha, False
        eps_lo = eps_hi
        while True:
            eps_lo /= 2.0
            alpha = self.solve(y, eps_lo, alpha)
            count = self.count(alpha)
            if count == k:
                return eps_lo, alpha, True
            if count > k:
                break
            if eps_lo < 1e-6 * self.epsilon_max(y):
                return eps_lo, alpha, False
            eps_hi = eps_lo
        alpha_lo = alpha
        for _ in range(60):
            if eps_hi / eps_lo < 1.0 + 1e-9:
                break
            eps_mid = np.sqrt(eps_lo * eps_hi)
            alpha = self.solve(y, eps_mid, alpha)
            count = self.count(alpha)
            if count == k:
                return eps_mid, alpha, True
            if count > k:
                eps_lo, alpha_lo = eps_mid, alpha
            else:
                eps_hi = eps_mid
        return eps_lo, alpha_lo, False


def check_count(k, n_features, name="n_features_to_select"):
    """A feature count (type checked by the constraints) must not exceed the features."""
    if k is not None and k > n_features:
        raise DataValidationError(
            f"{name}={k} exceeds the number of features ({n_features}); pass at most "
            f"{n_features} or None."
        )
    return k
