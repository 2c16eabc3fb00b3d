"""Standard output below Python: flushing C stdio, and silencing noisy C calls.

C extensions (a solver's banner or log) write to file descriptor 1 through C stdio,
whose buffer Python's ``sys.stdout.flush()`` does not empty. Code that moves descriptor
1 (the command line keeps it for results and sends everything else to stderr) must
flush both first, or text written before the move lands after it, or on the wrong
stream. :func:`flush_stdout` does: ``sys.stdout.flush()`` and C's ``fflush(NULL)``
(every open C output stream), through ``ctypes`` -- the process' C library on POSIX,
the universal CRT ``ucrtbase`` on Windows; without a loadable C library only Python's
stream is flushed.

Silencing a noisy call
----------------------

highspy 1.16 prints a two-line banner ("Running HiGHS 1.16.0 ... THIRD_PARTY_NOTICES.md")
from C++ when ``highspy.Highs()`` is constructed: the Python wrapper installs its logging
callback while HiGHS' ``output_flag`` is still true, so switching the flag off afterwards
is too late. The banner is written with C stdio, below Python's ``sys.stdout``, so
``contextlib.redirect_stdout`` cannot catch it; only redirecting the descriptor itself
does. The library never prints to stdout (a user piping ``sfmlearn`` output into another
program must get only what they asked for), whatever the highspy version.

:func:`stdout_to_devnull` points descriptor 1 at ``os.devnull`` for the duration of a
``with`` block:

1. Python's ``sys.stdout`` and every C stdio stream are flushed first, so text written
   before the block reaches the real stdout, in order;
2. C stdio is flushed again before descriptor 1 is restored, so text the library left in
   C's buffer (stdout is fully buffered when it is a pipe) is discarded rather than
   written to the real stdout at exit;
3. a process-wide lock serialises the redirection (descriptor 1 is shared by all
   threads). Another thread writing to stdout *during* the block loses that text: keep
   the block to the noisy call alone;
4. if descriptor 1 is closed or cannot be duplicated (``OSError``), the block runs
   without redirection: there is no stdout to pollute then.
"""

import contextlib
import ctypes
import functools
import os
import sys
import threading

__all__ = ["flush_stdout", "stdout_to_devnull"]

_LOCK = threading.Lock()


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
    """Flush ``sys.stdout`` and every C stdio output stream (see the module docstring).

    Call it before moving file descriptor 1, so that text already written -- by Python
    or by a C extension through C stdio -- reaches the current stdout, in order.

    Returns
    -------
    None

    Examples
    --------
    >>> from sfmlearn.outputs import flush_stdout
    >>> print("written before the flush", end="")
    written before the flush
    >>> flush_stdout()
    """
    stream = sys.stdout
    if stream is not None:
        with contextlib.suppress(Exception):  # a closed or exotic replacement stream
            stream.flush()
    fflush = _c_fflush()
    if fflush is not None:
        fflush(None)  # NULL: every open output stream


def _redirect_fd1():
    """Point descriptor 1 at os.devnull; returns a duplicate of the old one, or None."""
    try:
        saved = os.dup(1)
    except OSError:  # descriptor 1 is closed: nothing can reach a stdout
        return None
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
        finally:
            os.close(devnull)
    except OSError:  # pragma: no cover - cannot redirect; run unredirected
        os.close(saved)
        return None
    return saved


@contextlib.contextmanager
def stdout_to_devnull():
    """Run the block with file descriptor 1 pointed at ``os.devnull`` (see the module)."""
    with _LOCK:
        flush_stdout()
        saved = _redirect_fd1()
        try:
            yield
        finally:
            if saved is not None:
                flush_stdout()
                os.dup2(saved, 1)
                os.close(saved)
