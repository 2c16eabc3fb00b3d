"""joblib's ``Parallel`` whose workers' warnings reach the caller, under its time limit.

A warning raised in a joblib worker process is printed there, by the worker's own
``warnings`` module: the caller's filters (``warnings.simplefilter("ignore")``,
``pytest.warns``, the command line's collector) never see it, and the worker writes it
to the shared stderr with its file and source line. This ``Parallel`` records every
warning a task raises in a process's main thread, sends it back with the task's result
and raises it again in the caller, with its original category, file and line: the same
messages whether the tasks run in one process or in several (``n_jobs``).

Tasks that run in threads (the threading backend, or joblib's nested calls inside a
worker) are left alone: ``warnings.catch_warnings`` changes process-wide state, so
recording in overlapping threads would lose warnings; a thread's warnings already reach
its process's filters (in a worker, the recording of the task around it).

Every task also runs under the caller's time limit (:mod:`.time_limit`), which a
worker process would not see otherwise, and every task after the first checks it
before it starts: a loop of many fits ends at the limit with an error that says how
many of its tasks (``what``: "inner folds of the choice of C") had started.
"""

import functools
import pickle
import sys
import threading
import warnings

import joblib

from .time_limit import check_time_limit, deadline, under_deadline

__all__ = ["Parallel"]

#: Per source file, the registry of warnings shown once (the ``"default"`` action), as
#: the module's own ``__warningregistry__`` does for a warning raised in place.
_REGISTRIES = {}


def _picklable(message):
    """The warning itself when it survives a round trip to another process, else its text
    (its category then needs only the text, or it becomes a UserWarning)."""
    try:
        return pickle.loads(pickle.dumps(message))
    except Exception:  # a warning class whose instances do not pickle
        return str(message)


class _WarningsKept:
    """A task that returns its result with every warning it raised (in a main thread),
    run under the time limit of the caller that created it; ``started``: how many of
    the loop's ``what`` began before it (after the first, the task checks the limit)."""

    def __init__(self, function, started, what):
        self.function, self.started, self.what = function, started, what
        self.limit = deadline()

    def __call__(self, *args, **kwargs):
        with under_deadline(self.limit):
            if self.started:  # the first task always runs
                check_time_limit(f"{self.started} of the {self.what}")
            if threading.current_thread() is not threading.main_thread():
                return self.function(*args, **kwargs), []
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = self.function(*args, **kwargs)
        return result, [(_picklable(w.message), w.category, w.filename, w.lineno) for w in caught]


@functools.lru_cache(maxsize=256)
def _module_name(filename):
    """The name of the imported module loaded from ``filename`` (what filters match), or
    the file name without its suffix, as ``warnings.warn_explicit`` would use."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) == filename:
            return name
    return filename[:-3] if filename.endswith(".py") else filename


def _replayed(outcome):
    result, raised = outcome
    for message, category, filename, lineno in raised:
        if isinstance(message, str):
            try:
                message = category(message)
            except Exception:  # a category that needs more than its text
                message, category = UserWarning(f"{category.__name__}: {message}"), UserWarning
        warnings.warn_explicit(message, category, filename, lineno, module=_module_name(filename),
                               registry=_REGISTRIES.setdefault(filename, {}))
    return result


class Parallel(joblib.Parallel):
    """:class:`joblib.Parallel` (the same parameters, the same results) whose tasks'
    warnings are raised again in the caller and which run under its time limit
    (module docstring).

    Parameters
    ----------
    n_jobs : int or None, default=None
        Parallel tasks, as joblib's: None is one, or the enclosing
        ``joblib.parallel_config``'s.
    what : str, default="tasks"
        What the tasks are, in the plural ("label permutations"): a run that passes
        its time limit says how many of them had started.
    **options
        Any other parameter of :class:`joblib.Parallel` (``return_as``, ``backend``, ...).

    Examples
    --------
    >>> import warnings
    >>> from joblib import delayed
    >>> from sfmlearn.utils.parallel import Parallel
    >>> def half(x):
    ...     warnings.warn(f"halving {x}")
    ...     return x / 2
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     Parallel(n_jobs=1)(delayed(half)(x) for x in (2, 4))
    [1.0, 2.0]
    >>> [str(w.message) for w in caught]
    ['halving 2', 'halving 4']
    """

    def __init__(self, n_jobs=None, *, what="tasks", **options):
        super().__init__(n_jobs=n_jobs, **options)
        self.what = what

    def __call__(self, iterable):
        tasks = ((_WarningsKept(function, started, self.what), args, kwargs)
                 for started, (function, args, kwargs) in enumerate(iterable))
        outcomes = super().__call__(tasks)
        if self.return_as == "list":
            return [_replayed(outcome) for outcome in outcomes]
        return (_replayed(outcome) for outcome in outcomes)
