"""Candidate genes per cell type: screen by Welch's t, then rank by the soft-SFM path.

The linear programs see at most ``n_screen`` genes and ``2 max_cells`` cells per type
(:func:`.screen.balanced_subsample`), so their size does not grow with the data set;
the types' problems are independent and run in parallel with joblib (any joblib backend,
e.g. ``with joblib.parallel_backend("dask"):`` on a Dask cluster).
"""

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed

from .ranking import sfm_ranking
from .screen import balanced_subsample, one_vs_rest_t, top_genes

__all__ = ["rank_candidates"]


def _dense(Z):
    return Z.toarray() if sp.issparse(Z) else np.asarray(Z)


def _problem(Z, codes, target, genes, max_cells, rng):
    """The dense (cells, screened genes) block of one class's problem and its labels."""
    rows = balanced_subsample(codes, target, max_cells, rng)
    return _dense(Z[rows][:, genes]), codes[rows] == target


def _rank_one(block, is_type, genes, n_Cs):
    order, weights = sfm_ranking(block, is_type, n_Cs)
    return genes[order], weights[order]


def rank_candidates(Z, codes, n_classes, allowed, *, n_screen, max_cells, n_Cs, n_jobs, rng):
    """Per class: (genes best first, their SFM weights), and the (n_classes, n_genes) t.

    Parameters
    ----------
    Z : sparse or dense (n_cells, n_genes), normalised values
    codes : ndarray of int, the class of every cell
    allowed : ndarray of bool, genes that may be ranked (expressed, not excluded)
    n_screen, max_cells, n_Cs : int
        Genes kept per class, cells per side of a class's problem, softness grid points.
    """
    t = one_vs_rest_t(Z, codes, n_classes)
    screened = top_genes(t, n_screen, allowed)
    if sp.issparse(Z):
        Z = sp.csr_matrix(Z)
    problems = [_problem(Z, codes, k, screened[k], max_cells, rng) for k in range(n_classes)]
    ranked = Parallel(n_jobs=n_jobs)(
        delayed(_rank_one)(block, is_type, screened[k], n_Cs)
        for k, (block, is_type) in enumerate(problems))
    return ranked, t
