"""SFMScaler: the preprocessing of NC appendix A.2."""

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn import SFMScaler
from sfmlearn.exceptions import DataValidationError
from sfmlearn.preprocessing import constant_features


def test_standardises_then_mean_norm_one(rng):
    X = rng.normal(5.0, 3.0, (50, 20))
    Z = SFMScaler().fit_transform(X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-12)
    stds = Z.std(axis=0)
    np.testing.assert_allclose(stds, stds[0])  # equal variances
    assert np.mean(np.linalg.norm(Z, axis=1)) == pytest.approx(1.0, rel=1e-12)


def test_test_data_use_the_training_factors(rng):
    X_train = rng.normal(0, 2, (30, 5))
    X_test = rng.normal(1, 2, (10, 5))
    scaler = SFMScaler().fit(X_train)
    expected = (X_test - X_train.mean(0)) / X_train.std(0) / scaler.sample_scale_
    np.testing.assert_allclose(scaler.transform(X_test), expected)


def test_constant_features_map_to_zero_without_division_by_zero(rng):
    X = rng.standard_normal((10, 4))
    X[:, 2] = 3.0
    with pytest.warns(UserWarning, match=r"1 of 4 features are constant .*indices 2\)"):
        scaler = SFMScaler().fit(X)
    assert scaler.constant_features_.tolist() == [False, False, True, False]
    assert np.all(scaler.transform(X)[:, 2] == 0)
    assert np.isfinite(scaler.transform(X)).all()


def test_sparse_input_gets_the_dense_factors_without_densifying(rng):
    X = rng.standard_normal((40, 30))
    X[np.abs(X) < 1.0] = 0.0
    dense = SFMScaler().fit(X)
    sparse = SFMScaler().fit(sp.csr_matrix(X))
    np.testing.assert_allclose(sparse.scale_, dense.scale_)
    assert sparse.sample_scale_ == pytest.approx(dense.sample_scale_, rel=1e-12)
    out = sparse.transform(sp.csr_matrix(X))
    assert sp.issparse(out)
    np.testing.assert_allclose(out.toarray(), X * dense.feature_factor_)


# -- scale invariance: a feature's unit does not change the selection -------------------
def _separable_by_a_tiny_concentration(rng):
    """A concentration in mol/L (~1e-11) separates the classes; the rest is noise."""
    y = np.repeat([0, 1], 15)
    X = rng.standard_normal((30, 6))
    X[:, 0] = 1e-11 * (1.0 + 0.5 * y + 0.05 * rng.standard_normal(30))
    return X, y


def test_a_feature_with_tiny_values_is_not_constant(rng):
    X, _ = _separable_by_a_tiny_concentration(rng)
    scaler = SFMScaler().fit(X)
    assert not scaler.constant_features_.any()
    Z = scaler.transform(X)
    assert Z[:, 0].std() == pytest.approx(Z[:, 1].std(), rel=1e-12)  # unit variance, like all


@pytest.mark.parametrize("factor", [1e-13, 1e-300, 1e160, 1e300])
def test_output_does_not_depend_on_the_unit_of_X(rng, factor):
    X = rng.normal(3.0, 2.0, (25, 8))
    expected = SFMScaler().fit_transform(X)
    with np.errstate(all="raise"):  # no overflow or underflow on the way
        scaled = SFMScaler().fit_transform(X * factor)
    np.testing.assert_allclose(scaled, expected, rtol=1e-9, atol=1e-12)


def test_output_does_not_depend_on_the_unit_of_each_column(rng):
    X = rng.normal(1.0, 1.0, (25, 8))
    units = 10.0 ** np.array([-12, -6, 0, 3, 12, 100, -100, 7])
    np.testing.assert_allclose(SFMScaler().fit_transform(X * units),
                               SFMScaler().fit_transform(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("factor", [1e-13, 1e160])
def test_sparse_statistics_are_scale_invariant_and_two_pass(rng, factor):
    X = rng.standard_normal((40, 10))
    X[np.abs(X) < 0.8] = 0.0
    X[:, 3] = 1e6 + rng.standard_normal(40)  # dense column with a large offset
    dense = SFMScaler().fit(X)
    sparse = SFMScaler().fit(sp.csc_array(X * factor))
    np.testing.assert_allclose(sparse.scale_ / factor, dense.scale_, rtol=1e-9)
    assert sparse.sample_scale_ == pytest.approx(dense.sample_scale_, rel=1e-9)
    assert not sparse.constant_features_.any()


def test_rounding_noise_is_constant_and_named(rng):
    import pandas as pd

    X = pd.DataFrame(rng.standard_normal((12, 3)), columns=["a", "b", "c"])
    X["b"] = np.where(np.arange(12) % 2 == 0, 0.1 + 0.2, 0.3)  # 0.30000000000000004 vs 0.3
    with pytest.warns(UserWarning, match=r"1 of 3 features are constant .*names 'b'"):
        scaler = SFMScaler().fit(X)
    assert scaler.constant_features_.tolist() == [False, True, False]


def test_constant_features_agrees_with_the_scaler_without_scaling(rng):
    X, _ = _separable_by_a_tiny_concentration(rng)
    X = np.column_stack([X, np.full(30, 5e-12), np.zeros(30)])
    assert constant_features(X).tolist() == [False] * 6 + [True, True]
    assert constant_features(sp.csr_array(X)).tolist() == [False] * 6 + [True, True]


def test_complex_and_date_input_are_refused(rng):
    import pandas as pd

    X = rng.standard_normal((6, 2))
    with pytest.raises(DataValidationError, match="complex values"):
        SFMScaler().fit(X + 1j)
    frame = pd.DataFrame({"x": X[:, 0], "when": pd.date_range("2024-01-01", periods=6)})
    with pytest.raises(DataValidationError, match=r"dates \(datetime64\) in column\(s\) \['when'\]"):
        SFMScaler().fit(frame)


@pytest.mark.parametrize("to_input", [np.asarray, sp.csr_matrix])
def test_columns_too_small_for_a_finite_factor_are_refused_with_the_fix(to_input):
    """1 / (s r) overflowed for subnormal data (X * 1e-310): the output was +-inf."""
    X = np.array([[1.0], [2.0], [4.0]])
    with pytest.raises(DataValidationError, match=r"overflows\. Multiply X .* e\.g\. X \* 1e20") as caught:
        SFMScaler().fit(to_input(X * 1e-310))
    assert "column indices [0]" in str(caught.value)
    rescaled = SFMScaler().fit(X * 1e-310 * 1e20).transform(X * 1e-310 * 1e20)
    np.testing.assert_allclose(rescaled, SFMScaler().fit_transform(X))


def test_constant_features_and_column_statistics_take_lists():
    from sfmlearn.preprocessing import column_statistics

    rows = [[1.0, 2.0], [1.0, 3.0]]
    np.testing.assert_array_equal(constant_features(rows), [True, False])
    for from_list, from_array in zip(column_statistics(rows), column_statistics(np.array(rows))):
        np.testing.assert_array_equal(from_list, from_array)


@pytest.mark.parametrize("empty", [np.zeros((0, 3)), np.zeros((3, 0)), sp.csr_matrix((0, 3)), [1.0, 2.0]])
def test_constant_features_refuses_empty_or_one_dimensional_input(empty):
    with pytest.raises(DataValidationError, match="non-empty 2-D array"):
        constant_features(empty)
