"""Exceptions raised by sfmlearn.

Every exception subclasses a built-in (``ValueError`` or ``RuntimeError``) so code that
already catches those keeps working, and every message names the problem and the fix.
"""

__all__ = [
    "NotSeparableError", "SolverError", "DataValidationError", "DataTypeError",
    "ConstraintViolationError",
]


class DataValidationError(ValueError):
    """The input data cannot be used as given (NaN, one class, wrong shape, ...)."""


class DataTypeError(DataValidationError, TypeError):
    """The input holds values of a type that cannot be used (objects that are not numbers)."""


class NotSeparableError(ValueError):
    """A hard-margin method was asked to separate classes that are not linearly separable.

    The hard SFM (``C=None``) and the hard zero-norm SVM only have a solution when a
    hyperplane separates the training data without error. Pass a softness ``C`` (for
    example ``C=1.0``) to allow training errors.
    """


class SolverError(RuntimeError):
    """The optimisation engine returned a status other than optimal or infeasible."""

    def __init__(self, message, *, status=None):
        super().__init__(message)
        self.status = status


class ConstraintViolationError(SolverError):
    """A solution returned by an engine violates its own constraints beyond tolerance."""
