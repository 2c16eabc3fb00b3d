"""Samples, labels and groups go where they belong: one id per sample, the groups never the labels,
the ids a Parquet file stores in its index kept, the classes asked for read as names."""

import warnings

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.io import DataFileError, read_labelled

SHEET = "id,class\nS1,a\nS2,b\nS3,a\n"


def _write(path, text):
    path.write_text(text)
    return path


# ----------------------------------------------------------------------------- one id per sample

@pytest.mark.parametrize("name, matrix", [
    ("m.csv", "probe,S1,S1 ,S2,S3\np1,1,9,2,3\np2,4,9,5,6\n"),
    ("m.tsv", "probe\tS1\t S1\tS2\tS3\np1\t1\t9\t2\t3\n"),
])
def test_a_sample_column_named_twice_but_for_spaces_is_refused(tmp_path, name, matrix):
    sheet = _write(tmp_path / "s.csv", SHEET)
    with pytest.raises(DataFileError, match=rf"{name} has duplicate sample id names \(S1\); .*without surrounding "
                                            "spaces: rename or remove the copies"):
        read_labelled(_write(tmp_path / name, matrix), "class", pheno=sheet, samples_in_columns=True)


def test_a_sample_row_named_twice_but_for_spaces_is_refused(tmp_path):
    sheet = _write(tmp_path / "s.csv", SHEET)
    rows = _write(tmp_path / "r.csv", "sid,g1\nS1,1\nS1 ,9\nS2,2\nS3,3\n")
    with pytest.raises(DataFileError, match=r"r.csv has duplicate sample id names \(S1\)"):
        read_labelled(rows, "class", pheno=sheet)


# ----------------------------------------------------------------------------- classes=

@pytest.mark.parametrize("classes", ["01", b"01", 1])
def test_classes_that_are_not_a_list_of_names_are_refused(tmp_path, classes):
    path = _write(tmp_path / "c.csv", "g1,class\n1,0\n2,1\n3,01\n4,2\n")
    with pytest.raises(DataFileError, match=r"classes=.*: give a list of class names, e\.g\. classes=\['a', 'b'\]"):
        read_labelled(path, "class", classes=classes)


def test_an_empty_class_selection_is_refused_before_reading(tmp_path):
    path = _write(tmp_path / "c.csv", "g1,class\n1,0\n2,1\n")
    with pytest.raises(DataFileError, match=r"classes=\[\] is empty: it would keep no sample"):
        read_labelled(path, "class", classes=[])


def test_classes_given_as_any_collection_of_names_are_kept(tmp_path):
    path = _write(tmp_path / "c.csv", "g1,class\n1,0\n2,1\n3,01\n4,2\n")
    with pytest.warns(UserWarning, match="kept 2 samples"):
        data = read_labelled(path, "class", classes=(c for c in ["01", "2"]))
    assert data.y.tolist() == ["01", "2"]


# ----------------------------------------------------------------------------- GEO !Sample_ lines

GEO = ('!Series_title\t"test"\n'
       '!Sample_title\t{titles}\n'
       '!Sample_geo_accession\t"GSM1"\t"GSM2"\t"GSM3"\n'
       '!Sample_characteristics_ch1\t"disease: x"\t"disease: y"\t"disease: x"\n'
       '!Sample_characteristics_ch1\t"patient: 7"\t"patient: 8"\t"patient: 7"\n'
       '!series_matrix_table_begin\n"ID_REF"\t"GSM2"\t"GSM1"\t"GSM3"\n"p1"\t1\t2\t3\n"p2"\t4\t5\t6\n'
       '!series_matrix_table_end\n')


def _geo(tmp_path, titles='"t one"\t"t two"\t"t three"'):
    return _write(tmp_path / "GSE1_series_matrix.txt", GEO.format(titles=titles))


