"""One-vs-all problems rebalanced by averaging (thesis 6.4.2).

One emotion against the four others is a 1 : 4 problem. The thesis rebalances it "by
averaging across all 4 trials of one run such that we obtain 2 data points for each
sender and each emotion": per participant, the target class keeps its maps, and the
maps of every other class are averaged in blocks, so that every participant has as many
averaged "rest" maps as target maps (8 vs 2 x 4 in the thesis).

:func:`one_vs_rest_rebalanced` does this per participant (``groups``): with ``blocks``
(e.g. run ids) the maps of one other class are averaged within each block; without
them each other class's maps are split, in their order, into n_target / (n_classes - 1)
consecutive chunks of equal size and averaged. The thesis notes the catch: averaged maps
lie closer to the mean than single maps, which may itself separate the classes a little.
"""

import numpy as np

from ..exceptions import DataValidationError
from ._checks import dense_maps, plain
from ._docs import mvpa_doc

__all__ = ["one_vs_rest_rebalanced"]


@mvpa_doc
def one_vs_rest_rebalanced(X, y, groups, target, *, blocks=None, rest_label="rest"):
    """Rebalanced one-vs-rest data: (X, y, groups) with labels ``target`` / ``rest_label``.

    Parameters
    ----------
    X : array (n_maps, n_voxels)
    y : labels, at least three classes (one of them ``target``)
    groups : participant per map
    target : the class kept as it is
    blocks : array (n_maps,), optional
        Average the other classes' maps within (participant, class, block).
    rest_label : label of the averaged maps

    Returns
    -------
    X_new, y_new, groups_new (participants in sorted order; per participant the target
    maps first, then the averaged maps class by class).

    Examples
    --------
    >>> import numpy as np
    %(toy_maps)s
    >>> from sfmlearn.mvpa import one_vs_rest_rebalanced
    >>> emotions = np.tile(["fear", "fear", "joy", "anger"], 6)   # two fear maps per participant
    >>> X_new, y_new, groups_new = one_vs_rest_rebalanced(X, emotions, groups, "fear")
    >>> X_new.shape, list(y_new[:4])
    ((24, 50), ['fear', 'fear', 'rest', 'rest'])
    """
    X = np.asarray(dense_maps(X), dtype=np.float64)
    y, groups = np.asarray(y), np.asarray(groups)
    if X.ndim != 2 or y.shape != (X.shape[0],) or groups.shape != y.shape:
        raise DataValidationError("X must be (n_maps, n_voxels) with one label and group per map.")
    if blocks is not None:
        blocks = np.asarray(blocks)
        if blocks.shape != y.shape:
            raise DataValidationError("blocks must hold one id per map.")
    classes = np.unique(y)
    if target not in classes:
        raise DataValidationError(f"target {target!r} is not a label; labels are {classes.tolist()}.")
    if rest_label in classes:
        raise DataValidationError(f"rest_label {rest_label!r} is already a label; choose another.")
    others = [c for c in classes if c != target]
    if not others:
        raise DataValidationError("one-vs-rest needs at least two classes.")
    rows, labels, new_groups = [], [], []
    for g in np.unique(groups):
        own = groups == g
        kept = np.flatnonzero(own & (y == target))
        rows.extend(X[kept])
        labels.extend([target] * kept.size)
        new_groups.extend([g] * kept.size)
        for c in others:
            members = np.flatnonzero(own & (y == c))
            if members.size == 0:
                raise DataValidationError(f"participant {plain(g)!r} has no map of class {plain(c)!r}.")
            for part in _parts(members, blocks, kept.size, len(others), g, c):
                rows.append(X[part].mean(axis=0))
                labels.append(rest_label)
                new_groups.append(g)
    return np.array(rows), np.array(labels, dtype=object), np.array(new_groups)


def _parts(members, blocks, n_target, n_others, group, label):
    if blocks is not None:
        return [members[blocks[members] == b] for b in np.unique(blocks[members])]
    if n_target % n_others or n_target == 0:
        raise DataValidationError(
            f"participant {plain(group)!r} has {n_target} target maps, which cannot be matched by "
            f"equal chunks of {n_others} other classes; pass blocks (e.g. runs) to average within.")
    chunks = n_target // n_others
    if members.size < chunks or members.size % chunks:
        raise DataValidationError(
            f"participant {plain(group)!r}: the {members.size} maps of class {plain(label)!r} do not split "
            f"into {chunks} equal chunks; pass blocks (e.g. runs) to average within.")
    return np.array_split(members, chunks)
