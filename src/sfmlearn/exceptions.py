"""Exceptions raised by sfmlearn.

Every exception subclasses a built-in (``ValueError`` or ``RuntimeError``) so code that
already catches those keeps working, and every message names the problem and the fix.
"""

__all__ = [
    "NotSeparableError", "SolverError", "DataValidationError", "DataTypeError",
    "ConstraintViolationError",
]


class DataValidationError(ValueError):
    """The input data cannot be used as given (NaN, one class, wrong shape, ...).

    Examples
    --------
    A missing value in X is refused by every estimator's fit:

    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.exceptions import DataValidationError
    >>> try:
    ...     SupportFeatureMachine().fit([[np.nan], [1.0]], [0, 1])
    ... except DataValidationError as error:
    ...     print(str(error)[:48])
    X contains 1 NaN (missing) and 0 infinite values
    """


class DataTypeError(DataValidationError, TypeError):
    """The input holds values of a type that cannot be used (objects that are not numbers).

    Examples
    --------
    Python objects in X are refused; the error is also a TypeError:

    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.exceptions import DataTypeError
    >>> try:
    ...     SupportFeatureMachine().fit(np.array([[object()], [object()]]), [0, 1])
    ... except DataTypeError as error:
    ...     print(str(error)[:42], isinstance(error, TypeError))
    X contains objects that are not numbers (f True
    """


class NotSeparableError(ValueError):
    """A hard-margin method was asked to separate classes that are not linearly separable.

    The hard SFM (``C=None``) and the hard zero-norm SVM only have a solution when a
    hyperplane separates the training data without error. Pass a softness ``C`` (for
    example ``C=1.0``) to allow training errors.

    Examples
    --------
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.exceptions import NotSeparableError
    >>> X, y = [[0.0], [0.0], [1.0], [1.0]], [0, 1, 0, 1]   # the same points, both labels
    >>> try:
    ...     SupportFeatureMachine().fit(X, y)
    ... except NotSeparableError as error:
    ...     print(str(error)[:43])
    The two classes are not linearly separable,
    """


class SolverError(RuntimeError):
    """The optimisation engine returned a status other than optimal or infeasible.

    Parameters
    ----------
    message : str
        What went wrong and what to do about it.
    status : object, optional
        The engine's status (kept as the ``status`` attribute).

    Examples
    --------
    >>> from sfmlearn.exceptions import SolverError
    >>> error = SolverError("HiGHS stopped: time limit reached", status="kTimeLimit")
    >>> isinstance(error, RuntimeError), error.status
    (True, 'kTimeLimit')
    """

    def __init__(self, message, *, status=None):
        super().__init__(message)
        self.status = status


class ConstraintViolationError(SolverError):
    """A solution returned by an engine violates its own constraints beyond tolerance.

    sfmlearn checks every LP solution against its constraints before using it (nothing
    is silently wrong); a violation is a :class:`SolverError` although the engine
    reported success.

    Parameters
    ----------
    message : str
        Which constraint is violated, by how much, and what to try instead.
    status : object, optional
        Which check failed (``"constraint violation"`` for the LP checks).

    Examples
    --------
    >>> from sfmlearn.exceptions import ConstraintViolationError, SolverError
    >>> error = ConstraintViolationError("margin row 3 violated by 1e-3", status="constraint violation")
    >>> isinstance(error, SolverError), error.status
    (True, 'constraint violation')
    """
