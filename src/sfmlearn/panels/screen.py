"""Fast per-type statistics: Welch's t of every gene, one cell type against the rest.

Used to screen genes before the linear programs and to orient markers. With class
means m, variances v and sizes n of type t and of the other cells r,

    t_g = (m_tg - m_rg) / sqrt(v_tg / n_t + v_rg / n_r)      (Welch 1947)

computed for all types at once from the class sums S1 = G X (G: the types x cells
indicator matrix) and then the class sums of squared deviations from the class means,
over blocks of cells (float64), so sparse X is never densified whole and values far
from 0 keep their precision.
"""

import numpy as np
import scipy.sparse as sp

__all__ = ["balanced_subsample", "class_means", "one_vs_rest_t", "top_genes"]

#: Cells per block of the class sums: the deviations of one block exist at a time.
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
    """Per class, the sum of X, over blocks of cells (float64 whatever X's dtype)."""
    s1 = np.zeros((n_classes, X.shape[1]))
    for start in range(0, X.shape[0], _ROWS):
        block = X[start:start + _ROWS]
        G = _indicator(codes[start:start + _ROWS], n_classes)
        s1 += (G @ block).toarray() if sp.issparse(block) else G @ block
    return s1


def _deviations(X, codes, means):
    """Per class, the sums of d = x_ig - m_kg and of d^2 over its cells, from the class means m,
    over blocks of cells; for sparse X the stored values and the implicit zeros (d = -m_kg
    each) are summed apart, so X is never densified."""
    n_classes = means.shape[0]
    s1, s2 = np.zeros_like(means), np.zeros_like(means)
    zeros = np.zeros_like(means)  # implicit zeros of every class and gene
    for start in range(0, X.shape[0], _ROWS):
        block, block_codes = X[start:start + _ROWS], codes[start:start + _ROWS]
        G = _indicator(block_codes, n_classes)
        if sp.issparse(block):
            block = sp.csr_matrix(block)
            gap = block.data - means[np.repeat(block_codes, np.diff(block.indptr)), block.indices]
            pattern = (block.indices, block.indptr)
            s1 += (G @ sp.csr_matrix((gap, *pattern), shape=block.shape)).toarray()
            s2 += (G @ sp.csr_matrix((gap * gap, *pattern), shape=block.shape)).toarray()
            stored = sp.csr_matrix((np.ones(gap.size), *pattern), shape=block.shape)
            zeros += np.asarray(G.sum(axis=1)) - (G @ stored).toarray()
        else:
            gap = np.array(block, dtype=float)  # one float64 block, squared in place
            gap -= means[block_codes]
            s1 += G @ gap
            s2 += G @ np.square(gap, out=gap)
    return s1 - zeros * means, s2 + zeros * means ** 2


def one_vs_rest_t(X, codes, n_classes):
    """(n_classes, n_genes) Welch t of each gene, cells of class k against all others.

    Computed from deviations from the class means (the corrected two-pass algorithm of
    Chan, Golub & LeVeque, *Am. Stat.* 37:242, 1983; float64), not from E[x^2] - E[x]^2,
    which loses every digit for values far from 0 (e.g. float32 intensities near 10^5).
    The means are kept as differences from a reference r (the overall mean of the first
    pass), and the other cells' sum of squared deviations is pooled from the classes'
    own: M_rest = sum_{j != k} [M_j + n_j (m_j - c)^2] - n_rest (m_rest - c)^2 about the
    overall mean c.
    """
    n_in = np.bincount(codes, minlength=n_classes)[:, None].astype(float)
    n_out = np.maximum(codes.size - n_in, 1)
    sums = _class_sums(X, codes, n_classes)
    means = sums / np.maximum(n_in, 1)
    d1, d2 = _deviations(X, codes, means)
    present = np.maximum(n_in, 1)
    m2 = np.maximum(d2 - d1 ** 2 / present, 0)
    shift = (means - sums.sum(axis=0) / codes.size) + d1 / present  # the class means minus r
    total = (n_in * shift).sum(axis=0)
    shift_out = (total - n_in * shift) / n_out
    gap, gap_out = shift - total / codes.size, shift_out - total / codes.size
    m2_out = m2.sum(axis=0) - m2 + (n_in * gap ** 2).sum(axis=0) - n_in * gap ** 2 - n_out * gap_out ** 2
    var_in = m2 / np.maximum(n_in - 1, 1)
    var_out = np.maximum(m2_out, 0) / np.maximum(n_out - 1, 1)
    se = np.sqrt(var_in / n_in + var_out / n_out)
    return np.divide(shift - shift_out, se, out=np.zeros_like(se), where=se > 0)


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
