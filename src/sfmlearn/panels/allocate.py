"""Sharing a panel budget among cell types: greedy, by a held-out nearest-centroid score.

Each cell type offers its candidate lists (:mod:`.candidates`). The panel grows one
gene at a time; the candidates of a step are the next ``lookahead`` unused genes of
every list, and the one added maximises, on held-out cells,

    score = (1/K) sum_k mean_{i in k} sigma(m_i / tau),   sigma(u) = 1 / (1 + e^-u),
    m_i = (d_i,wrong - d_i,own) / (d_i,wrong + d_i,own),   tau = 0.05,

of the nearest-centroid rule on the panel's genes (fine class centres), averaged over
the folds of an inner cross-validation (centres from the other folds; d: squared
Euclidean distance to the own class centre and to the nearest other one). The margin
m_i in [-1, 1] (0 when both distances are 0) is positive exactly when cell i is
classified right; a ratio of distances, it does not change when the data are multiplied
by a constant, and neither does the panel. The score is a balanced accuracy whose 0/1
steps are smoothed over |m| ~ tau: it counts the errors while they are many, and once
every type is recognised it keeps rewarding wider margins instead of being flat (with
the plain balanced accuracy, later genes were chosen by near ties; guide *Marker
panels*). Adding gene g adds (v_ig - c_kg)^2 to
every distance, so a step costs O(n_cells x K) per candidate. With a coarse level
(hierarchical labels) the score is the mean of the fine and the coarse score (a cell's
coarse type is right when its nearest fine centre lies in it), so the coarse types stay
separable while fine ones are added. The budget is always spent: a gene is added even
when no candidate raises the score.
"""

import numpy as np
from scipy.special import expit

__all__ = ["SMOOTHING", "Level", "greedy_panel"]

#: tau of the score: margins much wider than this count as fully right (or wrong).
SMOOTHING = 0.05


class Level:
    """Held-out cells of one fold at one label level, scored by the fine class centres.

    ``groups`` maps every fine class to its label at this level (the identity for the
    fine level, fine type -> coarse type for the coarse one); a cell is right when its
    nearest centre belongs to its own group.
    """

    def __init__(self, values, codes, centroids, groups):
        self.values = values          # (n_cells, n_candidates)
        self.codes = codes            # (n_cells,) group of every cell
        self.centroids = centroids    # (n_fine_classes, n_candidates)
        n_groups = groups.max() + 1
        self.own = groups[None, :] == codes[:, None]   # (n_cells, n_fine_classes)
        self.onehot = np.eye(n_groups)[codes].T / np.bincount(codes, minlength=n_groups)[:, None]
        self.distances = np.zeros((codes.size, centroids.shape[0]))

    def step(self, columns):
        """(n_cells, n_columns, n_classes) distances after adding each column alone."""
        gap = self.values[:, columns, None] - self.centroids.T[None, columns, :]
        return self.distances[:, None, :] + gap ** 2

    def score(self, distances):
        """Per candidate, the smoothed balanced accuracy of the nearest-centroid rule
        (module docstring)."""
        own = np.where(self.own[:, None, :], distances, np.inf).min(axis=2)
        wrong = np.where(self.own[:, None, :], np.inf, distances).min(axis=2)
        total = wrong + own  # 0 only for a cell at both centres: margin 0, a tie
        margin = np.divide(wrong - own, total, out=np.zeros_like(total), where=total > 0)
        return (self.onehot @ expit(margin / SMOOTHING)).mean(axis=0)

    def add(self, column):
        self.distances += (self.values[:, column, None] - self.centroids.T[None, column, :]) ** 2


def greedy_panel(levels, rankings, n_markers, include=(), lookahead=5):
    """Greedy allocation of ``n_markers`` candidate columns among the types' rankings.

    Parameters
    ----------
    levels : list of Level
        One per fold and label level (fine, and optionally coarse); a candidate's score
        is the mean of theirs.
    rankings : list of ndarray of int
        Candidate columns best first, one list per type and source.
    n_markers : int
    include : sequence of int
        Columns on the panel from the start.
    lookahead : int, default=5
        Unused genes of each list offered per step.

    Returns
    -------
    panel : list of int
        Chosen columns in the order they were added (``include`` first).
    owner : list of list of int
        The rankings that offered each column (empty for ``include``).
    scores : ndarray
        The held-out score after every addition.
    """
    panel, owner, scores = list(include), [[] for _ in include], []
    for column in include:
        for level in levels:
            level.add(column)
    used = set(panel)
    while len(panel) < n_markers:
        offers = {}
        for t, ranking in enumerate(rankings):
            fresh = [c for c in ranking if c not in used][:lookahead]
            for c in fresh:
                offers.setdefault(int(c), []).append(t)
        if not offers:
            break
        columns = np.fromiter(offers, dtype=int)
        score = np.mean([level.score(level.step(columns)) for level in levels], axis=0)
        best = int(columns[np.argmax(score)])
        for level in levels:
            level.add(best)
        panel.append(best)
        owner.append(offers[best])
        used.add(best)
        scores.append(float(score.max()))
    return panel, owner, np.array(scores)
