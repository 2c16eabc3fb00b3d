"""What ``select --C auto`` and ``path`` print about a cross-validated choice of C.

The score of the table is the one the choice was made by (the inner cross-validation), so
it is optimistic: the honest estimate is the outer cross-validation that re-chooses in
every fold. A choice aligned by the number of features prints one row per budget (at most
k features); a choice by C one row per C, consecutive values whose rows agree (score, its
standard error and the mean number of features) merged into one row showing the range of C.
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


def _scheme(summary):
    repeats = summary.get("repeats", 1)
    return f"{summary['folds']}-fold CV" + (f" x {repeats} repeats" if repeats > 1 else "")


def _print_budget_table(summary):
    print(f"number of features chosen by {_scheme(summary)} ({summary['select']}, {summary['scoring']}, "
          f"folds aligned by features): at most {summary['budget']} (C = {summary['C']:.4g})")
    heading = "features"
    print(f"  {heading:>8}  {SCORE_LABEL}  {'+/- SE':>6}")
    for row in summary["budget_table"]:
        mark = "  <- chosen" if row["chosen"] else ""
        print(f"  {'<= ' + str(row['max_features']):>8}  {100 * row['mean_score']:>{len(SCORE_LABEL) - 1}.1f}%  "
              f"{100 * row['se_score']:>5.1f}%{mark}")


def print_softness_table(summary, *, max_features=15):
    """The CV table and the most stable features of a result's ``C_auto``, as the commands print them."""
    if summary.get("align") == "n_features":
        _print_budget_table(summary)
    else:
        _print_C_table(summary)
    stable = summary["selection_frequency"][:max_features]
    if stable:
        print("selection frequency of the chosen fit (fraction of the inner fits that selected the feature):")
        names = max(len(s["name"]) for s in stable)
        for s in stable:
            print(f"  {s['name']:<{names}}  {s['frequency']:.2f}{annotation_text(s)}")


def _print_C_table(summary):
    print(f"C chosen by {_scheme(summary)} ({summary['select']}, {summary['scoring']}): {summary['C']:.4g}")
    runs = softness_runs(summary["table"])
    width = max(len("C"), *(len(_C_text(run)) for run in runs))
    print(f"  {'C':>{width}}  {SCORE_LABEL}  {'+/- SE':>6}  {'features':>8}")
    for run in runs:
        mark = "  <- chosen" if run["chosen"] else ""
        print(f"  {_C_text(run):>{width}}  {100 * run['mean_score']:>{len(SCORE_LABEL) - 1}.1f}%  "
              f"{100 * run['se_score']:>5.1f}%  {run['mean_features']:>8.1f}{mark}")
