"""Several classes with binary selectors: one-vs-rest and one-vs-one (thesis 6.4).

The SFM separates two classes; the papers leave more classes open and analyse the five
emotions of thesis 6.4 pair by pair (6.4.1) and one against all (6.4.2). These wrappers
fit any binary selector of this package per binary problem through scikit-learn's
:class:`~sklearn.multiclass.OneVsRestClassifier` / :class:`~sklearn.multiclass.OneVsOneClassifier`
(which also combine the binary classifiers: highest decision value, or votes with
decision values breaking ties), and report which features each binary problem needs:

* ``supports_`` -- one boolean row per binary problem (``problems_`` names them);
* ``selection_counts_`` -- in how many problems each feature was selected;
* ``support_`` -- their union, what ``transform`` keeps.

The combined classifier needs a base estimator with ``decision_function`` (the SFM
family); selectors without one (e.g. :class:`~sfmlearn.RepetitiveSFM`) still give
per-problem supports and their union.
"""

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import check_is_fitted

from .._validation import check_fit_params, check_labels
from ._checked import CheckedTransformMixin, SupportMaskMixin
from .sfm.machine import SupportFeatureMachine

__all__ = ["OneVsOneSelector", "OneVsRestSelector"]


class _MulticlassSelector(SupportMaskMixin, CheckedTransformMixin, SelectorMixin, ClassifierMixin,
                          MetaEstimatorMixin, BaseEstimator):
    _wrapper = None
    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "get_support"]), None],
        "n_jobs": [Integral, None],
    }

    def __init__(self, estimator=None, *, n_jobs=None):
        self.estimator = estimator
        self.n_jobs = n_jobs

    def fit(self, X, y, **fit_params):
        """Fit one base selector per binary problem (in parallel with ``n_jobs``)."""
        check_fit_params(self, fit_params)
        self._validate_params()
        base = SupportFeatureMachine() if self.estimator is None else self.estimator
        self.model_ = self._wrapper(clone(base), n_jobs=self.n_jobs).fit(X, check_labels(y))
        self.classes_ = self.model_.classes_
        self.n_features_in_ = self.model_.n_features_in_
        if hasattr(self.model_, "feature_names_in_"):
            self.feature_names_in_ = self.model_.feature_names_in_
        self.estimators_ = self.model_.estimators_
        self.supports_ = np.array([np.asarray(e.get_support(), dtype=bool) for e in self.estimators_])
        self.selection_counts_ = self.supports_.sum(axis=0)
        self.support_ = self.selection_counts_ > 0
        self.problems_ = self._problems()
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        return self.model_.decision_function(X)

    def predict(self, X):
        check_is_fitted(self)
        return self.model_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = False
        tags.classifier_tags.multi_class = True
        return tags


class OneVsRestSelector(_MulticlassSelector):
    """One binary selector per class against all others (thesis 6.4.2).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        Cloned for every class. On one-vs-rest problems the classes are unbalanced: a
        soft SFM with ``class_weight="balanced"`` is usually the right base (NC 2.3.1);
        a hard SFM raises NotSeparableError if a class cannot be separated from the rest.
    n_jobs : int or None
        Binary problems fitted in parallel (joblib).

    Attributes
    ----------
    estimators_ : list
        The fitted base selectors, one per class (a single one for two classes, as in
        scikit-learn).
    problems_ : list of tuple
        ``(class, "rest")`` per estimator.
    supports_, selection_counts_, support_
        Per-problem supports, counts, and their union (see the module docstring).
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.selection.multiclass import OneVsRestSelector
    >>> from sfmlearn import SupportFeatureMachine
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 20)
    >>> X = rng.standard_normal((60, 50))
    >>> X[:, 0] += 4 * (y == 0); X[:, 1] += 4 * (y == 1); X[:, 2] += 4 * (y == 2)
    >>> ovr = OneVsRestSelector(SupportFeatureMachine(C=1.0, class_weight="balanced")).fit(X, y)
    >>> [np.flatnonzero(s).tolist() for s in ovr.supports_]
    [[0], [1], [2]]
    """

    _wrapper = OneVsRestClassifier

    def _problems(self):
        return [(c, "rest") for c in self.classes_] if len(self.estimators_) > 1 else \
            [(self.classes_[1], self.classes_[0])]


class OneVsOneSelector(_MulticlassSelector):
    """One binary selector per pair of classes (thesis 6.4.1).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        Cloned for every pair of classes; each sees only the samples of its two classes.
    n_jobs : int or None
        Pairs fitted in parallel (joblib).

    Attributes
    ----------
    estimators_ : list
        The fitted base selectors, c (c - 1) / 2 of them.
    problems_ : list of tuple
        The class pair ``(a, b)`` of every estimator, in scikit-learn's order.
    supports_, selection_counts_, support_
        Per-pair supports, counts, and their union (see the module docstring).
    classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.selection.multiclass import OneVsOneSelector
    >>> X, y = load_iris(return_X_y=True)
    >>> selector = OneVsOneSelector(SupportFeatureMachine(C=1.0)).fit(X, y)
    >>> selector.supports_.astype(int)   # one row per pair of classes
    array([[0, 0, 1, 0],
           [0, 0, 1, 0],
           [0, 1, 1, 1]])
    >>> selector.support_   # their union
    array([False,  True,  True,  True])
    """

    _wrapper = OneVsOneClassifier

    def _problems(self):
        c = self.classes_
        return [(c[i], c[j]) for i in range(len(c)) for j in range(i + 1, len(c))]
