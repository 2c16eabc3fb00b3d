"""The values an experiment's settings accept, declared in its signature.

An experiment function's annotated parameters are the settings of ``sfmlearn reproduce
ID --set NAME=VALUE`` (:func:`~sfmlearn.experiments.runner.parse_settings`). The
annotation says how the text converts (``int``, ``float``, ``str``, ``bool``,
``tuple[X, ...]`` from comma-separated items, ``X | None`` with ``none``) and, wrapped
in :data:`typing.Annotated`, which values the experiment accepts: :class:`Between` for
a range of numbers, :class:`OneOf` for a fixed set of names. A value outside them is
refused before anything runs, so a wrong setting never costs a run that fails or, worse,
runs on something the experiment does not handle. A number is always finite (``nan``
and ``inf`` are refused).

Examples
--------
>>> from typing import Annotated
>>> from sfmlearn.experiments.settings import Between, OneOf, convert, describe
>>> fraction = Annotated[float, Between(0, 1, open=True)]
>>> convert("0.25", fraction)
0.25
>>> describe(fraction)
'a number between 0 and 1 (both excluded)'
>>> describe(tuple[Annotated[str, OneOf(("liver", "bcw"))], ...])
'comma-separated names, each one of liver, bcw'
"""

import math
import types
import typing
from dataclasses import dataclass

__all__ = ["Between", "OneOf", "convert", "describe"]


@dataclass(frozen=True)
class Between:
    """Numbers from ``low`` to ``high`` (None: unbounded on that side); ``open`` excludes both ends."""

    low: float | None = None
    high: float | None = None
    open: bool = False

    def accepts(self, value):
        """Whether ``value`` lies in the range."""
        above = self.low is None or (value > self.low if self.open else value >= self.low)
        below = self.high is None or (value < self.high if self.open else value <= self.high)
        return above and below

    def text(self):
        """The range in words, after "a number" ("between 0 and 1 (both excluded)", "of at least 2")."""
        if self.low is not None and self.high is not None:
            return f"between {self.low:g} and {self.high:g} ({'both excluded' if self.open else 'both included'})"
        bound, word = (self.low, "above" if self.open else "of at least") if self.low is not None else \
            (self.high, "below" if self.open else "of at most")
        return f"{word} {bound:g}"


@dataclass(frozen=True)
class OneOf:
    """One of the names ``choices``."""

    choices: tuple

    def accepts(self, value):
        """Whether ``value`` is one of the choices."""
        return value in self.choices

    def text(self):
        """The choices in words, after "a name"."""
        return f"one of {', '.join(map(str, self.choices))}"


_NAMES = {int: ("whole number", "whole numbers"), float: ("number", "numbers"), str: ("name", "names"),
          bool: ("true/false", "true/false values"), type(None): ("none", "none")}


def _parts(annotation):
    """``(base type, checks)`` of an annotation: ``Annotated[float, Between(0, 1)]`` -> (float, (Between,))."""
    if typing.get_origin(annotation) is typing.Annotated:
        base, *checks = typing.get_args(annotation)
        return base, tuple(checks)
    return annotation, ()


def describe(annotation, plural=False):
    """What ``annotation`` accepts, in words (for the message refusing a value)."""
    base, checks = _parts(annotation)
    if typing.get_origin(base) in (typing.Union, types.UnionType):
        return ", or ".join(describe(a, plural) for a in typing.get_args(base))
    if typing.get_origin(base) is tuple:
        return "comma-separated " + describe(typing.get_args(base)[0], plural=True)
    name = _NAMES[base][plural]
    if not checks:
        return name if plural else f"a {name}" if base is not type(None) else name
    limits = " and ".join(check.text() for check in checks)
    return f"{name}, each {limits}" if plural else f"a {name} {limits}"


def convert(text, annotation):
    """``text`` as a value of ``annotation``; ValueError when it does not convert or is not accepted."""
    base, checks = _parts(annotation)
    if typing.get_origin(base) in (typing.Union, types.UnionType):
        if text.lower() == "none" and type(None) in typing.get_args(base):
            return None
        base = next(a for a in typing.get_args(base) if a is not type(None))
        return convert(text, typing.Annotated[(base, *checks)] if checks else base)
    if typing.get_origin(base) is tuple:
        value = tuple(convert(item.strip(), typing.get_args(base)[0]) for item in text.split(","))
    elif base is bool:
        answers = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        if text.lower() not in answers:
            raise ValueError(text)
        value = answers[text.lower()]
    else:
        value = base(text)
        if base is float and not math.isfinite(value):
            raise ValueError(text)
    if not all(check.accepts(value) for check in checks):
        raise ValueError(text)
    return value
