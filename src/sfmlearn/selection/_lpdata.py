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

Constant features (zero variance) are never candidates.
"""

import numpy as np
import scipy.sparse as sp

from ..lp.operators import ScaledMatrix
from ..preprocessing import SFMScaler

__all__ = ["LPData"]


class LPData:
    """Prepared training data: ``X`` (LP space), ``base_cost``, ``candidates``, maps."""

    def __init__(self, X, scale):
        self.n_features = X.shape[1]
        self.sparse = sp.issparse(X)
        if scale:
            self.scaler = SFMScaler().fit(X)
            self.factor = self.scaler.feature_factor_
            self.mean = self.scaler.mean_
            constant = self.scaler.constant_features_
        else:
            self.scaler = None
            self.factor = np.ones(self.n_features)
            self.mean = np.zeros(self.n_features)
            constant = _constant_columns(X)
        self.candidates = np.flatnonzero(~constant)
        lp_mean = self.mean if (scale and not self.sparse) else None
        self.X = ScaledMatrix(X, self.factor if scale else None, lp_mean, self.candidates)
        self.base_cost = np.ones(self.candidates.size)
        self._centred = lp_mean is not None

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


def _constant_columns(X):
    if sp.issparse(X):
        Xc = sp.csc_array(X)
        col_max = Xc.max(axis=0).toarray().ravel()
        col_min = Xc.min(axis=0).toarray().ravel()
    else:
        col_max, col_min = X.max(axis=0), X.min(axis=0)
    return col_max == col_min
