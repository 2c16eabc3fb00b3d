"""``sfmlearn reproduce --out DIR`` writes a result folder that ``sfmlearn report DIR`` renders."""

import json
import re
import sys
import types

import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.experiments import Result, registry


def _summary(folder):
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def _listed(summary):
    return [entry["path"] for section in summary["sections"] for kind in ("tables", "figures")
            for entry in section[kind]]


def test_report_renders_each_reproduced_result_and_overwrites_nothing_listed(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "thesis-sep-bounds", "thesis-fig2.6", "--quick", "--out", str(out)]) == 0
    assert f"'sfmlearn report {out}' renders it" in capsys.readouterr().out
    summary = _summary(out)
    assert [section["id"] for section in summary["sections"]] == ["thesis-sep-bounds", "thesis-fig2.6"]
    assert [record["status"] for record in summary["results"]] == ["1/1 agree", "no published numbers"]
    listed = _listed(summary)
    assert listed == ["thesis-sep-bounds.comparison.csv", "thesis-sep-bounds.csv", "thesis-sep-bounds.png",
                      "thesis-fig2.6.png"]
    before = {name: (out / name).read_bytes() for name in listed + ["summary.json"]}

    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    sections = dict(re.findall(r'<section id="([^"]+)">(.*?)</section>', html, flags=re.S))
    bounds = sections["thesis-sep-bounds"]
    comparison = pd.read_csv(out / "thesis-sep-bounds.comparison.csv")
    ours, published = comparison.loc[0, "ours"], comparison.loc[0, "published"]
    assert f'<td class="num">{ours:.4g}</td><td class="num">{published:.4g}</td>' in bounds
    assert ours != published and f"{published:.4g}" == "0.007"
    assert "thesis 2.5.4 / 4.4" in bounds and "sfmlearn reproduce thesis-sep-bounds --quick" in bounds
    for section, figure in ((bounds, "thesis-sep-bounds.png"), (sections["thesis-fig2-6"], "thesis-fig2.6.png")):
        assert len(re.findall(r'<img src="data:image/png;base64,', section)) == 1
        assert f"<figcaption>{figure}: " in section
    assert "1/1 agree" in sections["results"] and "no published numbers" in sections["results"]
    assert {name: (out / name).read_bytes() for name in before} == before

    capsys.readouterr()
    assert main(["report", str(out), "-o", str(out / "thesis-sep-bounds.csv"), "--overwrite"]) == 2
    assert "thesis-sep-bounds.csv" in capsys.readouterr().err
    assert {name: (out / name).read_bytes() for name in before} == before


def test_a_second_run_into_the_folder_joins_the_summary(tmp_path, capsys):
    assert main(["reproduce", "thesis-sep-bounds", "--out", str(tmp_path)]) == 0
    assert main(["reproduce", "thesis-fig2.7", "--quick", "--out", str(tmp_path)]) == 0
    summary = _summary(tmp_path)
    assert [record["id"] for record in summary["results"]] == ["thesis-sep-bounds", "thesis-fig2.7"]
    assert [record["mode"] for record in summary["results"]] == ["full", "quick"]
    assert main(["reproduce", "thesis-sep-bounds", "--quick", "--out", str(tmp_path), "--overwrite"]) == 0
    summary = _summary(tmp_path)
    assert [section["id"] for section in summary["sections"]] == ["thesis-fig2.7", "thesis-sep-bounds"]
    assert [record["mode"] for record in summary["results"]] == ["quick", "quick"]
    assert main(["report", str(tmp_path)]) == 0


def test_a_folder_another_command_described_is_refused_before_any_work(tmp_path, capsys):
    (tmp_path / "summary.json").write_text('{"title": "fMRI decoding", "figures": ["map.png"]}\n')
    assert main(["reproduce", "thesis-sep-bounds", "--out", str(tmp_path), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "describes another result" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


@pytest.fixture
def two_results(monkeypatch):
    """A fake experiment module with one result that has a table and one that fails."""
    module = types.ModuleType("sfmlearn.experiments._fake_folder")

    def run(quick=False):
        return pd.DataFrame({"setting": ["a", "b"], "ours": [1.0, 5.0], "ours_std": [0.1, 0.1], "runs": [4, 4],
                             "published": [1.05, 2.0]})

    def broken(quick=False):
        raise RuntimeError("solver exploded")

    module.run, module.broken = run, broken
    monkeypatch.setitem(sys.modules, "sfmlearn.experiments._fake_folder", module)
    monkeypatch.setattr(registry, "RESULTS", (
        Result("fake-a", "agrees and misses", "Paper Table 9", "_fake_folder", notes="because the draws differ"),
        Result("fake-broken", "fails", "Paper Fig. 10", "_fake_folder", function="broken")))


def test_all_lists_the_files_under_results_and_a_failure_in_the_summary(two_results, tmp_path, capsys):
    assert main(["reproduce", "all", "--quick", "--out", str(tmp_path)]) == 1
    summary = _summary(tmp_path)
    assert _listed(summary) == ["results/fake-a.comparison.csv", "results/fake-a.csv", "results/fake-a.png"]
    failed = summary["sections"][1]
    assert failed["text"] == "Failed: RuntimeError: solver exploded" and failed["facts"]["status"] == "failed"
    assert summary["sections"][0]["text"].startswith("1 of 2 judged rows differ; largest |gap| 3.")
    assert main(["report", str(tmp_path)]) == 0
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "because the draws differ" in html and "solver exploded" in html
