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

A ranking (1 = best) and scores (larger is better) order the voxels in opposite
directions, so which one an array holds is decided by its values, never by its dtype
(a ranking read back from a CSV file is float): :func:`is_ranking`.
"""

import numbers

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from ._checks import plain
from ._docs import mvpa_doc

__all__ = ["NC_TABLE3", "QUANTILES", "check_quantiles", "is_ranking", "overlap_with_truth", "overlap_with_tmap",
           "top_count", "top_by_rank", "top_by_score"]

#: Thresholds of NC Table 3 (% of voxels).
QUANTILES = (1.0, 2.5, 5.0, 20.0, 34.0, 50.0)
#: NC Table 3: observed overlap (%) of the rSFM and t-map top sets, and the voxel-wise
#: p-value of the least discriminative voxel of the t-map's top set.
NC_TABLE3 = {1.0: (53.0, 0.0001), 2.5: (64.3, 0.001), 5.0: (61.6, 0.006), 20.0: (67.7, 0.093),
             34.0: (72.7, 0.23), 50.0: (77.6, 0.41)}


def _check_q(q):
    """``q`` as a float, or a DataValidationError unless it is a percentage in (0, 100]."""
    if isinstance(q, (bool, np.bool_)) or not isinstance(q, numbers.Real) or not 0 < q <= 100:
        raise DataValidationError(f"q must be a percentage in (0, 100]; got {plain(q)!r}.")
    return float(q)


def check_quantiles(quantiles):
    """The top-q% thresholds as a tuple of floats, each a percentage in (0, 100] (checked
    before any work: :func:`~sfmlearn.mvpa.analyse` uses them last)."""
    if isinstance(quantiles, (str, bytes)) or not np.iterable(quantiles) or len(quantiles) == 0:
        raise DataValidationError(
            f"quantiles must be a non-empty sequence of percentages in (0, 100]; got {quantiles!r}.")
    return tuple(_check_q(q) for q in quantiles)


def top_count(q, n_features):
    """m = round(q n_features / 100), at least 1: the size of a top-q% set."""
    return max(1, int(round(_check_q(q) * n_features / 100.0)))


def is_ranking(values):
    """Whether every row of ``values`` is a ranking as :class:`~sfmlearn.RepetitiveSFM` gives it.

    The rule: whole numbers >= 1 (of any dtype) whose values that occur once are 1..k,
    and every other voxel shares one rank above k (the never-selected voxels). Anything
    else -- |t|, selection counts with a 0, weights -- is scores.

    Parameters
    ----------
    values : array-like of shape (n_voxels,) or (n_folds, n_voxels)
        A ranking, rankings of every fold, or scores.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.mvpa import is_ranking
    >>> is_ranking([3.0, 1.0, 2.0, 5.0, 5.0]), is_ranking([0.5, 2.0, 1.0]), is_ranking([9, 8, 0])
    (True, False, False)
    """
    rows = np.atleast_2d(np.asarray(values))
    if rows.ndim != 2 or rows.size == 0 or rows.dtype.kind not in "iuf":
        return False
    return all(_is_one_ranking(row) for row in rows)


def _is_one_ranking(row):
    """Whether the 1-D ``row`` is a ranking (the rule of :func:`is_ranking`)."""
    if not np.all(np.isfinite(row)) or np.any(row < 1) or np.any(row != np.round(row)):
        return False
    ranks, counts = np.unique(row.astype(np.int64), return_counts=True)
    distinct = ranks[counts == 1]
    shared = ranks[counts > 1]
    if shared.size > 1 or (shared.size == 1 and distinct.size and shared[0] < distinct.max()):
        return False
    return np.array_equal(distinct, np.arange(1, distinct.size + 1))


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
    ranking = np.asarray(ranking)
    if ranking.ndim != 1 or not is_ranking(ranking):
        raise DataValidationError(
            "a ranking is a 1-D array of whole-number ranks >= 1 (1 = best): the ranks 1..k once each, "
            "unranked voxels sharing one larger rank (as RepetitiveSFM.ranking_); got "
            f"{_preview(ranking)}.")
    ranking = ranking.astype(np.int64)
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
    quantiles = check_quantiles(quantiles)
    t = _per_voxel("t", t, None)
    rankings = np.atleast_2d(np.asarray(rankings))
    if rankings.ndim != 2 or rankings.shape[1] != t.size:
        raise DataValidationError(
            f"rankings have shape {rankings.shape}, the t-map {t.size} voxels; pass the rankings "
            "(n_folds, n_voxels) and the t-map of the same voxels.")
    p = None if p is None else _per_voxel("p", p, t.size)
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
def overlap_with_truth(selections, truth, quantiles=QUANTILES, *, kinds=None):
    """Precision and recall of top-q% sets against the known informative voxels.

    ``selections`` maps a name to either rankings (n_folds, d) / a ranking (d,)
    (1 = best; e.g. ``"rSFM"``) or to scores (d,) where larger is better (e.g.
    ``{"t-map": abs(t)}``). Which one an entry holds is decided by its values, whatever
    their dtype (:func:`is_ranking`: whole numbers >= 1 with the ranks 1..k once each and
    the rest sharing one larger rank), or by ``kinds``. Scores are one value per voxel
    (1-D). Precision and recall are means over folds for rankings.

    Parameters
    ----------
    selections : dict
        Name -> rankings or scores (above).
    truth : ndarray of bool of shape (n_voxels,)
        The informative voxels.
    quantiles : sequence of float, default=QUANTILES
        The q values.
    kinds : dict, optional
        Name -> ``"ranking"`` or ``"scores"``, for entries the rule would misread
        (e.g. scores that happen to be the whole numbers 1..d).

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
    quantiles = check_quantiles(quantiles)
    truth = np.asarray(truth, dtype=bool)
    if truth.ndim != 1 or not truth.any():
        raise DataValidationError("the truth must be a 1-D boolean mask of the voxels with at least one True.")
    kinds = _check_kinds(kinds, selections)
    rows = []
    for name, values in selections.items():
        stack, ranked = _selection_rows(name, values, kinds.get(name), truth.size)
        for q in quantiles:
            picks = [top_by_rank(r, q) if ranked else top_by_score(r, q) for r in stack]
            hits = np.array([(s & truth).sum() for s in picks])
            sizes = np.array([max(s.sum(), 1) for s in picks])
            rows.append({"method": name, "q": q,
                         "precision": float(np.mean(100.0 * hits / sizes)),
                         "recall": float(np.mean(100.0 * hits / truth.sum())),
                         "precision_chance": 100.0 * truth.mean(),
                         "recall_chance": 100.0 * top_count(q, truth.size) / truth.size})
    return pd.DataFrame(rows)


