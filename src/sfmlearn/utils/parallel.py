"""joblib's ``Parallel`` whose workers' warnings reach the caller.

A warning raised in a joblib worker process is printed there, by the worker's own
``warnings`` module: the caller's filters (``warnings.simplefilter("ignore")``,
``pytest.warns``, the command line's collector that prints each kind once) never see it,
and the worker writes it to the shared stderr with its file and source line. This
``Parallel`` records every warning a task raises, sends it back with the task's result,
and raises it again in the caller, as the task had run there: the same messages whether
the tasks run in one process or in several (``n_jobs``).
"""

import warnings

import joblib

__all__ = ["Parallel"]


class _WarningsKept:
    """A task that returns its result with the (text, category) of every warning it raised."""

    def __init__(self, function):
        self.function = function

    def __call__(self, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = self.function(*args, **kwargs)
        return result, [(str(record.message), record.category) for record in caught]


def _replayed(outcome):
    result, raised = outcome
    for text, category in raised:
        warnings.warn(text, category, stacklevel=3)
    return result


class Parallel(joblib.Parallel):
    """:class:`joblib.Parallel` (the same parameters, the same results) whose tasks'
    warnings are raised again in the caller (module docstring).

    Parameters
    ----------
    n_jobs : int or None, default=None
        Parallel tasks, as joblib's: None is one, or the enclosing
        ``joblib.parallel_config``'s.
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

    def __init__(self, n_jobs=None, **options):
        super().__init__(n_jobs=n_jobs, **options)

    def __call__(self, iterable):
        tasks = ((_WarningsKept(function), args, kwargs) for function, args, kwargs in iterable)
        outcomes = super().__call__(tasks)
        if self.return_as == "list":
            return [_replayed(outcome) for outcome in outcomes]
        return (_replayed(outcome) for outcome in outcomes)
