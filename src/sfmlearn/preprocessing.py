"""SFMScaler: the preprocessing every SFM experiment in the papers uses.

NC appendix A.2 / thesis 3.5: "we normalised the training data sets to zero mean and unit
variance and finally scaled all vectors to have a mean norm of one". The test data are
transformed with the factors of the training data.

    x'_ij = (x_ij - m_j) / (s_j * r),    r = (1/n) sum_i || (x_i - m) / s ||_2

The transformation is scale-invariant: multiplying a column (or all of X) by any positive
factor leaves x' unchanged up to rounding. To keep it so at the ends of the floating-point
range, every column is first divided by its largest magnitude a_j = max_i |x_ij| (so the
moments are computed on values in [-1, 1] and cannot overflow or underflow), and a column
counts as **constant** when its standard deviation is at most ``CONSTANT_ULPS`` units in
the last place of a_j:

    s_j <= CONSTANT_ULPS * eps(dtype) * a_j        (eps = 2.2e-16 for float64)

-- the spread that rounding leaves in a column of equal values, whatever their unit
(a concentration of 1e-11 mol/L that separates the classes is a feature, not a constant).
Constant features map to 0 and are reported in ``constant_features_`` and in a warning
that names them; the estimators drop them from their problems, so they are never
selected. :func:`constant_features` applies the same test where no scaling is done.
"""

import contextlib
import hashlib
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._validation import check_features, check_unlabelled
from .exceptions import ConstantFeatureWarning, DataValidationError

__all__ = ["SFMScaler", "column_statistics", "constant_features", "first_duplicates", "quiet_constant_features",
           "warn_constant_features", "CONSTANT_ULPS"]

#: A column is constant when its standard deviation is at most this many units in the
#: last place of its largest magnitude (module docstring).
CONSTANT_ULPS = 16

# Columns per chunk of the one-pass dense statistics (bounded temporaries).
_CHUNK_ELEMENTS = 2_000_000
# How many constant features a warning names.
_NAMED = 5


def _constant_rtol(dtype):
    return CONSTANT_ULPS * np.finfo(dtype if np.dtype(dtype).kind == "f" else np.float64).eps


