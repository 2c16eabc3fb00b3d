"""new_highs: the one way HiGHS models are made, silent on stdout whatever happens."""

import os
import ast
import pathlib
import subprocess
import sys
import textwrap

import highspy
import pytest

import sfmlearn
from sfmlearn.lp.highs import new_highs

SRC = pathlib.Path(sfmlearn.__file__).parent


def _run(code):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          env=env, timeout=120)


def _highs_constructions(path):
    """Line numbers of calls to ``Highs(...)`` / ``_Highs(...)`` in a source file."""
    tree = ast.parse(path.read_text())
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("Highs", "_Highs")]


def test_every_highs_model_in_the_library_comes_from_the_factory():
    found = {path.relative_to(SRC).as_posix(): lines for path in sorted(SRC.rglob("*.py"))
             if (lines := _highs_constructions(path))}
    assert list(found) == ["lp/highs_model.py"] and len(found["lp/highs_model.py"]) == 1
    # ... and that one call is inside new_highs.
    source = (SRC / "lp" / "highs_model.py").read_text().splitlines()
    line = found["lp/highs_model.py"][0]
    enclosing = next(text for text in reversed(source[:line]) if text.startswith("def "))
    assert enclosing.startswith("def new_highs(")


def test_stdout_text_around_the_construction_survives_in_order():
    # Python text before, C-level text before (unflushed in a pipe), and text after.
    result = _run("""
        import ctypes, sys
        print("before", flush=False)
        libc = ctypes.CDLL(None)
        libc.printf(b"c-before\\n")
        from sfmlearn.lp.highs import new_highs
        h = new_highs(presolve="off")
        print("after")
        libc.printf(b"c-after\\n")
        libc.fflush(None)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().split() == ["before", "c-before", "after", "c-after"]


def test_a_closed_stdout_is_not_an_error():
    result = _run("""
        import os
        from sfmlearn.lp.highs import new_highs
        os.close(1)
        h = new_highs()
        h.run()
        fd = os.open(os.devnull, os.O_WRONLY)  # would be 1 if new_highs leaked a descriptor
        assert fd == 1, fd
    """)
    assert result.returncode == 0, result.stderr.decode()


def _option(h, name):
    value = h.getOptionValue(name)  # highspy 1.16 returns (status, value), older the value
    return value[1] if isinstance(value, tuple) else value


def test_options_are_set_and_output_is_off():
    h = new_highs(presolve="off", time_limit=3.0)
    assert _option(h, "output_flag") is False
    assert _option(h, "presolve") == "off"
    assert _option(h, "time_limit") == 3.0
    assert isinstance(h, highspy.Highs)


@pytest.mark.parametrize("name, value", [("no_such_option", 1), ("presolve", "banana")])
def test_rejected_options_raise(name, value):
    with pytest.raises(ValueError, match=name):
        new_highs(**{name: value})


def test_descriptor_one_is_restored_after_an_error_inside_the_block():
    from sfmlearn.outputs.streams import stdout_to_devnull

    before = os.fstat(1)
    with pytest.raises(RuntimeError):
        with stdout_to_devnull():
            raise RuntimeError("inside")
    after = os.fstat(1)
    assert (before.st_dev, before.st_ino) == (after.st_dev, after.st_ino)
