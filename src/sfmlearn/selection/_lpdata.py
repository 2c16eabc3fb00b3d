"""The data an LP sees, and the maps between its weights and the user's features.

Three spaces appear in a fit:

* input space: the user's X; ``coef_``/``intercept_`` live here so that
  ``decision_function(X) = X @ coef_ + intercept_`` (scikit-learn's contract);
* scaled space: :class:`~sfmlearn.preprocessing.SFMScaler` output, the paper's x and w
  (``scaled_coef_``);
* LP space: what the engine receives. For dense input it is the scaled space. For
  sparse input it is the raw, uncentred matrix (centring would densify it) with
  feature cost c_j = 1 / f_j, where f_j = 1 / (s_j r) is the scaler's factor: since
  the LPs have a free bias they are invariant to centring, and sum_j |w'_j| with
  w'_j = w_j / f_j is exactly the one-norm of the scaled weights. Both routes solve the
  same LP up to the bias offset.

Constant features (zero variance) are never candidates.
"""

import numpy as np
import scipy.sparse as sp

from ..preprocessing import SFMScaler

__all__ = ["LPData"]


class LPData:
    """Prepared training data: ``X`` (LP space), ``base_cost``, ``candidates``, maps."""

    def __init__(self, X, scale):
        self.n_features = X.shape[1]
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
        self.sparse = sp.issparse(X)
        if self.sparse:
            # Raw columns; the scaling becomes the feature cost (see the module docstring).
            self.X = sp.csc_array(X[:, self.candidates], dtype=np.float64)
            self.base_cost = 1.0 / self.factor[self.candidates]
        else:
            cols = self.candidates
            self.X = self._scaled(X, cols) if scale else np.asarray(X[:, cols], dtype=np.float64)
            self.base_cost = np.ones(cols.size)
        self._raw = X

    def _scaled(self, X, cols):
        block = X[:, cols]
        if sp.issparse(block):
            block = block.toarray()
        return (np.asarray(block, dtype=np.float64) - self.mean[cols]) * self.factor[cols]

    def scaled_columns(self, columns):
        """Dense scaled-space data of the given candidate positions (for refits)."""
        return self._scaled(self._raw, self.candidates[columns])

    def lp_to_scaled(self, columns, w_lp, b_lp):
        """LP-space weights on candidate positions ``columns`` -> scaled-space (w, b)."""
        if not self.sparse:
            return w_lp, b_lp
        features = self.candidates[columns]
        w = w_lp / self.factor[features]
        return w, b_lp + float(w_lp @ self.mean[features])

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