def _dense_statistics(X):
    """Mean, std, constant mask and mean standardised sample norm in one pass over X.

    Column chunks hold whole columns, so each chunk's moments are exact (two-pass
    centring inside the chunk, no cancellation) and its contribution to every sample's
    squared standardised norm can be added at once. Each column is divided by its
    largest magnitude first (module docstring).
    """
    n, d = X.shape
    rtol = _constant_rtol(X.dtype)
    mean, std = np.empty(d), np.empty(d)
    constant = np.empty(d, dtype=bool)
    sq_norms = np.zeros(n)
    step = max(1, _CHUNK_ELEMENTS // max(n, 1))
    for lo in range(0, d, step):
        block = np.array(X[:, lo: lo + step], dtype=np.float64)
        peak = np.abs(block).max(axis=0)
        unit = np.where(peak > 0, peak, 1.0)
        block /= unit
        m = block.mean(axis=0)
        block -= m
        s = np.sqrt(np.einsum("ij,ij->j", block, block) / n)  # relative to the peak
        c = s <= rtol
        block *= np.where(c, 0.0, 1.0 / np.where(c, 1.0, s))
        sq_norms += np.einsum("ij,ij->i", block, block)
        mean[lo: lo + step], std[lo: lo + step], constant[lo: lo + step] = m * unit, s * unit, c
    return mean, std, constant, float(np.mean(np.sqrt(sq_norms)))


def _sparse_statistics(X):
    """The same statistics for sparse X, without densifying its sparse columns.

    Per column j with stored values u (divided by the column's peak), mean m and the
    n - k_j implicit zeros: var = (sum (u - m)^2 + (n - k_j) m^2) / n (two-pass, no
    cancellation). A sample's squared standardised norm adds, over the columns, its
    stored ((u - m_j) / s_j)^2 or, where it stores nothing, (m_j / s_j)^2. For columns
    stored in at most half the rows (m_j / s_j)^2 <= k_j / (n - k_j) <= 1, so
    "all offsets minus those of the stored entries" loses nothing; columns stored in most
    rows are standardised densely, chunk by chunk (they are dense already).
    """
    n, d = X.shape
    rtol = _constant_rtol(X.dtype)
    Xc = sp.csc_array(X, dtype=np.float64, copy=True)
    Xc.sum_duplicates()
    stored = np.diff(Xc.indptr)
    column = np.repeat(np.arange(d), stored)
    peak = np.zeros(d)
    np.maximum.at(peak, column, np.abs(Xc.data))
    unit = np.where(peak > 0, peak, 1.0)
    u = Xc.data / unit[column]
    m = np.bincount(column, weights=u, minlength=d) / n
    s = np.sqrt((np.bincount(column, weights=(u - m[column]) ** 2, minlength=d)
                 + (n - stored) * m**2) / n)
    constant = s <= rtol
    inv = np.where(constant, 0.0, 1.0 / np.where(constant, 1.0, s))
    mostly = 2 * stored > n
    offset = np.where(mostly, 0.0, (m * inv) ** 2)
    entry = np.where(mostly[column], 0.0, ((u - m[column]) * inv[column]) ** 2 - offset[column])
    sq_norms = np.bincount(Xc.indices, weights=entry, minlength=n) + offset.sum()
    dense_columns = np.flatnonzero(mostly)
    step = max(1, _CHUNK_ELEMENTS // max(n, 1))
    for lo in range(0, dense_columns.size, step):
        cols = dense_columns[lo: lo + step]
        block = (Xc[:, cols].toarray() / unit[cols] - m[cols]) * inv[cols]
        sq_norms += np.einsum("ij,ij->i", block, block)
    norm = float(np.mean(np.sqrt(np.maximum(sq_norms, 0.0))))
    return m * unit, s * unit, constant, norm


def column_statistics(X):
    """(mean, std, constant mask, mean standardised sample norm) of dense or sparse X.

    The statistics behind :class:`SFMScaler` (overflow-safe, sparse input never
    densified; constant as in :func:`constant_features`), for estimators that
    standardise in their own way (the P-SVMs).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Finite data; a sparse matrix is read column by column, never densified.

    Returns
    -------
    mean, std : ndarray of shape (n_features,)
        Column means and standard deviations.
    constant : ndarray of bool of shape (n_features,)
        Constant columns.
    mean_norm : float
        Mean Euclidean norm of the standardised samples (constant columns left out).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.preprocessing import column_statistics
    >>> mean, std, constant, mean_norm = column_statistics(np.array([[1.0, 5.0], [3.0, 5.0]]))
    >>> mean, std, constant, round(float(mean_norm), 6)
    (array([2., 5.]), array([1., 0.]), array([False,  True]), 1.0)
    """
    if not sp.issparse(X):
        X = np.asarray(X)
    if X.ndim != 2 or 0 in X.shape:
        raise DataValidationError(
            f"X must be a non-empty 2-D array (samples x features); got shape {X.shape}. "
            "Pass at least one sample and one feature (X.reshape(-1, 1) for a single feature).")
    return (_sparse_statistics if sp.issparse(X) else _dense_statistics)(X)


def constant_features(X):
    """Boolean mask of the columns of X (dense or sparse) that are constant up to rounding.

    The test of :class:`SFMScaler` (module docstring): standard deviation at most
    ``CONSTANT_ULPS`` units in the last place of the column's largest magnitude. Used by
    the estimators that do not scale (``scale=False``).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Finite data, dense or sparse.

    Returns
    -------
    ndarray of bool of shape (n_features,)
        True for the constant columns.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.preprocessing import constant_features
    >>> constant_features(np.array([[1.0, 5.0], [3.0, 5.0 + 1e-15]]))
    array([False,  True])
    """
    return column_statistics(X)[2]


def warn_constant_features(constant, feature_names=None, *, what="cannot be selected"):
    """Warn that some features are constant, naming how many and the first few
    (:class:`~sfmlearn.exceptions.ConstantFeatureWarning`).

    Parameters
    ----------
    constant : ndarray of bool of shape (n_features,)
        The constant columns (:func:`constant_features`).
    feature_names : array-like of str, optional
        Names to quote (default: column indices).
    what : str, default="cannot be selected"
        What follows for these features, ending the message.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sfmlearn.preprocessing import warn_constant_features
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_constant_features(np.array([False, True]), ["gene_a", "gene_b"])
    >>> str(caught[0].message).split(";")[0]  # doctest: +ELLIPSIS
    "1 of 2 features are constant on the training data (names 'gene_b') and cannot be selected..."
    """
    constant = np.asarray(constant, dtype=bool)
    index = np.flatnonzero(constant)
    if index.size == 0:
        return
    names = index if feature_names is None else np.asarray(feature_names)[index]
    shown = ", ".join(repr(v) if isinstance(v, str) else str(v) for v in names[:_NAMED].tolist())
    more = f" and {index.size - _NAMED} more" if index.size > _NAMED else ""
    label = "names" if feature_names is not None else "column indices"
    warnings.warn(
        f"{index.size} of {constant.size} features are constant on the training data "
        f"({label} {shown}{more}) and {what}. Constant means a standard deviation within "
        f"{CONSTANT_ULPS} units in the last place of the column's magnitude; "
        "SFMScaler().fit(X).constant_features_ lists them all.",
        ConstantFeatureWarning, stacklevel=3,
    )


@contextlib.contextmanager
def quiet_constant_features():
    """Silence :class:`~sfmlearn.exceptions.ConstantFeatureWarning` inside the fits of
    cross-validation folds: a column can be constant in a fold and not in the data, and
    the fit on all data (or the caller) names the constant features once.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sfmlearn.preprocessing import quiet_constant_features, warn_constant_features
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with quiet_constant_features():
    ...         warn_constant_features(np.array([False, True]))
    >>> caught
    []
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConstantFeatureWarning)
        yield


class SFMScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Standardise every feature, then scale samples to a mean Euclidean norm of one.

    The preprocessing of the SFM papers (NC appendix A.2, thesis 3.5). Without it the SFM
    falls to chance on the Weston benchmark, whose noise features have standard
    deviation 20 and would otherwise dominate the one-norm.

    Scale-invariant: multiplying X, or any column, by a positive factor (1e-13 or 1e160
    alike) gives the same output up to rounding; the constant test is relative to each
    column's magnitude (module docstring).

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
        Features constant on the training data (a warning names them); transformed to 0.
    n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import SFMScaler
    >>> from sfmlearn.datasets import load_leukemia
    >>> Z = SFMScaler().fit_transform(load_leukemia().X_train)
    >>> round(float(np.linalg.norm(Z, axis=1).mean()), 6), bool(np.allclose(Z.mean(axis=0), 0))
    (1.0, True)
    """

    _parameter_constraints = {}

    def fit(self, X, y=None):
        self._validate_params()
        X = check_unlabelled(self, X)
        self.fit_statistics(X)
        warn_constant_features(self.constant_features_, getattr(self, "feature_names_in_", None),
                               what="are transformed to 0")
        return self

    def fit_statistics(self, X):
        """Fit on X that is already validated, without the constant-feature warning.

        For estimators that validate their input and warn about constant features
        themselves (the SFM family scales inside ``fit``); users call :meth:`fit`.

        Parameters
        ----------
        X : ndarray or sparse matrix of shape (n_samples, n_features)
            Validated, finite data.

        Returns
        -------
        SFMScaler
            ``self``, fitted.
        """
        mean, std, constant, norm = column_statistics(X)
        scale = np.where(constant, 1.0, std)
        sample_scale = norm if norm > 0 else 1.0
        _check_finite_factors(_feature_factor(scale, sample_scale, constant), std)
        self.n_features_in_ = X.shape[1]
        self.constant_features_ = constant
        self.mean_ = mean
        self.scale_ = scale
        self.sample_scale_ = sample_scale
        return self

    @property
    def feature_factor_(self):
        """Multiplier of every centred feature: 1/(s_j r), and 0 for constant features."""
        check_is_fitted(self)
        return _feature_factor(self.scale_, self.sample_scale_, self.constant_features_)

    def transform(self, X):
        check_is_fitted(self)
        X = check_features(self, X)
        factor = self.feature_factor_
        if sp.issparse(X):
            return type(X)(X.multiply(factor.astype(X.dtype)))
        try:
            with np.errstate(over="raise"):
                Z = (X - self.mean_) * factor
        except FloatingPointError:  # a column spans more than the largest float: scale first
            Z = X * factor - self.mean_ * factor
        return Z.astype(X.dtype, copy=False)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = False
        return tags


def _feature_factor(scale, sample_scale, constant):
    """1/(s_j r) for every feature, 0 for the constant ones (inf where it overflows)."""
    with np.errstate(over="ignore"):
        return np.where(constant, 0.0, 1.0 / scale / sample_scale)


def _check_finite_factors(factor, std):
    """Refuse columns whose factor 1/(s_j r) overflows (standard deviations near 1e-308,
    subnormal data): no float holds it, and the scaled values would come out infinite."""
    overflow = np.flatnonzero(~np.isfinite(factor))
    if overflow.size:
        smallest = float(std[overflow].min())
        power = int(np.ceil(-290 - np.log10(smallest)))
        raise DataValidationError(
            f"{overflow.size} column(s) of X (column indices {overflow[:_NAMED].tolist()}) have standard "
            f"deviations down to {smallest:.3g}, so small that their scaling factor 1/(s_j r) overflows. "
            f"Multiply X (or those columns) by a power of ten, e.g. X * 1e{power}: the scaled output does "
            "not change when a column is multiplied by a positive constant.")


def first_duplicates(X):
    """For every column of ``X`` the index of the first column equal to it (itself if none).

    Columns are compared through a 128-bit BLAKE2 digest of their values as float64
    (sparse: the row indices and values of a canonical CSC matrix, stored zeros dropped;
    -0.0 counts as 0.0), so one pass over ``X`` finds every group of exact copies.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)

    Returns
    -------
    ndarray of int, shape (n_features,)
        Column j's first equal column; columns with the same entry are copies of each other.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.preprocessing import first_duplicates
    >>> first_duplicates(np.array([[1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 5.0]])).tolist()
    [0, 1, 0, 3]
    """
    if sp.issparse(X):
        X = sp.csc_matrix(X, dtype=np.float64, copy=True)
        X.sum_duplicates()
        X.eliminate_zeros()
        X.sort_indices()
        X.data += 0.0  # -0.0 -> 0.0
    else:
        X = np.asfortranarray(X, dtype=np.float64) + 0.0
    first = np.arange(X.shape[1])
    seen = {}
    for j in range(X.shape[1]):
        if sp.issparse(X):
            lo, hi = X.indptr[j], X.indptr[j + 1]
            raw = X.indices[lo:hi].tobytes() + b"|" + X.data[lo:hi].tobytes()
        else:
            raw = X[:, j].tobytes()
        first[j] = seen.setdefault(hashlib.blake2b(raw, digest_size=16).digest(), j)
    return first
