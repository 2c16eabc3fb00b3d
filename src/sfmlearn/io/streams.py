"""Standard output below Python: flushing C stdio together with ``sys.stdout``.

C extensions (a solver's banner or log) write to file descriptor 1 through C stdio,
whose buffer Python's ``sys.stdout.flush()`` does not empty. Code that moves descriptor
1 (the command line keeps it for results and sends everything else to stderr) must
flush both first, or text written before the move lands after it, or on the wrong
stream. :func:`flush_stdout` does: ``sys.stdout.flush()`` and C's ``fflush(NULL)``
(every open C output stream), through ``ctypes`` -- the process' C library on POSIX,
the universal CRT ``ucrtbase`` on Windows; without a loadable C library only Python's
stream is flushed.
"""

import contextlib
import ctypes
import functools
import sys

__all__ = ["flush_stdout"]


@functools.cache
def _c_fflush():
    """``fflush`` of the C runtime the process' extensions write through, or None."""
    try:
        library = ctypes.CDLL("ucrtbase") if sys.platform == "win32" else ctypes.CDLL(None)
        fflush = library.fflush
    except (OSError, AttributeError):  # pragma: no cover - exotic platforms
        return None
    fflush.argtypes = [ctypes.c_void_p]
    fflush.restype = ctypes.c_int
    return fflush


def flush_stdout():
    """Flush ``sys.stdout`` and every C stdio output stream (see the module docstring)."""
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(Exception):  # a closed or exotic replacement stream
            stream.flush()
    fflush = _c_fflush()
    if fflush is not None:
        fflush(None)  # NULL: every open output stream
