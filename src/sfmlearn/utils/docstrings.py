"""Docstring texts shared by several functions: written once, filled in where they stand.

A docstring line that holds only ``%(name)s`` is replaced by the shared text ``name``
(dedented, then indented like the placeholder), so parameters, returns and example
setups that several functions document the same way are declared once. The filled
docstring is an ordinary ``__doc__``: numpydoc, Sphinx and doctest read it as written.
"""

import re
import textwrap

__all__ = ["fill_doc", "fill_text"]

_PLACEHOLDER = re.compile(r"^([ \t]*)%\((\w+)\)s[ \t]*$", re.MULTILINE)


def fill_doc(**fragments):
    """Decorator: each docstring line ``%(name)s`` becomes the text ``fragments[name]``.

    Placeholders without a fragment stay as they are, so decorators can be stacked.

    Parameters
    ----------
    **fragments : str
        The shared texts by placeholder name.

    Returns
    -------
    callable
        The decorator (for functions and classes); it returns the object itself.

    Examples
    --------
    >>> from sfmlearn.utils.docstrings import fill_doc
    >>> @fill_doc(xy="X : array\\n    The samples.")
    ... def f(X):
    ...     '''Do nothing.
    ...
    ...     Parameters
    ...     ----------
    ...     %(xy)s
    ...     '''
    >>> f.__doc__.split("----------")[1].split()
    ['X', ':', 'array', 'The', 'samples.']
    """
    def decorate(obj):
        obj.__doc__ = fill_text(obj.__doc__, fragments)
        return obj
    return decorate


def fill_text(doc, fragments):
    r"""``doc`` with every placeholder line ``%(name)s`` of ``fragments`` filled in.

    Parameters
    ----------
    doc : str or None
        A docstring (None stays None).
    fragments : dict of str to str
        The shared texts by placeholder name; other placeholders stay as they are.

    Returns
    -------
    str or None
        The filled docstring.

    Examples
    --------
    >>> from sfmlearn.utils.docstrings import fill_text
    >>> fill_text("Sum.\n\n    %(note)s\n", {"note": "Exact."})
    'Sum.\n\n    Exact.\n'
    """
    def fill(match):
        indent, name = match.groups()
        if name not in fragments:
            return match.group(0)
        return textwrap.indent(textwrap.dedent(fragments[name]).strip("\n"), indent)
    return _PLACEHOLDER.sub(fill, doc) if doc else doc
