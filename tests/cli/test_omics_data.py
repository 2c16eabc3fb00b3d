"""select and repeat on omics layouts: expression matrix + sheet, GEO series matrix, AnnData.

The files are written here (feature p separates classes a and b; its gene symbol is
TP53). Each run must find p, and show the annotation next to it in the printed table,
in --json and in the HTML report.
"""

import gzip
import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


def _truth(n=12):
    rng = np.random.default_rng(0)
    y = np.array(["a", "b"] * (n // 2))
    X = rng.standard_normal((n, 4))
    X[:, 0] += np.where(y == "a", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=["p", "q", "r", "s"], index=[f"S{i + 1:02d}" for i in range(n)])
    frame["class"] = y
    frame["subtype"] = np.where(y == "a", "a", np.where((np.arange(n) // 2) % 2 == 0, "b", "c"))
    frame["batch"] = np.repeat(np.arange(1, 5), n // 4)
    return frame


def _write_matrix(folder):
    truth = _truth()
    matrix = truth[["p", "q", "r", "s"]].T.rename_axis("probe").reset_index()
    matrix.insert(1, "Gene Symbol", ["TP53", "BRCA1", "MYC", "EGFR"])
    matrix.to_csv(folder / "expr.tsv", sep="\t", index=False)
    truth[["class", "subtype", "batch"]].rename_axis("sample").reset_index().sample(
        frac=1, random_state=0).to_csv(folder / "pheno.csv", index=False)
    return folder / "expr.tsv", folder / "pheno.csv"


def _run(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_select_matrix_with_sheet_json_and_report(tmp_path, capsys):
    expr, pheno = _write_matrix(tmp_path)
    report = tmp_path / "r.html"
    out = _run(capsys, ["select", str(expr), "--samples-in-columns", "--pheno", str(pheno), "--target", "class",
                        "--groups", "batch", "--cv", "2", "--quiet", "--json", "--report", str(report)])
    result = json.loads(out)
    assert [s["name"] for s in result["selected"]] == ["p"]
    assert result["selected"][0]["annotations"] == {"Gene Symbol": "TP53"}
    assert result["cv"]["grouped"] and result["n_samples"] == 12
    html = report.read_text()
    assert "<th scope=\"col\">Gene Symbol</th>" in html and "<td>TP53</td>" in html


def test_select_human_output_shows_the_gene_symbol(tmp_path, capsys):
    expr, pheno = _write_matrix(tmp_path)
    out = _run(capsys, ["select", str(expr), "--samples-in-columns", "--pheno", str(pheno), "--target", "class",
                        "--cv", "0", "--quiet"])
    line = next(row for row in out.splitlines() if row.strip().startswith("p "))
    assert line.rstrip().endswith("TP53")


def test_classes_picks_two_of_three(tmp_path, capsys):
    expr, pheno = _write_matrix(tmp_path)
    argv = ["select", str(expr), "--samples-in-columns", "--pheno", str(pheno), "--target", "subtype", "--cv", "0",
            "--quiet", "--json", "--C", "1"]
    assert main(argv) == 2
    assert "hold 3 class(es) (a, b, c); select, path, repeat and compare separate two classes: pick two of them with --classes A B" \
        in capsys.readouterr().err
    result = json.loads(_run(capsys, argv + ["--classes", "a", "c"]))
    assert result["classes"] == ["a", "c"]
    assert result["class_counts"] == {"a": 6, "c": int((_truth()["subtype"] == "c").sum())}


def test_repeat_matrix_with_sheet_ranks_with_annotations(tmp_path, capsys):
    expr, pheno = _write_matrix(tmp_path)
    result = json.loads(_run(capsys, ["repeat", str(expr), "--samples-in-columns", "--pheno", str(pheno),
                                      "--target", "class", "--no-estimate", "--quiet", "--json"]))
    first = result["ranking"][0]
    assert first["name"] == "p" and first["annotations"] == {"Gene Symbol": "TP53"}
    out = _run(capsys, ["repeat", str(expr), "--samples-in-columns", "--pheno", str(pheno), "--target", "class",
                        "--no-estimate", "--quiet"])
    assert any(row.split()[1:2] == ["p"] and row.rstrip().endswith("TP53") for row in out.splitlines())


def test_select_geo_series_matrix(tmp_path, capsys):
    truth = _truth()
    ids = [f"GSM{100 + i}" for i in range(12)]
    q = lambda values: "\t".join(f'"{v}"' for v in values)  # noqa: E731
    lines = ['!Series_title\t"t"', '!Series_geo_accession\t"GSE1"', "", "!Sample_title\t" + q(truth.index),
             "!Sample_geo_accession\t" + q(ids),
             "!Sample_characteristics_ch1\t" + q(f"disease state: {c}" for c in truth["class"]),
             "!series_matrix_table_begin", '"ID_REF"\t' + q(ids)]
    lines += [f'"{f}"\t' + "\t".join(map(repr, truth[f].tolist())) for f in ["p", "q", "r", "s"]]
    lines.append("!series_matrix_table_end")
    path = tmp_path / "GSE1_series_matrix.txt.gz"
    with gzip.open(path, "wt") as handle:
        handle.write("\n".join(lines) + "\n")
    result = json.loads(_run(capsys, ["select", str(path), "--target", "disease state", "--cv", "0", "--quiet",
                                      "--json"]))
    assert [s["name"] for s in result["selected"]] == ["p"] and "annotations" not in result["selected"][0]
    assert main(["select", str(path), "--target", "diagnosis", "--cv", "0", "--quiet"]) == 2
    assert "the keys are disease state" in capsys.readouterr().err


def test_select_and_repeat_h5ad(tmp_path, capsys):
    anndata = pytest.importorskip("anndata")
    import scipy.sparse as sp

    truth = _truth()
    adata = anndata.AnnData(X=sp.csr_matrix(truth[["p", "q", "r", "s"]].to_numpy()),
                            obs=pd.DataFrame({"condition": truth["class"].to_numpy()}, index=truth.index),
                            var=pd.DataFrame({"gene_symbol": ["TP53", "BRCA1", "MYC", "EGFR"]},
                                             index=["p", "q", "r", "s"]))
    adata.write_h5ad(tmp_path / "data.h5ad")
    for command in (["select", "--cv", "0"], ["repeat", "--no-estimate"]):
        result = json.loads(_run(capsys, [command[0], str(tmp_path / "data.h5ad"), "--target", "obs:condition",
                                          "--quiet", "--json", *command[1:]]))
        rows = result.get("selected") or result["ranking"]
        assert rows[0]["name"] == "p" and rows[0]["annotations"] == {"gene_symbol": "TP53"}


def test_leukemia_shows_its_gene_descriptions(capsys):
    result = json.loads(_run(capsys, ["select", "--dataset", "leukemia", "--cv", "0", "--quiet", "--json"]))
    assert all(s["annotations"]["description"] for s in result["selected"])
