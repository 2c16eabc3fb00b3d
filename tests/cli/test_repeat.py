"""``sfmlearn repeat``: subsets, ranking, the estimate, and one-line errors."""

import json

import numpy as np
import pandas as pd
import pytest

from sfmlearn import RepetitiveSFM
from sfmlearn.cli import main
from sfmlearn.experiments.informative_fraction import make_redundant


@pytest.fixture(scope="module")
def table_path(tmp_path_factory):
    X, y, groups = make_redundant(16, n_samples=32, n_features=60, n_groups=4, class_distance=1.0,
                                  random_state=2)
    frame = pd.DataFrame(X, columns=[f"v{j}" for j in range(X.shape[1])])
    frame.insert(0, "hand", np.where(y > 0, "left", "right"))
    frame["participant"] = [f"p{g}" for g in groups]
    path = tmp_path_factory.mktemp("repeat") / "data.csv"
    frame.to_csv(path, index=False)
    return path, X, np.where(y > 0, "left", "right"), groups


def _json(capsys, argv):
    assert main(argv + ["--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_subsets_ranking_and_estimate(table_path, capsys):
    path, X, y, groups = table_path
    result = _json(capsys, ["repeat", str(path), "--target", "hand", "--groups", "participant",
                            "--every", "2"])
    expected = RepetitiveSFM(random_state=0).fit(X, y)
    assert result["n_repetitions"] == expected.n_repetitions_
    assert result["stop_reason"] == expected.stop_reason_
    assert result["subsets"] == [[f"v{j}" for j in s] for s in expected.subsets_]
    ranks = [r["rank"] for r in result["ranking"]]
    assert ranks == list(range(1, len(ranks) + 1)) == list(range(1, result["n_ranked"] + 1))
    assert [r["index"] for r in result["ranking"]] == np.concatenate(expected.subsets_by_size_).tolist()
    assert "participant" not in {r["name"] for r in result["ranking"]}
    estimate = result["estimate"]
    assert estimate["grouped"] and estimate["folds"] == 4 and estimate["every"] == 2
    assert len(estimate["fold_repetitions"]) == 4
    if estimate["available"]:
        assert 0 <= estimate["fraction"] <= 1 and estimate["fit"] in ("free", "restricted")
    else:
        assert estimate["fraction"] is None and estimate["reason"]


def test_human_output_and_no_estimate(table_path, capsys):
    path, *_ = table_path
    assert main(["repeat", str(path), "--target", "hand", "--groups", "participant", "--no-estimate",
                 "--top", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "stopped: the classes are no longer linearly separable" in out
    assert "informative fraction" not in out
    assert out.count("\n  ") >= 4  # header + three ranked features


def test_soft_option_and_max_repetitions(table_path, capsys):
    path, *_ = table_path
    result = _json(capsys, ["repeat", str(path), "--target", "hand", "--groups", "participant", "--C", "1",
                            "--max-repetitions", "2",
                            "--no-estimate"])
    assert result["C"] == 1.0 and result["n_repetitions"] <= 2


@pytest.mark.parametrize("argv, message", [
    (["--C", "0"], "--C must be a finite positive number"),
    (["--groups", "nope"], "no column 'nope'"),
    (["--every", "0"], "--every must be at least 1"),
])
def test_errors_are_one_line(table_path, capsys, argv, message):
    path, *_ = table_path
    assert main(["repeat", str(path), "--target", "hand"] + argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_hard_method_on_inseparable_data_exits_1(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.standard_normal((30, 2)), columns=["a", "b"])
    frame["label"] = rng.integers(0, 2, 30)
    path = tmp_path / "noise.csv"
    frame.to_csv(path, index=False)
    assert main(["repeat", str(path), "--target", "label", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "repetitive SFM finds nothing" in err and "--C 1" in err and "RepetitiveSFM(" not in err


@pytest.mark.parametrize("every, words", [("1", "SVM after every repetition,"), ("2", "SVM after every 2nd repetition,"),
                                          ("11", "SVM after every 11th repetition,")])
def test_the_estimate_names_its_svm_schedule(table_path, capsys, every, words):
    path, *_ = table_path
    assert main(["repeat", str(path), "--target", "hand", "--groups", "participant", "--every", every,
                 "--quiet"]) == 0
    assert words in capsys.readouterr().out
