"""Candidate genes per cell type: the genes of its soft-SFM path, and its up-regulated genes.

Every type offers the panel two lists (:mod:`.allocate` chooses among them):

* ``sfm``: the genes that enter the type's class-balanced soft-SFM path
  (:func:`.ranking.sfm_ranking`) on the ``n_screen`` genes of largest one-vs-rest
  |t|, in the order the path needs them, each with its SFM weight;
* ``ranking``: the ``n_screen`` genes of largest one-vs-rest Welch t (up-regulated in
  the type first, what ``rank_genes_groups`` reports), each with its t.

The path brings complementary genes early (what few-gene panels need); the ranking
brings genes that repeat a type's strongest signal, and a nearest-centroid rule
averages their noise away (what larger panels need). Measured on CITEseq and Zeisel
(guide *Marker panels*): with both lists the panels beat either list alone, and a list
of up-regulated genes beat one ordered by |t| or by the SFM's scaled mean difference.

The linear programs see at most ``n_screen`` genes and ``2 max_cells`` cells per type
(:func:`.screen.balanced_subsample`), so their size does not grow with the data set;
the types' problems are independent and run in parallel with joblib (any joblib backend,
e.g. ``with joblib.parallel_backend("dask"):`` on a Dask cluster).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import delayed

from ..utils.parallel import Parallel
from .ranking import sfm_ranking
from .screen import balanced_subsample, one_vs_rest_t, top_genes

__all__ = ["Candidates", "marker_table", "rank_candidates"]

@dataclass
class Candidates:
    """The candidate lists of one label level.

    Attributes
    ----------
    sfm : list of (genes, weights)
        Per class, the genes of its SFM path, best first, and their SFM weights.
    ranking : list of ndarray of int
        Per class, the genes of largest Welch t, best first.
    t : ndarray of shape (n_classes, n_genes)
        One-vs-rest Welch t of every gene.
    """

    sfm: list
    ranking: list
    t: np.ndarray

    def lists(self):
        """Every list as (source, class, genes): the SFM lists, then the rankings."""
        return ([("sfm", k, genes) for k, (genes, _) in enumerate(self.sfm)]
                + [("ranking", k, genes) for k, genes in enumerate(self.ranking)])

    def weight(self, k, gene):
        """The SFM weight of ``gene`` in class k's path, 0 if it is not on it."""
        genes, weights = self.sfm[k]
        found = np.flatnonzero(genes == gene)
        return float(weights[found[0]]) if found.size else 0.0


def _dense(Z):
    return Z.toarray() if sp.issparse(Z) else np.asarray(Z)


def _problem(Z, codes, target, genes, max_cells, rng):
    """The dense (cells, screened genes) block of one class's problem and its labels."""
    rows = balanced_subsample(codes, target, max_cells, rng)
    return _dense(Z[rows][:, genes]), codes[rows] == target


def _rank_one(block, is_type, genes, n_Cs):
    positions, weights = sfm_ranking(block, is_type, n_Cs)
    return genes[positions], weights


def rank_candidates(Z, codes, n_classes, allowed, *, n_screen, max_cells, n_Cs, n_jobs, rng):
    """The :class:`Candidates` of every class (see the module docstring).

    Parameters
    ----------
    Z : sparse or dense (n_cells, n_genes), normalised values
    codes : ndarray of int, the class of every cell
    allowed : ndarray of bool, genes that may be ranked (expressed, not excluded)
    n_screen, max_cells, n_Cs : int
        Genes per class and list, cells per side of a class's problem, softness grid points.
    """
    t = one_vs_rest_t(Z, codes, n_classes)
    screened = top_genes(np.abs(t), n_screen, allowed)
    if sp.issparse(Z):
        Z = sp.csr_matrix(Z)
    problems = [_problem(Z, codes, k, screened[k], max_cells, rng) for k in range(n_classes)]
    sfm = Parallel(n_jobs=n_jobs, what="cell types' SFM rankings")(
        delayed(_rank_one)(block, is_type, screened[k], n_Cs)
        for k, (block, is_type) in enumerate(problems))
    return Candidates(sfm, list(top_genes(t, n_screen, allowed)), t)


def marker_table(panel, names, owner, lists, candidates, classes):
    """``MarkerPanel.markers_``: every panel gene with the type and source that explain it.

    Parameters
    ----------
    panel, names : ndarray
        The panel's columns and gene names.
    owner : list of list of int
        Per gene, the lists that offered it (empty for an included gene).
    lists : list of (level, source, class, genes)
        Every candidate list, as numbered in ``owner``.
    candidates : list of Candidates
        Per label level (fine, then coarse).
    classes : list of ndarray
        The class names of every level.

    A gene offered by SFM lists belongs to the offering type of largest |t| (source
    "sfm", its weight); any other gene to the type of largest |t|, with that type's SFM
    weight (0, source "ranking", when its path does not hold the gene).
    """
    rows = []
    for gene, name, offered in zip(panel, names, owner):
        by_sfm = [lists[i] for i in offered if lists[i][1] == "sfm"]
        level = lists[offered[0]][0] if offered else 0
        if by_sfm:
            level, _, k, _ = max(by_sfm, key=lambda entry: abs(candidates[entry[0]].t[entry[2], gene]))
        else:
            k = int(np.argmax(np.abs(candidates[level].t[:, gene])))
        t = float(candidates[level].t[k, gene])
        weight = candidates[level].weight(k, gene)
        kind = ("fine", "coarse")[level] if offered else "include"
        source = "include" if not offered else "sfm" if weight else "ranking"
        direction = "up" if t > 0 else "down" if t < 0 else "-"  # t = 0: no direction
        rows.append((name, classes[level][k], weight, direction, t, kind, source))
    return pd.DataFrame(rows, columns=["gene", "cell_type", "weight", "direction", "t", "level",
                                       "source"])
