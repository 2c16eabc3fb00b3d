"""Labels, group ids and sample ids are names: every reader returns them as text, as written."""

import numpy as np
import pandas as pd
import pytest

from sfmlearn.analysis.fmri_data import load_fmri_data
from sfmlearn.exceptions import DataValidationError
from sfmlearn.io import DataFileError, read_labelled
from sfmlearn.io.labels import MISSING_TEXT, as_names

RNG = np.random.default_rng(0)
FEATURES = RNG.normal(size=(8, 3))


def _table(path, labels, **columns):
    frame = pd.DataFrame(FEATURES[:len(labels)], columns=["g1", "g2", "g3"]).assign(**columns)
    frame["cls"] = labels
    frame.to_csv(path, index=False, sep="\t" if path.suffix == ".tsv" else ",")
    return path


@pytest.mark.parametrize("pair", [("01", "1"), ("007", "7.0"), ("0.5", "2.5"), ("1e3", "1000"), ("-0", "0"),
                                  ("True", "1")])
@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_numeric_looking_labels_stay_the_text_written(tmp_path, pair, suffix):
    labels = [pair[0]] * 4 + [pair[1]] * 4
    data = read_labelled(_table(tmp_path / f"data{suffix}", labels), target="cls")
    assert data.y.tolist() == labels
    assert data.classes.tolist() == sorted(pair)


