"""A simulator of single-cell RNA counts with planted cell-type markers.

Counts follow the negative binomial (gamma-Poisson) model of droplet single-cell data
(Svensson, *Nat. Biotechnol.* 38:147, 2020; Grün et al., *Nat. Methods* 11:637, 2014):

    s_i ~ LogNormal(log(library_size), 0.3)          (cell i's capture efficiency)
    mu_g ~ LogNormal(-1, 1.5)                         (gene g's base expression)
    lambda_g ~ Gamma(shape=1/phi, scale=phi mu_gt)      (one draw per small state of cells)
    N_i ~ Poisson(s_i),  x_i ~ Multinomial(N_i, lambda / sum_g lambda_g)

so, as N_i is Poisson, x_ig is Poisson(s_i lambda_g / sum lambda) given lambda:
approximately negative binomial with mean s_i mu_gt / sum_g mu_g and
Var = mean + phi mean^2. Every cell type t gets
``n_markers_per_type`` genes of its own (disjoint across types): an *up* marker has
mu_gt = fold_change * mu_g in type t, a *down* marker mu_gt = mu_g / fold_change; the
other types keep mu_g. Marker genes are drawn among the 20 % most expressed genes, as
real markers are, so a down marker is detectable.
"""

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils import check_random_state

__all__ = ["make_cell_counts"]

#: Cells of one type that share a gamma draw (see :func:`_sample_counts`).
_STATE = 25


def _type_sizes(n_cells, n_types, rng):
    """Cells per type, unequal (Dirichlet proportions) but at least 5 each."""
    shares = rng.dirichlet(np.full(n_types, 2.0))
    sizes = np.maximum(np.floor(shares * (n_cells - 5 * n_types)).astype(int), 0) + 5
    sizes[np.argmax(sizes)] += n_cells - sizes.sum()
    return sizes


def _plant_markers(mu, n_types, n_markers_per_type, up_fraction, fold_change, rng):
    """(per-type means of shape (n_types, n_genes), planted-marker table)."""
    expressed = np.flatnonzero(mu >= np.quantile(mu, 0.8))
    genes = rng.choice(expressed, size=n_types * n_markers_per_type, replace=False)
    means = np.tile(mu, (n_types, 1))
    n_up = int(round(up_fraction * n_markers_per_type))
    rows = []
    for t in range(n_types):
        for k, g in enumerate(genes[t * n_markers_per_type:(t + 1) * n_markers_per_type]):
            up = k < n_up
            means[t, g] = mu[g] * fold_change if up else mu[g] / fold_change
            rows.append((f"type{t}", f"gene{g}", int(g), "up" if up else "down"))
    table = pd.DataFrame(rows, columns=["cell_type", "gene", "index", "direction"])
    return means, table


