"""An unnamed first column of ids (R's row names, ``001`` ...) is not a feature: its text becomes the sample ids."""

import numpy as np
import pandas as pd
import pytest

from sfmlearn.io import read_labelled, read_table


def _write(path, first, *, header=""):
    rows = [f"{header},g1,g2,class"] + [f"{cell},{0.5 * i},{1.0 - 0.1 * i},{'ab'[i % 2]}"
                                         for i, cell in enumerate(first)]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("ids", [["001", "002", "003", "004"],  # whole numbers with leading zeros
                                 ["007", "010", "100", "123"],  # one of them is enough
                                 ["P-1", "P-2", "P-3", "P-4"],
                                 ["1e3", "x", "2", "3"]])  # numbers and text: text
def test_text_ids_are_the_sample_ids_as_written(tmp_path, ids):
    path = _write(tmp_path / "ids.csv", ids)
    with pytest.warns(UserWarning, match="row names .text, kept as the sample ids"):
        data = read_labelled(path, target="class")
    assert data.sample_ids.tolist() == ids
    assert data.feature_names.tolist() == ["g1", "g2"] and data.X.shape == (4, 2)


def test_the_ids_follow_the_samples_a_class_filter_keeps(tmp_path):
    path = _write(tmp_path / "ids.csv", ["001", "002", "003", "004"])
    with pytest.warns(UserWarning):
        data = read_labelled(path, target="class", classes=["b"])
    assert data.sample_ids.tolist() == ["002", "004"] and data.y.tolist() == ["b", "b"]


def test_a_sample_without_label_is_named_by_its_id(tmp_path):
    path = tmp_path / "ids.csv"
    path.write_text(",g1,class\n001,0.5,a\n002,1.5,\n003,2.5,b\n")
    with pytest.warns(UserWarning), pytest.raises(ValueError, match=r"1 sample\(s\) have no label .* \(002\)"):
        read_labelled(path, target="class")


@pytest.mark.parametrize("header", ["", "Unnamed: 0"])
def test_a_pandas_row_index_is_dropped_and_not_used_as_ids(tmp_path, header):
    path = _write(tmp_path / "indexed.csv", ["0", "1", "2", "3"], header=header)
    with pytest.warns(UserWarning, match="row index"):
        data = read_labelled(path, target="class")
    assert data.sample_ids.tolist() == ["row 1", "row 2", "row 3", "row 4"]
    assert data.feature_names.tolist() == ["g1", "g2"]


@pytest.mark.parametrize("ids", [["s1", "s1", "s2", "s3"], ["s1", "", "s2", "s3"]])
def test_repeated_or_missing_row_names_are_dropped_but_are_no_ids(tmp_path, ids):
    path = _write(tmp_path / "names.csv", ids)
    with pytest.warns(UserWarning, match="not all present and distinct"):
        data = read_labelled(path, target="class")
    assert data.sample_ids.tolist() == ["row 1", "row 2", "row 3", "row 4"]
    assert data.feature_names.tolist() == ["g1", "g2"]


def test_an_unnamed_column_of_measurements_stays_numeric(tmp_path):
    path = _write(tmp_path / "measured.csv", ["0.25", "1.5", "1.5", "-2"])
    data = read_labelled(path, target="class")
    assert data.feature_names.tolist() == ["Unnamed: 0", "g1", "g2"]
    np.testing.assert_array_equal(data.X[:, 0], [0.25, 1.5, 1.5, -2.0])
    frame = read_table(path)
    assert pd.api.types.is_float_dtype(frame["Unnamed: 0"])


def test_ids_written_by_pandas_come_back_as_the_index(tmp_path):
    frame = pd.DataFrame({"g1": [0.5, 1.5, 2.5], "class": ["a", "b", "a"]}, index=["0042", "0043", "0044"])
    frame.to_csv(tmp_path / "t.csv")
    with pytest.warns(UserWarning):
        again = read_table(tmp_path / "t.csv")
    assert again.index.tolist() == ["0042", "0043", "0044"] and again.columns.tolist() == ["g1", "class"]


@pytest.mark.parametrize("header", ["g1,,class", "g1,g2,class,"])
def test_a_column_without_a_name_after_the_first_is_named_by_its_position(tmp_path, header):
    from sfmlearn.io import DataFileError, read_labelled

    path = tmp_path / "t.csv"
    rows = ["1,2,a", "3,4,b", "5,6,a", "7,8,b"]
    path.write_text("\n".join([header] + [r + ("," if header.endswith(",") else "") for r in rows]) + "\n")
    column = 2 if header == "g1,,class" else 4
    with pytest.raises(DataFileError, match=f"t.csv: column {column} has no name in the header; name it"):
        read_labelled(path, target="class")


@pytest.mark.parametrize("header", ["sample_id", "Sample ID", "Sample.ID", "barcode", "participant_id"])
@pytest.mark.parametrize("ids", [["1", "2", "3", "4"], ["001", "002", "003", "004"], ["101", "205", "7", "9"]])
def test_a_first_column_named_like_sample_ids_gives_the_ids_as_written(tmp_path, header, ids):
    # numbered samples sorted by class: as a feature, the number would predict the label
    path = _write(tmp_path / "named.csv", ids, header=header)
    with pytest.warns(UserWarning, match="named like sample ids: used as the sample ids"):
        data = read_labelled(path, target="class")
    assert data.feature_names.tolist() == ["g1", "g2"] and data.sample_ids.tolist() == ids


@pytest.mark.parametrize("ids, problem", [(["1", "1", "2", "2"], r"repeats values \(1, 2\)"),
                                          (["s1", "", "s2", "s3"], "misses values")])
def test_a_first_column_named_like_ids_that_groups_samples_is_refused(tmp_path, ids, problem):
    path = _write(tmp_path / "named.csv", ids, header="subject_id")
    with pytest.raises(ValueError, match=f"'subject_id' is named like sample ids but {problem}.*--groups"):
        read_labelled(path, target="class")


def test_a_parquet_first_column_named_like_ids_gives_the_ids(tmp_path):
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"sample": ["s1", "s2", "s3", "s4"], "g1": [0.1, 0.2, 0.3, 0.4], "class": list("abab")})
    frame.to_parquet(tmp_path / "t.parquet")
    with pytest.warns(UserWarning, match="named like sample ids"):
        data = read_labelled(tmp_path / "t.parquet", target="class")
    assert data.sample_ids.tolist() == ["s1", "s2", "s3", "s4"] and data.feature_names.tolist() == ["g1"]


def test_an_index_the_caller_chose_is_not_dropped_again(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("id,s1,s2\np1,1.0,2.0\np2,3.0,4.0\n")
    frame = read_table(path, index=lambda names: ["id"])
    assert frame.columns.tolist() == ["s1", "s2"] and frame.index.tolist() == ["p1", "p2"]


def test_a_first_column_named_like_ids_but_kept_as_labels_or_groups_stays(tmp_path):
    path = tmp_path / "groups.csv"
    path.write_text("sample,g1,class\n1,0.5,a\n1,1.5,b\n2,2.5,a\n2,3.5,b\n")
    data = read_labelled(path, target="class", groups="sample")
    assert data.groups.tolist() == ["1", "1", "2", "2"] and data.feature_names.tolist() == ["g1"]