def test_a_short_sample_line_is_refused_with_the_counts(tmp_path):
    path = _geo(tmp_path, titles='"t one"\t"t two"')
    with pytest.raises(DataFileError, match=r"--target 'title': the !Sample_title line of GSE1_series_matrix.txt has "
                                            r"2 values for the 3 samples .*download the series matrix again"):
        read_labelled(path, "title")


def test_a_short_sample_line_is_one_line_on_the_command_line(tmp_path, capsys):
    path = _geo(tmp_path, titles='"t one"\t"t two"')
    code = main(["select", str(path), "--target", "title"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "has 2 values for the 3 samples" in err, err


def test_a_sample_line_with_empty_cells_beyond_the_samples_is_read(tmp_path):
    data = read_labelled(_geo(tmp_path, titles='"t one"\t"t two"\t"t three"\t""'), "title")
    assert data.sample_ids.tolist() == ["GSM2", "GSM1", "GSM3"] and data.y.tolist() == ["t two", "t one", "t three"]


# ----------------------------------------------------------------------------- --groups is not --target

@pytest.mark.parametrize("target, groups", [("disease", "DISEASE"), ("title", "!Sample_title"),
                                            ("Sample_title", "title")])
def test_geo_groups_spelling_the_target_otherwise_are_refused(tmp_path, target, groups):
    with pytest.raises(DataFileError, match=rf"--groups and --target \('{groups}', '{target}'\) name the same column"):
        read_labelled(_geo(tmp_path), target, groups=groups)


def test_geo_groups_of_another_key_are_read(tmp_path):
    data = read_labelled(_geo(tmp_path), "disease", groups="Patient")
    assert data.groups.tolist() == ["8", "7", "7"]


@pytest.mark.parametrize("target, groups", [("obs:cond", "cond"), ("cond", "obs:cond")])
def test_anndata_groups_naming_the_target_column_are_refused(tmp_path, target, groups):
    anndata = pytest.importorskip("anndata")
    obs = pd.DataFrame({"cond": ["a", "b", "a"], "donor": ["d1", "d1", "d2"]}, index=["c1", "c2", "c3"])
    anndata.AnnData(X=np.arange(6.0).reshape(3, 2), obs=obs).write_h5ad(tmp_path / "a.h5ad")
    with pytest.raises(DataFileError, match="name the same column; the groups must be another column"):
        read_labelled(tmp_path / "a.h5ad", target, groups=groups)
    assert read_labelled(tmp_path / "a.h5ad", target, groups="obs:donor").groups.tolist() == ["d1", "d1", "d2"]


# ----------------------------------------------------------------------------- Parquet's stored index

def test_a_sample_sheet_with_its_ids_in_the_parquet_index_matches(tmp_path):
    pd.DataFrame({"class": ["b", "a", "a"]}, index=pd.Index(["S2", "S1", "S3"], name="id")).to_parquet(
        tmp_path / "sheet.parquet")
    matrix = _write(tmp_path / "m.csv", "probe,S1,S2,S3\np1,1,2,3\np2,4,5,6\n")
    data = read_labelled(matrix, "class", pheno=tmp_path / "sheet.parquet", samples_in_columns=True)
    assert data.sample_ids.tolist() == ["S1", "S2", "S3"] and data.y.tolist() == ["a", "b", "a"]
    np.testing.assert_array_equal(data.X, [[1, 4], [2, 5], [3, 6]])


def test_samples_in_rows_with_their_ids_in_the_parquet_index_match_a_sheet(tmp_path):
    pd.DataFrame({"g1": [1.0, 2.0, 3.0], "g2": [4.0, 5.0, 6.0]}, index=pd.Index(["S3", "S1", "S2"], name="sample")
                 ).to_parquet(tmp_path / "rows.parquet")
    data = read_labelled(tmp_path / "rows.parquet", "class", pheno=_write(tmp_path / "s.csv", SHEET))
    assert data.sample_ids.tolist() == ["S3", "S1", "S2"] and data.feature_names.tolist() == ["g1", "g2"]
    np.testing.assert_array_equal(data.X[:, 0], [1.0, 2.0, 3.0])


@pytest.mark.parametrize("name", ["sample", None])
def test_a_data_table_keeps_the_ids_of_its_parquet_index(tmp_path, name):
    frame = pd.DataFrame({"g1": [1.0, 2.0, 3.0], "class": ["a", "b", "a"]},
                         index=pd.Index(["s3", "s1", "s2"], name=name))
    frame.to_parquet(tmp_path / "t.parquet")
    with pytest.warns(UserWarning, match="sample ids"):
        data = read_labelled(tmp_path / "t.parquet", "class")
    assert data.sample_ids.tolist() == ["s3", "s1", "s2"] and data.feature_names.tolist() == ["g1"]


@pytest.mark.parametrize("stored", [
    lambda frame: frame[frame["g1"] > 1],                  # row numbers 1, 2, 3 left by a filter
    lambda frame: pd.concat([frame, frame]),               # row numbers repeated by a concatenation
    lambda frame: frame.set_index("class", drop=False),    # a copy of a column
])
def test_a_parquet_index_of_row_numbers_or_copies_is_no_feature(tmp_path, stored):
    """Such an index holds no measurement: as a feature, a batch's row numbers predicted the labels."""
    frame = pd.DataFrame({"g1": [1.0, 2.0, 3.0, 4.0], "class": ["a", "b", "a", "b"]})
    stored(frame).to_parquet(tmp_path / "t.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = read_labelled(tmp_path / "t.parquet", "class")
    assert data.feature_names.tolist() == ["g1"] and data.sample_ids[0] == "row 1"


@pytest.mark.parametrize("index", [pd.Index([7, 3, 5, 1], name="patient_no"),
                                   pd.date_range("2026-01-01", periods=4, name="date")])
def test_a_named_parquet_index_without_text_ids_is_not_read_and_said(tmp_path, index):
    frame = pd.DataFrame({"g1": [1.0, 2.0, 3.0, 4.0], "class": ["a", "b", "a", "b"]}, index=index)
    frame.to_parquet(tmp_path / "t.parquet")
    with pytest.warns(UserWarning, match=f"stored index {index.name} is not read .*index=False"):
        data = read_labelled(tmp_path / "t.parquet", "class")
    assert data.feature_names.tolist() == ["g1"]


def test_a_filtered_parquet_matrix_keeps_its_feature_ids(tmp_path):
    matrix = pd.DataFrame({"gene": ["G0", "G1", "G2", "G3"], "S1": [1.0, 2, 3, 4], "S2": [2.0, 1, 4, 3],
                           "S3": [0.0, 5, 1, 2]})
    matrix[matrix["S1"] > 1].to_parquet(tmp_path / "m.parquet")
    data = read_labelled(tmp_path / "m.parquet", "class", pheno=_write(tmp_path / "s.csv", "id,class\nS1,a\nS2,b\nS3,a\n"),
                         samples_in_columns=True)
    assert data.feature_names.tolist() == ["G1", "G2", "G3"]


def test_a_csv_index_of_concatenated_tables_is_dropped_not_a_feature(tmp_path):
    """pd.concat of two batches writes row numbers 0..19, 0..19: kept as a feature, they told
    the batches apart (and predicted labels sorted by batch)."""
    batch = pd.DataFrame({"g1": np.arange(4.0), "class": ["a", "a", "b", "b"]})
    pd.concat([batch, batch]).to_csv(tmp_path / "t.csv")
    with pytest.warns(UserWarning, match="row indexes of concatenated tables"):
        data = read_labelled(tmp_path / "t.csv", "class")
    assert data.feature_names.tolist() == ["g1"]
    pd.DataFrame({"": [0, 1, 1, 0], "g1": np.arange(4.0), "class": ["a", "a", "b", "b"]}).to_csv(
        tmp_path / "u.csv", index=False)  # no run of row numbers: an unnamed feature, kept
    assert read_labelled(tmp_path / "u.csv", "class").feature_names.size == 2
