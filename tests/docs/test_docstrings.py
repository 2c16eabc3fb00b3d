"""Every documented public class and function has a numpydoc docstring whose examples run.

Enforced for each class and function the API reference lists (docs/api/*.rst): a docstring
(GL08), every parameter documented and none unknown (PR01, PR02), a Returns section for
functions that return (RT01) and an Examples section (EX01), checked with numpydoc's own
validator; and the Examples pass as doctests. The objects in docstring_todo.txt beside this file are
the ones not done yet, each with the reason; an entry that passes must leave the list, so
it only shrinks. No Sphinx build needed; skipped without numpydoc (the [docs] extra).
"""

import doctest
from pathlib import Path

import pytest

from _public_api import documented_objects

validate = pytest.importorskip("numpydoc.validate").validate

CHECKS = {"GL08", "PR01", "PR02", "RT01", "EX01"}
TODO_FILE = Path(__file__).with_name("docstring_todo.txt")


def _todo():
    entries = {}
    for line in TODO_FILE.read_text(encoding="utf-8").splitlines():
        name, _, reason = line.partition("#")
        if name.strip():
            entries[name.strip()] = reason.strip()
    return entries


OBJECTS = documented_objects()
TODO = _todo()


_FINDER = doctest.DocTestFinder(recurse=False)
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples_fail(full_name):
    """Run the object's Examples; True when one fails (the report goes to stdout)."""
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    for test in _FINDER.find(OBJECTS[full_name], full_name, globs={}):
        runner.run(test)
    return runner.failures > 0


def _problems(full_name):
    codes = {code for code, _message in validate(full_name)["errors"]} & CHECKS
    return sorted(codes) + (["examples fail"] if _examples_fail(full_name) else [])


def test_todo_entries_are_documented_objects():
    assert sorted(set(TODO) - set(OBJECTS)) == []


@pytest.mark.parametrize("full_name", sorted(set(OBJECTS) - set(TODO)))
def test_docstring(full_name):
    problems = _problems(full_name)
    assert problems == [], (
        f"{full_name}: {problems} (numpydoc codes: "
        "https://numpydoc.readthedocs.io/en/latest/validation.html; doctest output above)")


@pytest.mark.parametrize("full_name", sorted(TODO))
def test_todo_entry_still_needs_work(full_name):
    assert _problems(full_name), f"{full_name} passes now: remove it from {TODO_FILE.name}"
