"""The LP builders refuse unusable data, labels and costs before any solver sees them."""

import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError, SolverError
from sfmlearn.lp import HighsEngine, HyperplaneLP, sfm_lp, weston_lp
from sfmlearn.lp.separability import is_separable, minimum_slack_hyperplane

X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
Y = np.array([1.0, 1.0, -1.0, -1.0])


@pytest.mark.parametrize("build", [
    lambda y: sfm_lp(X, y, np.ones(2)),
    lambda y: weston_lp(X, y, np.ones(2)),
    lambda y: HyperplaneLP(X, y, np.zeros(2), 1.0, slack_cost=np.ones(4)),
], ids=["sfm_lp", "weston_lp", "HyperplaneLP"])
@pytest.mark.parametrize("labels", [
    [1.0, 1.0, 0.0, 0.0], [2.0, 2.0, -2.0, -2.0], [True, True, False, False], [1.0, 1.0, -1.0, np.nan],
    ["a", "a", "b", "b"],
], ids=["0/1", "+-2", "bool", "NaN", "text"])
def test_labels_other_than_minus_one_and_plus_one_are_refused_with_the_conversion(build, labels):
    # 0/1 labels made the SFM LP 'optimal' on data no hyperplane separates, and Weston's
    # LP 'infeasible' on separable data: a row with y_i = 0 constrains nothing.
    with pytest.raises(DataValidationError, match=r"-1 and \+1.*np\.where\(y == positive_label"):
        build(np.array(labels))


def test_integer_labels_and_list_data_are_converted():
    solution = HighsEngine().solve(weston_lp(X.tolist(), np.array([1, 1, -1, -1]), np.ones(2)))
    assert solution.status == "optimal"
    np.testing.assert_allclose(solution.w, [1.0, 0.0])


def test_the_separability_test_refuses_zero_one_labels():
    separable = np.array([[0.0], [1.0], [3.0], [4.0]])
    with pytest.raises(DataValidationError, match=r"-1 and \+1"):
        is_separable(separable, np.array([0.0, 0.0, 1.0, 1.0]))
    assert is_separable(separable, np.array([-1.0, -1.0, 1.0, 1.0]))


def test_a_column_vector_y_is_refused_with_ravel():
    with pytest.raises(DataValidationError, match=r"shape \(4,\).*y\.ravel\(\)"):
        weston_lp(X, Y[:, None], np.ones(2))


def test_the_sfm_lp_needs_both_classes_and_a_sign_of_one():
    with pytest.raises(DataValidationError, match="both classes"):
        sfm_lp(X, np.ones(4), np.ones(2))
    with pytest.raises(ValueError, match=r"sign must be \+1 or -1"):
        sfm_lp(X, Y, np.ones(2), sign=0.0)
    assert weston_lp(X, np.ones(4), np.ones(2)).n_samples == 4  # one class is a valid Weston LP


@pytest.mark.parametrize("kwargs, name", [
    (dict(feature_cost=-np.ones(2)), "feature_cost"),
    (dict(feature_cost=np.array([np.nan, 1.0])), "feature_cost"),
    (dict(feature_cost=np.array([np.inf, 1.0])), "feature_cost"),
    (dict(slack_cost=-np.ones(4)), "slack_cost"),
    (dict(slack_cost=np.full(4, np.nan)), "slack_cost"),
])
def test_negative_nan_and_infinite_costs_are_refused_naming_the_argument(kwargs, name):
    # They reached HiGHS as 'Unbounded' / 'Unknown' with the advice to increase time_limit.
    arguments = dict(feature_cost=np.ones(2), slack_cost=None) | kwargs
    with pytest.raises(DataValidationError, match=rf"{name} must be .*>= 0.*at positions"):
        weston_lp(X, Y, arguments["feature_cost"], slack_cost=arguments["slack_cost"])


def test_an_infinite_slack_cost_still_keeps_its_row_hard():
    solution = HighsEngine().solve(weston_lp(X, Y, np.ones(2), slack_cost=np.full(4, np.inf)))
    assert solution.status == "optimal" and not solution.xi.any()


@pytest.mark.parametrize("kwargs, message", [
    (dict(feature_cost=np.ones(3)), r"feature_cost must hold one value per column of X, shape \(2,\)"),
    (dict(slack_cost=np.ones(3)), r"slack_cost must hold one value per sample, shape \(4,\)"),
    (dict(slack_cost=1.0), r"slack_cost .* got shape \(\).*np\.full\(4"),
])
def test_costs_of_the_wrong_length_are_refused(kwargs, message):
    arguments = dict(feature_cost=np.ones(2), slack_cost=None) | kwargs
    with pytest.raises(DataValidationError, match=message):
        weston_lp(X, Y, arguments["feature_cost"], slack_cost=arguments["slack_cost"])


@pytest.mark.parametrize("value, count", [(np.nan, "1 NaN"), (np.inf, "1 infinite")])
def test_non_finite_data_are_refused_before_the_solver(value, count):
    # NaN gave 'Solve error' and inf 'HiGHS rejected the model', even with solver='glpk'.
    bad = X.copy()
    bad[1, 1] = value
    with pytest.raises(DataValidationError, match=rf"X contains .*{count}.*Impute or drop"):
        weston_lp(bad, Y, np.ones(2))
    with pytest.raises(DataValidationError, match="X contains"):
        minimum_slack_hyperplane(bad, Y)


@pytest.mark.parametrize("data, message", [
    (X[:, 0], r"X must be 2-D.*reshape\(-1, 1\)"),
    (np.zeros((0, 2)), "X has no samples"),
])
def test_data_of_the_wrong_shape_are_refused(data, message):
    with pytest.raises(DataValidationError, match=message):
        weston_lp(data, Y[: data.shape[0]], np.ones(2))


def test_data_without_columns_remain_an_lp_on_the_bias():
    assert HighsEngine().solve(weston_lp(np.zeros((4, 0)), Y, np.ones(0))).status == "infeasible"


def test_the_separability_test_checks_its_data_first():
    # 1-D X raised "not enough values to unpack", a list "no attribute 'shape'".
    assert is_separable(X.tolist(), Y.tolist())
    with pytest.raises(DataValidationError, match="X must be 2-D"):
        is_separable(X[:, 0], Y)
    with pytest.raises(DataValidationError, match="X must be 2-D"):
        minimum_slack_hyperplane(X[:, 0], Y)


def test_a_matrix_value_highs_reads_as_infinite_is_named_with_the_fix():
    X = np.random.default_rng(0).normal(size=(10, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    with pytest.raises(SolverError, match="1e15 or more, which it reads as infinite. Rescale X"):
        HighsEngine().solve(sfm_lp(X * 1e16, y, np.ones(3)))