def make_cell_counts(n_cells=1000, n_genes=2000, n_types=5, n_markers_per_type=5, *,
                     up_fraction=0.6, fold_change=4.0, dispersion=0.3, library_size=2000.0,
                     random_state=None):
    """Simulated single-cell counts: negative binomial, with type-specific up/down markers.

    Parameters
    ----------
    n_cells, n_genes, n_types : int
        The size of the data set; cell types have unequal sizes (at least 5 cells each).
    n_markers_per_type : int
        Planted markers of each type (disjoint; ``n_types * n_markers_per_type`` must
        not exceed a fifth of the genes).
    up_fraction : float, default=0.6
        Share of each type's markers that are up-regulated; the rest are down-regulated.
    fold_change : float, default=4.0
        Change of a marker's mean in its own type.
    dispersion : float, default=0.3
        phi of the negative binomial, Var = mean + phi mean^2.
    library_size : float, default=2000.0
        Median total count per cell.
    random_state : int, RandomState or None

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n_cells, n_genes), float32 integer counts
    y : ndarray of str, shape (n_cells,)
        The cell type of each cell, ``"type0"``, ``"type1"``, ... (cells come grouped
        by type: shuffle or split with ``stratify=y`` before use).
    markers : pandas.DataFrame
        The planted markers: columns ``cell_type``, ``gene`` (the name ``"gene<j>"``),
        ``index`` (column j of X) and ``direction`` ("up" or "down").

    Examples
    --------
    >>> from sfmlearn.panels import make_cell_counts
    >>> X, y, markers = make_cell_counts(300, 500, n_types=3, n_markers_per_type=2,
    ...                                  random_state=0)
    >>> X.shape, sorted(set(y.tolist())), len(markers)
    ((300, 500), ['type0', 'type1', 'type2'], 6)
    """
    if n_types * n_markers_per_type > n_genes // 5:
        raise ValueError(
            f"{n_types} types x {n_markers_per_type} markers need at least "
            f"{5 * n_types * n_markers_per_type} genes (markers come from the 20 % most "
            f"expressed); got n_genes={n_genes}. Raise n_genes or lower n_markers_per_type.")
    if n_cells < 5 * n_types:
        raise ValueError(f"n_cells={n_cells} is too few for {n_types} types of at least 5 "
                         f"cells; pass n_cells >= {5 * n_types}.")
    rng = check_random_state(random_state)
    mu = rng.lognormal(-1.0, 1.5, size=n_genes)
    means, markers = _plant_markers(mu, n_types, n_markers_per_type, up_fraction,
                                    fold_change, rng)
    labels = np.repeat(np.arange(n_types), _type_sizes(n_cells, n_types, rng))
    reads = rng.poisson(rng.lognormal(np.log(library_size), 0.3, size=n_cells))
    y = np.array([f"type{t}" for t in range(n_types)])[labels]
    return _sample_counts(means, labels, reads, dispersion, rng), y, markers


def _sample_counts(means, labels, reads, dispersion, rng):
    """CSR counts: the reads of a cell fall on genes with probabilities lambda_g / sum lambda.

    The gamma draw lambda_g ~ Gamma(1/phi, phi mu_gt) is shared by a *state* of
    ``_STATE`` consecutive cells of one type (a small sub-population), so the work grows
    with the number of reads, not with cells x genes; each count is still negative
    binomial. The CSR arrays (int32 indices, float32 values) are allocated once for
    every read and filled state by state, then shrunk in place to the stored counts: the
    peak is the result plus a third (reads over stored counts), and no pieces stay
    behind in the allocator.
    """
    n_genes = means.shape[1]
    shape = 1.0 / dispersion
    gen = np.random.default_rng(rng.randint(2**31))
    index_type = np.int32 if reads.sum() < 2**31 else np.int64
    indices = np.empty(reads.sum(), dtype=index_type)
    values = np.empty(reads.sum(), dtype=np.float32)
    indptr = np.zeros(labels.size + 1, dtype=index_type)
    start = stored = 0
    while start < labels.size:
        stop = min(start + _STATE, labels.size)
        if labels[stop - 1] != labels[start]:  # a state never spans two types
            stop = start + int(np.argmax(labels[start:stop] != labels[start]))
        cdf = np.cumsum(gen.gamma(shape, means[labels[start]] * dispersion))
        # sorted uniforms make the search sequential; the reads are then dealt to the
        # state's cells in random order
        genes = np.searchsorted(cdf, np.sort(gen.random(reads[start:stop].sum())) * cdf[-1])
        owner = gen.permutation(np.repeat(np.arange(stop - start), reads[start:stop]))
        keys, counts = np.unique(owner * n_genes + np.minimum(genes, n_genes - 1),
                                 return_counts=True)
        indices[stored:stored + keys.size] = keys % n_genes
        values[stored:stored + keys.size] = counts
        indptr[start + 1:stop + 1] = stored + np.cumsum(
            np.bincount(keys // n_genes, minlength=stop - start))
        stored += keys.size
        start = stop
    indices.resize(stored, refcheck=False)  # in place: the unused tail is released
    values.resize(stored, refcheck=False)
    return sp.csr_matrix((values, indices, indptr), shape=(labels.size, n_genes))
