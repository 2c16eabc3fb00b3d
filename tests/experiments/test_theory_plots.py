"""Each theory figure draws the expected panels and series (no pixel comparisons)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sfmlearn.diagnostics import concentration_curves, loo_error_grid
from sfmlearn.experiments.loo_border import border_table
from sfmlearn.experiments.figures import theory as plots
from sfmlearn.theory import prob_separable, prob_separable_subspace_bounds


def _visible_axes(fig):
    return [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]


def test_distance_concentration_has_four_log_panels_with_mean_and_extremes():
    curves = concentration_curves([2, 20, 200], n=6, n_runs=3, random_state=0)
    fig = plots.plot_distance_concentration(curves)
    axes = _visible_axes(fig)
    assert len(axes) == 4
    for ax in axes:
        assert ax.get_xscale() == "log" and len(ax.get_lines()) == 3
    angle_panel = [ax for ax in axes if "angle" in ax.get_ylabel()][0]
    means = angle_panel.get_lines()[0].get_ydata()
    np.testing.assert_allclose(means, curves[curves["quantity"] == "angle"].sort_values("d")["mean"])
    assert "n = 6" in fig.get_suptitle()


def test_probability_curves_plot_the_theory_functions():
    fig = plots.plot_prob_separable(n_max=12, d_values=(1, 3))
    ax = fig.axes[0]
    lines = [line for line in ax.get_lines() if line.get_label().startswith("d =")]
    assert [line.get_label() for line in lines] == ["d = 1", "d = 3"]
    np.testing.assert_allclose(lines[1].get_ydata(), prob_separable(np.arange(1, 13), 3))
    fig = plots.plot_prob_single_feature(n_max=8, d_values=(10,))
    assert fig.axes[0].get_lines()[0].get_ydata()[0] == 1.0  # one point is always separable


def test_subspace_separability_splits_d5_from_other_pairs():
    rows = []
    for d, k in [(5, 1), (5, 3), (10, 2)]:
        for n in (4, 8):
            lower, upper = prob_separable_subspace_bounds(n, d, k)
            rows.append({"d": d, "k": k, "n": n, "empirical": (lower + upper) / 2, "lower": lower, "upper": upper})
    fig = plots.plot_subspace_separability(pd.DataFrame(rows))
    left, right = _visible_axes(fig)
    assert len(left.get_lines()) == 2 * 3 and len(right.get_lines()) == 3  # dots + 2 bounds per pair
    assert [t.get_text() for t in right.get_legend().get_texts()] == ["d = 10, k = 2"]


def test_loo_random_draws_one_curve_per_n():
    grid = loo_error_grid([4, 8], [10, 100], n_runs=3, random_state=0)
    ax = plots.plot_loo_random(grid).axes[0]
    curves = [line for line in ax.get_lines() if line.get_label().startswith("n =")]
    assert [line.get_label() for line in curves] == ["n = 4", "n = 8"]
    assert ax.get_xscale() == "log" and ax.get_ylabel() == "leave-one-out error"


def test_growth_function_panels_mark_h_and_h_star():
    fig = plots.plot_growth_function(scenarios=((5, 4), (100, 1), (100, 2)))
    axes = _visible_axes(fig)
    assert len(axes) == 3
    labels = [line.get_label() for line in axes[1].get_lines()]
    assert "h = 1" in labels and "h* = 7" in labels  # 1 + floor(log2 100)


def _grid(n_values, d_values, value):
    return pd.DataFrame([{"n": n, "d": d, "loo_error": value(n, d)} for n in n_values for d in d_values])


def test_loo_grid_is_a_grey_map_with_border_points_and_fit():
    grid = _grid(range(4, 20, 2), [10, 100, 1000, 10000], lambda n, d: float(d >= 10 * n**2))
    fig = plots.plot_loo_grid(grid, border_table(grid))
    ax = fig.axes[0]
    mesh = ax.collections[0]
    assert mesh.get_array().size == 4 * 8 and mesh.get_cmap().name == "gray"
    assert ax.get_yscale() == "log"
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["border (fit)", "border (extrapolation)", "$d_{poly}(n)$"]
    assert len(fig.axes) == 2  # map + colour bar


def test_loo_grid_labels_undefined_cells():
    grid = _grid([4, 12], [8, 100], lambda n, d: np.nan if d < n - 1 else 0.7)
    ax = plots.plot_loo_grid(grid).axes[0]
    assert np.ma.count_masked(ax.collections[0].get_array()) == 1
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["undefined (hard margin, d < n - 1)"]


def test_loo_softness_has_one_panel_per_C():
    grids = {C: _grid([4, 6], [10, 100], lambda n, d: 0.5) for C in (1.0, 0.5, 0.2)}
    fig = plots.plot_loo_softness(grids)
    titles = [ax.get_title() for ax in _visible_axes(fig) if ax.get_title()]
    assert titles == ["C = 1", "C = 0.5", "C = 0.2"]


def test_figures_are_plain_figures_that_save(tmp_path):
    fig = plots.plot_prob_separable()
    assert isinstance(fig, Figure)
    fig.savefig(tmp_path / "f.png")
    assert (tmp_path / "f.png").stat().st_size > 1000
