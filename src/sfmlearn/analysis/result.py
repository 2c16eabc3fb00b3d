"""The typed, versioned result every analysis returns, and its JSON form.

A result is a dataclass whose JSON fields, in order, are the keys of the JSON that
``sfmlearn COMMAND --json`` prints and :mod:`sfmlearn.report` renders. Fields named in
``OPTIONAL`` are left out of :meth:`~AnalysisResult.to_dict` while they are None (an
analysis step that did not run); fields with ``metadata={"json": False}`` (live objects
such as a fitted estimate kept for a figure) are never written. ``schema_version`` is the
version of that JSON: version 1 is the format the commands have printed since their first
release and carries no version key, so saved files stay readable; a later version writes
``"schema_version"`` and :meth:`~AnalysisResult.from_dict` refuses a file newer than the
class.
"""

from dataclasses import dataclass, field, fields
from typing import ClassVar

__all__ = ["SCHEMA_VERSION", "AnalysisResult", "not_in_json"]

#: The version of the results' JSON that this release writes and reads.
SCHEMA_VERSION = 1


def not_in_json(default=None):
    """A dataclass field kept on the result but never written to its JSON."""
    return field(default=default, repr=False, compare=False, metadata={"json": False})


@dataclass
class AnalysisResult:
    """Base of the analyses' results: :meth:`to_dict` / :meth:`from_dict` to their JSON.

    Parameters
    ----------
    schema_version : int
        The version of the JSON the result was read from or will be written as.

    Examples
    --------
    >>> from sfmlearn.analysis import SelectResult
    >>> saved = {"data": "toy.csv", "n_samples": 4, "n_features": 3, "classes": ["a", "b"],
    ...          "class_counts": {"a": 2, "b": 2}, "method": "SupportFeatureMachine", "C": None,
    ...          "class_weight": None, "selected": [], "n_selected": 0, "train_accuracy": 0.5,
    ...          "fit_seconds": 0.1, "seconds": 0.2}
    >>> result = SelectResult.from_dict(saved)
    >>> result.schema_version, result.to_dict() == saved
    (1, True)
    """

    #: keys of :meth:`to_dict` left out while their value is None
    OPTIONAL: ClassVar[frozenset] = frozenset()

    schema_version: int = field(default=SCHEMA_VERSION, kw_only=True, metadata={"json": False})

    @classmethod
    def _json_fields(cls):
        return [f for f in fields(cls) if f.metadata.get("json", True)]

    def to_dict(self):
        """The JSON form (a dict of JSON-ready values, NumPy arrays converted by the writer)."""
        payload = {}
        for f in self._json_fields():
            value = getattr(self, f.name)
            if value is None and f.name in self.OPTIONAL:
                continue
            payload[f.name] = value
        if self.schema_version != 1:
            payload["schema_version"] = self.schema_version
        return payload

    @classmethod
    def from_dict(cls, payload):
        """The result of a saved JSON; KeyError names a missing key, ValueError a newer schema."""
        version = payload.get("schema_version", 1)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ValueError(f"schema_version {version!r} is newer than this sfmlearn reads "
                             f"({SCHEMA_VERSION}); update sfmlearn")
        values = {}
        for f in cls._json_fields():
            if f.name in payload:
                values[f.name] = payload[f.name]
            elif f.name not in cls.OPTIONAL:
                raise KeyError(f.name)
        return cls(**values, schema_version=version)
