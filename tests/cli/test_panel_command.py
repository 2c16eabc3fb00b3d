"""sfmlearn panel: single-cell files in, the panel, its held-out accuracy and a report out.

The cells are simulated (300 cells x 200 genes, 4 types with 3 planted markers each) and
written as an AnnData file (log-normalised X, raw counts in the layer "counts") and as
a CSV table of counts.
"""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.analysis import PanelResult
from sfmlearn.cli import main
from sfmlearn.cli.panel import NORMALIZATIONS
from sfmlearn.panels import counts, make_cell_counts
from test_startup import _loaded

N_CELLS, N_GENES = 300, 200


@pytest.fixture(scope="module")
def cells():
    X, y, planted = make_cell_counts(N_CELLS, N_GENES, n_types=4, n_markers_per_type=3, fold_change=6.0,
                                     random_state=0)
    table = pd.DataFrame(X.toarray().astype(int), columns=[f"gene{j}" for j in range(N_GENES)])
    table["type"] = y
    return X, table, planted


@pytest.fixture(scope="module")
def csv(cells, tmp_path_factory):
    path = tmp_path_factory.mktemp("panel") / "cells.csv"
    cells[1].to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def h5ad(cells, tmp_path_factory):
    anndata = pytest.importorskip("anndata")
    X, table, _ = cells
    obs = pd.DataFrame({"cell_type": pd.Categorical(table["type"])}, index=[f"cell{i}" for i in range(N_CELLS)])
    adata = anndata.AnnData(X=counts.normalize_counts(X), obs=obs, var=pd.DataFrame(index=table.columns[:-1]))
    adata.layers["counts"] = X
    path = tmp_path_factory.mktemp("panel") / "cells.h5ad"
    adata.write_h5ad(path)
    return path