def test_an_unnamed_label_column_is_text_too(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text(",g1\n01,0.1\n1,0.2\n01,0.3\n")
    assert read_labelled(path, target="Unnamed: 0").y.tolist() == ["01", "1", "01"]


def test_groups_are_text_too(tmp_path):
    path = _table(tmp_path / "data.csv", ["a", "b"] * 4, subject=["01", "01", "1", "1", "02", "02", "2", "2"])
    data = read_labelled(path, target="cls", groups="subject")
    assert data.groups.tolist() == ["01", "01", "1", "1", "02", "02", "2", "2"]


@pytest.mark.parametrize("obs", [
    np.array([0, 0, 0, 0, 1, 1, 1, 1]),
    pd.Categorical([3, 3, 3, 3, 7, 7, 7, 7]),
    np.array([0.5] * 4 + [2.5] * 4),
    np.array([True] * 4 + [False] * 4),
    pd.array([1, 1, 1, 1, 2, 2, 2, 2], dtype="Int64"),
])
def test_h5ad_labels_of_any_type_become_text(tmp_path, obs):
    anndata = pytest.importorskip("anndata")
    frame = pd.DataFrame({"y": obs}, index=[f"{i:03d}" for i in range(8)])
    anndata.AnnData(X=FEATURES, obs=frame).write_h5ad(tmp_path / "data.h5ad")
    data = read_labelled(tmp_path / "data.h5ad", target="y")
    assert data.y.tolist() == [str(v) for v in pd.Series(obs).astype(object)]
    assert data.sample_ids.tolist() == [f"{i:03d}" for i in range(8)]


def test_npz_labels_of_numbers_and_bytes_become_text(tmp_path):
    np.savez(tmp_path / "numbers.npz", X=FEATURES, y=np.array([0.5, 2.5] * 4))
    np.savez(tmp_path / "bytes.npz", X=FEATURES, y=np.array([b"01", b"1"] * 4))
    assert read_labelled(tmp_path / "numbers.npz").classes.tolist() == ["0.5", "2.5"]
    assert read_labelled(tmp_path / "bytes.npz").classes.tolist() == ["01", "1"]


def test_sheet_ids_with_leading_zeros_match_the_matrix_columns(tmp_path):
    ids = ["001", "002", "010", "100"]
    (tmp_path / "sheet.csv").write_text("id,cls\n" + "\n".join(f"{i},{c}" for i, c in zip(ids, "aabb")) + "\n")
    matrix = pd.DataFrame(FEATURES[:4].T, columns=ids).assign(probe=["p1", "p2", "p3"])
    matrix[["probe", *ids]].to_csv(tmp_path / "expr.csv", index=False)
    data = read_labelled(tmp_path / "expr.csv", "cls", pheno=tmp_path / "sheet.csv", samples_in_columns=True)
    assert data.sample_ids.tolist() == ids and data.y.tolist() == list("aabb")


def test_feature_ids_of_an_expression_matrix_keep_their_leading_zeros(tmp_path):
    (tmp_path / "sheet.csv").write_text("id,cls\nS1,a\nS2,b\n")
    (tmp_path / "expr.csv").write_text("probe,S1,S2\n001,0.1,0.2\n1,0.3,0.4\n010,0.5,0.6\n")
    data = read_labelled(tmp_path / "expr.csv", "cls", pheno=tmp_path / "sheet.csv", samples_in_columns=True)
    assert data.feature_names.tolist() == ["001", "1", "010"]


def test_series_matrix_probe_ids_and_characteristics_are_text(tmp_path):
    lines = ["!Series_title\t\"t\"", "!Sample_geo_accession\t\"GSM1\"\t\"GSM2\"",
             "!Sample_characteristics_ch1\t\"grade: 01\"\t\"grade: 1\"", "!series_matrix_table_begin",
             "\"ID_REF\"\t\"GSM1\"\t\"GSM2\"", "001\t0.1\t0.2", "010\t0.3\t0.5", "!series_matrix_table_end"]
    (tmp_path / "GSE1_series_matrix.txt").write_text("\n".join(lines) + "\n")
    data = read_labelled(tmp_path / "GSE1_series_matrix.txt", "grade")
    assert data.feature_names.tolist() == ["001", "010"] and data.y.tolist() == ["01", "1"]


def test_sample_ids_in_rows_keep_their_leading_zeros(tmp_path):
    ids = ["010", "001", "100", "002"]
    (tmp_path / "sheet.csv").write_text("id,cls\n001,a\n002,b\n010,a\n100,NA\n")
    table = pd.DataFrame(FEATURES[:4], columns=["g1", "g2", "g3"])
    table.insert(0, "id", ids)
    table.to_csv(tmp_path / "rows.csv", index=False)
    with pytest.raises(DataFileError, match=r"1 sample\(s\) have no label in 'cls' \(100\)"):
        read_labelled(tmp_path / "rows.csv", "cls", pheno=tmp_path / "sheet.csv")
    (tmp_path / "sheet.csv").write_text("id,cls\n001,a\n002,b\n010,a\n100,b\n")
    data = read_labelled(tmp_path / "rows.csv", "cls", pheno=tmp_path / "sheet.csv")
    assert data.sample_ids.tolist() == ids and data.y.tolist() == ["a", "a", "b", "b"]


@pytest.mark.parametrize("cell", ["", "NA", "nan", "N/A", "null", "  "])
def test_missing_labels_are_refused_naming_the_rows(tmp_path, cell):
    path = tmp_path / "data.csv"
    path.write_text("g1,cls\n0.1,a\n0.2," + cell + "\n0.3,b\n")
    with pytest.raises(DataFileError, match=r"^data.csv: 1 sample\(s\) have no label in 'cls' \(row 2\)"):
        read_labelled(path, target="cls")


def test_missing_h5ad_labels_are_refused_like_a_tables(tmp_path):
    anndata = pytest.importorskip("anndata")
    frame = pd.DataFrame({"y": ["a", "NA", "b", "b"]}, index=["s1", "s2", "s3", "s4"])
    anndata.AnnData(X=FEATURES[:4], obs=frame).write_h5ad(tmp_path / "data.h5ad")
    with pytest.raises(DataFileError, match=r"1 sample\(s\) have no label in 'y' \(s2\)"):
        read_labelled(tmp_path / "data.h5ad", target="y")


def test_as_names_keeps_text_and_writes_numbers_short():
    values = ["01", "1", " a", "1.0", None, float("nan"), 7, 0.5, np.float32(0.1), np.int64(3), True, b"x"]
    assert as_names(values).tolist() == ["01", "1", " a", "1.0", None, None, "7", "0.5", "0.1", "3", "True", "x"]
    assert as_names(np.array([0.1], dtype=np.float32)).tolist() == ["0.1"]
    assert all(name is None for name in as_names(sorted(MISSING_TEXT)))


def test_missing_text_is_what_pandas_reads_as_missing(tmp_path):
    """One rule for every file: the cells read_csv takes as missing are exactly MISSING_TEXT."""
    path = tmp_path / "cells.csv"
    cells = sorted(MISSING_TEXT - {""}) + ["NA ", "n.a.", "NONE", "0", "-"]
    path.write_text("cell\n" + "\n".join(cells) + "\n")
    read = pd.read_csv(path, dtype=str)["cell"]
    assert [cell for cell, value in zip(cells, read) if pd.isna(value)] == sorted(MISSING_TEXT - {""})


# ----------------------------------------------------------------------------- fMRI label sources

@pytest.fixture
def fmri_files(tmp_path):
    nib = pytest.importorskip("nibabel")
    affine = np.eye(4)
    nib.save(nib.Nifti1Image(np.ones((2, 2, 2), dtype=np.uint8), affine), tmp_path / "mask.nii.gz")
    images = []
    for i in range(4):
        images.append(tmp_path / f"map{i}.nii.gz")
        nib.save(nib.Nifti1Image(RNG.normal(size=(2, 2, 2)).astype(np.float32), affine), images[-1])
    return tmp_path, images


def test_fmri_table_labels_and_participants_are_text(fmri_files):
    folder, images = fmri_files
    (folder / "maps.csv").write_text("image,label,participant\n" + "\n".join(
        f"{p.name},{label},{who}" for p, label, who in zip(images, ["01", "1", "01", "1"], ["01", "01", "1", "1"])))
    data = load_fmri_data(table=folder / "maps.csv", mask=folder / "mask.nii.gz")
    assert data.labels.tolist() == ["01", "1", "01", "1"] and data.groups.tolist() == ["01", "01", "1", "1"]


def test_fmri_inline_labels_and_groups_are_text(fmri_files):
    folder, images = fmri_files
    (folder / "labels.txt").write_text("0.50\n2.5\n0.50\n2.5\n")
    data = load_fmri_data(images=images, mask=folder / "mask.nii.gz", labels=[str(folder / "labels.txt")],
                          groups=["01", "1", "01", "1"])
    assert data.labels.tolist() == ["0.50", "2.5", "0.50", "2.5"] and data.groups.tolist() == ["01", "1", "01", "1"]


def test_fmri_missing_label_is_refused(fmri_files):
    folder, images = fmri_files
    with pytest.raises(DataValidationError, match="--labels is empty in 1 map"):
        load_fmri_data(images=images, mask=folder / "mask.nii.gz", labels=["a", "NA", "b", "b"],
                       groups=["1", "1", "2", "2"])
