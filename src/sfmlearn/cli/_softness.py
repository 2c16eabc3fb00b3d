"""What ``select --C auto`` and ``path`` print about a cross-validated choice of C.

The score of the table is the one C was chosen by (the inner cross-validation), so it is
optimistic: the honest estimate is the outer cross-validation that re-chooses C in every
fold. Consecutive C values whose rows agree (score, its standard error and the mean number
of features) are one row showing the range of C.
"""

from ._io import annotation_text

__all__ = ["SCORE_LABEL", "print_softness_table", "softness_runs"]

#: The heading of the score that chose C.
SCORE_LABEL = "selection score (inner CV, optimistic)"


def softness_runs(table):
    """The rows of a ``C_auto`` table merged where consecutive rows agree: dicts with
    ``C_low``, ``C_high``, ``n_C``, ``mean_score``, ``se_score``, ``mean_features``, ``chosen``."""
    runs = []
    for row in table:
        key = (row["mean_score"], row["se_score"], row["mean_features"])
        if runs and runs[-1]["key"] == key:
            runs[-1].update(C_high=row["C"], n_C=runs[-1]["n_C"] + 1, chosen=runs[-1]["chosen"] or row["chosen"])
        else:
            runs.append({"key": key, "C_low": row["C"], "C_high": row["C"], "n_C": 1, "mean_score": row["mean_score"],
                         "se_score": row["se_score"], "mean_features": row["mean_features"], "chosen": row["chosen"]})
    return [{k: v for k, v in run.items() if k != "key"} for run in runs]


def _C_text(run):
    if run["n_C"] == 1:
        return f"{run['C_low']:.4g}"
    return f"{run['C_low']:.4g} to {run['C_high']:.4g} ({run['n_C']} values)"


def print_softness_table(summary, *, max_features=15):
    """The CV table and the most stable features of a result's ``C_auto``, as the commands print them."""
    print(f"C chosen by {summary['folds']}-fold CV ({summary['select']}, {summary['scoring']}): "
          f"{summary['C']:.4g}")
    runs = softness_runs(summary["table"])
    width = max(len("C"), *(len(_C_text(run)) for run in runs))
    print(f"  {'C':>{width}}  {SCORE_LABEL}  {'+/- SE':>6}  {'features':>8}")
    for run in runs:
        mark = "  <- chosen" if run["chosen"] else ""
        print(f"  {_C_text(run):>{width}}  {100 * run['mean_score']:>{len(SCORE_LABEL) - 1}.1f}%  "
              f"{100 * run['se_score']:>5.1f}%  {run['mean_features']:>8.1f}{mark}")
    stable = summary["selection_frequency"][:max_features]
    if stable:
        print("selection frequency at the chosen C (fraction of folds that selected the feature):")
        names = max(len(s["name"]) for s in stable)
        for s in stable:
            print(f"  {s['name']:<{names}}  {s['frequency']:.2f}{annotation_text(s)}")
