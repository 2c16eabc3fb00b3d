"""``sfmlearn select`` prints and writes the classes exactly as the file writes them."""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main

RNG = np.random.default_rng(3)


def _separable(labels):
    """Eight samples of three features; the first feature separates the two halves."""
    X = RNG.normal(size=(len(labels), 3))
    X[: len(labels) // 2, 0] += 4
    return pd.DataFrame(X, columns=["g1", "g2", "g3"])


def _select(capsys, path, target, *extra):
    code = main(["select", str(path), "--target", target, "--cv", "0", "--quiet", "--C", "1", *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("pair", [("01", "1"), ("007", "7.0"), ("0.5", "2.5")])
def test_classes_in_json_and_print_are_the_labels_as_written(tmp_path, capsys, pair):
    labels = [pair[0]] * 4 + [pair[1]] * 4
    _separable(labels).assign(cls=labels).to_csv(tmp_path / "data.csv", index=False)
    code, out, err = _select(capsys, tmp_path / "data.csv", "cls", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["classes"] == sorted(pair)
    assert result["class_counts"] == {pair[0]: 4, pair[1]: 4}
    code, out, err = _select(capsys, tmp_path / "data.csv", "cls")
    assert code == 0 and f"favours {sorted(pair)[1]})" in out


@pytest.mark.parametrize("obs, classes", [
    (np.array([0] * 4 + [1] * 4), ["0", "1"]),
    (pd.Categorical([3] * 4 + [7] * 4), ["3", "7"]),
    (np.array([0.5] * 4 + [2.5] * 4), ["0.5", "2.5"]),
    (np.array([True] * 4 + [False] * 4), ["False", "True"]),
])
def test_h5ad_obs_labels_that_are_not_strings(tmp_path, capsys, obs, classes):
    anndata = pytest.importorskip("anndata")
    frame = pd.DataFrame({"y": obs}, index=[f"{i:03d}" for i in range(8)])
    anndata.AnnData(X=_separable(obs).to_numpy(), obs=frame).write_h5ad(tmp_path / "data.h5ad")
    code, out, err = _select(capsys, tmp_path / "data.h5ad", "obs:y", "--json")
    assert code == 0, err
    assert json.loads(out)["classes"] == classes


def test_a_multiindex_csv_is_refused_in_one_line(tmp_path, capsys):
    frame = _separable(range(8)).assign(cls=list("ab") * 4)
    frame.index = pd.MultiIndex.from_product([["p1", "p2", "p3", "p4"], ["x", "y"]])
    frame.to_csv(tmp_path / "multi.csv")
    code, _, err = _select(capsys, tmp_path / "multi.csv", "cls")
    assert code == 2 and err.count("\n") == 1
    assert "the first 2 columns have no name: a row index of 2 levels" in err and "index=False" in err


def test_tab_separated_csv_is_refused_with_the_fix(tmp_path, capsys):
    _separable(range(8)).assign(cls=list("ab") * 4).to_csv(tmp_path / "tabbed.csv", sep="\t", index=False)
    code, _, err = _select(capsys, tmp_path / "tabbed.csv", "cls")
    assert code == 2 and err.count("\n") == 1
    assert "looks tab-separated" in err and "Rename it .tsv" in err
    (tmp_path / "tabbed.csv").rename(tmp_path / "tabbed.tsv")
    assert _select(capsys, tmp_path / "tabbed.tsv", "cls")[0] == 0
