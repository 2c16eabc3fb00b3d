"""The box-constrained l1 QP solver of the P-SVM against independent references."""

import highspy
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Lasso

from sfmlearn.exceptions import SolverError
from sfmlearn.lp.highs import new_highs
from sfmlearn.optim.cd import ImplicitDesign, check_kkt, kkt_violation, solve_box_l1_qp


def highs_box_l1_qp(A, y, epsilon, C):
    """Reference: the same QP in split form a = p - q, 0 <= p, q <= C, solved by HiGHS."""
    G = A.T @ A
    c = A.T @ y
    d = G.shape[0]
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = 2 * d, 0
    lp.col_cost_ = np.r_[epsilon - c, epsilon + c]
    lp.col_lower_, lp.col_upper_ = np.zeros(2 * d), np.full(2 * d, C)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.zeros(2 * d + 1, dtype=np.int32)
    H = sp.tril(sp.csc_array(np.block([[G, -G], [-G, G]]))).tocsc()
    H.sort_indices()
    hessian = highspy.HighsHessian()
    hessian.dim_, hessian.format_ = 2 * d, highspy.HessianFormat.kTriangular
    hessian.start_, hessian.index_ = H.indptr.astype(np.int32), H.indices.astype(np.int32)
    hessian.value_ = H.data
    model = highspy.HighsModel()
    model.lp_, model.hessian_ = lp, hessian
    h = new_highs()
    # HiGHS' default qp_regularization_value (1e-7) shifts the optimum by ~1e-7 |alpha|,
    # inside the 1e-6 tolerance. Setting it to 0 makes HiGHS 1.15 report "Optimal" at
    # x = 0 for this singular split Hessian, so it stays at its default.
    h.passModel(model)
    h.run()
    assert h.modelStatusToString(h.getModelStatus()) == "Optimal"
    x = np.asarray(h.getSolution().col_value)
    return x[:d] - x[d:]


def objective(A, y, alpha, epsilon):
    r = A @ alpha
    return 0.5 * r @ r - y @ r + epsilon * np.abs(alpha).sum()


def standardised(X):
    mean = np.asarray(X.mean(axis=0)).ravel()
    dense = X.toarray() if sp.issparse(X) else X
    scale = np.linalg.norm(dense - mean, axis=0)
    return mean, scale, (dense - mean) / np.where(scale > 0, scale, 1.0)


def problem(n, d, *, sparse=False, seed=0):
    rng = np.random.default_rng(seed)
    if sparse:
        X = sp.random(n, d, density=0.3, random_state=seed, format="csr")
        X.data[:] = rng.integers(1, 4, X.nnz)
    else:
        X = rng.standard_normal((n, d))
        X[:, 1] = X[:, 0] + 0.1 * rng.standard_normal(n)  # a correlated pair
    dense = X.toarray() if sparse else X
    y = np.sign(dense[:, 0] - dense[:, 2] + 0.5 * rng.standard_normal(n))
    return X, y


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C", [np.inf, 1.0, 0.3])
@pytest.mark.parametrize("epsilon", [0.2, 1.0])
def test_matches_highs_reference(sparse, C, epsilon):
    X, y = problem(60, 15, sparse=sparse, seed=3)
    mean, scale, A = standardised(X)
    result = solve_box_l1_qp(X, y, epsilon, C, center=mean, scale=scale, tol=1e-10)
    reference = highs_box_l1_qp(A, y, epsilon, C)
    # n > d and full column rank: the QP is strictly convex, the minimiser unique.
    np.testing.assert_allclose(result.alpha, reference, atol=1e-6)
    assert objective(A, y, result.alpha, epsilon) <= objective(A, y, reference, epsilon) + 1e-9
    if np.isfinite(C):
        assert np.abs(result.alpha).max() <= C


@pytest.mark.parametrize("sparse", [False, True])
def test_unboxed_problem_is_the_lasso_when_d_exceeds_n(sparse):
    # 1/2 ||y - A a||^2 + eps ||a||_1 differs from the P-SVM dual by 1/2 ||y||^2 only.
    X, y = problem(30, 80, sparse=sparse, seed=5)
    mean, scale, A = standardised(X)
    keep = scale > 0
    epsilon = 0.8
    result = solve_box_l1_qp(X[:, keep] if sparse else X[:, keep], y, epsilon,
                             center=mean[keep], scale=scale[keep], tol=1e-10)
    lasso = Lasso(alpha=epsilon / y.size, fit_intercept=False, tol=1e-14, max_iter=200_000)
    lasso.fit(A[:, keep], y - y.mean())
    gap = objective(A[:, keep], y, result.alpha, epsilon) - objective(A[:, keep], y, lasso.coef_, epsilon)
    assert gap <= 1e-9
    if not sparse:  # continuous data in general position: unique Lasso solution
        np.testing.assert_allclose(result.alpha, lasso.coef_, atol=1e-6)


def test_implicit_standardisation_of_sparse_matches_explicit_dense():
    X, y = problem(40, 25, sparse=True, seed=1)
    mean, scale, A = standardised(X)
    keep = scale > 0
    implicit = solve_box_l1_qp(X[:, keep], y, 0.5, 0.7, center=mean[keep], scale=scale[keep],
                               tol=1e-10)
    explicit = solve_box_l1_qp(A[:, keep], y, 0.5, 0.7, tol=1e-10)
    np.testing.assert_allclose(implicit.alpha, explicit.alpha, atol=1e-8)
    np.testing.assert_allclose(implicit.gradient, explicit.gradient, atol=1e-8)


