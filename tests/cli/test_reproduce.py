"""``sfmlearn reproduce``: the listing, one real result end to end, and ``all`` on a fake registry."""

import importlib
import sys
import types

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.experiments import _registry
from sfmlearn.experiments._registry import RESULTS, Result

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_list_shows_every_registered_result(capsys):
    assert main(["reproduce", "--list"]) == 0
    listed = {line.split()[0] for line in capsys.readouterr().out.splitlines()[:len(RESULTS)]}
    assert listed == {r.id for r in RESULTS}


def test_registry_ids_are_unique_and_point_at_real_functions():
    ids = [r.id for r in RESULTS]
    assert len(ids) == len(set(ids))
    for result in RESULTS:
        module = importlib.import_module(f"sfmlearn.experiments.{result.module}")
        if result.function is None:
            assert result.figure is not None, f"{result.id} has neither a table nor a figure"
        else:
            assert callable(getattr(module, result.function)), result.id


def test_registry_covers_the_issue_list():
    ids = {r.id for r in RESULTS}
    wanted = {"nc-table1", "nc-fig1", "nc-fig2", "thesis-fig5.2", "psvm-table1", "psvm-table2", "psvm-table3"}
    wanted |= {f"thesis-fig{f}" for f in ("2.5", "2.6", "2.7", "2.8", "2.9", "3.5")}
    wanted |= {f"thesis-fig4.{i}" for i in range(1, 22)}
    assert wanted <= ids


def test_one_result_end_to_end_writes_csv_png_and_comparison(tmp_path, capsys):
    assert main(["reproduce", "thesis-sep-bounds", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    table = pd.read_csv(tmp_path / "thesis-sep-bounds.csv")
    assert "published" in table
    row = table.dropna(subset=["published"]).iloc[0]
    assert (row.dataset, row.k) == ("leukemia", 2)
    assert (tmp_path / "thesis-sep-bounds.png").read_bytes()[:8] == PNG_MAGIC
    assert "0.007" in out and "agrees" in out


def test_quick_says_it_reduced_the_repetitions(tmp_path, capsys):
    assert main(["reproduce", "thesis-fig4.4", "--quick", "--repetitions", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "--quick" in out and "2 runs per point" in out
    table = pd.read_csv(tmp_path / "thesis-fig4.4.csv")
    assert set(table["runs"]) == {2}
    assert (tmp_path / "thesis-fig4.4.png").read_bytes()[:8] == PNG_MAGIC


def test_unknown_id_is_a_one_line_error_with_a_suggestion(capsys):
    assert main(["reproduce", "nc-tabel1"]) == 2
    err = capsys.readouterr().err
    assert "nc-table1" in err and len(err.strip().splitlines()) == 1


def test_all_and_ids_together_is_an_error(capsys):
    assert main(["reproduce", "all", "nc-table1"]) == 2


# -- ``all`` on a fake registry ------------------------------------------------------------

@pytest.fixture
def fake_registry(monkeypatch):
    """Four results on a fake experiment module: agreeing, missing, failing, figure-only."""
    module = types.ModuleType("sfmlearn.experiments._fake")
    module.calls = 0

    def run(quick=False, repetitions=None):
        module.calls += 1
        table = pd.DataFrame({"setting": ["a", "b"], "ours": [1.0, 5.0], "runs": [repetitions or 3] * 2,
                              "published": [1.02, 2.0]})
        return table

    def broken(quick=False):
        raise RuntimeError("solver exploded")

    def figure_only(table, context):
        from matplotlib.figure import Figure

        fig = Figure()
        fig.subplots().plot([0, 1], [1, 0])
        return fig

    module.run, module.broken = run, broken
    monkeypatch.setitem(sys.modules, "sfmlearn.experiments._fake", module)
    fake = (
        Result("fake-a", "agrees and misses", "Paper Table 9", "_fake", notes="because the draws differ"),
        Result("fake-b", "same call, second view", "Paper Fig. 9", "_fake", notes="see fake-a"),
        Result("fake-broken", "fails", "Paper Fig. 10", "_fake", function="broken"),
        Result("fake-figure", "figure only", "Paper Fig. 11", "_fake", function=None, figure=figure_only),
    )
    monkeypatch.setattr(_registry, "RESULTS", fake)
    return module


def test_all_writes_results_md_with_gaps_explanations_and_figures(fake_registry, tmp_path, capsys):
    assert main(["reproduce", "all", "--quick", "--out", str(tmp_path)]) == 1  # one result failed
    text = (tmp_path / "results.md").read_text()
    assert fake_registry.calls == 1  # fake-a and fake-b share one experiment call
    assert "quick mode" in text
    section = text.split("## fake-a")[1].split("## ")[0]
    assert "1 of 2 compared rows differ; largest |gap| 3" in section
    assert "because the draws differ" in section
    assert "![fake-a](results/fake-a.png)" in section
    assert "| b | 5 | 2 | 3 | **no** |" in section
    assert "solver exploded" in text.split("## fake-broken")[1]
    assert "![fake-figure](results/fake-figure.png)" in text
    for name in ("fake-a.png", "fake-a.csv", "fake-figure.png"):
        assert (tmp_path / "results" / name).exists()
    assert not (tmp_path / "results" / "fake-broken.csv").exists()
    summary = text.split("## ")[0]
    assert "1/2 agree" in summary and "failed" in summary


def test_repetitions_reach_the_experiment_and_unsupported_options_are_reported(fake_registry, tmp_path, capsys):
    from sfmlearn.experiments._runner import Context, compute

    outcome = compute(_registry.RESULTS[0], Context(repetitions=7, n_jobs=2))
    assert set(outcome.table["runs"]) == {7}
    assert any("--n-jobs ignored" in n for n in outcome.notices)
    assert np.allclose(outcome.comparison["gap"], [-0.02, 3.0])
    assert list(outcome.comparison["agrees"]) == [True, False]


@pytest.mark.slow
def test_reproduce_all_quick_runs_end_to_end(tmp_path):
    """The CI-sized run of every result (about 15 minutes on 2 cores)."""
    code = main(["reproduce", "all", "--quick", "--out", str(tmp_path)])
    text = (tmp_path / "results.md").read_text()
    assert code == 0, text
    for result in RESULTS:
        assert f"## {result.id}:" in text


def test_compare_accepts_gaps_within_two_standard_errors_of_our_mean():
    from sfmlearn.experiments._runner import compare

    table = pd.DataFrame({"cell": ["noisy", "precise", "no std"], "ours": [10.0, 10.0, 10.0],
                          "ours_std": [10.0, 0.1, np.nan], "runs": [25, 25, 25],
                          "published": [13.0, 13.0, 10.5], "note": ["a", "b", "c"]})
    rows = compare(table, Result("x", "t", "r", "m", rtol=0.1))
    # se = 2 -> tolerance 4 > |gap| 3; se = 0.02 -> tolerance 1.3 < 3; NaN std -> rtol only
    assert list(rows["agrees"]) == [True, False, True]
    assert list(rows["note"]) == ["a", "b", "c"] and list(rows["cell"]) == ["noisy", "precise", "no std"]
