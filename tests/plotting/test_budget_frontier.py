"""plot_budget_frontier: one line per method with SE bars, the automatic point, chance at 50 %."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from sfmlearn.exceptions import DataTypeError, DataValidationError

from sfmlearn.plotting.budgets import plot_budget_frontier

COMPARISON = {
    "methods": ["SFM path", "l1-logistic"], "budgets": [1, 2, 5, 10],
    "accuracy": {"SFM path": [0.7, 0.85, 0.9, 0.9], "l1-logistic": [None, 0.8, 0.82, 0.88]},
    "se": {"SFM path": [0.05, 0.04, 0.03, 0.03], "l1-logistic": [None, 0.05, 0.04, 0.04]},
    "features": {"SFM path": [1.0, 2.0, 3.4, 3.4], "l1-logistic": [None, 1.8, 4.2, 8.0]},
    "n_folds": 5, "inner_cv": None,
    "automatic": {"name": "SupportFeatureMachineCV", "accuracy": 0.88, "se": 0.04, "features": 2.6},
}


def test_lines_points_chance_and_log_axis():
    figure = plot_budget_frontier(COMPARISON)
    ax = figure.axes[0]
    assert ax.get_xscale() == "log"
    labels = ax.get_legend_handles_labels()[1]
    assert {"SFM path", "l1-logistic", "chance"} <= set(labels)
    assert any(label.startswith("automatic") for label in labels)
    lines = {bars.get_label(): bars.lines[0] for bars in ax.containers}
    np.testing.assert_allclose(lines["SFM path"].get_ydata(), [70, 85, 90, 90])
    l1 = np.asarray(lines["l1-logistic"].get_ydata(), dtype=float)
    assert np.isnan(l1[0]) and l1[1] == 80  # an unreached budget is a gap
    chance = [line for line in ax.get_lines() if line.get_label() == "chance"][0]
    assert list(chance.get_ydata()) == [50, 50]
    star = lines["automatic (SupportFeatureMachineCV)"]
    assert star.get_marker() == "*" and star.get_xdata()[0] == 2.6 and star.get_ydata()[0] == 88
    assert "densest within k" in ax.get_title()


def test_draws_into_given_axes():
    figure = Figure()
    ax = figure.subplots()
    assert plot_budget_frontier({**COMPARISON, "automatic": None}, ax=ax) is figure
    assert not [line for line in ax.get_lines() if line.get_marker() == "*"]


def test_the_legend_stands_beside_the_axes_and_the_star_says_its_features():
    """The star beyond the last budget was hidden under a legend inside the axes, and its
    feature count had no tick to be read from."""
    empty = {"accuracy": [None] * 4, "se": [None] * 4, "features": [None] * 4}
    comparison = {**COMPARISON, "methods": COMPARISON["methods"] + ["repetitive SFM"], "pooled": True,
                  "automatic": {**COMPARISON["automatic"], "features": 14.2},
                  **{key: {**COMPARISON[key], "repetitive SFM": empty[key]} for key in empty}}
    figure = plot_budget_frontier(comparison)
    ax = figure.axes[0]
    figure.canvas.draw()
    legend, axes_box = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert legend.x0 >= axes_box.x1  # right of the axes: it covers no point
    assert "repetitive SFM" not in ax.get_legend_handles_labels()[1]  # it reaches no budget
    assert [text.get_text() for text in ax.texts] == ["14.2 features"]
    assert "predictions pooled" in ax.get_title()


@pytest.mark.parametrize("change, message", [
    ({"methods": ["SFM path", "L1"]}, r"comparison\['accuracy'\] has no values for the method 'L1': give 'accuracy' "
                                      r"and 'se' for every method"),
    ({"se": {**COMPARISON["se"], "SFM path": [0.05]}}, r"comparison\['se'\]\['SFM path'\] has 1 entry for 4 budgets"),
    ({"budgets": [], "methods": []}, r"comparison has no budgets.*compare at least one budget"),
])
def test_a_comparison_that_does_not_fit_together_is_refused_before_drawing(change, message):
    figure = Figure()
    ax = figure.subplots()
    with pytest.raises(DataValidationError, match=message):
        plot_budget_frontier({**COMPARISON, **change}, ax=ax)
    assert not ax.lines and not ax.collections


def test_a_file_name_instead_of_a_comparison_says_to_load_it():
    with pytest.raises(DataTypeError, match=r"comparison must be a BudgetComparison or its to_dict\(\); got str "
                                            r"'budgets.json'.*json.load"):
        plot_budget_frontier("budgets.json")