def _per_voxel(name, values, n_voxels):
    """``values`` as a 1-D float array, of ``n_voxels`` values unless that is None."""
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or (n_voxels is not None and array.size != n_voxels):
        expected = "one value per voxel" if n_voxels is None else f"{n_voxels} values, one per voxel of the t-map"
        raise DataValidationError(f"{name} must be a 1-D array of {expected}; got shape {array.shape}.")
    return array


def _preview(values, limit=6):
    """The first few values of an array, for a message."""
    flat = np.asarray(values).ravel()
    shown = ", ".join(str(v) for v in flat[:limit].tolist())
    return f"[{shown}{', ...' if flat.size > limit else ''}]"


_KINDS = ("ranking", "scores")


def _check_kinds(kinds, selections):
    """``kinds`` as a dict of names of ``selections`` -> "ranking" / "scores"."""
    kinds = {} if kinds is None else dict(kinds)
    unknown = [name for name in kinds if name not in selections]
    wrong = {name: kind for name, kind in kinds.items() if kind not in _KINDS}
    if unknown or wrong:
        raise DataValidationError(
            f"kinds must map names of selections {list(selections)} to 'ranking' or 'scores'; got {kinds}.")
    return kinds


def _selection_rows(name, values, kind, n_voxels):
    """(rows, is ranking) of one entry of :func:`overlap_with_truth`: one row per fold's
    ranking, or the one row of scores."""
    values = np.asarray(values)
    ranked = is_ranking(values) if kind is None else kind == "ranking"
    if values.ndim == 2 and not ranked:
        raise DataValidationError(
            f"{name}: a 2-D entry must hold one ranking per fold (whole numbers >= 1, 1 = best, as "
            f"RepetitiveSFM.ranking_), but these values are not rankings ({_preview(values)}); pass scores "
            "(larger is better) as a 1-D array of one value per voxel.")
    if values.ndim not in (1, 2):
        raise DataValidationError(f"{name}: expected a ranking or scores per voxel (1-D) or rankings per fold "
                                  f"(2-D); got shape {values.shape}.")
    rows = np.atleast_2d(values)
    if rows.shape[1] != n_voxels:
        raise DataValidationError(f"{name}: {rows.shape[1]} voxels, the truth {n_voxels}; pass values and truth "
                                  "of the same voxels.")
    return rows, ranked
