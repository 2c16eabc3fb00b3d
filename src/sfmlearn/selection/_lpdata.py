"""The data an LP sees, and the maps between its weights and the user's features.

Three spaces appear in a fit:

* input space: the user's X; ``coef_``/``intercept_`` live here so that
  ``decision_function(X) = X @ coef_ + intercept_`` (scikit-learn's contract);
* scaled space: :class:`~sfmlearn.preprocessing.SFMScaler` output, the papers' x and w
  (``scaled_coef_``);
* LP space: what the engines read, a :class:`~sfmlearn.lp.operators.ScaledMatrix` over
  the user's X (never a scaled copy). For dense input it is the scaled space itself;
  sparse input is scaled but not centred, which changes only the bias (the LPs have a
  free bias and are invariant to centring).

Constant features (zero variance up to rounding, relative to the column's magnitude:
:func:`sfmlearn.preprocessing.constant_features`) are never candidates; a warning names
them, and data without a single non-constant feature are refused.
"""

import numpy as np
import scipy.sparse as sp

from ..exceptions import DataValidationError
from ..lp.operators import ScaledMatrix
from ..preprocessing import SFMScaler, constant_features, warn_constant_features

__all__ = ["LPData", "check_magnitudes", "check_not_all_constant", "check_visible_columns"]

#: Data whose largest |x_ij| is below the smallest normal float64 (2.2e-308) are subnormal:
#: their scale factors overflow. The SFM is invariant to scaling X, so the user can scale
#: them up.
SMALLEST_MAGNITUDE = float(np.finfo(np.float64).tiny)
#: Largest |x_ij| the LP engines accept as a coefficient (HiGHS refuses larger matrix
#: values); standardised data (``scale=True``) never come near it.
LARGEST_COEFFICIENT = 1e15
#: Smallest |x_ij| the LP engines read as a coefficient: HiGHS drops matrix entries below
#: its ``small_matrix_value`` (1e-9). Without scaling, a column whose values all lie below
#: it looks constant (zero) to the solver; standardised data never come near it.
SMALLEST_COEFFICIENT = 1e-9


def check_not_all_constant(constant, n_samples):
    """Refuse data in which no feature varies: nothing could separate the classes."""
    if constant.all() and n_samples < 2:
        raise DataValidationError(
            f"Found {n_samples} sample(s): with one sample every feature is constant. At least "
            "2 samples (one per class) are needed.")
    if constant.all():
        raise DataValidationError(
            f"All {constant.size} features are constant on the {n_samples} training samples, "
            "so no feature can separate the classes (nothing to select). Check that X holds "
            "the measurements (not, e.g., a transposed matrix, an index or a label column)."
        )


def check_magnitudes(X, scale):
    """Refuse values the LPs cannot represent, naming the cause and the fix.

    Data whose largest |x_ij| is below :data:`SMALLEST_MAGNITUDE` (subnormal),
    without scaling, data with |x_ij| above :data:`LARGEST_COEFFICIENT`, and, with
    scaling, a dense column whose range exceeds the largest float (its centring
    overflows) would otherwise end in overflow warnings and a wrong "not separable" or a
    solver error.
    """
    values = X.data if sp.issparse(X) else X
    largest = float(np.abs(values).max(initial=0.0))
    if 0.0 < largest < SMALLEST_MAGNITUDE:
        raise DataValidationError(
            f"X's largest value is {largest:.3g}, a subnormal number (below {SMALLEST_MAGNITUDE:.3g}) "
            "whose scale factor overflows. Multiply X by a power of ten (a constant factor "
            "changes no selection).")
    if not scale and largest > LARGEST_COEFFICIENT:
        raise DataValidationError(
            f"X holds values up to {largest:.3g}, above the {LARGEST_COEFFICIENT:g} the LP solvers "
            "accept as coefficients: divide X by a power of ten or keep scale=True.")
    if scale and not sp.issparse(X) and largest > np.finfo(np.float64).max / 2:
        with np.errstate(over="ignore"):
            span = X.max(axis=0).astype(np.float64) - X.min(axis=0)
        wide = np.flatnonzero(~np.isfinite(span))
        if wide.size:
            low, high = float(X[:, wide[0]].min()), float(X[:, wide[0]].max())
            raise DataValidationError(
                f"column {wide[0]} of X runs from {low:.3g} to {high:.3g}, a range beyond the largest float, so "
                f"centring it overflows ({wide.size} such columns). Divide X by a power of ten (a constant factor "
                "changes no selection).")


