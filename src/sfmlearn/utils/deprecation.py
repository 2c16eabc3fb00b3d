"""Renamed parameters, functions and classes: one release of warnings, then removal.

sfmlearn gives one concept one name across its public API. When a name changes, the old
one keeps working for one release and warns (``FutureWarning``, shown to users by default)
with the new name and the release that removes it:

* a renamed estimator parameter stays in ``__init__`` with the default
  :data:`DEPRECATED` (scikit-learn's ``get_params`` / ``clone`` read the signature), and
  ``fit`` reads the effective value through :func:`renamed_parameter`;
* a renamed keyword argument of a function: :func:`renamed_arguments`;
* a renamed function or class: :func:`deprecated_alias`.
"""

import functools
import inspect
import warnings

from sklearn.utils._param_validation import InvalidParameterError

#: Default of a renamed parameter kept for one release: "not given".
DEPRECATED = "deprecated"
#: The release that removes the names deprecated in this one.
REMOVED_IN = "0.3"
#: ``new_default`` of :func:`renamed_parameter` when the caller gives none: nothing to check.
_UNCHECKED = object()


def _warn(message, stacklevel):
    warnings.warn(message, FutureWarning, stacklevel=stacklevel + 1)


def renamed_parameter(owner, old_name, old_value, new_name, new_value, *, new_default=_UNCHECKED,
                      convert=None, relation=None, stacklevel=2):
    """The value of a renamed parameter: ``new_value``, or the old one (with a warning) if given.

    Parameters
    ----------
    owner : str
        The estimator or function, for the message (``"GolubClassifier"``).
    old_name, new_name : str
        The parameter's old and new names.
    old_value : object
        The old parameter's value; :data:`DEPRECATED` when the user did not pass it.
    new_value : object
        The new parameter's value.
    new_default : object, optional
        The new parameter's default, which means "not given". When the old parameter is
        given and ``new_value`` is neither this default nor the old value (converted),
        the two disagree and an ``InvalidParameterError`` says to pass only the new one.
        Not given: nothing is checked.
    convert : callable, optional
        The new parameter's value from the old one's (default: the same value).
    relation : str, optional
        How the new value follows from the old one, for the warning
        (``"1 / (2 sigma^2)"``); without it the warning says the name changed.
    stacklevel : int, default=2
        Where the warning points, as for :func:`warnings.warn` (2: the caller of the
        function that calls this one).

    Returns
    -------
    object
        ``convert(old_value)`` if the user passed the old parameter, else ``new_value``.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        Both names were given with values that disagree (see ``new_default``).

    Examples
    --------
    >>> import warnings
    >>> from sfmlearn.utils.deprecation import DEPRECATED, renamed_parameter
    >>> renamed_parameter("Demo", "n_features", DEPRECATED, "n_features_to_select", 5)
    5
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     renamed_parameter("Demo", "n_features", 3, "n_features_to_select", 5, new_default=5)
    3
    >>> print(caught[0].message)
    Demo: 'n_features' is renamed 'n_features_to_select'; the old name stops working in sfmlearn 0.3
    >>> renamed_parameter("Demo", "n_features", 3, "n_features_to_select", 10, new_default=5)
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: Demo: n_features=3 and its new name n_features_to_select=10 disagree. Pass only n_features_to_select= (n_features stops working in sfmlearn 0.3).
    """
    if not is_given(old_value):
        return new_value
    value = old_value if convert is None else convert(old_value)
    if new_default is not _UNCHECKED and not _same(new_value, new_default) and not _same(new_value, value):
        meaning = "" if convert is None else f" ({old_name}={old_value!r} means {new_name}={value!r})"
        raise InvalidParameterError(
            f"{owner}: {old_name}={old_value!r} and its new name {new_name}={new_value!r} disagree"
            f"{meaning}. Pass only {new_name}= ({old_name} stops working in sfmlearn {REMOVED_IN}).")
    change = "renamed" if relation is None else "replaced by"
    target = f"'{new_name}'" if relation is None else f"'{new_name}' = {relation}"
    _warn(f"{owner}: '{old_name}' is {change} {target}; the old name stops working in sfmlearn "
          f"{REMOVED_IN}", stacklevel + 1)
    return value


def is_given(old_value):
    """Whether the user passed a renamed parameter's old name (its value is not :data:`DEPRECATED`)."""
    return not (isinstance(old_value, str) and old_value == DEPRECATED)


def _same(a, b):
    """Whether two parameter values (numbers, strings, None) are the same."""
    return a is b or a == b


def renamed_arguments(**renames):
    """Decorate a function whose keyword arguments were renamed (``old="new"``).

    A call with an old name warns and is passed on under the new name; a call with both
    raises ``TypeError``.

    Parameters
    ----------
    **renames : str
        ``old_name="new_name"`` for every renamed keyword argument.

    Returns
    -------
    callable
        A decorator that wraps a function with the renaming.

    Examples
    --------
    >>> import warnings
    >>> from sfmlearn.utils.deprecation import renamed_arguments
    >>> @renamed_arguments(every="informative_every")
    ... def demo(*, informative_every=1):
    ...     return informative_every
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     demo(every=4)
    4
    """
    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__name__}() got both '{old}' and its new name '{new}'; "
                                        f"pass only {new}=")
                    _warn(f"{function.__name__}: '{old}' is renamed '{new}'; the old name stops working in "
                          f"sfmlearn {REMOVED_IN}", 2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)
        return wrapper
    return decorate


def deprecated_alias(target, old_name):
    """A callable named ``old_name`` that warns and calls ``target`` (a function or class).

    For a class the alias is a subclass, so ``isinstance`` and scikit-learn's ``clone``
    keep working; it warns when instantiated.

    Parameters
    ----------
    target : callable or type
        The function or class under its new name.
    old_name : str
        The name it had.

    Returns
    -------
    callable or type
        A function that warns and calls ``target``, or a subclass of ``target`` that warns
        when instantiated.

    Examples
    --------
    >>> import warnings
    >>> from sfmlearn.utils.deprecation import deprecated_alias
    >>> def new_function(x):
    ...     return 2 * x
    >>> old_function = deprecated_alias(new_function, "old_function")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     old_function(2)
    4
    """
    message = (f"'{old_name}' is renamed '{target.__name__}'; the old name stops working in sfmlearn "
               f"{REMOVED_IN}")
    if isinstance(target, type):
        def __init__(self, *args, **kwargs):
            _warn(message, 2)
            target.__init__(self, *args, **kwargs)
        __init__.__signature__ = inspect.signature(target.__init__)
        return type(old_name, (target,), {"__init__": __init__, "__doc__": f"Deprecated: {message}.",
                                          "__module__": target.__module__})

    @functools.wraps(target)
    def alias(*args, **kwargs):
        _warn(message, 2)
        return target(*args, **kwargs)
    alias.__name__ = alias.__qualname__ = old_name
    alias.__doc__ = f"Deprecated: {message}."
    return alias
