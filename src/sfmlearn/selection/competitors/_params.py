"""One declaration per estimator parameter: its default, its constraints, its documentation.

scikit-learn's contract asks four things of a parameter: it is an argument of
``__init__`` with a default (``get_params`` and ``clone`` read the signature), ``__init__``
stores it unchanged under its own name, ``_parameter_constraints`` says what values
``fit`` accepts, and the class docstring documents it. Estimators that share parameters
(ML05's hinge-loss models share seven) would restate all four per class.
Here each parameter is declared once, as a :class:`Param`, and :func:`declare_parameters`
derives the class's ``__init__`` (an explicit signature: positional parameters first,
then keyword-only ones; each argument is stored as it is), its
``_parameter_constraints`` and the Parameters section of its docstring.

:func:`sfmlearn.utils.docstrings.fill_doc` shares other docstring texts the same way.

A parameter renamed for one release is declared with :func:`renamed`: it keeps its
place in the signature with the default :data:`~sfmlearn.utils.deprecation.DEPRECATED`
(so ``clone`` and ``get_params`` still work), accepts its old values, and ``fit`` reads it
through :func:`renamed_value` (which refuses an old and a new value that disagree).
"""

import inspect
import re
import textwrap
from typing import NamedTuple

from sklearn.utils._param_validation import Hidden, StrOptions

from ...utils.deprecation import DEPRECATED, REMOVED_IN, renamed_parameter
from ...utils.docstrings import fill_text

__all__ = ["Param", "declare_parameters", "renamed", "renamed_value"]

#: A docstring line ``%(name)s``, which :func:`fill_doc` replaces.


class Param(NamedTuple):
    """A parameter: default, scikit-learn constraints and numpydoc entry.

    ``doc`` is the entry without the name: its first line is the type and default
    (``"float, default=5.0"``), the following lines (with any common indentation) the
    description.
    """

    default: object
    constraints: list
    doc: str

    def with_default(self, default):
        """The same parameter with another default (the entry's ``default=`` follows).

        Examples
        --------
        >>> from sfmlearn.selection.competitors._params import Param
        >>> Param(None, [str, None], 'str or None, default=None\\n    A name.').with_default("svm").doc
        'str or None, default="svm"\\n    A name.'
        """
        shown = f'"{default}"' if isinstance(default, str) else repr(default)
        first, newline, description = self.doc.partition("\n")
        first = re.sub(r"default=.*$", f"default={shown}", first)
        return self._replace(default=default, doc=first + newline + description)


def renamed(new_name, old, relation=None):
    """The declaration of a parameter renamed ``new_name``: ``old`` values stay accepted.

    Parameters
    ----------
    new_name : str
        The parameter's new name.
    old : Param
        The old parameter's declaration (its constraints stay valid for one release).
    relation : str, optional
        How the new parameter's value follows from the old one, when they differ
        (``"gamma = 1 / (2 sigma^2)"``).

    Returns
    -------
    Param
        Default :data:`~sfmlearn.utils.deprecation.DEPRECATED` ("not given"), hidden
        from the constraint messages.
    """
    change = f"Renamed ``{new_name}``" if relation is None else \
        f"Replaced by ``{new_name}`` ({relation})"
    return Param(DEPRECATED, [*old.constraints, Hidden(StrOptions({DEPRECATED}))],
                 f"deprecated\n    {change};\n    the old name stops working in sfmlearn {REMOVED_IN}.")


def renamed_value(estimator, old_name, new_name, *, convert=None, relation=None, stacklevel=2):
    """The effective value of ``estimator``'s parameter ``new_name``, renamed from ``old_name``.

    :func:`~sfmlearn.utils.deprecation.renamed_parameter` with the new parameter's
    default from the signature: the old value (warned about) when only it is given, and an
    ``InvalidParameterError`` when both are given and disagree. ``convert`` and
    ``relation`` are as there; ``stacklevel`` counts from the caller of this function (2:
    its caller).

    Examples
    --------
    >>> import warnings
    >>> from sfmlearn import GolubClassifier
    >>> from sfmlearn.selection.competitors._params import renamed_value
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     renamed_value(GolubClassifier(n_features=5), "n_features", "n_features_to_select")
    5
    """
    default = inspect.signature(type(estimator)).parameters[new_name].default
    return renamed_parameter(type(estimator).__name__, old_name, getattr(estimator, old_name), new_name,
                             getattr(estimator, new_name), new_default=default, convert=convert,
                             relation=relation, stacklevel=stacklevel + 1)


def _entries(declarations):
    """The numpydoc entries of the declared parameters (names at column 0)."""
    lines = []
    for name, param in declarations.items():
        first, _, description = param.doc.strip("\n").partition("\n")
        lines.append(f"{name} : {first.strip()}")
        if description.strip():
            lines.append(textwrap.indent(textwrap.dedent(description), " " * 4))
    return "\n".join(lines)


def _storing_init(owner, positional, keyword):
    """``__init__`` with the declared signature, storing every argument unchanged."""
    kinds = [(positional, inspect.Parameter.POSITIONAL_OR_KEYWORD),
             (keyword, inspect.Parameter.KEYWORD_ONLY)]
    signature = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(name, kind, default=param.default)
           for declarations, kind in kinds for name, param in declarations.items()])

    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{type(self).__name__}(): {exc}") from None
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            setattr(self, name, value)

    __init__.__signature__ = signature
    __init__.__qualname__ = f"{owner.__name__}.__init__"
    __init__.__module__ = owner.__module__
    __init__.__doc__ = "Store the parameters (see the class docstring)."
    return __init__


def declare_parameters(positional=None, keyword=None):
    """Class decorator: ``__init__``, ``_parameter_constraints`` and the docstring's
    Parameters entries from one declaration per parameter.

    Parameters
    ----------
    positional : dict of str to Param, optional
        Parameters that may be passed by position, in signature order.
    keyword : dict of str to Param, optional
        Keyword-only parameters, in documentation order.

    Returns
    -------
    callable
        The decorator. A docstring line ``%(parameters)s`` becomes the entries.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> from sfmlearn.selection.competitors._params import Param, declare_parameters
    >>> @declare_parameters(positional={"C": Param(1.0, [float], "float, default=1.0\\n    Softness.")})
    ... class Model(BaseEstimator):
    ...     '''A model.
    ...
    ...     Parameters
    ...     ----------
    ... %(parameters)s
    ...     '''
    >>> Model(2.0).get_params()
    {'C': 2.0}
    >>> Model.__doc__.split("----------")[1].split()
    ['C', ':', 'float,', 'default=1.0', 'Softness.']
    """
    positional, keyword = dict(positional or {}), dict(keyword or {})
    both = {**positional, **keyword}
    if len(both) != len(positional) + len(keyword):
        raise ValueError("A parameter is declared both positional and keyword-only.")

    def decorate(cls):
        cls.__init__ = _storing_init(cls, positional, keyword)
        cls._parameter_constraints = {name: param.constraints for name, param in both.items()}
        cls.__doc__ = fill_text(cls.__doc__, {"parameters": _entries(both)})
        return cls
    return decorate
