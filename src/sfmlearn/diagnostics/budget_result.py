"""The result of :func:`~sfmlearn.diagnostics.compare_budgets`: a methods x budgets table."""

from dataclasses import asdict, dataclass, field

import numpy as np

__all__ = ["BudgetComparison", "pooled_balanced_accuracy"]


def _mean_and_se(values):
    """Mean over folds and SD (ddof=1) / sqrt(folds); NaN unless every fold has a value."""
    values = np.asarray(values, dtype=float)
    if values.size == 0 or np.isnan(values).any():
        return float("nan"), float("nan")
    se = values.std(ddof=1) / np.sqrt(values.size) if values.size > 1 else float("nan")
    return float(values.mean()), float(se)


def pooled_balanced_accuracy(hits, counts):
    """Balanced accuracy of held-out predictions pooled over the folds, and its binomial
    standard error: with r_c = (hits of class c) / (samples of class c), summed over the
    folds, (r_1 + r_2) / 2 and sqrt(sum_c r_c (1 - r_c) / n_c) / 2. NaN unless every fold
    has a value. ``hits`` and ``counts``: (folds, 2).

    The score of folds whose test part may hold one class (groups of one class, leave one
    out), whose own balanced accuracy is the recall of that class alone.

    Examples
    --------
    >>> from sfmlearn.diagnostics.budget_result import pooled_balanced_accuracy
    >>> mean, se = pooled_balanced_accuracy([[2, 0], [0, 1]], [[2, 0], [0, 2]])   # two folds of one class
    >>> float(mean), round(float(se), 3)
    (0.75, 0.177)
    """
    hits, counts = np.asarray(hits, dtype=float), np.asarray(counts, dtype=float).sum(axis=0)
    if hits.size == 0 or np.isnan(hits).any():
        return float("nan"), float("nan")
    recall = hits.sum(axis=0) / counts
    return float(recall.mean()), float(np.sqrt(np.sum(recall * (1.0 - recall) / counts)) / 2.0)


def _to_json(value):
    """NaN as None (JSON has no NaN), recursively."""
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return None if np.isnan(value) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def _from_json(value):
    """None as NaN, recursively (the inverse of :func:`_to_json` on numbers)."""
    if isinstance(value, dict):
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return float("nan") if value is None else value


def _cell(mean, se, features, width):
    if np.isnan(mean):
        return "-".rjust(width)
    spread = "" if np.isnan(se) else f" +- {100 * se:.1f}"
    return f"{100 * mean:.1f}{spread} ({features:.1f})".rjust(width)


