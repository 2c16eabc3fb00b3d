"""Errors that help: a near-miss name gets a 'did you mean', a transposed matrix gets the option
that reads it, and --classes says what it dropped. Every error is one line on stderr, exit code 2."""

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main


def _frame(n=12):
    rng = np.random.default_rng(0)
    y = np.array(["A", "B", "C"] * (n // 3))
    X = rng.standard_normal((n, 3))
    X[:, 0] += np.where(y == "A", 3.0, -3.0)
    frame = pd.DataFrame(X, columns=["g1", "g2", "g3"], index=[f"S{i + 1:02d}" for i in range(n)])
    frame["class"] = y
    return frame


def _error(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    return err.strip()


def test_target_in_other_case_is_suggested(tmp_path, capsys):
    _frame().to_csv(tmp_path / "data.csv", index=False)
    err = _error(capsys, ["select", str(tmp_path / "data.csv"), "--target", "Class"])
    assert err == ("sfmlearn: error: data.csv has no column 'Class'; did you mean 'class'? "
                   "Columns: g1, g2, g3, class")


def test_close_target_name_is_suggested_and_a_far_one_is_not(tmp_path, capsys):
    _frame().to_csv(tmp_path / "data.csv", index=False)
    assert "; did you mean 'class'? Columns:" in _error(capsys, ["select", str(tmp_path / "data.csv"),
                                                                "--target", "clas"])
    assert _error(capsys, ["select", str(tmp_path / "data.csv"), "--target", "diagnosis"]) == (
        "sfmlearn: error: data.csv has no column 'diagnosis'. Columns: g1, g2, g3, class")


def test_groups_column_is_suggested(tmp_path, capsys):
    frame = _frame()
    frame["batch"] = np.repeat([1, 2, 3, 4], 3)
    frame.to_csv(tmp_path / "data.csv", index=False)
    err = _error(capsys, ["select", str(tmp_path / "data.csv"), "--target", "class", "--groups", "Batch"])
    assert err == "sfmlearn: error: data.csv has no column 'Batch' (given as --groups); did you mean 'batch'?"


def test_class_names_in_other_case_are_suggested(tmp_path, capsys):
    _frame().to_csv(tmp_path / "data.csv", index=False)
    err = _error(capsys, ["select", str(tmp_path / "data.csv"), "--target", "class", "--classes", "a", "b"])
    assert err == ("sfmlearn: error: --classes: data.csv has no class a, b; did you mean 'A'? "
                   "Its classes are A, B, C")


def _with_sheet(folder, samples_in_columns):
    """The arguments of select on a data file (samples in rows or columns) and a sample sheet."""
    frame = _frame()
    values = frame[["g1", "g2", "g3"]]
    data = values.T.rename_axis("probe") if samples_in_columns else values.rename_axis("sample")
    data.reset_index().to_csv(folder / "data.csv", index=False)
    frame[["class"]].rename_axis("sample").reset_index().to_csv(folder / "pheno.csv", index=False)
    return ["select", str(folder / "data.csv"), "--pheno", str(folder / "pheno.csv")]


def test_sheet_column_is_suggested(tmp_path, capsys):
    err = _error(capsys, _with_sheet(tmp_path, samples_in_columns=False) + ["--target", "CLASS"])
    assert err == ("sfmlearn: error: --target CLASS: sample sheet pheno.csv has no column 'CLASS'; "
                   "did you mean 'class'? Columns: class")


def test_matrix_without_samples_in_columns_names_the_option(tmp_path, capsys):
    err = _error(capsys, _with_sheet(tmp_path, samples_in_columns=True) + ["--target", "class"])
    assert err == ("sfmlearn: error: data.csv: the sample ids are in the columns; add --samples-in-columns "
                   "(its first column holds the feature ids, every other column is a sample)")


def test_classes_says_what_it_dropped(tmp_path, capsys):
    _frame().to_csv(tmp_path / "data.csv", index=False)
    code = main(["select", str(tmp_path / "data.csv"), "--target", "class", "--classes", "A", "B", "--cv", "0",
                 "--quiet"])
    err = capsys.readouterr().err
    assert code == 0
    assert err == "sfmlearn: warning: --classes: kept 8 samples of A, B; dropped 4 of C (UserWarning)\n"


def test_h5ad_obs_key_and_layer_are_suggested(tmp_path, capsys):
    anndata = pytest.importorskip("anndata")
    frame = _frame()
    adata = anndata.AnnData(X=frame[["g1", "g2", "g3"]].to_numpy(),
                            obs=pd.DataFrame({"Condition": frame["class"].to_numpy()}, index=frame.index))
    adata.layers["counts"] = adata.X.copy()
    adata.write_h5ad(tmp_path / "data.h5ad")
    err = _error(capsys, ["select", str(tmp_path / "data.h5ad"), "--target", "obs:condition"])
    assert err == ("sfmlearn: error: --target obs:condition: data.h5ad has no obs column 'condition'; "
                   "did you mean 'Condition'? obs columns: Condition")
    err = _error(capsys, ["select", str(tmp_path / "data.h5ad"), "--target", "Condition", "--layer", "count"])
    assert err == ("sfmlearn: error: --layer count: data.h5ad has no such layer; did you mean 'counts'? "
                   "layers: counts")
