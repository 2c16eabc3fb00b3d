"""Docstrings write formulas in plain text; make reStructuredText render them as written.

sfmlearn's docstrings state the papers' formulas the way a terminal shows them
(``|w_j|``, ``mu_+ - mu_-``, ``coef_``). In reStructuredText ``|w|`` is a substitution and
``mu_`` a hyperlink reference, so Sphinx would fail on them. Before numpydoc parses a
docstring, this extension escapes exactly those two constructs in ordinary text; inline
literals, doctest lines and literal blocks are left alone.

It also leaves scikit-learn's metadata-routing and ``set_output`` plumbing out of the
class pages: every estimator inherits them, and their docstrings point into
scikit-learn's own glossary.
"""

import inspect
import re

_LITERAL = re.compile(r"(``.+?``|`[^`]+`_?_?|:\w+:`[^`]+`)")  # leave these untouched
_BAR = re.compile(r"(?<!\\)\|")  # |w|, ||w||_0 -> \|w\|, \|\|w\|\|_0
_TRAILING_UNDERSCORE = re.compile(r"(?<![\\`])\b(\w*[A-Za-z0-9])(_{1,2})(?![\w`])")  # coef_ -> coef\_

_PLUMBING = re.compile(r"^(set_\w+_request|get_metadata_routing|set_output)$")


def _escape(text):
    text = _BAR.sub(r"\\|", text)
    return _TRAILING_UNDERSCORE.sub(lambda m: m.group(1) + "\\_" * len(m.group(2)), text)


def escape_line(line):
    """Escape substitutions and trailing-underscore references outside inline literals."""
    stripped = line.lstrip()
    if stripped.startswith((">>>", "...", ".. ", "| ", "+-", "+=")):  # doctests, directives, tables
        return line
    parts = _LITERAL.split(line)
    return "".join(part if i % 2 else _escape(part) for i, part in enumerate(parts))


def escape_docstring(lines):
    """Escape every prose line in place; skip literal blocks (after ``::``) and doctests."""
    literal_indent = None
    in_doctest = False
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                continue
            literal_indent = None
        if line.lstrip().startswith(">>>"):
            in_doctest = True
        elif not line.strip():
            in_doctest = False
        if in_doctest:
            continue
        lines[i] = escape_line(line)
        if line.rstrip().endswith("::"):
            literal_indent = indent


def _words(text):
    return " ".join(text.split())


def _process(app, what, name, obj, options, lines):
    own = _words("\n".join(lines))
    type_doc = _words(inspect.getdoc(type(obj)) or "")
    if what in ("data", "attribute") and own and (
            own in type_doc or own.startswith(type(obj).__name__ + "(")):
        del lines[:]  # a constant without a doc comment: not its type's (ndarray's) docstring
        return
    escape_docstring(lines)


def _skip(app, what, name, obj, skip, options):
    if _PLUMBING.match(name):
        return True
    return None


def setup(app):
    app.connect("autodoc-process-docstring", _process, priority=100)  # before numpydoc (500)
    app.connect("autodoc-skip-member", _skip)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