@dataclass
class BudgetComparison:
    """Balanced accuracy per method and feature budget, from nested cross-validation.

    Dictionaries are keyed by method name; lists run over ``budgets`` (per-fold values:
    folds first). NaN marks a budget some outer fold's path never reaches.

    Parameters
    ----------
    methods : list of str
        The path methods, in the order given.
    budgets : list of int
        The feature budgets k, increasing.
    accuracy, se, features : dict of name -> list of float
        Mean balanced accuracy over outer folds, its standard error (SD / sqrt(folds)),
        mean number of features used (never more than k); with ``pooled``, the balanced
        accuracy of the held-out predictions of all folds together and its binomial
        standard error.
    fold_accuracy, fold_features, chosen_budgets : dict of name -> list of lists
        Per outer fold and budget: the held-out balanced accuracy (on a test part of one
        class, the recall of that class), the features used, and the budget k' <= k the
        inner cross-validation chose (k itself without it).
    automatic : dict or None
        The automatic choice: ``name``, ``accuracy``, ``se``, ``features`` and the
        per-fold ``fold_accuracy`` / ``fold_features``.
    n_folds : int
        Outer folds.
    inner_cv : int or None
        Inner folds of the choice of the budget (None: densest fit within the budget).
    pooled : bool
        Some outer test part holds one class (groups of one class, leave one out): its
        balanced accuracy is the recall of that class alone, and a mean over the folds
        would weight each class by its folds, so ``accuracy`` and ``se`` pool the
        held-out predictions instead.
    seconds : float
        Time of the comparison.

    Examples
    --------
    Two outer folds of one method at budgets 1 and 2, collected and printed:

    >>> from sfmlearn.diagnostics import BudgetComparison
    >>> folds = [{"m": {"accuracy": [0.7, 0.9], "features": [1, 2], "chosen_budget": [1, 2]}},
    ...          {"m": {"accuracy": [0.8, 0.9], "features": [1, 1], "chosen_budget": [1, 1]}}]
    >>> table = BudgetComparison.from_folds(folds, methods=["m"], budgets=[1, 2], automatic_name=None,
    ...                                     n_folds=2, inner_cv=5, seconds=1.0)
    >>> table.accuracy["m"], table.features["m"]
    ([0.75, 0.9], [1.0, 1.5])
    >>> print(table.format_table().splitlines()[2])
    m        75.0 +- 5.0 (1.0)   90.0 +- 0.0 (1.5)
    """

    methods: list
    budgets: list
    accuracy: dict
    se: dict
    features: dict
    fold_accuracy: dict
    fold_features: dict
    chosen_budgets: dict
    automatic: dict | None
    n_folds: int
    inner_cv: int | None
    pooled: bool = False
    seconds: float = field(default=float("nan"), compare=False)

    @classmethod
    def from_folds(cls, per_fold, *, methods, budgets, automatic_name, n_folds, inner_cv, seconds):
        """Collect the outer folds' records (``{method: {"accuracy", "features",
        "chosen_budget"}}``, the automatic choice under the key None; with ``"hits"``
        (per budget, the held-out hits of each class) and ``"counts"`` (the test part's
        samples of each class) a test part of one class makes the table ``pooled``)."""
        table = {key: {} for key in ("accuracy", "se", "features", "fold_accuracy", "fold_features",
                                     "chosen_budgets")}
        records = [fold[name] for fold in per_fold for name in fold]
        pooled = any(0 in record.get("counts", ()) for record in records)
        for name in methods:
            acc = np.array([fold[name]["accuracy"] for fold in per_fold], dtype=float)
            feat = np.array([fold[name]["features"] for fold in per_fold], dtype=float)
            if pooled:
                hits = np.array([fold[name]["hits"] for fold in per_fold], dtype=float)  # (folds, budgets, 2)
                counts = [fold[name]["counts"] for fold in per_fold]
                pairs = [pooled_balanced_accuracy(hits[:, b], counts) for b in range(len(budgets))]
            else:
                pairs = [_mean_and_se(acc[:, b]) for b in range(len(budgets))]
            table["accuracy"][name] = [m for m, _ in pairs]
            table["se"][name] = [s for _, s in pairs]
            table["features"][name] = [_mean_and_se(feat[:, b])[0] for b in range(len(budgets))]
            table["fold_accuracy"][name] = acc.tolist()
            table["fold_features"][name] = feat.tolist()
            table["chosen_budgets"][name] = [fold[name]["chosen_budget"] for fold in per_fold]
        automatic = None
        if automatic_name is not None:
            acc = [fold[None]["accuracy"] for fold in per_fold]
            feat = [fold[None]["features"] for fold in per_fold]
            mean, se = (pooled_balanced_accuracy([fold[None]["hits"] for fold in per_fold],
                                                 [fold[None]["counts"] for fold in per_fold]) if pooled
                        else _mean_and_se(acc))
            automatic = {"name": automatic_name, "accuracy": mean, "se": se, "features": float(np.mean(feat)),
                         "fold_accuracy": acc, "fold_features": feat}
        return cls(methods=list(methods), budgets=list(budgets), **table, automatic=automatic,
                   n_folds=n_folds, inner_cv=inner_cv, pooled=pooled, seconds=seconds)

    def to_dict(self):
        """The JSON form (NaN written as null)."""
        return _to_json(asdict(self))

    @classmethod
    def from_dict(cls, payload):
        """The comparison of :meth:`to_dict`'s output (null read back as NaN)."""
        values = _from_json(dict(payload))
        values["inner_cv"] = payload.get("inner_cv")
        values["pooled"] = bool(payload.get("pooled", False))
        values["automatic"] = None if payload.get("automatic") is None else values["automatic"]
        return cls(**values)

    def to_frame(self):
        """Long format: one row per method and budget (the automatic choice with budget NaN)."""
        import pandas as pd

        rows = [{"method": name, "budget": k, "balanced_accuracy": self.accuracy[name][b],
                 "se": self.se[name][b], "mean_features": self.features[name][b]}
                for name in self.methods for b, k in enumerate(self.budgets)]
        if self.automatic is not None:
            rows.append({"method": self.automatic["name"], "budget": float("nan"),
                         "balanced_accuracy": self.automatic["accuracy"], "se": self.automatic["se"],
                         "mean_features": self.automatic["features"]})
        return pd.DataFrame(rows)

    def format_table(self):
        """Text: balanced accuracy in % +- SE and (mean features) per method and budget."""
        width = max(20, max(len(_cell(a, s, f, 0)) for name in self.methods
                            for a, s, f in zip(self.accuracy[name], self.se[name], self.features[name])) + 2) \
            if self.methods else 20
        label = max([len("method")] + [len(name) for name in self.methods])
        inner = f"chosen by {self.inner_cv}-fold inner CV" if self.inner_cv else "the densest within k"
        over = (f"of the held-out predictions of {self.n_folds} outer folds pooled (some test part holds one "
                "class), +- binomial SE" if self.pooled else
                f"+- SE in {self.n_folds} outer fold{'' if self.n_folds == 1 else 's'}")
        lines = [f"balanced accuracy [%] {over} (mean features); fit per budget: {inner}",
                 "method".ljust(label) + "".join(f"k <= {k}".rjust(width) for k in self.budgets)]
        for name in self.methods:
            lines.append(name.ljust(label) + "".join(
                _cell(a, s, f, width) for a, s, f in zip(self.accuracy[name], self.se[name], self.features[name])))
        if self.automatic is not None:
            a = self.automatic
            spread = "" if np.isnan(a["se"]) else f" +- {100 * a['se']:.1f}"
            lines.append(f"automatic choice ({a['name']}): {100 * a['accuracy']:.1f}{spread} % "
                         f"with {a['features']:.1f} features on average")
        return "\n".join(lines)