def _ok(capsys, argv):
    code = main(["panel", *argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _refused(capsys, argv):
    """The one error line of a refused command (exit code 2)."""
    code = main(["panel", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_h5ad_layer_json_round_trips_and_finds_the_planted_markers(h5ad, cells, capsys):
    out = _ok(capsys, [str(h5ad), "--target", "obs:cell_type", "--layer", "counts", "--size", "12", "--json"])
    result = json.loads(out)
    assert PanelResult.from_dict(result).to_dict() == result
    assert result["panel_size"] == 12 == len(result["panel"]) and result["data"] == "cells.h5ad"
    planted = set(cells[2].gene)
    assert sum(row["gene"] in planted for row in result["panel"]) >= 7
    assert result["balanced_accuracy"] > 0.9 and result["n_test"] + result["n_train"] == N_CELLS


def test_the_same_cells_give_the_same_panel_from_csv_and_h5ad(h5ad, csv, capsys):
    from_h5ad = json.loads(_ok(capsys, [str(h5ad), "--target", "obs:cell_type", "--layer", "counts", "--size",
                                        "6", "--json"]))
    from_csv = json.loads(_ok(capsys, [str(csv), "--target", "type", "--size", "6", "--json"]))
    assert from_csv["panel"] == from_h5ad["panel"]
    assert from_csv["confusion_matrix"] == from_h5ad["confusion_matrix"]


def test_text_output_shows_panel_accuracy_per_type_and_confusion_matrix(csv, capsys):
    out = _ok(capsys, [str(csv), "--target", "type", "--size", "5", "--test-size", "0.4", "--random-state", "3"])
    lines = out.splitlines()
    assert lines[0] == f"data: cells.csv  ({N_CELLS} cells x {N_GENES} genes, 4 cell types)"
    assert lines[1].startswith("panel: 5 of 5 genes asked for (log1p-normalised counts)")
    header = next(i for i, line in enumerate(lines) if line.split() == ["gene", "cell", "type", "direction",
                                                                           "weight", "t", "source"])
    rows = [line.split() for line in lines[header + 1:header + 6]]
    assert all(row[0].startswith("gene") and row[-1] in {"sfm", "ranking", "include"} for row in rows)
    assert all((row[-1] == "sfm") == (row[3] != "-") for row in rows)  # a weight exactly when the SFM chose it
    assert any(line.startswith("held-out balanced accuracy: ") and "40% of every type" in line for line in lines)
    assert "    cell type  test cells  sensitivity  specificity" in lines
    matrix = lines.index("  confusion matrix (rows: true type; columns: predicted type, numbered as the rows):")
    assert lines[matrix + 1].split() == ["1", "2", "3", "4"]
    assert [line.split()[1] for line in lines[matrix + 2:matrix + 6]] == ["type0", "type1", "type2", "type3"]


def test_report_holds_the_table_and_the_dot_plot(csv, tmp_path, capsys):
    report = tmp_path / "panel.html"
    out = _ok(capsys, [str(csv), "--target", "type", "--size", "5", "--report", str(report), "--quiet"])
    assert out.splitlines()[-1] == f"report written to {report}"
    html = report.read_text(encoding="utf-8")
    genes = [line.split()[0] for line in out.splitlines() if line.startswith("    gene") and "cell type" not in line]
    assert len(genes) == 5 and all(f"<td>{gene}</td>" in html for gene in genes)
    assert '<section id="dotplot"><h2>Dot plot</h2>' in html and html.count('src="data:image/png;base64,') == 1
    assert "Confusion matrix of the test cells" in html
    assert sorted(p.name for p in tmp_path.iterdir()) == ["panel.html"]  # no temporary file left


def test_include_and_exclude_lists(csv, tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("# genes we must probe\ngene7\n\n")
    (tmp_path / "drop.txt").write_text("gene0\ngene198\n")
    result = json.loads(_ok(capsys, [str(csv), "--target", "type", "--size", "6", "--include",
                                     str(tmp_path / "keep.txt"), "--exclude", str(tmp_path / "drop.txt"), "--json"]))
    genes = [row["gene"] for row in result["panel"]]
    assert "gene7" in genes and not {"gene0", "gene198"} & set(genes)
    assert result["include"] == ["gene7"] and result["exclude"] == ["gene0", "gene198"]


def _table_with(cells, tmp_path, change):
    table = cells[1].copy()
    change(table)
    path = tmp_path / "bad.csv"
    table.to_csv(path, index=False)
    return path


def _few_cells(table):
    table.loc[:1, "type"] = "rare"


def _missing_label(table):
    table.loc[4, "type"] = np.nan


def _negative_count(table):
    table.loc[2, "gene3"] = -1


def _fraction(table):
    table["gene5"] = table["gene5"] * 0.5


@pytest.mark.parametrize("change, message", [
    (_few_cells, "too few cells for a held-out test: cell type(s) rare (2 cells)"),
    (_missing_label, "1 sample(s) have no label in 'type' (row 5)"),
    (_negative_count, "expects raw counts, but X holds 1 negative"),
    (_fraction, "non-integer values"),
])
def test_bad_cells_end_with_one_line(cells, tmp_path, capsys, change, message):
    path = _table_with(cells, tmp_path, change)
    assert message in _refused(capsys, [str(path), "--target", "type", "--size", "5"])


@pytest.mark.parametrize("options, message", [
    (["--size", "201"], "a panel of 201 genes was asked for, but the data have 200 genes"),
    (["--size", "3"], "cannot give each of the 4 cell types a gene of its own; ask for at least 4"),
    (["--size", "0"], "--size must be at least 1"),
    (["--size", "5", "--test-size", "1"], "--test-size must lie strictly between 0 and 1"),
    (["--size", "5", "--normalize", "scaled"], "--normalize invalid choice"),
    (["--size", "5", "--target", "kind"], "no column 'kind'"),
])
def test_bad_options_end_with_one_line(csv, capsys, options, message):
    argv = [str(csv), "--target", "type", *options] if "--target" not in options else [str(csv), *options]
    assert message in _refused(capsys, argv)


def test_unknown_genes_and_empty_lists_are_refused(csv, tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("GENE7\n")
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "5", "--include", str(tmp_path / "keep.txt")])
    assert "include: 1 gene(s) not in the data (GENE7); did you mean 'gene7'?" in err
    (tmp_path / "empty.txt").write_text("# nothing\n")
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "5", "--exclude", str(tmp_path / "empty.txt")])
    assert "names no gene" in err
    assert "no such file" in _refused(capsys, [str(csv), "--target", "type", "--size", "5", "--include",
                                               str(tmp_path / "missing.txt")]).lower()


def test_h5ad_without_the_count_layer_or_with_a_wrong_one(h5ad, capsys):
    err = _refused(capsys, [str(h5ad), "--target", "obs:cell_type", "--size", "5"])
    assert "non-integer" in err
    err = _refused(capsys, [str(h5ad), "--target", "obs:cell_type", "--size", "5", "--layer", "count"])
    assert "--layer count" in err and "did you mean 'counts'?" in err
    err = _refused(capsys, [str(h5ad), "--target", "obs:celltype", "--size", "5", "--layer", "counts"])
    assert "did you mean 'cell_type'?" in err
    result = json.loads(_ok(capsys, [str(h5ad), "--target", "obs:cell_type", "--size", "4", "--normalize", "none",
                                     "--json"]))
    assert result["normalize"] == "none" and result["panel_size"] == 4


def test_the_report_is_never_written_over_the_input_nor_over_a_file_without_overwrite(csv, tmp_path, capsys):
    err = _refused(capsys, [str(csv), "--target", "type", "--size", "5", "--report", str(csv)])
    assert "--report" in err
    report = tmp_path / "old.html"
    report.write_text("earlier")
    argv = [str(csv), "--target", "type", "--size", "4", "--report", str(report), "--quiet"]
    assert "--overwrite" in _refused(capsys, argv)
    assert report.read_text() == "earlier"
    _ok(capsys, [*argv, "--overwrite"])
    assert "Dot plot" in report.read_text(encoding="utf-8")


def test_the_normalisations_offered_are_the_librarys():
    assert NORMALIZATIONS == counts.NORMALIZATIONS


def test_help_loads_no_heavy_library():
    out, loaded = _loaded(["panel", "--help"])
    assert "--size N" in out and "obs:cell_type" in out
    assert loaded == "[]"
