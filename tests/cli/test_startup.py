"""The command line answers at once: --help and --version load the standard library only.

Each run is a fresh interpreter (``python -m sfmlearn ...``) that reports, at exit, which
of the heavy libraries it had imported; the command's own work loads them later.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")
HEAVY = ("numpy", "scipy", "sklearn", "pandas", "matplotlib", "nibabel", "highspy", "rich", "joblib", "PIL")

_REPORT_AT_EXIT = (
    "import atexit, runpy, sys\n"
    "heavy = {heavy!r}\n"
    "atexit.register(lambda: print('LOADED', sorted(m for m in heavy if m in sys.modules), file=sys.stderr))\n"
    "sys.argv = ['sfmlearn', *{argv!r}]\n"
    "runpy.run_module('sfmlearn', run_name='__main__')\n"
)


def _loaded(argv, heavy=HEAVY):
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _REPORT_AT_EXIT.format(heavy=heavy, argv=argv)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    line = [row for row in done.stderr.splitlines() if row.startswith("LOADED")][-1]
    return done.stdout, line.removeprefix("LOADED ")


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["select", "--help"], ["path", "--help"],
                                  ["repeat", "--help"], ["fmri", "--help"], ["datasets", "--help"],
                                  ["separability", "--help"], ["correct-illumination", "--help"],
                                  ["report", "--help"], ["reproduce", "--help"]])
def test_help_and_version_load_no_heavy_library(argv):
    out, loaded = _loaded(argv)
    assert out  # the help or the version was printed
    assert loaded == "[]"


def test_a_command_loads_its_libraries_when_it_runs():
    out, loaded = _loaded(["separability", "--n", "10", "--d", "20", "--k", "1"])
    assert "Random data with n = 10" in out and "numpy" in loaded


def test_import_sfmlearn_is_light_and_every_public_name_loads_on_use():
    code = ("import sys, sfmlearn\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
            "from sfmlearn import SupportFeatureMachine, theory\n"
            "missing = [n for n in sfmlearn.__all__ if not hasattr(sfmlearn, n)]\n"
            "print(missing, set(sfmlearn.__all__) <= set(dir(sfmlearn)), SupportFeatureMachine.__name__)\n")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "[] True SupportFeatureMachine"]


def test_an_unknown_name_is_an_attribute_error():
    import sfmlearn

    with pytest.raises(AttributeError, match="no attribute 'NoSuchEstimator'"):
        sfmlearn.NoSuchEstimator  # noqa: B018


#: What a hard ``select`` on a shipped dataset does not need: plots, reports, the other
#: selector families and the parameter search.
NOT_FOR_A_HARD_SELECT = ("matplotlib", "sfmlearn.selection.competitors", "sfmlearn.selection.repetitive",
                         "sfmlearn.selection.sfm.param_search", "sfmlearn.report", "sfmlearn.plotting",
                         "sfmlearn.mvpa", "sfmlearn.experiments")


def test_a_hard_select_loads_only_what_it_uses():
    out, loaded = _loaded(["select", "--dataset", "leukemia", "--cv", "2", "--quiet"],
                          heavy=NOT_FOR_A_HARD_SELECT + ("sfmlearn.selection.sfm.machine",))
    assert "2 of 7129 features selected" in out
    assert loaded == "['sfmlearn.selection.sfm.machine']"  # the SFM itself, and none of the rest
