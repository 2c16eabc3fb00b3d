"""A time limit that long loops check between their steps.

Most analyses are timed before their work (``sfmlearn.analysis.duration``): their fits
can be counted. Some cannot: the soft repetitive SFM stops when its subsets no longer
beat chance, after 3 repetitions or after thousands. Such a run goes ahead under
:func:`time_limit`, and its loops call :func:`check_time_limit` between steps, which
raises :class:`TimeLimitError` once the limit has passed: the run ends with an error
that says how far it got, never with a result cut short.

The limit is a context variable (one per thread and task). :class:`sfmlearn.utils.parallel.Parallel`
hands the caller's limit to the tasks it runs, in worker processes too (the limit is a
wall-clock time, the same in every process of the machine).
"""

import contextlib
import contextvars
import time

__all__ = ["TimeLimitError", "check_time_limit", "deadline", "time_limit", "under_deadline"]

#: (wall-clock time at which the limit passes, the limit in seconds), or None.
_DEADLINE = contextvars.ContextVar("sfmlearn_deadline", default=None)


class TimeLimitError(RuntimeError):
    """A run passed the time limit it ran under (:func:`time_limit`).

    Parameters
    ----------
    seconds : float
        The limit (kept as ``seconds``).
    done : str
        How far the run got, e.g. "12 repetitions of the repetitive SFM" (kept as ``done``).

    Examples
    --------
    >>> from sfmlearn.utils.time_limit import TimeLimitError
    >>> error = TimeLimitError(3600.0, "12 repetitions of the repetitive SFM")
    >>> str(error)
    'the run passed its time limit of 3600 s after 12 repetitions of the repetitive SFM'
    """

    def __init__(self, seconds, done):
        self.seconds, self.done = float(seconds), done
        super().__init__(f"the run passed its time limit of {self.seconds:g} s after {done}")

    def __reduce__(self):  # raised in a worker process, it travels back pickled
        return type(self), (self.seconds, self.done)


@contextlib.contextmanager
def time_limit(seconds):
    """Run the block under a limit of ``seconds``.

    Parameters
    ----------
    seconds : float or None
        The limit, from now (None: no limit). An enclosing limit that passes earlier stays
        in force.

    Yields
    ------
    None

    Examples
    --------
    >>> from sfmlearn.utils.time_limit import deadline, time_limit
    >>> with time_limit(3600):
    ...     deadline()[1]
    3600.0
    >>> deadline() is None   # the limit ends with its block
    True
    """
    if seconds is None:
        yield
        return
    limit = (time.time() + float(seconds), float(seconds))
    enclosing = _DEADLINE.get()
    token = _DEADLINE.set(limit if enclosing is None or limit[0] < enclosing[0] else enclosing)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_time_limit(done):
    """Raise :class:`TimeLimitError` when the limit the caller runs under has passed;
    nothing without a limit.

    Parameters
    ----------
    done : str
        How far the run got, for the error ("12 repetitions of the repetitive SFM").

    Raises
    ------
    TimeLimitError
        The limit has passed.

    Examples
    --------
    >>> from sfmlearn.utils.time_limit import check_time_limit, time_limit
    >>> with time_limit(60):
    ...     check_time_limit("one step")  # within the minute: nothing happens
    >>> with time_limit(0):
    ...     check_time_limit("one step")
    Traceback (most recent call last):
    ...
    sfmlearn.utils.time_limit.TimeLimitError: the run passed its time limit of 0 s after one step
    """
    limit = _DEADLINE.get()
    if limit is not None and time.time() >= limit[0]:
        raise TimeLimitError(limit[1], done)


def deadline():
    """The caller's limit, as :func:`under_deadline` takes it.

    Returns
    -------
    tuple of (float, float) or None
        The wall-clock time at which the limit passes and the limit in seconds; None
        without a limit.

    Examples
    --------
    >>> from sfmlearn.utils.time_limit import deadline, time_limit
    >>> deadline() is None
    True
    >>> with time_limit(60):
    ...     deadline()[1]
    60.0
    """
    return _DEADLINE.get()


@contextlib.contextmanager
def under_deadline(limit):
    """Run the block under a limit taken elsewhere, e.g. in the process that sent a task to this one.

    Parameters
    ----------
    limit : tuple of (float, float) or None
        What :func:`deadline` returned there.

    Yields
    ------
    None

    Examples
    --------
    >>> from sfmlearn.utils.time_limit import deadline, time_limit, under_deadline
    >>> with time_limit(60):
    ...     sent = deadline()
    >>> with under_deadline(sent):   # in a worker: the same limit, the same wall-clock end
    ...     deadline() == sent
    True
    """
    token = _DEADLINE.set(limit)
    try:
        yield
    finally:
        _DEADLINE.reset(token)
