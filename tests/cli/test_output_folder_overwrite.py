"""``reproduce --out`` and ``separability --figures`` keep earlier outputs unless --overwrite."""

import pytest

from sfmlearn.analysis import reproduce as reproduce_analysis
from sfmlearn.cli import main
from sfmlearn.experiments import theory_figures


def test_reproduce_refuses_a_folder_with_its_outputs(tmp_path, capsys):
    argv = ["reproduce", "thesis-sep-bounds", "--out", str(tmp_path)]
    assert main(argv) == 0
    written = (tmp_path / "thesis-sep-bounds.csv").read_bytes()
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "thesis-sep-bounds.csv already exists; give --overwrite" in err and err.count("\n") == 1
    assert (tmp_path / "thesis-sep-bounds.csv").read_bytes() == written
    assert main(argv + ["--overwrite"]) == 0


def test_reproduce_all_refuses_an_earlier_results_page(tmp_path, capsys, monkeypatch):
    def must_not_run(*args, **kwargs):
        raise AssertionError("the results were computed although the output folder is refused")
    monkeypatch.setattr(reproduce_analysis, "reproduce", must_not_run)
    (tmp_path / "results.md").write_text("an earlier page\n")
    assert main(["reproduce", "all", "--quick", "--out", str(tmp_path)]) == 2
    assert "results.md already exists" in capsys.readouterr().err
    assert (tmp_path / "results.md").read_text() == "an earlier page\n"


@pytest.mark.parametrize("command", [["reproduce", "thesis-sep-bounds", "--out"], ["separability", "--figures"]])
def test_a_new_folder_needs_no_overwrite(tmp_path, capsys, command, monkeypatch):
    monkeypatch.setattr(theory_figures, "FIGURES", {})
    assert main([*command, str(tmp_path / "new" / "folder")]) == 0
