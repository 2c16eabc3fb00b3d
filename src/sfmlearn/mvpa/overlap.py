"""Top-q% voxel sets and their overlaps (NC 4.2 Table 3, thesis 6.3 Figs. 6.4-6.5).

Thresholds are fractions of voxels, not error probabilities, "to keep the number of
above-threshold voxels constant across the univariate and rSFM-based approach" (NC
4.2): the top q % of a ranking are its first m = round(q d / 100) voxels (at least
one). For the t-map these are the m largest |t| (ties broken by voxel order).

Overlap of the rSFM's top set A with the t-map's top set B is |A & B| / |A| in per
cent: with respect to one subset, so the overlap expected by chance is q (NC Table 3,
note). NC compares per cross-validation fold (Fig. 4b: "the average overlap"), so we
average over the folds' rankings. A fold's rSFM may have ranked fewer than m voxels
(it stops when the classes are no longer separable); then A is all ranked voxels and
``ranked_share`` says how much of the top q % existed.

Against a known truth (simulations) the top set's ``precision`` is |A & truth| / |A|
(chance: the truth fraction) and its ``recall`` |A & truth| / |truth| (chance: q).
"""

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from ._docs import mvpa_doc

__all__ = ["NC_TABLE3", "QUANTILES", "overlap_with_truth", "overlap_with_tmap", "top_count",
           "top_by_rank", "top_by_score"]

#: Thresholds of NC Table 3 (% of voxels).
QUANTILES = (1.0, 2.5, 5.0, 20.0, 34.0, 50.0)
#: NC Table 3: observed overlap (%) of the rSFM and t-map top sets, and the voxel-wise
#: p-value of the least discriminative voxel of the t-map's top set.
NC_TABLE3 = {1.0: (53.0, 0.0001), 2.5: (64.3, 0.001), 5.0: (61.6, 0.006), 20.0: (67.7, 0.093),
             34.0: (72.7, 0.23), 50.0: (77.6, 0.41)}


def top_count(q, n_features):
    """m = round(q n_features / 100), at least 1: the size of a top-q% set."""
    if not 0 < q <= 100:
        raise DataValidationError(f"q must be a percentage in (0, 100]; got {q!r}.")
    return max(1, int(round(q * n_features / 100.0)))


@mvpa_doc
def top_by_rank(ranking, q):
    """Boolean mask of the first q % of a ranking (1 = best); unranked voxels never count.

    Rankings as :class:`~sfmlearn.RepetitiveSFM` gives them: ranked features have the
    distinct ranks 1..n_ranked, never-selected ones share rank n_ranked + 1.

    Parameters
    ----------
    ranking : ndarray of int of shape (n_voxels,)
        1 = best.
    %(q_top_set)s

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.mvpa import top_by_rank
    >>> top_by_rank(np.array([3, 1, 2, 5, 5]), 40)   # 40 % of 5 voxels: ranks 1 and 2
    array([False,  True,  True, False, False])
    """
    ranking = np.asarray(ranking).astype(np.int64)
    if ranking.ndim != 1 or ranking.size == 0 or ranking.min() < 1:
        raise DataValidationError("a ranking is a 1-D array of ranks >= 1 (1 = best).")
    counts = np.bincount(ranking)
    n_ranked = int(np.count_nonzero(counts == 1))
    return ranking <= min(top_count(q, ranking.size), n_ranked)


@mvpa_doc
def top_by_score(scores, q):
    """Boolean mask of the m largest ``scores`` (e.g. |t|; ties by voxel order, NaN never).

    Parameters
    ----------
    scores : ndarray of shape (n_voxels,)
        Larger is better; NaN never counts.
    %(q_top_set)s

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.mvpa import top_by_score
    >>> top_by_score(np.array([0.1, 3.0, -1.0, 2.0, np.nan]), 40)
    array([False,  True, False,  True, False])
    """
    scores = np.asarray(scores, dtype=float)
    order = np.argsort(-np.where(np.isnan(scores), -np.inf, scores), kind="stable")
    order = order[: top_count(q, scores.size)]
    mask = np.zeros(scores.size, dtype=bool)
    mask[order[~np.isnan(scores[order])]] = True
    return mask


