"""``sfmlearn report`` and ``--report`` on select and repeat, end to end."""

import html
import json
import re

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.experiments.informative_fraction import make_redundant


def _sections(path):
    return re.findall(r'<section id="([^"]+)"', path.read_text(encoding="utf-8"))


def _n_images(path):
    return len(re.findall(r'<img src="data:image/png;base64,', path.read_text(encoding="utf-8")))


def test_select_report_on_leukemia_matches_the_printed_result(tmp_path, capsys):
    out = tmp_path / "leukemia.html"
    assert main(["select", "--dataset", "leukemia", "--cv", "3", "--chance", "3", "--quiet", "--json",
                 "--report", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert _sections(out) == ["data", "method", "features", "accuracy", "chance"]
    text = out.read_text(encoding="utf-8")
    for feature in result["selected"]:
        assert f"<td>{feature['name']}</td>" in text
    assert f"{100 * result['cv']['accuracy_mean']:.1f} %" in text
    assert f"{100 * result['test_accuracy']:.1f} %" in text
    assert html.escape(result["chance"]["verdict"]) in text
    assert result["class_counts"] == {"ALL": 27, "AML": 11}
    assert _n_images(out) == 2  # weights, permutation sizes


def test_select_report_without_chance_gets_the_bound_only(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["select", "--dataset", "leukemia", "--cv", "0", "--quiet", "--report", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"report written to {out}" in printed and "chance check" in printed
    text = out.read_text(encoding="utf-8")
    assert "Only the bound for random data" in text and "Cross-validation was skipped" in text


@pytest.fixture(scope="module")
def grouped_table(tmp_path_factory):
    X, y, groups = make_redundant(16, n_samples=32, n_features=60, n_groups=4, class_distance=1.0,
                                  random_state=2)
    frame = pd.DataFrame(X, columns=[f"v{j}" for j in range(X.shape[1])])
    frame.insert(0, "hand", np.where(y > 0, "left", "right"))
    frame["participant"] = [f"p{g}" for g in groups]
    path = tmp_path_factory.mktemp("report") / "data.csv"
    frame.to_csv(path, index=False)
    return path


def test_repeat_report_has_curves_estimate_cv_and_chance(grouped_table, tmp_path, capsys):
    out = tmp_path / "repeat.html"
    assert main(["repeat", str(grouped_table), "--target", "hand", "--groups", "participant", "--every", "2",
                 "--quiet", "--json", "--report", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert _sections(out) == ["data", "method", "features", "rsfm", "accuracy", "chance", "informative"]
    assert result["cv"]["grouped"] and result["cv"]["folds"] == 4
    assert result["chance"]["subset_size"] == len(result["subsets"][0])
    text = out.read_text(encoding="utf-8")
    assert result["stopped_because"] in text
    assert "Soft SVM on all features" in text
    assert _n_images(out) == 3  # weights, subset sizes, informative-fraction figure


def test_repeat_without_report_computes_no_extra_checks(grouped_table, capsys):
    assert main(["repeat", str(grouped_table), "--target", "hand", "--groups", "participant", "--no-estimate",
                 "--quiet", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "cv" not in result and "chance" not in result


def test_report_command_on_a_result_dir_and_on_saved_json(tmp_path, capsys):
    pd.DataFrame({"fold": [1, 2], "accuracy": [0.5, 1.0]}).to_csv(tmp_path / "folds.csv", index=False)
    (tmp_path / "summary.json").write_text(json.dumps({"title": "Decoding", "n_voxels": 500,
                                                       "tables": ["folds.csv"]}))
    assert main(["report", str(tmp_path)]) == 0
    assert _sections(tmp_path / "report.html") == ["summary", "tables"]
    assert f"report written to {tmp_path / 'report.html'}" in capsys.readouterr().out

    assert main(["select", "--dataset", "leukemia", "--cv", "0", "--quiet", "--json"]) == 0
    saved = tmp_path / "select.json"
    saved.write_text(capsys.readouterr().out)
    assert main(["report", str(saved), "-o", str(tmp_path / "select.html")]) == 0
    assert _sections(tmp_path / "select.html") == ["data", "method", "features", "accuracy", "chance"]


def test_report_command_on_saved_compare_json_draws_the_frontier(tmp_path, capsys):
    """The JSON of 'sfmlearn compare --json' is recognised (it was shown as a generic dump,
    or refused for another file in its folder)."""
    from sfmlearn.analysis import load_dataset, run_compare
    from sfmlearn.diagnostics.budget_paths import LogisticPath

    result = run_compare(load_dataset("leukemia"), budgets=(1, 2), cv=3, methods={"l1": LogisticPath(n_Cs=4)},
                         automatic=False)
    saved = tmp_path / "compare.json"
    saved.write_text(json.dumps(result.to_dict()))
    (tmp_path / "other.csv").write_bytes("caf\xe9\n".encode("latin-1"))  # an unrelated file beside it
    assert main(["report", str(saved), "-o", str(tmp_path / "compare.html")]) == 0
    assert _sections(tmp_path / "compare.html") == ["data", "frontier"]
    assert _n_images(tmp_path / "compare.html") == 1


@pytest.mark.parametrize("argv, message", [
    (["report", "{tmp}/nothing"], "no such result directory"),
    (["report", "{tmp}"], "has no summary.json"),
    (["report", "{tmp}/bad.json"], "not valid JSON"),
    (["report", "{tmp}/bad.json", "-o", "{tmp}/no/x.html"], "not valid JSON"),
    (["select", "--dataset", "leukemia", "--report", "{tmp}/no/x.html"], "folder"),
    (["select", "--dataset", "leukemia", "--report", "{tmp}"], "is a directory"),
    (["repeat", "--dataset", "leukemia", "--report", "{tmp}/no/x.html"], "does not exist"),
])
def test_errors_are_one_line(tmp_path, capsys, argv, message):
    (tmp_path / "bad.json").write_text("{oops")
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("sfmlearn: error:") and message in err and "\n" not in err


@pytest.mark.parametrize("output, message", [("{tmp}/missing/x.html", "does not exist"),
                                             ("{tmp}/x.csv", "must end in .html"),
                                             ("{tmp}/summary.json", "is the input")])
def test_a_wrong_output_is_refused_before_the_report_is_built(tmp_path, capsys, monkeypatch, output, message):
    import sfmlearn.report

    def build(source):
        raise AssertionError("the report was built before its output was checked")

    monkeypatch.setattr(sfmlearn.report, "result_dir_report", build)
    (tmp_path / "summary.json").write_text(json.dumps({"title": "T"}))
    assert main(["report", str(tmp_path / "summary.json"), "-o", output.replace("{tmp}", str(tmp_path)),
                 "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_damaged_saved_results_are_one_line_errors(tmp_path, capsys):
    saved = tmp_path / "select.json"
    saved.write_text(json.dumps({"data": "d", "n_samples": 4, "n_features": 3, "classes": ["a", "b"],
                                 "method": "SupportFeatureMachine", "C": None, "class_weight": None,
                                 "selected": [], "n_selected": 0, "train_accuracy": float("nan"),
                                 "fit_seconds": 0.1}))
    assert main(["report", str(saved)]) == 2
    err = capsys.readouterr().err
    assert "train_accuracy is NaN" in err and "edited or is damaged" in err and err.count("\n") == 1
