"""What the optim functions and problems refuse, and how they say it.

Called directly with the user's arrays (not through an estimator), hard_margin_svm,
linear_svm, the problems of sfmlearn.optim.problem and iterated_l1 check their inputs
first: wrong labels gave wrong answers (0/1 labels make rows that constrain nothing),
inf in X made LAPACK print to stdout, other mistakes came back as raw NumPy errors.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn.exceptions import DataValidationError, SolverError
from sfmlearn.lp import HighsEngine
from sfmlearn.optim import (HyperplaneProblem, SFMProblem, WestonProblem, ZeroNorm, hard_margin_svm,
                            iterated_l1, linear_svm)

X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 1.0], [4.0, 1.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])


def _hard(X, y):
    return linear_svm(X, y)


def _soft(X, y):
    return linear_svm(X, y, slack_cost=np.ones(4))


SOLVERS = [hard_margin_svm, _hard, _soft]


def _plane(result):
    """(w, b) of hard_margin_svm's LPSolution or of linear_svm's tuple."""
    return (result.w, result.b) if hasattr(result, "w") else result


@pytest.mark.parametrize("solve", SOLVERS)
@pytest.mark.parametrize("labels, shown", [([0, 0, 1, 1], r"\[0\.0\]"), ([-2, -2, 2, 2], r"\[-2\.0, 2\.0\]"),
                                           ([-1, -1, 1, np.nan], "NaN")])
def test_labels_other_than_minus_one_and_one_are_refused(solve, labels, shown):
    # 0/1 labels on separable data: linear_svm said NotSeparableError; +-2 labels made
    # hard_margin_svm report "hulls not apart by more than rounding".
    with pytest.raises(DataValidationError, match=f"labels -1 and \\+1.*{shown}.*np.where"):
        solve(X, labels)


@pytest.mark.parametrize("solve", SOLVERS)
def test_one_class_is_refused(solve):
    with pytest.raises(DataValidationError, match="both classes"):
        solve(X, np.ones(4))


@pytest.mark.parametrize("solve", SOLVERS)
@pytest.mark.parametrize("value, count", [(np.inf, r"0 NaN \(missing\) and 1 infinite"),
                                          (np.nan, r"1 NaN \(missing\) and 0 infinite")])
def test_non_finite_x_is_refused_before_any_solve(solve, value, count, capfd):
    # inf reached LAPACK, which printed "** On entry to DLASCL parameter number 4 had an
    # illegal value" to stdout before a raw LinAlgError.
    bad = X.copy()
    bad[2, 0] = value
    with pytest.raises(DataValidationError, match=f"X contains {count} values. Impute or drop"):
        solve(bad, Y)
    assert capfd.readouterr().out == ""


@pytest.mark.parametrize("solve", SOLVERS)
@pytest.mark.parametrize("data, labels, message", [
    (X[:, 0], Y, r"X must be 2-D .* X.reshape\(-1, 1\)"),
    (np.zeros((0, 2)), np.zeros(0), "X has no samples"),
    (X, Y[:, None], r"shape \(4,\); got shape \(4, 1\). Pass y.ravel\(\)"),
    (X, Y[:3], "one label per row of X"),
])
def test_malformed_arrays_are_refused_with_the_fix(solve, data, labels, message):
    with pytest.raises(DataValidationError, match=message):
        solve(data, labels)


@pytest.mark.parametrize("solve", SOLVERS)
def test_lists_and_sparse_matrices_give_the_dense_answer(solve):
    # Sparse X raised "setting an array element with a sequence"; lists are array-like.
    w, b = _plane(solve(X, Y))
    for data in (X.tolist(), sp.csr_array(X), sp.coo_matrix(X)):
        w_other, b_other = _plane(solve(data, Y.tolist()))
        np.testing.assert_array_equal(w_other, w)
        assert b_other == b


def test_slack_costs_of_the_wrong_length_are_refused():
    with pytest.raises(DataValidationError, match=r"slack_cost must hold one value per sample, shape \(4,\)"):
        linear_svm(X, Y, slack_cost=np.ones(3))


def test_hard_margin_on_interleaved_classes_points_to_the_soft_margin():
    # The message blamed rounding alone ("hulls are not apart by more than rounding").
    with pytest.raises(SolverError, match=r"not linearly separable.*linear_svm\(X, y, slack_cost="):
        hard_margin_svm(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([-1.0, 1.0, -1.0, 1.0]))


# -- problems and the reweighting loop ---------------------------------------------------
def _five_columns():
    rng = np.random.default_rng(0)
    y = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    data = rng.standard_normal((20, 5))
    data[:, 4] = y * rng.uniform(1.0, 2.0, 20)  # column 4 separates
    return data, y


PROBLEMS = [HyperplaneProblem, WestonProblem, SFMProblem]


@pytest.mark.parametrize("problem", PROBLEMS)
def test_a_base_cost_per_column_is_required(problem):
    # base_cost=np.ones(3) on 5 columns solved columns 0-2 only and reported "infeasible".
    data, y = _five_columns()
    with pytest.raises(DataValidationError, match=r"base_cost must hold one value per column of X"):
        problem(data, y, base_cost=np.ones(3))
    with pytest.raises(DataValidationError, match="base_cost must be finite numbers >= 0"):
        problem(data, y, base_cost=-np.ones(5))


@pytest.mark.parametrize("problem", PROBLEMS)
def test_problem_labels_and_slack_costs_are_checked(problem):
    # 0/1 labels: the SFM answered "optimal [4.]" on data that no hyperplane separates.
    data, y = _five_columns()
    with pytest.raises(DataValidationError, match="labels -1 and \\+1"):
        problem(data, (y > 0).astype(float))
    with pytest.raises(DataValidationError, match="both classes"):
        problem(data, np.ones(20))
    with pytest.raises(DataValidationError, match=r"slack_cost .* per sample, shape \(20,\)"):
        problem(data, y, slack_cost=np.ones(19))
    with pytest.raises(DataValidationError, match=r"slack_cost must be numbers >= 0 \(np.inf keeps"):
        problem(data, y, slack_cost=np.full(20, np.nan))
    with pytest.raises(DataValidationError, match="X must be 2-D"):
        problem(data[:, 0], y)


def test_the_equality_sign_is_one_or_minus_one():
    # sign=0 made the equality (mu+ - mu-) . w = 0, met by w = 0.
    data, y = _five_columns()
    with pytest.raises(InvalidParameterError, match="sign must be 1 or -1"):
        SFMProblem(data, y, sign=0.0)
    assert [p.sign for p in SFMProblem(data, y, slack_cost=np.ones(20), sign=-1.0).per_sign()] == [1.0, -1.0]


def test_problems_take_lists_and_keep_their_answer():
    data, y = _five_columns()
    listed = iterated_l1(SFMProblem(data.tolist(), y.tolist()), ZeroNorm(), HighsEngine())
    assert listed.support.tolist() == [4]


@pytest.mark.parametrize("max_iter", [0, -1, 2.5])
def test_iterated_l1_needs_at_least_one_lp(max_iter):
    # max_iter=0 returned status "optimal" with w=None, and .objective raised IndexError.
    data, y = _five_columns()
    with pytest.raises(DataValidationError, match="max_iter must be an integer >= 1"):
        iterated_l1(SFMProblem(data, y), ZeroNorm(), HighsEngine(), max_iter=max_iter)
