"""The version lives in one place (sfmlearn/_version.py) and everything reads it from there."""

import re
import tomllib
from pathlib import Path

import sfmlearn
from sfmlearn import _version
from sfmlearn.cli import main

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_pyproject_reads_the_version_module():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "sfmlearn._version.__version__"


def test_package_and_command_report_the_same_version(capsys):
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", _version.__version__)
    assert sfmlearn.__version__ == _version.__version__
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"sfmlearn {_version.__version__}"
