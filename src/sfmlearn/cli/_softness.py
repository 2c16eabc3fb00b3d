"""What ``select --C auto`` and ``path`` print about a cross-validated choice of C."""

from ._io import annotation_text

__all__ = ["print_softness_table"]


def print_softness_table(summary, *, max_features=15):
    """The CV table and the most stable features of a result's ``C_auto``, as the commands print them."""
    print(f"C chosen by {summary['folds']}-fold CV ({summary['select']}, {summary['scoring']}): "
          f"{summary['C']:.4g}")
    print(f"  {'C':>10}  {'CV score':>8}  {'+/- SE':>6}  {'features':>8}")
    for row in summary["table"]:
        mark = "  <- chosen" if row["chosen"] else ""
        print(f"  {row['C']:>10.4g}  {100 * row['mean_score']:>7.1f}%  {100 * row['se_score']:>5.1f}%  "
              f"{row['mean_features']:>8.1f}{mark}")
    stable = summary["selection_frequency"][:max_features]
    if stable:
        print("selection frequency at the chosen C (fraction of folds that selected the feature):")
        for s in stable:
            print(f"  {s['name']}  {s['frequency']:.2f}{annotation_text(s)}")
