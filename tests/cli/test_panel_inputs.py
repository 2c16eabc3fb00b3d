"""sfmlearn panel: gene lists in other encodings or with repeats, labels that differ in spaces,
a size above the library's default screen, and a report from the saved --json."""

import json

import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.panels import make_cell_counts
from test_panel_command import _ok, _refused


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    X, y, _ = make_cell_counts(150, 60, n_types=3, n_markers_per_type=2, fold_change=5.0, random_state=0)
    table = pd.DataFrame(X.toarray().astype(int), columns=[f"g{j}" for j in range(60)])
    table["type"] = y
    path = tmp_path_factory.mktemp("panel_inputs") / "cells.csv"
    table.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("data", [b"\xef\xbb\xbfg7\ng9\n", "g7\ng9\n".encode("utf-16"),
                                  "g7\r\ng9\r\n".encode("utf-16-be").join([b"\xfe\xff", b""])])
def test_gene_lists_with_a_byte_order_mark_or_in_utf16_are_read(csv, tmp_path, capsys, data):
    (tmp_path / "keep.txt").write_bytes(data)
    result = json.loads(_ok(capsys, [str(csv), "--target", "type", "--size", "4", "--include",
                                     str(tmp_path / "keep.txt"), "--json"]))
    assert result["include"] == ["g7", "g9"] and [row["gene"] for row in result["panel"][:2]] == ["g7", "g9"]


@pytest.mark.parametrize("flag", ["--include", "--exclude"])
def test_a_gene_list_that_is_not_utf8_ends_with_one_line(csv, tmp_path, capsys, flag):
    (tmp_path / "genes.txt").write_bytes(b"g0\ncaf\xe9\n")
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "4", flag, str(tmp_path / "genes.txt")])
    assert f"{flag} genes.txt is not UTF-8 text (byte 6)" in err


def test_a_gene_listed_twice_is_on_the_panel_once(csv, tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("g0\ng0\n")
    code = main(["panel", str(csv), "--target", "type", "--size", "4", "--include", str(tmp_path / "keep.txt"),
                 "--json", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0
    genes = [row["gene"] for row in json.loads(captured.out)["panel"]]
    assert genes.count("g0") == 1 and len(set(genes)) == 4
    assert "include names the gene(s) ['g0'] more than once" in captured.err


def test_cell_types_that_differ_only_in_spaces_are_named_in_a_warning(csv, tmp_path, capsys):
    table = pd.read_csv(csv)
    table["type"] = table["type"].map({"type0": "T cell", "type1": "T cell ", "type2": "B cell"})
    path = tmp_path / "spaces.csv"
    table.to_csv(path, index=False)
    code = main(["panel", str(path), "--target", "type", "--size", "4", "--json", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0
    warnings = [line for line in captured.err.splitlines() if "differ only in spaces" in line]
    assert len(warnings) == 1 and "'T cell' and 'T cell '" in warnings[0]
    assert len(json.loads(captured.out)["cell_types"]) == 3  # kept apart, as written


def test_a_size_above_the_librarys_default_screen_is_filled(tmp_path, capsys):
    # Two types: with the library's default screen (n_screen=100) the Welch-t lists hold the
    # 100 genes of largest and the 100 of smallest t, so at most 200 of the 300 genes could
    # reach the panel; the command, which has no n_screen, screens as many as it is asked for.
    X, y, _ = make_cell_counts(60, 300, n_types=2, n_markers_per_type=2, fold_change=5.0, random_state=0)
    table = pd.DataFrame(X.toarray().astype(int), columns=[f"g{j}" for j in range(300)])
    table["type"] = y
    path = tmp_path / "wide.csv"
    table.to_csv(path, index=False)
    result = json.loads(_ok(capsys, [str(path), "--target", "type", "--size", "250", "--json", "--quiet"]))
    assert len(result["panel"]) == 250


def test_report_turns_saved_panel_json_into_the_panel_report(csv, tmp_path, capsys):
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "cells.csv").write_bytes(csv.read_bytes())  # a table next to the JSON is not embedded
    saved = folder / "panel.json"
    saved.write_text(_ok(capsys, [str(csv), "--target", "type", "--size", "4", "--json", "--quiet"]))
    assert main(["report", str(saved), "-o", str(folder / "r.html")]) == 0
    capsys.readouterr()
    html = (folder / "r.html").read_text(encoding="utf-8")
    assert '<section id="dotplot"><h2>Dot plot</h2>' in html and "Confusion matrix of the test cells" in html
    assert "<h2>Tables</h2>" not in html  # the cells' table is not in it


def test_a_panel_refusal_names_the_commands_flags_not_the_librarys(csv, tmp_path, capsys):
    (tmp_path / "ten.txt").write_text("".join(f"g{j}\n" for j in range(10)))
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "4", "--include", str(tmp_path / "ten.txt")])
    assert "--include holds 10 genes but --size 4; raise --size or --include fewer" in err
    (tmp_path / "all.txt").write_text("".join(f"g{j}\n" for j in range(60)))
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "4", "--exclude", str(tmp_path / "all.txt")])
    assert "--size 4 exceeds the 0 genes" in err and "n_markers" not in err and "n_features" not in err


@pytest.mark.parametrize("name, reason", [("missing.txt", "No such file or directory"), (".", "Is a directory")])
def test_a_gene_list_that_cannot_be_read_is_named_by_its_flag(csv, tmp_path, capsys, name, reason):
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "4", "--exclude", str(tmp_path / name)])
    assert err.startswith("sfmlearn: error: --exclude ") and reason in err


def test_a_data_file_given_as_a_gene_list_gives_a_short_error(csv, capsys):
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "4", "--include", str(csv)])
    assert "not in the data" in err and len(err) < 400


def test_genes_that_differ_only_in_spaces_are_named_in_a_warning(csv, tmp_path, capsys):
    table = pd.read_csv(csv).rename(columns={"g1": " g2 "})
    path = tmp_path / "spaced_genes.csv"
    table.to_csv(path, index=False)
    code = main(["panel", str(path), "--target", "type", "--size", "4", "--json", "--quiet"])
    warnings = [line for line in capsys.readouterr().err.splitlines() if "differ only in spaces" in line]
    assert code == 0 and len(warnings) == 1 and "the genes ' g2 ' and 'g2'" in warnings[0]


def test_an_h5ad_without_cells_is_refused_in_one_line(tmp_path, capsys):
    anndata = pytest.importorskip("anndata")
    X, y, _ = make_cell_counts(40, 30, n_types=2, n_markers_per_type=2, random_state=0)
    obs = pd.DataFrame({"cell_type": y[:0]}, index=pd.Index([], dtype=str))
    var = pd.DataFrame(index=[f"g{j}" for j in range(30)])
    adata = anndata.AnnData(X.toarray()[:0], obs=obs, var=var)
    adata.write_h5ad(tmp_path / "empty.h5ad")
    err = _refused(capsys, [str(tmp_path / "empty.h5ad"), "--target", "obs:cell_type", "--size", "4"])
    assert "empty.h5ad holds 0 cells (obs) x 30 genes (var); it needs both" in err
