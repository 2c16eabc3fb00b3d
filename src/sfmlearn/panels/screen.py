"""Fast per-type statistics: Welch's t of every gene, one cell type against the rest.

Used to screen genes before the linear programs and to orient markers. With class
means m, variances v and sizes n of type t and of the other cells r,

    t_g = (m_tg - m_rg) / sqrt(v_tg / n_t + v_rg / n_r)      (Welch 1947)

computed for all types at once from the class sums S1 = G X and S2 = G (X * X), where G
is the types x cells indicator matrix, over blocks of cells, so sparse X is never
densified or squared whole.
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["balanced_subsample", "class_means", "one_vs_rest_t", "top_genes"]

#: Cells per block of the class sums: the squares of one block exist at a time.
_ROWS = 2_000


def _indicator(codes, n_classes):
    n = codes.size
    return sp.csr_matrix((np.ones(n), (codes, np.arange(n))), shape=(n_classes, n))


def class_means(X, codes, n_classes):
    """(n_classes, n_genes) mean of every gene in every class."""
    G = _indicator(codes, n_classes)
    sums = np.asarray((G @ X).todense() if sp.issparse(X) else G @ X, dtype=float)
    return sums / np.bincount(codes, minlength=n_classes)[:, None]


def _class_sums(X, codes, n_classes):
    """Per class, the sums of X and of X * X, over blocks of cells (bounded memory)."""
    s1 = np.zeros((n_classes, X.shape[1]))
    s2 = np.zeros((n_classes, X.shape[1]))
    for start in range(0, X.shape[0], _ROWS):
        block = X[start:start + _ROWS]
        G = _indicator(codes[start:start + _ROWS], n_classes)
        squares = block.power(2) if sp.issparse(block) else block * block  # X's dtype
        s1 += np.asarray(G @ block if not sp.issparse(block) else (G @ block).toarray())
        s2 += np.asarray(G @ squares if not sp.issparse(block) else (G @ squares).toarray())
    return s1, s2


def one_vs_rest_t(X, codes, n_classes):
    """(n_classes, n_genes) Welch t of each gene, cells of class k against all others."""
    s1, s2 = _class_sums(X, codes, n_classes)
    n_in = np.bincount(codes, minlength=n_classes)[:, None].astype(float)
    n_out = np.maximum(codes.size - n_in, 1)
    r1, r2 = s1.sum(axis=0) - s1, s2.sum(axis=0) - s2
    mean_in, mean_out = s1 / n_in, r1 / n_out
    var_in = np.maximum(s2 / n_in - mean_in ** 2, 0) * n_in / np.maximum(n_in - 1, 1)
    var_out = np.maximum(r2 / n_out - mean_out ** 2, 0) * n_out / np.maximum(n_out - 1, 1)
    se = np.sqrt(var_in / n_in + var_out / n_out)
    return np.divide(mean_in - mean_out, se, out=np.zeros_like(se), where=se > 0)


def top_genes(scores, n_keep, allowed):
    """Per row, the ``n_keep`` allowed columns of largest score, best first."""
    masked = np.where(allowed, scores, -np.inf)
    n_keep = min(n_keep, int(allowed.sum()))
    part = np.argpartition(-masked, n_keep - 1, axis=1)[:, :n_keep]
    order = np.argsort(-np.take_along_axis(masked, part, axis=1), axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1)


def balanced_subsample(codes, target, per_side, rng):
    """Indices of at most ``per_side`` cells of class ``target`` and ``per_side`` others,
    the others spread evenly over the remaining classes (a small class is taken whole)."""
    inside = np.flatnonzero(codes == target)
    if inside.size > per_side:
        inside = rng.choice(inside, per_side, replace=False)
    others = [np.flatnonzero(codes == k) for k in np.unique(codes) if k != target]
    quota = per_side // max(len(others), 1) + 1
    outside = [o if o.size <= quota else rng.choice(o, quota, replace=False) for o in others]
    return np.sort(np.concatenate([inside, *outside]))
