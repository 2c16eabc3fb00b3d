"""Exceptions and warnings raised by sfmlearn.

Every exception subclasses a built-in (``ValueError`` or ``RuntimeError``) and every
warning ``UserWarning``, so code that already catches or filters those keeps working;
every message names the problem and the fix.
"""

__all__ = [
    "NotSeparableError", "SolverError", "DataValidationError", "DataTypeError",
    "ConstraintViolationError", "ConstantFeatureWarning",
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


class ConstantFeatureWarning(UserWarning):
    """Some features are constant on the training data, so no selector can use them.

    Issued once per fit, naming the first columns; the inner folds of the cross-validated
    estimators do not repeat it (a column can be constant in a fold and not in the data).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.exceptions import ConstantFeatureWarning
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0], [3.0, 1.0]])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = SupportFeatureMachine().fit(X, [0, 0, 1, 1])
    >>> [issubclass(w.category, ConstantFeatureWarning) for w in caught]
    [True]
    """
