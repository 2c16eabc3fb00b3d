"""Experiments of the theory chapter: the README table, the border, the figure runner."""

import numpy as np
import pytest

from sfmlearn.experiments import loo_cv, separability_table, subspace_separability, theory_figures
from sfmlearn.theory import prob_separable_subspace_bounds


def test_separability_table_covers_the_shapes_and_the_thesis_value():
    table = separability_table.run()
    assert len(table) == 3 * 5 and set(table["dataset"]) == {"leukemia", "colon", "fMRI"}
    leuk2 = table[(table["dataset"] == "leukemia") & (table["k"] == 2)].iloc[0]
    assert leuk2["published"] == 0.007 and round(leuk2["upper"], 3) == leuk2["published"]
    colon3 = table[(table["dataset"] == "colon") & (table["k"] == 3)].iloc[0]
    assert colon3["upper"] == prob_separable_subspace_bounds(62, 2000, 3)[1]
    assert np.all(table["upper_with_bias"] >= table["upper"])
    markdown = separability_table.to_markdown(table)
    assert markdown.count("\n") == 16 and "<= 0.007" in markdown


def test_subspace_separability_quick_rows_lie_near_their_bounds():
    table = subspace_separability.run(quick=True)
    assert set(zip(table["d"], table["k"])) == set(subspace_separability.settings(True)["pairs"])
    slack = 4 * np.sqrt(0.25 / table["n_trials"])
    assert np.all(table["empirical"] >= table["lower"] - slack)
    assert np.all(table["empirical"] <= table["upper"] + slack)


def test_theory_figures_runner_writes_requested_files(tmp_path):
    table = theory_figures.run(quick=True, outdir=tmp_path, only=["fig2_7_prob_single_feature"])
    assert list(table["figure"]) == ["fig2_7_prob_single_feature"]
    assert (tmp_path / "fig2_7_prob_single_feature.png").exists()
    with pytest.raises(ValueError, match="unknown figures"):
        theory_figures.run(quick=True, outdir=tmp_path, only=["fig9"])


@pytest.mark.slow
def test_loo_cv_reproduces_the_critical_sample_sizes():
    table = loo_cv.run()
    hard = table[table["svm"] == "hard margin"].iloc[0]
    assert hard["theory"] == hard["published"] == 12
    assert hard["simulated"] == 12
    soft = table[table["svm"] != "hard margin"]
    assert np.all(np.abs(soft["simulated"] - soft["theory"]) <= 4)


@pytest.mark.slow
def test_all_figures_full_settings(tmp_path):
    table = theory_figures.run(outdir=tmp_path)
    assert len(table) == len(theory_figures.FIGURES)


def test_loo_border_row_with_the_thesis_reading_spells_out_the_fitted_border():
    """``sfmlearn reproduce thesis-fig4.1`` shows d_poly's coefficients through this note."""
    import pandas as pd

    from sfmlearn.experiments import loo_border

    grid = pd.DataFrame([{"n": n, "d": d, "loo_error": float(d >= 10 * n**2)}
                         for n in range(4, 24, 2) for d in np.unique(np.logspace(1, 4, 13).astype(int))])
    table = loo_border.border_table(grid)
    a0, a1, a2 = table.attrs["coef"]
    note = table.loc[table["n"] == 20, "note"].item()
    assert note.startswith(f"d_poly(n) = {a0:.6g} + ({a1:.6g}) n + ({a2:.6g}) n^2")
    assert (table.loc[table["n"] != 20, "note"] == "").all()
