"""Checks of a saved ``sfmlearn select --json`` or ``sfmlearn repeat --json`` result before a report shows it.

A report renders the numbers of such a file as they are: a training accuracy of 5.0
would read "500.0 %", a NaN "nan %", 99 selected features beside a table of five. A
file the commands wrote never holds such numbers, so :func:`check_saved_result` refuses
one that does -- a fraction outside [0, 1] or not a number where one is required, a
negative or non-whole count, a count that contradicts the list it counts -- with one
``ValueError`` naming the field and saying that the file was edited or is damaged.

Examples
--------
>>> from sfmlearn.report.saved_results import check_saved_result
>>> result = {"n_samples": 4, "n_features": 3, "classes": ["a", "b"], "class_counts": {"a": 2, "b": 2},
...           "C": None, "selected": [{"index": 2, "name": "g", "weight": 1.5}], "n_selected": 1,
...           "train_accuracy": 5.0, "fit_seconds": 0.1}
>>> try:
...     check_saved_result("select", result, "r.json")
... except ValueError as error:
...     print(str(error)[:76])
r.json: train_accuracy is 5.0, but it must be a fraction in [0, 1]; the file
"""

import json
import math

__all__ = ["DamagedResultError", "check_saved_result"]


class DamagedResultError(ValueError):
    """A saved result holds numbers its command never writes (the message names the field)."""


class _Fields:
    """The checks of one saved result; every refusal names ``path``, the field and the fix."""

    def __init__(self, command, path):
        self.command, self.path = command, path

    def refuse(self, field, value, problem):
        shown = json.dumps(value, default=str)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise DamagedResultError(f"{self.path}: {field} is {shown}, but {problem}; the file was edited or is "
                                 f"damaged: write it again with 'sfmlearn {self.command} --json'")

    def number(self, field, value, low=None, high=None, what="a number"):
        """``value`` as a finite number in [low, high]."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.refuse(field, value, f"it must be {what}")
        if (low is not None and value < low) or (high is not None and value > high):
            self.refuse(field, value, f"it must be {what} in [{low:g}, {high:g}]" if high is not None
                        else f"it must be {what} of at least {low:g}")
        return value

    def fraction(self, field, value):
        return self.number(field, value, 0, 1, what="a fraction")

    def count(self, field, value, low=0, high=None, what="a count"):
        """``value`` as a whole number in [low, high]."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(field, value, "it must be a whole number")
        return self.number(field, value, low, high, what=what)

    def items(self, field, value, expected=None, counted_by=None):
        """``value`` as a list, of ``expected`` entries (the count ``counted_by`` gives) when given."""
        if not isinstance(value, list):
            self.refuse(field, value, "it must be a list")
        if expected is not None and len(value) != expected:
            entries = "entry" if len(value) == 1 else "entries"
            self.refuse(counted_by, expected, f"{field} lists {len(value)} {entries}")
        return value

    def record(self, field, value):
        if not isinstance(value, dict):
            self.refuse(field, value, "it must be an object")
        return value


def _data(fields, result):
    """The data fields both results share: shape, classes, their counts, the softness C."""
    n_samples = fields.count("n_samples", result["n_samples"], low=1)
    fields.count("n_features", result["n_features"], low=1)
    classes = fields.items("classes", result["classes"])
    if len(classes) < 2:
        fields.refuse("classes", classes, "a selection needs two classes at least")
    if result.get("C") is not None and fields.number("C", result["C"]) <= 0:
        fields.refuse("C", result["C"], "the softness C is above 0")
    counts = result.get("class_counts")
    if counts is not None:
        fields.record("class_counts", counts)
        if sorted(map(str, counts)) != sorted(map(str, classes)):
            fields.refuse("class_counts", counts, f"its classes must be those of 'classes' ({', '.join(classes)})")
        total = sum(fields.count(f"class_counts.{name}", k) for name, k in counts.items())
        if total != n_samples:
            fields.refuse("class_counts", counts, f"its counts add up to {total}, not to n_samples = {n_samples}")


