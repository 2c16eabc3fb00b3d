"""Checks of what a figure is asked to draw, made before drawing: a mismatch is refused
with a message that names both sizes and the fix, not left to matplotlib's or NumPy's
error (or, worse, drawn with a column silently dropped)."""

from collections.abc import Mapping

from ..exceptions import DataTypeError, DataValidationError

__all__ = ["check_length", "check_mapping", "number_of"]


def check_mapping(value, what, expected):
    """``value`` when it is a dict (any mapping); a DataTypeError saying what was expected otherwise.

    ``expected`` says where such a dict comes from, e.g. ``"result['C_auto'] of sfmlearn
    path --json"``.

    >>> from sfmlearn.plotting._checks import check_mapping
    >>> check_mapping("summary.json", "summary", "a dict")
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataTypeError: summary must be a dict; got str 'summary.json'. A result saved as JSON is read with json.load first.
    """
    if not isinstance(value, Mapping):
        raise DataTypeError(f"{what} must be {expected}; got {type(value).__name__} {value!r:.60}. "
                            "A result saved as JSON is read with json.load first.")
    return value


def number_of(count, noun, plural=None):
    """``"1 gene"``, ``"2 genes"``: ``count`` with ``noun`` in the right number (``plural`` when not noun + s)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def check_length(name, values, expected, per):
    """Refuse ``values`` unless it holds ``expected`` entries, one per ``per`` (a singular noun).

    >>> from sfmlearn.plotting._checks import check_length
    >>> check_length("gene_types", ["T"], 2, "gene")
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: gene_types has 1 entry for 2 genes: give one entry per gene.
    """
    if len(values) != expected:
        raise DataValidationError(f"{name} has {number_of(len(values), 'entry', 'entries')} for "
                                  f"{number_of(expected, per)}: give one entry per {per}.")
