"""sfmlearn.outputs.streams.flush_stdout: C stdio and sys.stdout reach descriptor 1 in order."""

import os
import subprocess
import sys
import textwrap


def _run(flush):
    """A child writes with C printf, then straight to descriptor 1; stdout is a pipe."""
    code = textwrap.dedent(f"""
        import ctypes, os, sys
        from sfmlearn.outputs import flush_stdout
        ctypes.CDLL(None).printf(b"C-text ")  # fully buffered: stdout is a pipe
        print("python-text", end=" ")
        {"flush_stdout()" if flush else ""}
        os.write(1, b"raw-text")
    """)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # keep the buffers buffered
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=env).stdout


def test_flush_stdout_empties_c_and_python_buffers_before_a_raw_write():
    before, raw = _run(flush=True).rsplit(" ", 1)
    assert raw == "raw-text" and sorted(before.split()) == ["C-text", "python-text"]


def test_without_it_buffered_text_lands_after_the_raw_write():
    """The situation the helper exists for (so the test above can fail)."""
    assert _run(flush=False).startswith("raw-text")
