"""The ``sfmlearn separability`` command."""

import json

import pytest

from sfmlearn.cli import main
from sfmlearn.experiments import theory_figures
from sfmlearn.theory import prob_separable_single_feature, prob_separable_subspace_bounds


def test_json_output_carries_the_bounds(capsys):
    assert main(["separability", "--n", "38", "--d", "7129", "--k", "1", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first, second = out["subsets"]
    assert second["upper_bound"] == prob_separable_subspace_bounds(38, 7129, 2)[1]
    assert second["upper_bound_with_bias"] == prob_separable_subspace_bounds(38, 7129, 2, fit_intercept=True)[1]
    assert first["exact"] == prob_separable_single_feature(38, 7129)
    assert out["p_separable"] == 1.0 and out["loo"]["infinite_like"] is False


def test_human_output_shows_the_thesis_number(capsys):
    assert main(["separability", "--n", "38", "--d", "7129", "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert "0.00702" in out and "VC bound" in out and "leave-one-out" in out


def test_monte_carlo_column(capsys):
    assert main(["separability", "--n", "6", "--d", "4", "--k", "1", "--monte-carlo", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert 0 <= out["subsets"][0]["monte_carlo"] <= 1


@pytest.mark.parametrize("argv,message", [
    (["separability"], "give the data shape"),
    (["separability", "--n", "10", "--d", "3", "--k", "4"], "--k must lie between 1 and d"),
    (["separability", "--n", "10", "--d", "500", "--k", "3", "--monte-carlo", "5"], "subsets per trial"),
])
def test_usage_errors_exit_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_figures_option_writes_pngs(tmp_path, monkeypatch, capsys):
    cheap = {stem: make for stem, make in theory_figures.FIGURES.items()
             if stem in ("fig2_6_prob_separable", "fig3_5_growth_function")}
    monkeypatch.setattr(theory_figures, "FIGURES", cheap)
    assert main(["separability", "--figures", str(tmp_path), "--quick", "--quiet"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["fig2_6_prob_separable.png", "fig3_5_growth_function.png"]
    assert all((tmp_path / name).stat().st_size > 1000 for name in written)
