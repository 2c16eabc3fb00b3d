"""SFMScaler: the preprocessing every SFM experiment in the papers uses.

NC appendix A.2 / thesis 3.5: "we normalised the training data sets to zero mean and unit
variance and finally scaled all vectors to have a mean norm of one". The test data are
transformed with the factors of the training data.

    x'_ij = (x_ij - m_j) / (s_j * r),    r = (1/n) sum_i || (x_i - m) / s ||_2

Constant features (zero standard deviation) map to 0 and are reported in
``constant_features_``; the estimators drop them from the linear programs, so they can
never be selected.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import _check_finite_numeric

__all__ = ["SFMScaler"]

# A feature is constant when its standard deviation is below this fraction of its
# magnitude: rounding noise in a constant column must not be blown up to unit variance.
_CONSTANT_RTOL = 1e-10


# Columns per chunk of the one-pass dense statistics (bounded temporaries).
_CHUNK_ELEMENTS = 2_000_000


def _dense_statistics(X):
    """Mean, std, constant mask and mean standardised sample norm in one pass over X.

    Column chunks hold whole columns, so each chunk's moments are exact (two-pass
    centring inside the chunk, no cancellation) and its contribution to every sample's
    squared standardised norm can be added at once.
    """
    n, d = X.shape
    mean, std = np.empty(d), np.empty(d)
    constant = np.empty(d, dtype=bool)
    sq_norms = np.zeros(n)
    step = max(1, _CHUNK_ELEMENTS // max(n, 1))
    for lo in range(0, d, step):
        block = np.asarray(X[:, lo: lo + step], dtype=np.float64)
        m = block.mean(axis=0)
        centred = block - m
        s = np.sqrt(np.einsum("ij,ij->j", centred, centred) / n)
        c = s <= _CONSTANT_RTOL * np.maximum(1.0, np.abs(m))
        centred *= np.where(c, 0.0, 1.0 / np.where(c, 1.0, s))
        sq_norms += np.einsum("ij,ij->i", centred, centred)
        mean[lo: lo + step], std[lo: lo + step], constant[lo: lo + step] = m, s, c
    return mean, std, constant, float(np.mean(np.sqrt(sq_norms)))


def _sparse_statistics(X):
    """The same statistics for sparse X, without densifying it."""
    mean = np.asarray(X.mean(axis=0), dtype=np.float64).ravel()
    mean_sq = np.asarray(X.multiply(X).mean(axis=0), dtype=np.float64).ravel()
    std = np.sqrt(np.maximum(mean_sq - mean**2, 0.0))
    constant = std <= _CONSTANT_RTOL * np.maximum(1.0, np.abs(mean))
    inv = np.where(constant, 0.0, 1.0 / np.where(constant, 1.0, std))
    Xs = X.multiply(inv).tocsr()  # x_ij / s_j
    sq = np.asarray(Xs.multiply(Xs).sum(axis=1)).ravel()
    cross = np.asarray(Xs @ (mean * inv)).ravel()
    sq_norms = sq - 2.0 * cross + np.sum((mean * inv) ** 2)
    return mean, std, constant, float(np.mean(np.sqrt(np.maximum(sq_norms, 0.0))))


class SFMScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Standardise every feature, then scale samples to a mean Euclidean norm of one.

    The preprocessing of the SFM papers (NC appendix A.2, thesis 3.5). Without it the SFM
    falls to chance on the Weston benchmark, whose noise features have standard
    deviation 20 and would otherwise dominate the one-norm.

    Sparse input is scaled without centring (centring would densify it); the mean-norm
    factor is still computed on the centred data, so the factors equal the dense ones.
    The SFM linear programs have a free bias and are therefore invariant to centring:
    dense and sparse input give the same selection.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
    scale_ : ndarray of shape (n_features,)
        Per-feature standard deviation; 1.0 for constant features.
    sample_scale_ : float
        Mean norm ``r`` of the standardised training samples.
    constant_features_ : ndarray of bool, shape (n_features,)
        Features with zero variance on the training data; transformed to 0.
    n_features_in_, feature_names_in_
    """

    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse=("csr", "csc"),
                          dtype=[np.float64, np.float32], ensure_all_finite=False)
        _check_finite_numeric(X)
        statistics = _sparse_statistics if sp.issparse(X) else _dense_statistics
        mean, std, constant, norm = statistics(X)
        self.constant_features_ = constant
        self.mean_ = mean
        self.scale_ = np.where(constant, 1.0, std)
        self.sample_scale_ = norm if norm > 0 else 1.0
        return self

    @property
    def feature_factor_(self):
        """Multiplier of every centred feature: 1/(s_j r), and 0 for constant features."""
        check_is_fitted(self)
        return np.where(self.constant_features_, 0.0, 1.0 / (self.scale_ * self.sample_scale_))

    def transform(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, accept_sparse=("csr", "csc"),
                          dtype=[np.float64, np.float32], ensure_all_finite=False)
        _check_finite_numeric(X)
        factor = self.feature_factor_
        if sp.issparse(X):
            return type(X)(X.multiply(factor.astype(X.dtype)))
        return ((X - self.mean_) * factor).astype(X.dtype, copy=False)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = False
        return tags