def check_visible_columns(X, constant, feature_names=None):
    """Refuse an unscaled column that varies (not ``constant``) but whose |x_ij| all lie
    below :data:`SMALLEST_COEFFICIENT`: the solver would read it as zero and never select
    it (or call the data not separable when only it separates them). A constant column
    of round-off (a standardised constant) is left to the constant-feature rule."""
    largest = (abs(X).max(axis=0).toarray().ravel() if sp.issparse(X) else np.abs(X).max(axis=0))
    tiny = np.flatnonzero((largest > 0) & (largest < SMALLEST_COEFFICIENT) & ~constant)
    if tiny.size:
        name = f"{feature_names[tiny[0]]!r}" if feature_names is not None else f"column {tiny[0]} of X"
        raise DataValidationError(
            f"{name} varies but holds values no larger than {largest[tiny[0]]:.3g} ({tiny.size} such "
            f"column{'s' * (tiny.size > 1)}), below the {SMALLEST_COEFFICIENT:g} under which the LP solver reads a "
            "coefficient as 0: unscaled, it looks constant and is never selected. Multiply those columns by a "
            "power of ten, or keep scale=True.")


class LPData:
    """Prepared training data: ``X`` (LP space), ``base_cost``, ``candidates``, maps.

    ``feature_names`` (or column indices) name the constant features in the warning.
    """

    def __init__(self, X, scale, feature_names=None):
        self.n_features = X.shape[1]
        self.sparse = sp.issparse(X)
        check_magnitudes(X, scale)
        if scale:
            self.scaler = SFMScaler().fit_statistics(X)
            self.factor = self.scaler.feature_factor_
            self.mean = self.scaler.mean_
            constant = self.scaler.constant_features_
        else:
            self.scaler = None
            self.factor = np.ones(self.n_features)
            self.mean = np.zeros(self.n_features)
            constant = constant_features(X)
            check_visible_columns(X, constant, feature_names)
        check_not_all_constant(constant, X.shape[0])
        warn_constant_features(constant, feature_names)
        self.candidates = np.flatnonzero(~constant)
        self._raw, self._scale = X, scale
        self._centred = scale and not self.sparse
        self._build()

    def _build(self):
        lp_mean = self.mean if self._centred else None
        self.X = ScaledMatrix(self._raw, self.factor if self._scale else None, lp_mean,
                              self.candidates)
        self.base_cost = np.ones(self.candidates.size)

    def divide_features(self, unit):
        """Express the scaled space in units of ``unit`` (every scaled feature / unit)."""
        self.factor = self.factor / unit
        self._build()

    def scaled_columns(self, columns):
        """Dense scaled-space (centred) data of the given candidate positions (refits)."""
        features = self.candidates[columns]
        block = self.X.X[:, features]
        block = block.toarray() if sp.issparse(block) else np.asarray(block, dtype=np.float64)
        return (block - self.mean[features]) * self.factor[features]

    def lp_to_scaled(self, columns, w_lp, b_lp):
        """LP-space weights on candidate positions ``columns`` -> scaled-space (w, b)."""
        if self._centred:
            return w_lp, b_lp
        features = self.candidates[columns]
        return w_lp, b_lp + float(w_lp @ (self.mean[features] * self.factor[features]))

    def scaled_to_input(self, columns, w_scaled, b_scaled):
        """Scaled-space (w, b) on candidate positions -> full input-space (coef, intercept)."""
        features = self.candidates[columns]
        coef = np.zeros(self.n_features)
        coef[features] = w_scaled * self.factor[features]
        intercept = b_scaled - float(coef[features] @ self.mean[features])
        return coef, intercept
