"""What ``select --C auto`` and ``path`` print about a cross-validated choice of C.

The score of the table is the one the choice was made by (the inner cross-validation), so
it is optimistic: the honest estimate is the outer cross-validation that re-chooses in
every fold. The table has one row per distinct feature set the full-data path selects
(``C_auto["selections"]``, :func:`sfmlearn.analysis.selectors.distinct_selections`): the
values of C (or, aligned by the number of features, the budgets "at most k features") at
which the fit on all data selects that set, their scores and the set itself. Equal scores
with different sets stay two rows; one set reached at several C is one row.
"""

from ._common import name_text, percent, print_columns
from ._io import annotation_text

__all__ = ["SCORE_LABEL", "SHOWN_NAMES", "names_text", "print_choice"]

#: The heading of the score that chose C.
SCORE_LABEL = "selection score (inner CV, optimistic)"

#: Names of a selection shown in the printed tables (--json and the reports list all).
SHOWN_NAMES = 4


def names_text(names):
    """Feature names as the printed tables show them: the first few (:func:`name_text`: quoted
    where one holds a separator), and how many more."""
    more = f", ... (+{len(names) - SHOWN_NAMES})" if len(names) > SHOWN_NAMES else ""
    return ", ".join(map(name_text, names[:SHOWN_NAMES])) + more if names else "none"


def _values_text(values, text):
    """A row's values of C or budgets: up to three listed, more as their count and range."""
    if len(values) <= 3:
        return ", ".join(text(v) for v in values)
    return f"{len(values)} values from {text(min(values))} to {text(max(values))}"


def _span(values, text):
    """One value, or the lowest and highest of a row's values."""
    low, high = min(values), max(values)
    return text(low) if low == high else f"{text(low)} to {text(high)}"


def _selection_text(row):
    return f"{row['n_selected']}: {names_text(row['features'])}" if row["features"] else "none"


def print_choice(summary, *, max_features=15):
    """A result's ``C_auto``: the choice, one row per distinct selection of the full-data path
    (the CV table's rows grouped by the feature set selected at them) and the inner folds'
    selection frequencies."""
    scheme = summary["scheme"]
    by_budget = summary["align"] == "n_features"
    if by_budget:
        print(f"number of features chosen by {scheme} ({summary['select']}, {summary['scoring']}, folds aligned "
              f"by features): at most {summary['budget']} ({summary['chosen_fit']})")
        header = ["features", SCORE_LABEL, "+/- SE"]
    else:
        print(f"C chosen by {scheme} ({summary['select']}, {summary['scoring']}): {summary['C']:.4g}")
        header = ["C", SCORE_LABEL, "+/- SE", "features per fold"]
    print("  one row per distinct feature set the full-data fit selects:")
    rows = []
    for row in summary["selections"]:
        cells = ([_values_text(row["max_features"], lambda k: f"<= {k}")] if by_budget
                 else [_values_text(row["C"], lambda C: f"{C:.4g}")])
        cells += [_span(row["mean_score"], percent), _span(row["se_score"], percent)]
        if not by_budget:
            cells.append(_span(row["mean_features"], lambda k: f"{k:.1f}"))
        rows.append(cells + [_selection_text(row), "<- chosen" if row["chosen"] else ""])
    print_columns([header + ["selected on all data", ""]] + rows, right=range(len(header)))
    stable = summary["selection_frequency"][:max_features]
    if stable:
        print("selection frequency of the chosen fit (fraction of the inner fits that selected the feature):")
        print_columns([[s["name"], f"{s['frequency']:.2f}", annotation_text(s).strip()] for s in stable],
                      right={1})
