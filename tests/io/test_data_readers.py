"""sfmlearn.io.read_labelled on small files written here, one per format, and their bad inputs.

Every file is built from one ground truth (``_truth``: 12 samples x 4 features, classes
a/b, feature p separates them, groups 1..4, gene symbols), so each reader is checked by
comparing what it returns with that truth sample by sample, matched by id.
"""

import gzip
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from sfmlearn.io import DataFileError, LabelledData, read_labelled
from sfmlearn.io.tables import read_table

FEATURES = ["p", "q", "r", "s"]
SYMBOLS = ["TP53", "BRCA1", "MYC", "EGFR"]


def _truth(n=12, seed=0):
    """Samples S01..S12 in rows: features p q r s, class y (a/b), batch g, disease (3 states)."""
    rng = np.random.default_rng(seed)
    y = np.array(["a", "b"] * (n // 2))
    X = rng.standard_normal((n, 4)).round(4)
    X[:, 0] += np.where(y == "a", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=FEATURES, index=[f"S{i + 1:02d}" for i in range(n)])
    frame["y"] = y
    frame["g"] = np.repeat(np.arange(1, 5), n // 4)
    frame["disease"] = np.array(["AML", "ALL", "CML"])[np.arange(n) % 3]
    return frame


def _matrix(truth, symbols=True):
    """The expression-matrix layout: features in rows, samples in columns, a Gene Symbol column."""
    matrix = truth[FEATURES].T.rename_axis("probe").reset_index()
    if symbols:
        matrix.insert(1, "Gene Symbol", SYMBOLS)
    return matrix


def _sheet(truth, seed=1):
    """A sample sheet with the rows shuffled (the order must not matter)."""
    sheet = truth[["y", "g", "disease"]].rename_axis("sample").reset_index()
    return sheet.sample(frac=1, random_state=seed)


def _assert_matches(data, truth):
    assert isinstance(data, LabelledData)
    rows = truth.loc[data.sample_ids]
    values = data.X.toarray() if sp.issparse(data.X) else data.X
    np.testing.assert_allclose(values, rows[FEATURES].to_numpy(), rtol=1e-14)  # text -> float to the last bit
    np.testing.assert_array_equal(data.y.astype(str), rows["y"].to_numpy())
    assert list(data.feature_names) == FEATURES


# ----------------------------------------------------------------------------- matrix + sample sheet

def test_transposed_matrix_with_shuffled_sheet_is_matched_by_id(tmp_path):
    truth = _truth()
    _matrix(truth).to_csv(tmp_path / "expr.tsv", sep="\t", index=False)
    _sheet(truth).to_csv(tmp_path / "pheno.csv", index=False)
    data = read_labelled(tmp_path / "expr.tsv", "y", "g", pheno=tmp_path / "pheno.csv", samples_in_columns=True)
    _assert_matches(data, truth)
    assert list(data.sample_ids) == list(truth.index)  # the matrix's column order, not the sheet's
    np.testing.assert_array_equal(data.groups, truth["g"].astype(str).to_numpy())  # ids are text
    assert list(data.feature_annotations["Gene Symbol"]) == SYMBOLS


def test_matrix_columns_in_another_order_than_the_sheet(tmp_path):
    truth = _truth()
    matrix = _matrix(truth)
    order = ["probe", "Gene Symbol"] + list(np.random.default_rng(3).permutation(truth.index))
    matrix[order].to_csv(tmp_path / "expr.csv", index=False)
    _sheet(truth).to_csv(tmp_path / "pheno.csv", index=False)
    data = read_labelled(tmp_path / "expr.csv", "y", pheno=tmp_path / "pheno.csv", samples_in_columns=True)
    assert list(data.sample_ids) == order[2:]
    _assert_matches(data, truth)


def test_samples_in_rows_table_takes_labels_from_a_sheet(tmp_path):
    truth = _truth()
    truth[FEATURES].rename_axis("id").reset_index().to_csv(tmp_path / "data.csv", index=False)
    _sheet(truth).to_csv(tmp_path / "pheno.csv", index=False)
    data = read_labelled(tmp_path / "data.csv", "y", pheno=tmp_path / "pheno.csv")
    _assert_matches(data, truth)
    assert data.feature_annotations is None


def test_sheet_with_r_row_names_as_ids(tmp_path):
    """R's write.csv leaves the id column's header empty: still the ids, not a row index to drop."""
    truth = _truth()
    _matrix(truth).to_csv(tmp_path / "expr.csv", index=False)
    truth[["y"]].to_csv(tmp_path / "pheno.csv", index=True)  # header ",y"
    data = read_labelled(tmp_path / "expr.csv", "y", pheno=tmp_path / "pheno.csv", samples_in_columns=True)
    _assert_matches(data, truth)


def test_classes_keeps_two_of_three(tmp_path):
    truth = _truth()
    _matrix(truth).to_csv(tmp_path / "expr.csv", index=False)
    _sheet(truth).to_csv(tmp_path / "pheno.csv", index=False)
    data = read_labelled(tmp_path / "expr.csv", "disease", "g", pheno=tmp_path / "pheno.csv",
                         samples_in_columns=True, classes=["CML", "AML"])
    kept = truth[truth["disease"].isin(["AML", "CML"])]
    assert list(data.sample_ids) == list(kept.index)
    np.testing.assert_array_equal(data.y, kept["disease"].to_numpy())
    np.testing.assert_allclose(data.X, kept[FEATURES].to_numpy(), rtol=1e-14)
    np.testing.assert_array_equal(data.groups, kept["g"].astype(str).to_numpy())  # ids are text


def _matrix_files(tmp_path, matrix=None, sheet=None):
    truth = _truth()
    (_matrix(truth) if matrix is None else matrix(_matrix(truth))).to_csv(tmp_path / "expr.csv", index=False)
    (_sheet(truth) if sheet is None else sheet(_sheet(truth))).to_csv(tmp_path / "pheno.csv", index=False)
    return tmp_path / "expr.csv", tmp_path / "pheno.csv"


@pytest.mark.parametrize("matrix, sheet, options, message", [
    (None, lambda s: s[s["sample"] != "S05"], {},
     "do not match by id (in expr.csv only: S05); samples are matched by id, never by position"),
    (lambda m: m.drop(columns="S07"), None, {}, "in pheno.csv only: S07"),
    (None, lambda s: s.assign(sample=s["sample"].str.lower()), {}, "in expr.csv only: S01, S02, S03, S04, S05 ..."),
    (None, lambda s: s.assign(sample=s["sample"].replace("S03", "S04")), {}, "duplicated sample id(s) S04"),
    (lambda m: m.assign(S02=m["S02"].astype(object).where(m.index != 2, "high")), None, {},
     "a matrix cell is not a number (sample 'S02' at feature 'r' holds 'high'"),
    (lambda m: m.assign(S02=m["S02"].where(m.index != 1)), None, {}, "1 missing value(s) in column(s) q"),
    (None, None, {"target": "diagnosis"}, "--target diagnosis: sample sheet pheno.csv has no column 'diagnosis'. "
                                          "Columns: y, g, disease"),
    (None, lambda s: s.assign(y=s["y"].where(s["sample"] != "S04")), {}, "1 sample(s) have no label in 'y' (S04)"),
    (None, None, {"classes": ["AML", "XYZ"], "target": "disease"}, "--classes: expr.csv has no class XYZ; its "
                                                                   "classes are ALL, AML, CML"),
    (lambda m: m.assign(probe=["p", "q", "p", "s"]), None, {}, "duplicate feature id names (p)"),
])
def test_bad_matrix_and_sheet(tmp_path, matrix, sheet, options, message):
    expr, pheno = _matrix_files(tmp_path, matrix, sheet)
    options = {"target": "y", **options}
    with pytest.raises(DataFileError) as error:
        read_labelled(expr, options.pop("target"), pheno=pheno, samples_in_columns=True, **options)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_sheet_id_in_another_column_is_pointed_out(tmp_path):
    truth = _truth()
    _matrix(truth).to_csv(tmp_path / "expr.csv", index=False)
    sheet = _sheet(truth)
    sheet.insert(0, "row", range(len(sheet)))
    sheet.to_csv(tmp_path / "pheno.csv", index=False)
    with pytest.raises(DataFileError, match="column 'sample' holds them: make it the sheet's first column"):
        read_labelled(tmp_path / "expr.csv", "y", pheno=tmp_path / "pheno.csv", samples_in_columns=True)


def test_samples_in_columns_needs_a_sheet(tmp_path):
    expr, _ = _matrix_files(tmp_path)
    with pytest.raises(DataFileError, match="--samples-in-columns needs --pheno SHEET"):
        read_labelled(expr, "y", samples_in_columns=True)


# ----------------------------------------------------------------------------- GEO series matrix

def _q(values):
    return "\t".join(f'"{v}"' for v in values)


def write_series_matrix(path, truth, *, characteristics=None, table_order=None, cell=None):
    """A GEO series matrix with the real layout (NCBI's "Series Matrix File"), gzip if .gz.

    The characteristics come on two lines whose keys swap places for the last sample (as
    GEO does when samples list them in different orders); ``cell`` = (row, column, text)
    replaces one value of the table.
    """
    ids = [f"GSM{1000 + i}" for i in range(len(truth))]
    disease = [f"disease state: {d}" for d in truth["disease"]]
    batch = [f"batch: {g}" for g in truth["g"]]
    first, second = disease[:-1] + [batch[-1]], batch[:-1] + [disease[-1]]
    lines = ['!Series_title\t"A small test series"', '!Series_geo_accession\t"GSE99999"',
             '!Series_platform_id\t"GPL570"', "",
             "!Sample_title\t" + _q(truth.index), "!Sample_geo_accession\t" + _q(ids),
             "!Sample_status\t" + _q(["Public on Jan 01 2020"] * len(ids)),
             "!Sample_source_name_ch1\t" + _q(["bone marrow"] * len(ids)),
             "!Sample_organism_ch1\t" + _q(["Homo sapiens"] * len(ids))]
    for row in (characteristics or [first, second]):
        lines.append("!Sample_characteristics_ch1\t" + _q(row))
    lines += ["!Sample_platform_id\t" + _q(["GPL570"] * len(ids)), "!series_matrix_table_begin"]
    order = list(range(len(ids))) if table_order is None else table_order
    lines.append('"ID_REF"\t' + _q([ids[i] for i in order]))
    for j, probe in enumerate(FEATURES):
        values = [repr(float(truth[probe].iloc[i])) for i in order]
        if cell is not None and cell[0] == j:
            values[cell[1]] = cell[2]
        lines.append(f'"{probe}"\t' + "\t".join(values))
    lines.append("!series_matrix_table_end")
    text = "\n".join(lines) + "\n"
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return dict(zip(ids, truth.index))


def test_series_matrix_gzip_characteristic_key(tmp_path):
    truth = _truth()
    path = tmp_path / "GSE99999_series_matrix.txt.gz"
    names = write_series_matrix(path, truth, table_order=list(np.random.default_rng(2).permutation(12)))
    data = read_labelled(path, "disease state", "batch")
    rows = truth.loc[[names[s] for s in data.sample_ids]]
    np.testing.assert_allclose(data.X, rows[FEATURES].to_numpy(), rtol=1e-14)
    np.testing.assert_array_equal(data.y, rows["disease"].to_numpy())
    np.testing.assert_array_equal(data.groups.astype(int), rows["g"].to_numpy())
    assert list(data.feature_names) == FEATURES and data.feature_annotations is None


def test_a_table_that_is_not_utf8_names_its_first_bad_byte(tmp_path):
    path = tmp_path / "latin1.csv"
    text = "g1,class\n" + "".join(f"{i}.5,caf\u00e9\n" for i in range(40)) + "9.5,b\xe9\n"
    path.write_bytes(text.encode("utf-8")[:-4] + b"\xe9\n")  # the last line's e-acute in latin-1
    with pytest.raises(DataFileError, match=f"latin1.csv is not UTF-8 text \\(byte {path.stat().st_size - 2}\\)"):
        read_labelled(path, "class")


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 20])
def test_the_first_bad_byte_is_found_across_read_blocks(tmp_path, chunk):
    from sfmlearn.io.tables import _first_bad_byte
    path = tmp_path / "t.csv"
    path.write_bytes("\u00e9".encode() * 10 + b"\xff" + b"abc")  # two-byte characters split by small blocks
    assert _first_bad_byte(path, chunk) == 20


def test_series_matrix_saved_with_a_byte_order_mark(tmp_path):
    truth = _truth()
    path = tmp_path / "GSE2_series_matrix.txt"
    write_series_matrix(path, truth)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    data = read_labelled(path, "disease state")
    assert data.X.shape == (12, len(FEATURES))


def test_series_matrix_key_is_case_insensitive_and_fields_work(tmp_path):
    truth = _truth()
    path = tmp_path / "GSE99999_series_matrix.txt"
    write_series_matrix(path, truth)
    data = read_labelled(path, "Disease State", classes=["AML", "ALL"])
    assert set(data.y) == {"AML", "ALL"} and data.X.shape == (8, 4)
    titles = read_labelled(path, "title")
    assert list(titles.y) == list(truth.index)


@pytest.mark.parametrize("options, message", [
    ({"target": "diagnosis"}, "--target 'diagnosis': GSE99999_series_matrix.txt.gz has no such characteristic; "
                              "the keys are disease state, batch"),
    ({"target": "disease state", "groups": "patient"}, "--groups 'patient'"),
    ({"target": "disease state", "cell": (2, 5, "null")}, "1 missing value(s) in column(s) r"),
    ({"target": "disease state", "cell": (1, 3, '"high"')},
     "a matrix cell is not a number (sample 'GSM1003' at probe 'q' holds 'high'"),
    ({"target": "disease state", "characteristics": [[f"disease state: {d}" for d in ["AML", "ALL"] * 5 + ["", ""]]]},
     "2 sample(s) have no label in 'disease state' (GSM1010, GSM1011)"),
])
def test_bad_series_matrix(tmp_path, options, message):
    path = tmp_path / "GSE99999_series_matrix.txt.gz"
    options = dict(options)
    target, groups = options.pop("target"), options.pop("groups", None)
    write_series_matrix(path, _truth(), **options)
    with pytest.raises(DataFileError) as error:
        read_labelled(path, target, groups)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_truncated_series_matrix(tmp_path):
    path = tmp_path / "GSE1_series_matrix.txt"
    path.write_text('!Series_title\t"x"\n!Sample_geo_accession\t"GSM1"\t"GSM2"\n')
    with pytest.raises(DataFileError, match="has no '!series_matrix_table_begin' line"):
        read_labelled(path, "disease")
    complete = tmp_path / "GSE2_series_matrix.txt"
    write_series_matrix(complete, _truth())
    cut = complete.read_text().splitlines()[:-2]  # the last probe and the end marker lost
    complete.write_text("\n".join(cut) + "\n")
    with pytest.raises(DataFileError, match="ends before its '!series_matrix_table_end' line"):
        read_labelled(complete, "disease state")


# ----------------------------------------------------------------------------- AnnData

def write_h5ad(path, truth, *, sparse=True):
    anndata = pytest.importorskip("anndata")
    X = truth[FEATURES].to_numpy()
    obs = pd.DataFrame({"condition": pd.Categorical(truth["y"]), "batch": truth["g"].astype(str),
                        "disease": truth["disease"].to_numpy()}, index=truth.index)
    var = pd.DataFrame({"gene_symbol": SYMBOLS, "feature_type": ["Gene Expression"] * 4}, index=FEATURES)
    adata = anndata.AnnData(X=sp.csr_matrix(X) if sparse else X, obs=obs, var=var,
                            layers={"counts": sp.csr_matrix(np.round(np.abs(X) * 10))})
    adata.write_h5ad(path)


def test_sparse_h5ad_stays_sparse(tmp_path):
    truth = _truth()
    write_h5ad(tmp_path / "data.h5ad", truth)
    data = read_labelled(tmp_path / "data.h5ad", "obs:condition", "obs:batch")
    assert sp.issparse(data.X) and data.X.dtype == np.float64
    _assert_matches(data, truth)
    assert list(data.groups) == [str(g) for g in truth["g"]]
    assert list(data.feature_annotations["gene_symbol"]) == SYMBOLS


def test_h5ad_layer_and_plain_obs_name(tmp_path):
    truth = _truth()
    write_h5ad(tmp_path / "data.h5ad", truth, sparse=False)
    data = read_labelled(tmp_path / "data.h5ad", "disease", layer="counts", classes=["ALL", "CML"])
    kept = truth[truth["disease"].isin(["ALL", "CML"])]
    np.testing.assert_array_equal(data.X.toarray(), np.round(np.abs(kept[FEATURES].to_numpy()) * 10))
    assert list(data.sample_ids) == list(kept.index)


@pytest.mark.parametrize("target, options, message", [
    ("obs:diagnosis", {}, "--target obs:diagnosis: data.h5ad has no obs column 'diagnosis'. obs columns: "
                          "condition, batch, disease"),
    ("obs:condition", {"groups": "obs:site"}, "--groups obs:site: data.h5ad has no obs column 'site'"),
    ("obs:condition", {"layer": "spliced"}, "--layer spliced: data.h5ad has no such layer; layers: counts"),
    ("obs:condition", {"pheno": "sheet.csv"}, "--pheno applies to tables"),
])
def test_bad_h5ad(tmp_path, target, options, message):
    write_h5ad(tmp_path / "data.h5ad", _truth())
    with pytest.raises(DataFileError) as error:
        read_labelled(tmp_path / "data.h5ad", target, **options)
    assert message in str(error.value)


def test_h5ad_without_anndata_names_the_extra(tmp_path, monkeypatch):
    (tmp_path / "data.h5ad").write_bytes(b"\x89HDF\r\n\x1a\n")
    monkeypatch.setitem(__import__("sys").modules, "anndata", None)  # import anndata -> ImportError
    with pytest.raises(DataFileError, match=r'needs the anndata package: pip install "sfmlearn\[omics\]"'):
        read_labelled(tmp_path / "data.h5ad", "obs:condition")


def test_layer_on_a_table_is_refused(tmp_path):
    expr, pheno = _matrix_files(tmp_path)
    with pytest.raises(DataFileError, match="--layer applies to AnnData .h5ad files"):
        read_labelled(expr, "y", pheno=pheno, samples_in_columns=True, layer="counts")


def test_a_dropped_row_index_is_a_python_warning_not_a_print(tmp_path, capsys):
    # A library never writes to the streams itself; the CLI shows the warning as one line.
    path = tmp_path / "indexed.csv"
    pd.DataFrame({"a": [1.0, 2.0, 3.0], "label": [0, 1, 0]}).to_csv(path)
    with pytest.warns(UserWarning, match="indexed.csv: dropped the first column"):
        frame = read_table(path)
    assert list(frame.columns) == ["a", "label"]
    assert capsys.readouterr() == ("", "")


def test_repeated_gene_names_in_an_h5ad_are_refused_with_anndatas_fix(tmp_path):
    anndata = pytest.importorskip("anndata")
    write_h5ad(tmp_path / "data.h5ad", _truth())
    adata = anndata.read_h5ad(tmp_path / "data.h5ad")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # anndata's own note on non-unique names, in some versions
        adata.var_names = [FEATURES[0]] * 2 + list(FEATURES[2:])
        adata.write_h5ad(tmp_path / "repeated.h5ad")
    with pytest.raises(DataFileError, match=r"duplicate var \(feature\) names .*var_names_make_unique\(\)"):
        read_labelled(tmp_path / "repeated.h5ad", "obs:condition")
