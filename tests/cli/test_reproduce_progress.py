"""How long ``sfmlearn reproduce`` takes: the registry's expected times, --list, the time left."""

import math
import sys
import types

import pandas as pd
import pytest

from sfmlearn.analysis.reproduce import TimeLeft, describe_seconds
from sfmlearn.cli import main
from sfmlearn.experiments import RESULTS, Result, registry
from sfmlearn.experiments.registry import EXPECTED_SECONDS, ExpectedSeconds


def test_every_result_has_a_quick_and_a_full_time():
    assert set(EXPECTED_SECONDS) == {result.id for result in RESULTS}
    for result in RESULTS:
        seconds = EXPECTED_SECONDS[result.id]
        assert 0 < seconds.quick <= seconds.full < math.inf, result.id
        if result.quick == "":  # --quick changes nothing for it
            assert seconds.full == seconds.quick and not seconds.full_estimated, result.id


def test_list_shows_both_times_of_every_result(capsys):
    assert main(["reproduce", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for result, line in zip(RESULTS, lines):
        seconds = EXPECTED_SECONDS[result.id]
        full = ("~" if seconds.full_estimated else "") + describe_seconds(seconds.full)
        assert line.split()[0] == result.id
        assert f"  {describe_seconds(seconds.quick)}  " in line and f" {full}  {result.reference}: " in line
    assert "quiet 2-core machine" in lines[len(RESULTS) + 1]


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _result(name, module="m", options=None):
    return Result(name, name, "Paper", module, options=options or {})


def test_time_left_scales_the_expected_times_by_the_pace_of_the_run():
    clock = FakeClock()
    left = TimeLeft([_result("a", "m1"), _result("b", "m2"), _result("c", "m3")], quick=True, clock=clock,
                    expected=[10.0, 30.0, 60.0])
    assert left.seconds_left() == 100.0
    left.start(0)
    clock.now = 4.0
    assert left.seconds_left() == 96.0  # 6 s of the first, then 30 + 60
    clock.now = 20.0
    assert left.seconds_left() == 90.0  # the first overran its 10 s: counted as about done
    left.finish()
    assert left.seconds_left() == pytest.approx(2 * 90.0)  # it took twice its time: so will the rest
    left.start(1)
    clock.now = 50.0
    assert left.seconds_left() == pytest.approx(2 * 30.0 - 30.0 + 2 * 60.0)
    left.finish()
    left.start(2)
    clock.now = 80.0
    assert left.seconds_left() == pytest.approx(60.0 * 50.0 / 40.0 - 30.0)


def test_a_shared_experiment_call_and_an_unknown_time():
    shared = [_result("a", "same", {"part": 1}), _result("b", "same", {"part": 1}), _result("c", "same", {"part": 2})]
    assert TimeLeft(shared, quick=False, expected=[10.0, 10.0, 10.0]).expected == [10.0, 0.0, 10.0]
    clock = FakeClock()
    left = TimeLeft([_result("a", "m1"), _result("b", "m2")], quick=True, clock=clock, expected=[None, 5.0])
    left.start(0)
    assert left.seconds_left() is None  # nothing tells yet
    clock.now = 8.0
    left.finish()
    assert left.seconds_left() == 5.0


@pytest.fixture
def timed_results(monkeypatch):
    """Two fake results that take no time, registered as taking 30 s and 15 s."""
    module = types.ModuleType("sfmlearn.experiments._fake_timed")
    module.run = lambda quick=False, v=0: pd.DataFrame({"setting": ["a"], "ours": [1.0], "published": [1.0]})
    monkeypatch.setitem(sys.modules, "sfmlearn.experiments._fake_timed", module)
    monkeypatch.setattr(registry, "RESULTS", (Result("fake-x", "x", "Paper", "_fake_timed"),
                                              Result("fake-y", "y", "Paper", "_fake_timed", options={"v": 1})))
    monkeypatch.setitem(EXPECTED_SECONDS, "fake-x", ExpectedSeconds(30, 300))
    monkeypatch.setitem(EXPECTED_SECONDS, "fake-y", ExpectedSeconds(15, 150))


def test_progress_goes_to_stderr_only_and_only_when_asked_off_a_terminal(timed_results, tmp_path, capsys):
    assert main(["reproduce", "fake-x", "fake-y", "--quick", "--progress", "--out", str(tmp_path / "a")]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0] == "[1/2] fake-x: about 45 s left"
    assert lines[1].startswith("[2/2] fake-y: ") and lines[1].endswith(" left")  # by the pace of fake-x
    assert "[1/2]" not in out and " left" not in out and "== fake-x: x (Paper)" in out
    assert main(["reproduce", "fake-x", "fake-y", "--out", str(tmp_path / "b")]) == 0
    out, err = capsys.readouterr()
    assert "[1/2]" not in err and "left" not in err and "== fake-y: y (Paper)" in out


def test_on_a_terminal_a_live_line_shows_the_time_left_on_stderr(timed_results, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich treats the captured stderr as a terminal
    assert main(["reproduce", "fake-x", "fake-y", "--quick", "--out", str(tmp_path / "a")]) == 0
    out, err = capsys.readouterr()
    assert "[1/2] fake-x" in err and "about 45 s left" in err and "[2/2] fake-y" in err
    assert "[1/2]" not in out and " left" not in out and "== fake-x: x (Paper)" in out
    assert main(["reproduce", "fake-x", "--quick", "--quiet", "--out", str(tmp_path / "b")]) == 0
    assert "fake-x" not in capsys.readouterr().err
