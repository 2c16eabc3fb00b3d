"""The order in which a cell type's genes enter the soft-SFM path.

For one type t against the other cells, the class-balanced soft SFM (NC eq. 2.9-2.10,
``class_weight="balanced"``)

    minimise ||w||_0 + C_+ ||xi_+||_0 + C_- ||xi_-||_0
    s.t. y_i (w . x_i + b) >= -xi_i,  (mu_+ - mu_-) . w = +-1,   C_+ n_+ = C_- n_-

selects exactly one gene as C -> 0 (the largest scaled class-mean difference) and more
as C grows (:func:`sfmlearn.selection.sfm_path`). A gene's *entry* is the first C of the
path at which it is in the support; sorting by entry, then by |w| at entry, ranks the
type's genes by how early the SFM needs them (column and row generation; the full LP
when a restricted master stalls). Genes that never enter keep the order of
the screening statistic, after those that do.
"""

import numpy as np

from ..exceptions import SolverError
from ..selection import SupportFeatureMachine, sfm_path

__all__ = ["sfm_ranking"]


def _path(Z, y, n_Cs):
    """The class-balanced soft-SFM path; the full LP (HiGHS) if row generation stalls."""
    try:
        return sfm_path(Z, y, Cs=n_Cs, estimator=SupportFeatureMachine(
            class_weight="balanced", refit=None))
    except SolverError:
        return sfm_path(Z, y, Cs=n_Cs, estimator=SupportFeatureMachine(
            class_weight="balanced", refit=None, solver="highs"))


def sfm_ranking(Z, is_type, n_Cs):
    """(order, weights) of the columns of Z for the one-vs-rest problem ``is_type``.

    Parameters
    ----------
    Z : ndarray of shape (n_cells, n_genes)
        Normalised values of the screened genes, columns in screening order.
    is_type : ndarray of bool, shape (n_cells,)
    n_Cs : int
        Points of the softness grid (:func:`sfmlearn.selection.default_Cs`).

    Returns
    -------
    order : ndarray of int
        Column positions, the gene the SFM needs first first.
    weights : ndarray of float, shape (n_genes,)
        Each gene's SFM weight (scaled features) at its entry; 0 if it never enters.
    """
    keep = Z.std(axis=0) > 0
    order_in = np.flatnonzero(keep)
    path = _path(Z[:, order_in], is_type.astype(int), n_Cs)
    supports = np.asarray(path.supports, dtype=bool)
    entered = supports.any(axis=0)
    entry = np.where(entered, supports.argmax(axis=0), supports.shape[0])
    weights = np.zeros(Z.shape[1])
    at_entry = np.asarray(path.scaled_coefs)[np.minimum(entry, supports.shape[0] - 1),
                                               np.arange(order_in.size)]
    weights[order_in] = np.where(entered, at_entry, 0.0)
    position = np.arange(order_in.size)
    ranked = order_in[np.lexsort((position, -np.abs(weights[order_in]), entry))]
    return np.concatenate([ranked, np.flatnonzero(~keep)]), weights
