"""``separability --figures DIR`` refuses only the files it writes, and leaves every other file alone."""

import pytest

from sfmlearn.analysis.separability import theory_figure_files
from sfmlearn.cli import main
from sfmlearn.experiments import theory_figures

FIGURE = "fig2_6_prob_separable"


@pytest.fixture
def one_cheap_figure(monkeypatch):
    monkeypatch.setattr(theory_figures, "FIGURES", {FIGURE: theory_figures.FIGURES[FIGURE]})


def test_the_listed_files_are_the_files_written(tmp_path, monkeypatch):
    cheap = {stem: make for stem, make in theory_figures.FIGURES.items()
             if stem in ("fig2_6_prob_separable", "fig3_5_growth_function")}
    monkeypatch.setattr(theory_figures, "FIGURES", cheap)
    assert main(["separability", "--figures", str(tmp_path), "--quick", "--quiet"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(theory_figure_files())
    monkeypatch.undo()
    assert len(theory_figure_files()) == len(theory_figures.FIGURES) == 9


def test_other_files_in_the_folder_are_kept_and_do_not_block(tmp_path, one_cheap_figure, capsys):
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "fig2_6_prob_separable.png.bak").write_text("an older copy\n")
    assert main(["separability", "--figures", str(tmp_path), "--quick", "--quiet"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fig2_6_prob_separable.png", "fig2_6_prob_separable.png.bak", "notes.txt"]
    assert (tmp_path / "notes.txt").read_text() == "mine\n"
    assert (tmp_path / "fig2_6_prob_separable.png.bak").read_text() == "an older copy\n"


def test_an_earlier_figure_is_refused_without_overwrite(tmp_path, one_cheap_figure, capsys):
    earlier = tmp_path / f"{FIGURE}.png"
    earlier.write_bytes(b"earlier figure")
    (tmp_path / "notes.txt").write_text("mine\n")
    argv = ["separability", "--figures", str(tmp_path), "--quick", "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"--figures {earlier} already exists; give --overwrite" in err and err.count("\n") == 1
    assert earlier.read_bytes() == b"earlier figure"
    assert main(argv + ["--overwrite"]) == 0
    assert earlier.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{FIGURE}.png", "notes.txt"]
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_a_figure_of_another_run_is_refused_before_any_figure_is_drawn(tmp_path, monkeypatch, capsys):
    def must_not_run(*args, **kwargs):
        raise AssertionError("a figure was drawn although the folder is refused")
    monkeypatch.setattr(theory_figures, "FIGURES", {FIGURE: must_not_run, "fig3_5_growth_function": must_not_run})
    (tmp_path / "fig3_5_growth_function.png").write_bytes(b"earlier")
    assert main(["separability", "--figures", str(tmp_path), "--quick", "--quiet"]) == 2
    assert "fig3_5_growth_function.png already exists" in capsys.readouterr().err
