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

__all__ = ["LPData", "check_not_all_constant"]


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


class LPData:
    """Prepared training data: ``X`` (LP space), ``base_cost``, ``candidates``, maps.

    ``feature_names`` (or column indices) name the constant features in the warning.
    """

    def __init__(self, X, scale, feature_names=None):
        self.n_features = X.shape[1]
        self.sparse = sp.issparse(X)
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
