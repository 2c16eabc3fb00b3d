"""The order in which a cell type's genes enter the soft-SFM path.

For one type t against the other cells, the class-balanced soft SFM (NC eq. 2.9-2.10,
``class_weight="balanced"``)

    minimise ||w||_0 + C_+ ||xi_+||_0 + C_- ||xi_-||_0
    s.t. y_i (w . x_i + b) >= -xi_i,  (mu_+ - mu_-) . w = +-1,   C_+ n_+ = C_- n_-

selects exactly one gene as C -> 0 (the largest scaled class-mean difference) and more
as C grows (:func:`sfmlearn.selection.sfm_path`). A gene's *entry* is the first C of the
path at which it is in the support; sorting by entry, then by |w| at entry, ranks the
type's genes by how early the SFM needs them (column and row generation; the full LP
when a restricted master stalls). Only genes that enter are ranked: each has a weight,
the SFM's reason to hold it; the panel's other candidates come from a stated ranking
(:mod:`.candidates`).
"""

import numpy as np

from ..exceptions import SolverError
from ..preprocessing import constant_features
from ..selection import SupportFeatureMachine, sfm_path

__all__ = ["sfm_ranking"]


def _path(Z, y, n_Cs):
    """The class-balanced soft-SFM path; the full LP (HiGHS) if row generation stalls."""
    try:
        return sfm_path(Z, y, Cs=n_Cs, estimator=SupportFeatureMachine(
            class_weight="balanced", refit=None), probability=False)
    except SolverError:
        return sfm_path(Z, y, Cs=n_Cs, estimator=SupportFeatureMachine(
            class_weight="balanced", refit=None, solver="highs"), probability=False)


def sfm_ranking(Z, is_type, n_Cs):
    """(positions, weights) of the columns of Z that enter the one-vs-rest SFM path.

    Parameters
    ----------
    Z : ndarray of shape (n_cells, n_genes)
        Normalised values of the screened genes.
    is_type : ndarray of bool, shape (n_cells,)
    n_Cs : int
        Points of the softness grid (:func:`sfmlearn.selection.default_Cs`).

    Returns
    -------
    positions : ndarray of int
        Columns of Z in the support of some fit of the path, the gene the SFM needs
        first first.
    weights : ndarray of float, same length
        Each one's SFM weight (scaled features) at its entry, never 0.
    """
    # the SFM's own test: constant up to rounding (no column at all: every gene included or excluded)
    varying = np.flatnonzero(~constant_features(Z)) if Z.shape[1] else np.zeros(0, dtype=int)
    if varying.size == 0:  # nothing to rank
        return np.zeros(0, dtype=int), np.zeros(0)
    path = _path(Z[:, varying], is_type.astype(int), n_Cs)
    supports = np.asarray(path.supports, dtype=bool)
    entered = np.flatnonzero(supports.any(axis=0))
    entry = supports[:, entered].argmax(axis=0)
    weights = np.asarray(path.scaled_coefs)[entry, entered]
    order = np.lexsort((np.arange(entered.size), -np.abs(weights), entry))
    return varying[entered[order]], weights[order]
