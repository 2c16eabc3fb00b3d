"""softness_path_figure draws what the summary's choice compared, the chosen fit marked."""

import numpy as np
import pytest

from sfmlearn.exceptions import DataTypeError, DataValidationError
from sfmlearn.outputs.atomic import TEMPORARY_PREFIX
from sfmlearn.plotting.softness import softness_path_figure

TABLE = [{"C": C, "mean_score": m, "se_score": 0.02, "mean_features": k, "chosen": chosen}
         for C, m, k, chosen in [(0.1, 0.75, 1.0, False), (0.2, 0.825, 1.5, False), (0.4, 0.925, 2.0, True)]]
BY_C = {"select": "best", "align": "C", "C": 0.4, "chosen_fit": "C = 0.4", "folds": 5, "repeats": 1,
        "scheme": "5-fold CV", "table": TABLE}


def _dashed(ax):
    return [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]


def test_a_choice_by_C_marks_the_chosen_C_on_the_score_against_C():
    ax = softness_path_figure(BY_C).axes[0]
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "softness C"
    assert _dashed(ax) == [0.4]


def test_a_choice_over_budgets_draws_the_budgets_it_compared_and_marks_the_chosen_one():
    # a union of 40 features was chosen: it lies beyond the path, and no C marks it
    budgets = [{"max_features": k, "mean_score": m, "se_score": 0.02, "chosen": k == 40}
               for k, m in [(1, 0.75), (2, 0.8), (3, 0.82), (40, 0.93)]]
    summary = {**BY_C, "align": "n_features", "C": None, "budget": 40, "budget_table": budgets,
               "chosen_fit": "the union of the first 3 repetitive-SFM subsets, logistic regression on it"}
    figure = softness_path_figure(summary)
    ax = figure.axes[0]
    bars = ax.containers[0]
    np.testing.assert_allclose(bars.lines[0].get_xdata(), [1, 2, 3, 40])
    np.testing.assert_allclose(bars.lines[0].get_ydata(), [75, 80, 82, 93])
    assert ax.get_xscale() == "log" and _dashed(ax) == [40]
    assert "union of the first 3" in figure.get_suptitle()


def test_a_summary_without_rows_or_a_file_name_is_refused_with_the_fix():
    with pytest.raises(DataValidationError, match=r"summary\['budget_table'\] has no rows.*at least one budget"):
        softness_path_figure({**BY_C, "budget_table": []})
    with pytest.raises(DataValidationError, match=r"summary\['table'\] has no rows.*at least one C"):
        softness_path_figure({**BY_C, "table": []})
    with pytest.raises(DataTypeError, match=r"summary must be the dict result\['C_auto'\].*got str 'x.json'.*json.load"):
        softness_path_figure("x.json")


def test_the_path_figure_without_a_suffix_is_a_png_of_that_name(tmp_path):
    from sfmlearn.report import write_path_figure

    path = tmp_path / "path"
    assert write_path_figure({"C_auto": BY_C}, path) == path
    assert path.read_bytes().startswith(b"\x89PNG")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]
