"""SFMScaler: the preprocessing of NC appendix A.2."""

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn import SFMScaler


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