def _features(fields, field, rows, n_features):
    """Feature rows (``index`` inside the data, finite ``weight``)."""
    for number, row in enumerate(fields.items(field, rows)):
        fields.record(f"{field}[{number}]", row)
        fields.count(f"{field}[{number}].index", row["index"], high=n_features - 1,
                     what="a column index (from 0)")
        fields.number(f"{field}[{number}].weight", row["weight"])


def _cv(fields, cv):
    fields.record("cv", cv)
    folds = fields.count("cv.folds", cv["folds"], low=2)
    for number, accuracy in enumerate(fields.items("cv.accuracy", cv["accuracy"], folds, "cv.folds")):
        fields.fraction(f"cv.accuracy[{number}]", accuracy)
    for number, selected in enumerate(fields.items("cv.n_selected", cv["n_selected"], folds, "cv.folds")):
        fields.count(f"cv.n_selected[{number}]", selected)
    if "selected_per_fold" in cv:
        fields.items("cv.selected_per_fold", cv["selected_per_fold"], folds, "cv.folds")
    fields.fraction("cv.accuracy_mean", cv["accuracy_mean"])
    fields.number("cv.accuracy_std", cv["accuracy_std"], low=0, what="a standard deviation")


def _chance(fields, chance):
    fields.record("chance", chance)
    fields.count("chance.subset_size", chance["subset_size"])
    if chance.get("n_permutations"):
        fields.items("chance.permutation_sizes", chance["permutation_sizes"],
                     fields.count("chance.n_permutations", chance["n_permutations"]), "chance.n_permutations")
        fields.fraction("chance.p_value", chance["p_value"])


def _select(fields, result):
    n_features = result["n_features"]
    _features(fields, "selected", result["selected"], n_features)
    fields.items("selected", result["selected"], fields.count("n_selected", result["n_selected"]), "n_selected")
    fields.fraction("train_accuracy", result["train_accuracy"])
    if "test_accuracy" in result:
        fields.fraction("test_accuracy", result["test_accuracy"])
        fields.count("n_test", result["n_test"], low=1)


def _repeat(fields, result):
    n_features = result["n_features"]
    repetitions = fields.count("n_repetitions", result["n_repetitions"])
    fields.items("subsets", result["subsets"], repetitions, "n_repetitions")
    ranked = fields.count("n_ranked", result["n_ranked"], high=n_features)
    _features(fields, "ranking", fields.items("ranking", result["ranking"], ranked, "n_ranked"), n_features)
    for number, row in enumerate(result["ranking"]):
        fields.count(f"ranking[{number}].repetition", row["repetition"], low=1, high=max(repetitions, 1),
                     what="a repetition (from 1)")
    estimate = result.get("estimate")
    if estimate is not None and fields.record("estimate", estimate).get("available"):
        fields.fraction("estimate.fraction", estimate["fraction"])
        fields.number("estimate.n_informative", estimate["n_informative"], 0, n_features,
                      what="a number of features")
        fields.items("estimate.fold_repetitions", estimate["fold_repetitions"],
                     fields.count("estimate.folds", estimate["folds"], low=1), "estimate.folds")


_CHECKS = {"select": _select, "repeat": _repeat}


def check_saved_result(command, result, path):
    """Refuse a saved ``sfmlearn COMMAND --json`` result whose numbers are impossible.

    Parameters
    ----------
    command : str
        The command that wrote it; "select" and "repeat" are checked, others pass.
    result : dict
        The JSON read.
    path : path-like
        The file, named by the message.

    Raises
    ------
    DamagedResultError
        A ValueError naming the field, the value and why it is impossible, and that the file was
        edited or is damaged. A missing key raises KeyError (the caller names it).
    """
    check = _CHECKS.get(command)
    if check is None:
        return
    fields = _Fields(command, path)
    _data(fields, result)
    check(fields, result)
    if "cv" in result:
        _cv(fields, result["cv"])
    if result.get("chance") is not None:
        _chance(fields, result["chance"])