@mvpa_doc
def overlap_with_tmap(rankings, t, p=None, quantiles=QUANTILES):
    """NC Table 3: mean over folds of the overlap of the rSFM and |t| top-q% sets.

    Parameters
    ----------
    rankings : array (n_folds, n_voxels) or (n_voxels,)
        rSFM rankings (1 = best) of every fold.
    t : array (n_voxels,)
        The group t-map (:func:`~sfmlearn.mvpa.paired_t_map`).
    p : array (n_voxels,), optional
        Its p-values; then ``p_threshold`` is the largest p in the t-map's top set.
    quantiles : sequence of float, default=QUANTILES
        The q values (NC Table 3).

    Returns
    -------
    DataFrame with q, overlap (mean %), overlap_sd, expected (= q, chance), n_top,
    ranked_share (mean share of the top set the rSFM ranked), p_threshold, and NC's
    published observed overlap and p threshold.

    Examples
    --------
    %(toy_repetitive)s
    >>> from sfmlearn.mvpa import overlap_with_tmap, paired_t_map
    >>> tmap = paired_t_map(X, y, groups)
    >>> table = overlap_with_tmap(result.rankings, tmap.t, tmap.p, quantiles=(10.0,))
    >>> table[["q", "overlap", "expected"]].round(1)
          q  overlap  expected
    0  10.0     73.3      10.0
    """
    rankings = np.atleast_2d(np.asarray(rankings))
    t = np.asarray(t, dtype=float)
    if rankings.shape[1] != t.size:
        raise DataValidationError(
            f"rankings have {rankings.shape[1]} voxels, the t-map {t.size}.")
    rows = []
    for q in quantiles:
        univariate = top_by_score(np.abs(t), q)
        m = top_count(q, t.size)
        shares, sizes = [], []
        for ranking in rankings:
            selected = top_by_rank(ranking, q)
            sizes.append(selected.sum())
            shares.append(100.0 * (selected & univariate).sum() / max(selected.sum(), 1))
        published = NC_TABLE3.get(q, (np.nan, np.nan))
        rows.append({
            "q": q, "overlap": float(np.mean(shares)), "overlap_sd": float(np.std(shares)),
            "expected": 100.0 * m / t.size, "n_top": m,
            "ranked_share": float(np.mean(sizes) / m),
            "p_threshold": float(np.max(p[univariate])) if p is not None else np.nan,
            "published_overlap": published[0], "published_p_threshold": published[1],
        })
    return pd.DataFrame(rows)


@mvpa_doc
def overlap_with_truth(selections, truth, quantiles=QUANTILES):
    """Precision and recall of top-q% sets against the known informative voxels.

    ``selections`` maps a name to either rankings (n_folds, d) / a ranking (d,) of
    integers (1 = best; e.g. ``"rSFM"``) or to scores (d,) of floats where larger is
    better (e.g. ``{"t-map": abs(t)}``). Precision and recall are means over folds for
    rankings.

    Parameters
    ----------
    selections : dict
        Name -> rankings or scores (above).
    truth : ndarray of bool of shape (n_voxels,)
        The informative voxels.
    quantiles : sequence of float, default=QUANTILES
        The q values.

    Returns
    -------
    pandas.DataFrame
        method, q, precision, recall, precision_chance, recall_chance.

    Examples
    --------
    >>> import numpy as np
    %(toy_repetitive)s
    >>> from sfmlearn.mvpa import overlap_with_truth, paired_t_map
    >>> truth = np.arange(50) < 3
    >>> scores = {"rSFM": result.rankings, "t-map": np.abs(paired_t_map(X, y, groups).t)}
    >>> overlap_with_truth(scores, truth, quantiles=(6.0,))[["method", "precision", "recall"]].round(1)
      method  precision  recall
    0   rSFM       77.8    77.8
    1  t-map      100.0   100.0
    """
    truth = np.asarray(truth, dtype=bool)
    if not truth.any():
        raise DataValidationError("the truth mask is empty.")
    rows = []
    for name, values in selections.items():
        values = np.asarray(values)
        is_ranking = values.dtype.kind in "iu"
        stack = np.atleast_2d(values) if is_ranking else values[None, :]
        if stack.shape[1] != truth.size:
            raise DataValidationError(f"{name}: {stack.shape[1]} voxels, the truth {truth.size}.")
        for q in quantiles:
            picks = [top_by_rank(r, q) if is_ranking else top_by_score(r, q) for r in stack]
            hits = np.array([(s & truth).sum() for s in picks])
            sizes = np.array([max(s.sum(), 1) for s in picks])
            rows.append({"method": name, "q": q,
                         "precision": float(np.mean(100.0 * hits / sizes)),
                         "recall": float(np.mean(100.0 * hits / truth.sum())),
                         "precision_chance": 100.0 * truth.mean(),
                         "recall_chance": 100.0 * top_count(q, truth.size) / truth.size})
    return pd.DataFrame(rows)
