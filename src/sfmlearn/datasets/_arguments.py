"""Argument checks of the generators and loaders: scikit-learn's declared constraints.

Every generator and loader declares the allowed values of its arguments with
scikit-learn's ``validate_params`` (as ``sklearn.datasets`` does), through
:func:`checked`, so a bad argument fails before any drawing or reading, with the same
kind of message everywhere, naming the argument and its allowed range ("The 'n_samples'
parameter of make_basic must be an int in the range [2, inf). Got -5 instead."). Counts
refuse True and False, flags anything but True and False. Relations between arguments,
which declarations cannot express, raise the same ``InvalidParameterError`` (a
``ValueError``): :func:`check_at_most`, or a check of the generator's own.
"""

from numbers import Integral, Real

from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions, validate_params

__all__ = ["FINITE", "FLAG", "FRACTION", "InvalidParameterError", "NON_NEGATIVE", "POSITIVE", "at_least",
           "check_at_most", "checked", "one_of"]

#: A number > 0 and finite.
POSITIVE = [Interval(Real, 0, None, closed="neither")]
#: A number >= 0 and finite.
NON_NEGATIVE = [Interval(Real, 0, None, closed="left")]
#: A finite number.
FINITE = [Interval(Real, None, None, closed="neither")]
#: A fraction strictly between 0 and 1 (both classes get samples).
FRACTION = [Interval(Real, 0, 1, closed="neither")]
#: True or False.
FLAG = ["boolean"]


class _Count(Interval):
    """An interval of whole numbers without True and False (which Python counts as 1 and 0)."""

    def is_satisfied_by(self, val):
        return not isinstance(val, bool) and super().is_satisfied_by(val)


def at_least(minimum):
    """Constraint of a count: a whole number >= ``minimum`` (not a bool)."""
    return [_Count(Integral, minimum, None, closed="left")]


def one_of(options):
    """Constraint of a name: one of the strings ``options``."""
    return [StrOptions(set(options))]


def checked(**constraints):
    """Decorator checking the named arguments of a function against their constraints first."""
    return validate_params(constraints, prefer_skip_nested_validation=True)


def check_at_most(part, part_name, whole, whole_name, why):
    """Refuse ``part`` > ``whole`` (e.g. more relevant features than features), saying ``why``."""
    if part > whole:
        raise InvalidParameterError(f"{part_name}={part} exceeds {whole_name}={whole}; {why}.")
