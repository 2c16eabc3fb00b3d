"""No silent label leaks from files: duplicate columns are refused, a written row index dropped."""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


def _noise_with_labels(n=20, seed=0):
    """Pure noise features and labels sorted by class (as many exported tables are)."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.standard_normal((n, 3)), columns=["a", "b", "c"])
    frame["label"] = np.repeat([0, 1], n // 2)
    return frame


def _select(path, capsys, *extra):
    code = main(["select", str(path), "--target", "label", "--cv", "0", "--quiet", "--json", "--C", "1",
                 *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _write(frame, path, **options):
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq
        pq.write_table(pa.Table.from_arrays([pa.array(frame.iloc[:, j]) for j in range(frame.shape[1])],
                                            names=list(frame.columns)), path)
    else:
        frame.to_csv(path, sep="\t" if path.suffix == ".tsv" else ",", index=False, **options)


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet"])
def test_a_copy_of_the_label_column_is_refused(tmp_path, capsys, suffix):
    frame = _noise_with_labels()
    frame.insert(0, "label", frame["label"].to_numpy(), allow_duplicates=True)  # a copy, same name
    path = tmp_path / f"data{suffix}"
    _write(frame, path)
    code, out, err = _select(path, capsys)
    assert code == 2 and out == ""
    assert "duplicate column names (label)" in err and err.count("\n") == 1


def test_duplicate_feature_names_in_an_npz_are_refused(tmp_path, capsys):
    path = tmp_path / "data.npz"
    np.savez(path, X=np.eye(4), label=np.array([0, 0, 1, 1]), feature_names=np.array(["a", "b", "a", "c"]))
    code, _, err = _select(path, capsys)
    assert code == 2 and "duplicate feature names (a)" in err


@pytest.mark.parametrize("shuffle", [False, True])
def test_pandas_default_index_column_is_dropped_with_a_warning(tmp_path, capsys, shuffle):
    frame = _noise_with_labels()
    if shuffle:  # the row numbers of a shuffled table still encode the sorted order
        frame = frame.sample(frac=1.0, random_state=0)
    path = tmp_path / "indexed.csv"
    frame.to_csv(path)  # index=True is pandas' default: an unnamed first column 0..n-1
    code, out, err = _select(path, capsys)
    assert code == 0
    result = json.loads(out)
    assert result["n_features"] == 3
    assert all(s["name"] in {"a", "b", "c"} for s in result["selected"])
    assert err.startswith("sfmlearn: warning: indexed.csv: dropped the first column") and "row index" in err


def test_r_row_names_and_resaved_unnamed_index_are_dropped(tmp_path, capsys):
    frame = _noise_with_labels()
    frame.index = [f"sample{i}" for i in range(len(frame))]
    path = tmp_path / "r.csv"
    frame.to_csv(path)
    code, out, err = _select(path, capsys)
    assert code == 0 and json.loads(out)["n_features"] == 3 and "row names" in err
    frame = _noise_with_labels()
    frame.insert(0, "Unnamed: 0", np.arange(1, len(frame) + 1))  # a CSV with an index saved again
    path = tmp_path / "resaved.csv"
    frame.to_csv(path, index=False)
    code, out, err = _select(path, capsys)
    assert code == 0 and json.loads(out)["n_features"] == 3 and "row index" in err


def test_an_unnamed_column_of_measurements_is_kept(tmp_path, capsys):
    frame = _noise_with_labels()
    frame.insert(0, "", np.round(np.random.default_rng(1).standard_normal(len(frame)), 3))
    path = tmp_path / "unnamed.csv"
    frame.to_csv(path, index=False)
    code, out, err = _select(path, capsys)
    assert code == 0 and err == ""
    assert json.loads(out)["n_features"] == 4


def test_an_unnamed_label_column_can_still_be_the_target(tmp_path, capsys):
    frame = _noise_with_labels()
    path = tmp_path / "unnamed_label.csv"
    frame[["label", "a", "b", "c"]].to_csv(path, index=False, header=["", "a", "b", "c"])
    code = main(["select", str(path), "--target", "Unnamed: 0", "--cv", "0", "--quiet", "--json", "--C", "1"])
    captured = capsys.readouterr()
    assert code == 0 and json.loads(captured.out)["n_features"] == 3 and captured.err == ""


def test_rows_longer_than_the_header_are_refused(tmp_path, capsys):
    path = tmp_path / "shifted.csv"
    path.write_text("a,b,label\n1,2,0,\n3,4,1,\n5,6,0,\n7,8,1,\n")  # a separator at the end of every row
    code, _, err = _select(path, capsys)
    assert code == 2 and "more values than the header has names" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_utf16_and_byte_order_marks_are_read(tmp_path, capsys, encoding):
    frame = _noise_with_labels()
    frame.columns = ["ä", "b", "c", "label"]
    path = tmp_path / "encoded.csv"
    frame.to_csv(path, index=False, encoding=encoding)
    code, out, _ = _select(path, capsys)
    assert code == 0 and json.loads(out)["n_features"] == 3
