"""scikit-learn's estimator checks with expected failures that must fail for their stated cause.

``parametrize_with_checks(..., expected_failed_checks=...)`` marks a check as xfail
whatever it raises, so a regression that breaks such a check for another reason would
hide behind the expected failure. :func:`run_check` instead requires the failure to
come from the exception named with it (the exception itself, or the cause that
scikit-learn's check wrapped in its AssertionError), then reports the test as xfailed
with the stated reason; a pass, or a failure for any other reason, fails the test.
"""

import re

import pytest
from sklearn.utils.estimator_checks import _check_name


def _causes(exc):
    """``exc`` and the exceptions it was raised from (``__cause__`` / ``__context__``)."""
    seen = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def run_check(estimator, check, expected_failures):
    """Run ``check(estimator)``; ``expected_failures`` maps check names to
    ``(exception type, message pattern, reason)`` for the checks that must fail."""
    expected = expected_failures.get(_check_name(check))
    if expected is None:
        check(estimator)
        return
    exception_type, pattern, reason = expected
    with pytest.raises(Exception) as info:
        check(estimator)
    causes = _causes(info.value)
    assert any(isinstance(e, exception_type) for e in causes), (
        f"{_check_name(check)} was expected to fail with {exception_type.__name__} ({reason}); "
        f"it failed with {type(info.value).__name__}: {info.value}")
    match = next(e for e in causes if isinstance(e, exception_type))
    assert re.search(pattern, str(match)), (
        f"{exception_type.__name__} message {str(match)!r} does not match {pattern!r}")
    pytest.xfail(reason)