def test_kkt_conditions_hold_and_a_corrupted_solution_is_caught():
    X, y = problem(50, 20, seed=2)
    mean, scale, _ = standardised(X)
    design = ImplicitDesign(X, mean, scale)
    result = solve_box_l1_qp(design, y, 0.5, 0.8, tol=1e-9)
    assert kkt_violation(result.alpha, result.gradient, 0.5, 0.8).max() <= 1e-9
    assert check_kkt(design, y, result.alpha, 0.5, 0.8, 1e-9)[1] <= 1e-9

    nonzero = int(np.flatnonzero(result.alpha)[0])
    corrupted = result.alpha.copy()
    corrupted[nonzero] *= 0.9
    with pytest.raises(SolverError, match=f"coordinate {nonzero} "):
        check_kkt(design, y, corrupted, 0.5, 0.8, 1e-6)

    zero = int(np.flatnonzero(result.alpha == 0)[0])
    corrupted = result.alpha.copy()
    corrupted[zero] = 0.05  # a feature that should stay out
    with pytest.raises(SolverError, match="violates its KKT conditions"):
        check_kkt(design, y, corrupted, 0.5, 0.8, 1e-6)

    outside = result.alpha.copy()
    outside[nonzero] = 0.9
    with pytest.raises(SolverError, match="leaves the box"):
        check_kkt(design, y, outside, 0.5, 0.8, 1e-6)


def test_too_few_sweeps_raise_instead_of_returning_a_wrong_answer():
    X, y = problem(80, 40, seed=4)
    mean, scale, _ = standardised(X)
    with pytest.raises(SolverError, match="Increase max_iter"):
        solve_box_l1_qp(X, y, 0.05, center=mean, scale=scale, tol=1e-12, max_iter=1)


def test_kkt_violation_of_each_case():
    alpha = np.array([0.0, 0.0, 0.5, -0.5, 1.0, -1.0])
    gradient = np.array([0.9, 1.3, -1.2, 0.8, -1.5, 0.7])
    # eps = 1, C = 1: |0.9| ok; |1.3| > 1 by 0.3; free +: |g + 1| = 0.2; free -: |g - 1| =
    # 0.2; at +C: g <= -1 holds; at -C: g >= 1 fails by 0.3.
    np.testing.assert_allclose(kkt_violation(alpha, gradient, 1.0, 1.0),
                               [0.0, 0.3, 0.2, 0.2, 0.0, 0.3])


def test_warm_start_and_zero_columns():
    X, y = problem(40, 12, seed=6)
    X[:, 5] = 0.0
    mean, scale, _ = standardised(X)
    scale[5] = 1.0  # a zero column of F~: the solver must leave its coefficient at 0
    cold = solve_box_l1_qp(X, y, 0.3, center=mean, scale=scale, tol=1e-10)
    warm = solve_box_l1_qp(X, y, 0.3, center=mean, scale=scale, tol=1e-10,
                           alpha0=cold.alpha + 0.1)
    assert cold.alpha[5] == 0.0 and warm.alpha[5] == 0.0
    np.testing.assert_allclose(warm.alpha, cold.alpha, atol=1e-8)


def test_invalid_arguments():
    X, y = problem(10, 4, seed=0)
    with pytest.raises(ValueError, match="epsilon"):
        solve_box_l1_qp(X, y, -1.0)
    with pytest.raises(ValueError, match="C must be positive"):
        solve_box_l1_qp(X, y, 1.0, 0.0)
    with pytest.raises(ValueError, match="rows"):
        solve_box_l1_qp(X, y[:5], 1.0)
    with pytest.raises(ValueError, match="scale"):
        solve_box_l1_qp(X, y, 1.0, scale=np.zeros(4))


def test_linearly_dependent_columns_reach_the_reference_objective_quickly():
    # Binary columns c = a + b with disjoint supports: after centring F~ has exactly
    # dependent columns, the face Hessians are singular and the minimiser is not unique.
    # (HiGHS reports "Optimal" at 0 on this QP, so the Lasso is the reference here.)
    rng = np.random.default_rng(11)
    base = (rng.random((120, 30)) < 0.1).astype(float)
    a, b = base[:, :10], base[:, 10:20] * (base[:, :10] == 0)
    X = np.hstack([a, b, base[:, 20:], a + b, a[:, :5]])  # plus five exact duplicates
    y = np.where(a[:, 0] + b[:, 1] + 0.3 * rng.standard_normal(120) > 0.5, 1.0, -1.0)
    mean, scale, A = standardised(X)
    keep = scale > 0
    for epsilon in (0.5, 0.05, 0.01):
        result = solve_box_l1_qp(X[:, keep], y, epsilon, center=mean[keep], scale=scale[keep],
                                 tol=1e-9)
        lasso = Lasso(alpha=epsilon / y.size, fit_intercept=False, tol=1e-14, max_iter=500_000)
        lasso.fit(A[:, keep], y - y.mean())
        assert (objective(A[:, keep], y, result.alpha, epsilon)
                <= objective(A[:, keep], y, lasso.coef_, epsilon) + 1e-8)
        # Null-space face steps: 21 sweeps at epsilon = 0.01 (72 with least-squares
        # Newton steps alone, thousands of sweeps on DOROTHEA).
        assert result.n_sweeps < 40
