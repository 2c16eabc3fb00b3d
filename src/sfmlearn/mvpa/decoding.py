"""Leave-one-participant-out decoding (NC 4.3-4.4, thesis 6.3-6.4).

Every participant (or run, for one participant's data) is held out once; the model is
trained on all others -- feature selection included, so the accuracy is not biased by
the selection (thesis 6.2 on the non-independence error) -- and tested on the held-out
maps. Selectors (the SFM, the rSFM with ``n_features_to_select``, ...) also report
every fold's support; their selection frequency across folds is a stability map.
Plain classifiers (a linear SVM on all voxels) report accuracies only.

A held-out group of one class (a run of one condition) has no balanced accuracy of its
own. When every held-out group holds one class, the balanced accuracy pools the held-out
maps of all folds (the mean over the classes of the share of their maps predicted right,
as :func:`~sfmlearn.diagnostics.compare_budgets` does); when only some do, it is the
mean over the others, and :func:`decode` warns.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.model_selection import cross_validate

from .._validation import data_first
from ..diagnostics.budget_result import pooled_balanced_accuracy
from ..model_selection import cross_validate_selection
from ..outputs import to_jsonable
from ..selection import SupportFeatureMachine
from ._checks import check_grouped_problem, leave_one_group_out, plain
from ._docs import mvpa_doc

__all__ = ["Decoding", "decode"]


@mvpa_doc
@dataclass
class Decoding:
    """Outcome of :func:`decode`.

    ``folds`` is a table with one row per held-out group: ``group``, ``n_test``,
    ``held_out_class`` (the class of a group whose maps all have one class, else None),
    ``accuracy``, ``balanced_accuracy`` (NaN for a group of one class), ``n_selected``
    (NaN for plain classifiers). ``supports`` (n_folds, n_features) bool or None;
    ``auc`` the pooled out-of-fold AUC of a selector-classifier (None for plain
    classifiers, which are cross-validated by scikit-learn's ``cross_validate`` and keep
    no scores, and for selectors without ``decision_function`` or ``predict_proba``).

    Parameters
    ----------
    estimator : str
        Class name of the estimator.
    folds : pandas.DataFrame
        One row per held-out group (above).
    supports : ndarray of bool of shape (n_folds, n_features) or None
        Selected features of every fold (selectors only).
    auc : float or None
        Pooled out-of-fold AUC (selector-classifiers with scores only).
    classes : ndarray of shape (2,)
        The two classes.

    Examples
    --------
    %(toy_decoding)s
    >>> result.folds[["group", "accuracy", "n_selected"]].head(3)
       group  accuracy  n_selected
    0      1      1.00           2
    1      2      0.75           1
    2      3      1.00           2
    >>> result.supports.shape, round(float(result.auc), 3)
    ((6, 50), 0.889)
    """

    estimator: str
    folds: pd.DataFrame
    supports: np.ndarray | None
    auc: float | None
    classes: np.ndarray

    @property
    def accuracy(self):
        """Accuracy over all held-out maps (folds weighted by their size)."""
        return float(np.average(self.folds["accuracy"], weights=self.folds["n_test"]))

    @property
    def pooled(self):
        """Whether every held-out group holds one class, so the balanced accuracy pools the folds."""
        return bool(self.folds["held_out_class"].notna().all())

    @property
    def balanced_accuracy(self):
        """Mean over the folds of the held-out balanced accuracy; with :attr:`pooled`, that of
        all held-out maps together (the mean over the classes of the share predicted right).
        Groups of one class are left out of the mean when others hold both classes."""
        folds = self.folds
        if self.pooled:
            hits = np.rint(folds["accuracy"] * folds["n_test"]).to_numpy()
            own = folds["held_out_class"].to_numpy()[:, None] == self.classes[None, :]  # (folds, 2)
            return pooled_balanced_accuracy(own * hits[:, None], own * folds["n_test"].to_numpy()[:, None])[0]
        return float(folds["balanced_accuracy"].dropna().mean())

    @property
    def selection_frequency(self):
        """Fraction of folds that selected each feature (None for plain classifiers)."""
        return None if self.supports is None else self.supports.mean(axis=0)

    def summary(self):
        """JSON-ready dict (NaN written as None): accuracies, selected counts, per-fold rows."""
        n_selected = self.folds["n_selected"]
        return to_jsonable({
            "estimator": self.estimator, "accuracy": self.accuracy,
            "balanced_accuracy": self.balanced_accuracy, "balanced_accuracy_pooled": self.pooled,
            "auc": self.auc, "accuracy_sd": float(self.folds["accuracy"].std(ddof=0)),
            "mean_selected": None if n_selected.isna().all() else float(n_selected.mean()),
            "folds": self.folds.to_dict(orient="records"),
        })


@data_first
@mvpa_doc
def decode(X, y, groups, estimator=None, *, n_jobs=None, progress=None):
    """Leave-one-group-out decoding of two classes.

    Parameters
    ----------
    X : array of shape (n_maps, n_voxels)
    y : two class labels per map
    groups : participant (or run) per map; each is held out once, in sorted order.
    estimator : classifier, default=None
        Cloned per fold; None means :class:`~sfmlearn.SupportFeatureMachine`. With
        ``get_support`` (a selector-classifier such as the SFM) the fold supports are
        kept. Passed first, ``decode(estimator, X, y, groups)`` (the order before 0.2),
        it still works for one release with a ``FutureWarning``.
    n_jobs : int or None
        Folds in parallel (joblib).
    progress : callable, optional
        Called once per finished fold (selectors only).

    Returns
    -------
    Decoding

    Examples
    --------
    %(toy_decoding)s
    >>> round(float(result.folds["accuracy"].mean()), 3)
    0.917
    """
    X, labels, classes, groups = check_grouped_problem(X, y, groups)
    estimator = SupportFeatureMachine() if estimator is None else estimator
    folds = leave_one_group_out(labels, groups)
    rows = pd.DataFrame({"group": [plain(g) for g, _, _ in folds],
                         "n_test": [test.size for _, _, test in folds],
                         "held_out_class": [_only_class(labels[test]) for _, _, test in folds]})
    result = _decode_folds(estimator, X, labels, classes, folds, rows, n_jobs, progress)
    _warn_partly_one_class(result)
    return result


def _only_class(labels):
    """The class of ``labels`` when they all have one, else None."""
    present = np.unique(labels)
    return plain(present[0]) if present.size == 1 else None


def _warn_partly_one_class(result):
    """Warn when some (not all) held-out groups hold one class: the balanced accuracy leaves them out."""
    one_class = result.folds["held_out_class"].notna()
    if one_class.any() and not one_class.all():
        warnings.warn(
            f"held-out groups {result.folds.loc[one_class, 'group'].tolist()} hold one class only and have no "
            f"balanced accuracy; balanced_accuracy is the mean over the other {int((~one_class).sum())} groups. "
            "Give groups that each hold both classes (participants rather than runs) to score every fold.",
            UserWarning, stacklevel=4)  # the caller of decode


def _decode_folds(estimator, X, labels, classes, folds, rows, n_jobs, progress):
    """The Decoding of ``estimator`` on ``folds``, its per-fold scores added to ``rows``."""
    splits = [(train, test) for _, train, test in folds]
    if hasattr(estimator, "get_support"):
        result = cross_validate_selection(estimator, X, labels, cv=splits, n_jobs=n_jobs,
                                          progress=progress)
        rows["accuracy"], rows["balanced_accuracy"] = result.accuracy, result.balanced_accuracy
        rows["n_selected"] = result.n_selected
        return Decoding(type(estimator).__name__, rows, result.supports, result.auc, classes)
    with warnings.catch_warnings():
        # one-class test folds (one run of one class) warn here; their balanced
        # accuracy is set to NaN below
        for message in ("y_pred contains classes not in y_true", "A single label was found"):
            warnings.filterwarnings("ignore", message=message)
        scores = cross_validate(estimator, X, labels, cv=splits, n_jobs=n_jobs,
                                scoring=("accuracy", "balanced_accuracy"))
    rows["accuracy"] = scores["test_accuracy"]
    # scikit-learn's balanced accuracy of a one-class test fold is not meaningful
    rows["balanced_accuracy"] = np.where(rows["held_out_class"].notna(), np.nan, scores["test_balanced_accuracy"])
    rows["n_selected"] = np.nan
    return Decoding(type(estimator).__name__, rows, None, None, classes)
