"""``sfmlearn path`` chooses C along the path and prints the choice as ``select --C auto`` does:
one row per distinct feature set the full-data path selects, and its JSON carries those
``selections``."""

import contextlib
import io

import numpy as np
import pandas as pd
import pytest

from sfmlearn.cli import main
from sfmlearn.cli._common import to_jsonable
from sfmlearn.cli._softness import _values_text

ARGV = ["path", "--dataset", "colon", "--Cs", "6", "--cv", "3", "--quiet"]


@pytest.fixture(scope="module")
def colon_path():
    """The command's result (as its --json prints it) and its printed lines, from one run."""
    import sfmlearn.analysis

    results = []
    run_path = sfmlearn.analysis.run_path

    def keep_result(*args, **kwargs):
        results.append(run_path(*args, **kwargs))
        return results[-1]

    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(io.StringIO()) as out:
        patch.setattr(sfmlearn.analysis, "run_path", keep_result)
        assert main(ARGV) == 0
    return to_jsonable(results[0].to_dict()), out.getvalue().splitlines()


def test_the_choice_is_one_of_C_along_the_path_the_figure_draws(colon_path):
    result, _ = colon_path
    summary = result["C_auto"]
    assert summary["align"] == "C" and "budget_table" not in summary
    best = max(summary["table"], key=lambda row: row["mean_score"])
    assert summary["C"] == best["C"] and best["chosen"]  # the best point of the plotted curve
    assert summary["chosen_fit"] == f"C = {summary['C']:.4g}"  # never a union beyond the path


def test_json_groups_every_C_by_its_full_data_selection(colon_path):
    result, _ = colon_path
    summary = result["C_auto"]
    selections = summary["selections"]
    assert sorted(C for s in selections for C in s["C"]) == sorted(row["C"] for row in summary["table"])
    assert len({tuple(s["features"]) for s in selections}) == len(selections)
    assert all(s["n_selected"] == len(s["features"]) for s in selections)
    assert [s["chosen"] for s in selections].count(True) == 1
    assert next(s for s in selections if s["chosen"])["features"] == result["selected"]


def test_the_table_prints_one_row_per_distinct_selection(colon_path):
    result, lines = colon_path
    selections = result["C_auto"]["selections"]
    start = lines.index("  one row per distinct feature set the full-data fit selects:") + 2  # after the header
    rows = lines[start:start + len(selections)]
    assert lines[start + len(selections)].startswith("selection frequency of the chosen fit")
    for row, selection in zip(rows, selections):
        assert row.lstrip().startswith(_values_text(selection["C"], lambda C: f"{C:.4g}"))
        assert f"{selection['n_selected']}: {selection['features'][0]}" in row
        assert row.endswith("<- chosen") == selection["chosen"]


def test_path_does_not_offer_the_cv_0_that_it_refuses(tmp_path, capsys):
    frame = pd.DataFrame({"g0": np.arange(8.0), "g1": np.arange(8.0) % 3, "state": ["a"] * 7 + ["b"]})
    path = tmp_path / "one_b.csv"
    frame.to_csv(path, index=False)
    assert main(["path", str(path), "--target", "state", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the smallest class has 1 sample" in err and "--cv 0" not in err


@pytest.mark.parametrize("flag, balanced", [([], True), (["--class-weight", "none"], False)])
def test_class_weight_none_is_the_way_to_unbalance_the_path(capsys, flag, balanced):
    """The SFM's path balances the classes by default; --class-weight none turns that off
    and the kind line says which one ran."""
    assert main(["path", "--dataset", "leukemia", "--Cs", "3", "--cv", "3", "--quiet", *flag]) == 0
    kind = capsys.readouterr().out.splitlines()[1]
    assert kind.startswith("SupportFeatureMachineCV (soft") and ("balanced)" in kind) == balanced
