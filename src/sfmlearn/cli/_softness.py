"""What ``select --C auto`` and ``path`` report about a cross-validated choice of C."""

import numpy as np

from ._io import annotate, annotation_text

__all__ = ["softness_summary", "print_softness_table"]


def softness_summary(model, feature_names, annotations=None):
    """``result["C_auto"]`` of a fitted SupportFeatureMachineCV / WestonZeroNormSVMCV:
    the rule, the chosen C, the CV table (one row per C) and the selection frequencies
    (features selected in at least one fold at the chosen C, most stable first, with
    their annotations when the data have any)."""
    results = model.cv_results_
    table = [{"C": float(C), "mean_score": float(m), "se_score": float(se), "mean_features": float(k),
              "chosen": bool(i == model.best_index_)}
             for i, (C, m, se, k) in enumerate(zip(results["C"], results["mean_test_score"],
                                                   results["sem_test_score"], results["mean_n_features"]))]
    frequency = model.selection_frequency_
    order = [j for j in np.argsort(-frequency, kind="stable") if frequency[j] > 0]
    return {
        "select": model.select, "C": float(model.C_), "folds": int(model.n_splits_),
        "scoring": str(model.scoring), "table": table,
        "selection_frequency": annotate([{"index": int(j), "name": str(feature_names[j]),
                                          "frequency": float(frequency[j])} for j in order],
                                        annotations),
    }


def print_softness_table(summary, *, max_features=15):
    """The CV table and the most stable features, as the commands print them."""
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
