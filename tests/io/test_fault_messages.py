"""Each message names the real fault and a fix that helps: a short row, a number beyond the float
range, the row of a bad cell, a compressed file without its suffix, a file that is not a table or
not an .npz archive."""

import bz2
import gzip
import lzma

import numpy as np
import pytest

from sfmlearn.io import DataFileError, read_labelled, read_table


def _write(path, data):
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# ----------------------------------------------------------------------------- cells of a numeric column

def test_a_short_row_is_named_not_the_column_its_text_lands_in(tmp_path):
    path = _write(tmp_path / "short.csv", "g1,g2,class\n1,2,a\n3,b\n")
    with pytest.raises(DataFileError, match=r"short.csv: data row 2 has 2 values but the header names 3 columns, "
                                            r"so text lands in the numeric column 'g2': give every row one value"):
        read_labelled(path, "class")


def test_an_empty_cell_at_the_end_of_a_row_is_no_short_row(tmp_path):
    path = _write(tmp_path / "empty.csv", "g1,name,class\n1,x,a\n3,,b\n")
    with pytest.raises(DataFileError, match=r"1 feature column\(s\) are not numeric \(name\); column 'name', "
                                            r"data row 1 holds 'x'"):
        read_labelled(path, "class")


@pytest.mark.parametrize("cell", ["1e309", "-2.5e400"])
def test_a_number_beyond_the_float_range_is_named_as_such(tmp_path, cell):
    path = _write(tmp_path / "big.csv", f"g1,class\n3,a\n{cell},b\n")
    with pytest.raises(DataFileError, match=rf"big.csv: column 'g1', data row 2 holds {cell}, a number beyond the "
                                            r"float range \(about ±1.8e308\): rescale the values") as error:
        read_labelled(path, "class")
    assert "not numeric" not in str(error.value)


def test_a_bad_cell_far_down_is_named_by_its_row(tmp_path):
    path = _write(tmp_path / "late.csv", "g1,class\n" + "1,a\n" * 3000 + "x,b\n")
    with pytest.raises(DataFileError, match=r"not numeric \(g1\); column 'g1', data row 3001 holds 'x'\. Remove"):
        read_labelled(path, "class")


def test_a_matrix_cell_beyond_the_float_range_is_named_as_such(tmp_path):
    sheet = _write(tmp_path / "s.csv", "id,class\nS1,a\nS2,b\n")
    matrix = _write(tmp_path / "m.csv", "probe,S1,S2\np1,1,2\np2,4,1e309\n")
    with pytest.raises(DataFileError, match=r"m.csv: sample 'S2' at feature 'p2' holds 1e309, a number beyond the "
                                            "float range"):
        read_labelled(matrix, "class", pheno=sheet, samples_in_columns=True)


# ----------------------------------------------------------------------------- file types and encodings

def test_read_table_does_not_offer_the_type_it_refuses(tmp_path):
    path = tmp_path / "ok.npz"
    np.savez(path, X=np.eye(2), y=np.array(["a", "b"]))
    with pytest.raises(DataFileError, match=r"ok.npz: unknown file type '.npz'\. Use .csv, .tsv, .txt .* or "
                                            r"\.parquet\.$") as error:
        read_table(path)
    assert ".npz, " not in str(error.value) and ".h5ad" not in str(error.value)


def test_a_sample_sheet_of_another_type_is_told_the_table_types(tmp_path):
    np.savez(tmp_path / "sheet.npz", X=np.eye(2))
    matrix = _write(tmp_path / "m.csv", "probe,S1,S2\np1,1,2\n")
    with pytest.raises(DataFileError, match=r"sheet.npz: unknown file type '.npz'\. Use .csv, .tsv, .txt .* or "
                                            r"\.parquet\.$"):
        read_labelled(matrix, "class", pheno=tmp_path / "sheet.npz", samples_in_columns=True)


def test_data_files_of_an_unknown_type_are_told_every_type_read(tmp_path):
    with pytest.raises(DataFileError, match=r"unknown file type '.xlsx'\. Use .csv, .tsv, .txt, .parquet, .npz, "
                                            r"\.h5ad or a GEO series matrix"):
        read_labelled(_write(tmp_path / "data.xlsx", "g1,class\n1,a\n"), "class")


@pytest.mark.parametrize("compress, suffix", [(gzip.compress, ".gz"), (bz2.compress, ".bz2"), (lzma.compress, ".xz")])
def test_compressed_data_named_as_text_are_told_the_name_to_take(tmp_path, compress, suffix):
    path = _write(tmp_path / "data.csv", compress(b"g1,class\n1,a\n2,b\n"))
    with pytest.raises(DataFileError, match=rf"data.csv is not a text table: .*rename it data.csv\{suffix}$"):
        read_labelled(path, "class")
    path.rename(tmp_path / f"data.csv{suffix}")
    assert read_labelled(tmp_path / f"data.csv{suffix}", "class").y.tolist() == ["a", "b"]


def test_compressed_utf16_is_told_to_become_utf8(tmp_path):
    path = _write(tmp_path / "u.csv.gz", gzip.compress("g1,class\n1,a\n2,b\n".encode("utf-16")))
    with pytest.raises(DataFileError, match=r"u.csv.gz is not UTF-8 text: save the table as UTF-8 before "
                                            "compressing it") as error:
        read_labelled(path, "class")
    assert "or UTF-16" not in str(error.value)


# ----------------------------------------------------------------------------- .npz archives

def test_two_dimensional_feature_names_are_told_to_be_flat(tmp_path):
    path = tmp_path / "fn.npz"
    np.savez(path, X=np.eye(2), y=np.array(["a", "b"]), feature_names=np.array([["g1", "g2"]]))
    with pytest.raises(DataFileError, match=r"fn.npz: feature_names must be 1-D \(one name per column of X\); got "
                                            r"shape \(1, 2\)"):
        read_labelled(path)


@pytest.mark.parametrize("content", [b"hello", b""])
def test_a_file_that_is_no_archive_is_never_told_to_load_unsafely(tmp_path, content):
    path = _write(tmp_path / "data.npz", content)
    with pytest.raises(DataFileError, match=r"data.npz is not a readable .npz archive: numpy.savez writes a ZIP "
                                            r"archive .*numpy.savez\(path, X=X, y=y\)") as error:
        read_labelled(path)
    assert "pickle" not in str(error.value) and "unsafe" not in str(error.value)


def test_an_npz_with_a_sample_sheet_is_told_it_brings_its_labels(tmp_path):
    np.savez(tmp_path / "data.npz", X=np.eye(2), y=np.array(["a", "b"]))
    sheet = _write(tmp_path / "s.csv", "id,class\nS1,a\nS2,b\n")
    with pytest.raises(DataFileError, match=r"--pheno applies to tables; data.npz brings its sample annotations as "
                                            r"arrays \(y, or --target ARRAY\)"):
        read_labelled(tmp_path / "data.npz", "class", pheno=sheet)
