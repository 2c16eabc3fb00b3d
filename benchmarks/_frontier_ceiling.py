"""The ceiling of ``bench_frontier.py --part ceiling``: can the SFM family reach a cell it loses?

For one dataset the outer folds' paths are scored on their test parts; within a budget k
the frontier's rule keeps the densest fit, the ceiling the best one (picked with the test
fold: optimistic, not an estimate). Where the family's ceiling is below the peer's
frontier cell, no rule choosing among the same fits from the training data reaches it.
"""

import numpy as np

from sfmlearn.model_selection import densest_within_budget


def within_budget(fold_paths, k, rule):
    """Per fold, the held-out score of the densest fit within k ("densest") or of the best
    one ("ceiling"); None if a fold's path has no fit within k."""
    values = []
    for scores, sizes in fold_paths:
        if not (sizes <= k).any():
            return None
        values.append(scores[densest_within_budget(sizes, k)] if rule == "densest" else scores[sizes <= k].max())
    return np.array(values)


def _cell(values):
    return "    -" if values is None else f"{100 * values.mean():5.1f}"


def ceiling_report(name, per_fold, budgets, family, peer):
    """The lines of ``--part ceiling`` for one dataset: per method and budget the densest
    fit within k / the ceiling, then per budget the family's ceiling (per fold the best of
    the ``family`` methods present) against the ``peer``'s densest fit within k.

    ``per_fold``: one ``{method: (held-out scores, features)}`` of every path point per
    outer fold (``bench_frontier.scored_paths``)."""
    lines = [f"\n== {name}: densest fit within k / ceiling (best fit within k, picked with the test fold), "
             f"balanced accuracy in %, {len(per_fold)} outer folds",
             f"{'method':28s}" + "".join(f"  k <= {k:<2d}      " for k in budgets)]
    for method in per_fold[0]:
        paths = [fold[method] for fold in per_fold]
        lines.append(f"{method:28s}" + "".join(
            f"  {_cell(within_budget(paths, k, 'densest'))} / {_cell(within_budget(paths, k, 'ceiling'))}"
            for k in budgets))
    for k in budgets:
        reference = within_budget([fold[peer] for fold in per_fold], k, "densest")
        best = []
        for fold in per_fold:
            ours = [within_budget([fold[m]], k, "ceiling") for m in family if m in fold]
            ours = [v[0] for v in ours if v is not None]
            best.append(max(ours) if ours else np.nan)
        if np.isnan(best).any() or reference is None:
            reached = "neither" if np.isnan(best).any() and reference is None else (
                f"only {peer}" if np.isnan(best).any() else "only the SFM family")
            lines.append(f"k <= {k:2d}: {reached} reaches k in every fold")
            continue
        ceiling, cell_value = 100 * np.mean(best), 100 * reference.mean()
        verdict = "out of reach" if ceiling < cell_value else "within reach"
        lines.append(f"k <= {k:2d}: SFM family ceiling {ceiling:5.1f} vs {peer}'s frontier cell {cell_value:5.1f}: "
                     f"{verdict}")
    return lines
