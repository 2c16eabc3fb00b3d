r"""Several classes with binary selectors: one-vs-rest and one-vs-one (thesis 6.4).

The SFM separates two classes; the papers leave more classes open and analyse the five
emotions of thesis 6.4 pair by pair (6.4.1) and one against all (6.4.2). These wrappers
fit any binary selector of this package per binary problem through scikit-learn's
:class:`~sklearn.multiclass.OneVsRestClassifier` / :class:`~sklearn.multiclass.OneVsOneClassifier`
(how the binary classifiers are combined is below), and report which features each
binary problem needs:

* ``supports_`` -- one boolean row per binary problem (``problems_`` names them);
* ``selection_counts_`` -- in how many problems each feature was selected;
* ``support_`` -- their union, what ``transform`` keeps.

The combined classifier needs a base estimator with ``decision_function`` (the SFM
family); selectors without one (e.g. :class:`~sfmlearn.RepetitiveSFM`) still give
per-problem supports and their union.

``predict_proba`` (with a base estimator that has it, as every SFM-family classifier)
combines the binary probabilities, and the two wrappers relate it to ``predict`` differently:

* one-vs-rest compares the classes on the scale of these probabilities. Each binary
  estimator's decision values have a scale of their own (the SFM puts its two class means
  one unit apart, whatever their spread), so the raw values of two classes are not
  comparable; their log-odds
  :math:`\log P(k \mid x) - \log(1 - P(k \mid x))` are. ``decision_function`` returns
  these log-odds (for the SFM family, Platt's rescaling of the decision value, with the
  same sign), ``predict`` takes the class of the largest, and ``predict_proba``
  normalises the :math:`P(k \mid x)` to sum to 1 per sample (as scikit-learn's
  ``OneVsRestClassifier``), so its argmax is ``predict``. With a base estimator without
  probabilities, the classes are compared on their raw decision values.
* one-vs-one predicts by votes (scikit-learn's ``OneVsOneClassifier``: the most pairs won,
  ties broken by the decision values; ``decision_function`` holds them), and couples the
  pairwise probabilities :math:`r_{ij} = P(i \mid i \text{ or } j, x)` into class
  probabilities by Wu, Lin & Weng's second method (:func:`pairwise_coupling`). These are two
  estimates: the argmax of ``predict_proba`` can differ from ``predict`` where classes are
  close (a class that wins most pairs, narrowly, can have the lower coupled probability).
  Use ``predict_proba(X).argmax(axis=1)`` where the class must follow the probabilities.
"""

import numpy as np
from scipy.special import log_expit, logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone, is_regressor
from sklearn.feature_selection import SelectorMixin
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from sklearn.utils._param_validation import HasMethods, InvalidParameterError
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from .._validation import check_features, check_fit_params, check_labels, check_xy
from ..exceptions import DataValidationError
from ._checked import CheckedTransformMixin, SupportMaskMixin, fit_from_scratch
from ._constraints import N_JOBS
from .sfm.machine import SupportFeatureMachine

__all__ = ["OneVsOneSelector", "OneVsRestSelector"]

#: The pairwise probabilities are kept in [MIN_PAIR_PROBABILITY, 1 - MIN_PAIR_PROBABILITY]
#: before the coupling (libsvm's bound), so that its matrix Q stays positive definite.
MIN_PAIR_PROBABILITY = 1e-7


def pairwise_coupling(pair_probabilities, pairs, n_classes):
    r"""Class probabilities from pairwise ones (Wu, Lin & Weng, *JMLR* 5:975, 2004, method 2).

    With :math:`r_{ij} = P(y = i \mid y \in \{i, j\}, x)` (and :math:`r_{ji} = 1 - r_{ij}`),
    p solves

    .. math::

        \min_p \sum_i \sum_{j \ne i} (r_{ji} p_i - r_{ij} p_j)^2 \quad \text{s.t.} \quad
        \sum_i p_i = 1,

    i.e. :math:`Q p = b \mathbf{1}` with :math:`Q_{ii} = \sum_{j \ne i} r_{ji}^2`,
    :math:`Q_{ij} = -r_{ji} r_{ij}`, whose solution
    the paper shows to be non-negative; solved per sample as that linear system (libsvm's
    multi-class probabilities solve the same problem iteratively).

    Parameters
    ----------
    pair_probabilities : ndarray of shape (n_samples, n_pairs)
        :math:`r_{ij}` for each pair (i, j) of ``pairs``.
    pairs : sequence of (int, int)
        The class indices (i, j) of every column.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        Rows sum to 1.
    """
    r = np.clip(pair_probabilities, MIN_PAIR_PROBABILITY, 1.0 - MIN_PAIR_PROBABILITY)
    n = r.shape[0]
    system = np.zeros((n, n_classes + 1, n_classes + 1))
    for column, (i, j) in enumerate(pairs):
        r_ij, r_ji = r[:, column], 1.0 - r[:, column]
        system[:, i, i] += r_ji**2
        system[:, j, j] += r_ij**2
        system[:, i, j] -= r_ij * r_ji
        system[:, j, i] -= r_ij * r_ji
    system[:, :n_classes, n_classes] = 1.0
    system[:, n_classes, :n_classes] = 1.0
    rhs = np.zeros((n, n_classes + 1, 1))
    rhs[:, n_classes] = 1.0
    p = np.linalg.solve(system, rhs)[:, :n_classes, 0]
    p = np.clip(p, 0.0, None)  # p >= 0 in exact arithmetic; only rounding can cross zero
    return p / p.sum(axis=1, keepdims=True)


def _base_has(method):
    """For ``available_if``: whether the (default) base estimator has ``method``. A base
    that only selects (such as :class:`~sfmlearn.RepetitiveSFM`) gives a wrapper that only
    selects: its supports are kept, and asking it to classify raises scikit-learn's
    "has no attribute" error instead of failing inside the binary estimators."""
    def check(self):
        return hasattr(SupportFeatureMachine() if self.estimator is None else self.estimator, method)
    return check


class _MulticlassSelector(SupportMaskMixin, CheckedTransformMixin, SelectorMixin, ClassifierMixin,
                          MetaEstimatorMixin, BaseEstimator):
    _wrapper = None
    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "get_support"]), None],
        "n_jobs": N_JOBS,
    }

    def __init__(self, estimator=None, *, n_jobs=None):
        self.estimator = estimator
        self.n_jobs = n_jobs

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Fit one base selector per binary problem (in parallel with ``n_jobs``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.
        **fit_params
            Not supported (refused with a message that says what to use instead).

        Returns
        -------
        self
        """
        check_fit_params(self, fit_params)
        self._validate_params()
        y = check_labels(y)
        if y.dtype.kind == "O":  # scikit-learn's wrappers cannot type labels held as objects
            y = np.asarray(y.tolist())
        y = self._check_classes(y)
        # Validated once here, for the whole X: the binary problems get the checked array.
        # (validate_data also sets n_features_in_ and sets or removes feature_names_in_.)
        X, y = check_xy(self, X, y)
        base = self._checked_base()
        self.model_ = self._wrapper(clone(base), n_jobs=self.n_jobs).fit(X, y)
        self.classes_ = self.model_.classes_
        self.estimators_ = self.model_.estimators_
        self.supports_ = np.array([np.asarray(e.get_support(), dtype=bool) for e in self.estimators_])
        self.selection_counts_ = self.supports_.sum(axis=0)
        self.support_ = self.selection_counts_ > 0
        self.problems_ = self._problems(self.classes_.tolist())  # plain Python labels
        return self

    def _checked_base(self):
        """The base estimator (default: the SFM); a subclass refuses the ones it cannot combine."""
        return SupportFeatureMachine() if self.estimator is None else self.estimator

    def _check_classes(self, y):
        """y as class labels of at least two classes, refused before any fit otherwise."""
        if type_of_target(y, input_name="y") == "continuous":
            raise DataValidationError(
                f"y looks continuous (real-valued), but {type(self).__name__} needs class "
                "labels. Pass class labels, e.g. np.digitize(y, bins) for ranges of y.")
        classes = np.unique(y)
        if classes.size == 1:  # (no labels at all: check_xy names the empty data)
            raise DataValidationError(
                f"y holds one class ({classes.tolist()[0]!r}); {type(self).__name__} separates "
                "two or more classes. Pass samples of at least two classes.")
        return y

    def _checked(self, X):
        """X for prediction, checked against fit (one message for every wrapper)."""
        check_is_fitted(self)
        return check_features(self, X)

    @available_if(_base_has("decision_function"))
    def decision_function(self, X):
        """Scikit-learn's combined decision values (one-vs-one: votes plus the decision
        values that break ties).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
        """
        X = self._checked(X)  # first: unfitted, this raises NotFittedError
        return self.model_.decision_function(X)

    @available_if(_base_has("predict"))
    def predict(self, X):
        """The class of the largest :meth:`decision_function` (one-vs-one: the most votes;
        not always the argmax of ``predict_proba``, see the module docstring).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._checked(X)
        return self.model_.predict(X)

    @available_if(_base_has("predict_proba"))
    def predict_log_proba(self, X):
        """Log of :meth:`predict_proba`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = False
        tags.classifier_tags.multi_class = True
        return tags


class OneVsRestSelector(_MulticlassSelector):
    """One binary selector per class against all others (thesis 6.4.2).

    The classifier predicts the class whose estimator gives the largest log-odds, the
    argmax of ``predict_proba`` (see the module docstring).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        Cloned for every class. On one-vs-rest problems the classes are unbalanced: a
        soft SFM with ``class_weight="balanced"`` is usually the right base (NC 2.3.1);
        a hard SFM raises NotSeparableError if a class cannot be separated from the rest.
    n_jobs : int or None
        Binary problems fitted in parallel (joblib); not 0.

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

    def _log_odds(self, X):
        """Per-class log-odds of the binary estimators (columns in ``classes_`` order), or
        None where there is one binary problem or the base has no probabilities."""
        if len(self.estimators_) == 1 or not hasattr(self.estimators_[0], "predict_proba"):
            return None
        columns = []
        for estimator in self.estimators_:
            if hasattr(estimator, "predict_log_proba"):
                log_p = estimator.predict_log_proba(X)
            else:
                with np.errstate(divide="ignore"):
                    log_p = np.log(estimator.predict_proba(X))
            columns.append(log_p[:, 1] - log_p[:, 0])
        return np.column_stack(columns)

    @available_if(_base_has("decision_function"))
    def decision_function(self, X):
        """Per-class log-odds of the binary estimators (see the module docstring).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) for two classes
            Column k is :math:`\\log P(k \\mid x) - \\log(1 - P(k \\mid x))` of class k's
            estimator (its raw decision value with a base without probabilities). For two
            classes, the one estimator's decision value (positive: ``classes_[1]``).
        """
        X = self._checked(X)
        log_odds = self._log_odds(X)
        return self.model_.decision_function(X) if log_odds is None else log_odds

    @available_if(_base_has("predict"))
    def predict(self, X):
        """The class whose estimator gives the largest log-odds (the argmax of
        :meth:`predict_proba`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._checked(X)
        log_odds = self._log_odds(X)
        if log_odds is None:
            return self.model_.predict(X)
        return self.classes_[np.argmax(log_odds, axis=1)]

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X):
        """Per-class probabilities P(k | x) of the binary estimators, normalised to sum
        to 1 per sample (columns in ``classes_`` order); their argmax is :meth:`predict`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.exp(self.predict_log_proba(X))

    @available_if(_base_has("predict_proba"))
    def predict_log_proba(self, X):
        """Log of :meth:`predict_proba`, computed without taking the log of 0.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._checked(X)
        log_odds = self._log_odds(X)
        if log_odds is None:
            with np.errstate(divide="ignore"):
                return np.log(self.model_.predict_proba(X))
        log_p = log_expit(log_odds)  # log P(k | x) of each binary estimator
        return log_p - logsumexp(log_p, axis=1, keepdims=True)

    def _problems(self, c):
        return [(k, "rest") for k in c] if len(self.estimators_) > 1 else [(c[1], c[0])]


class OneVsOneSelector(_MulticlassSelector):
    """One binary selector per pair of classes (thesis 6.4.1).

    The classifier predicts by votes; ``predict_proba`` couples the pairwise probabilities,
    and its argmax can differ from the votes where classes are close (see the module
    docstring).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        Cloned for every pair of classes; each sees only the samples of its two classes.
        Not a regressor (its predictions cast no votes; ``fit`` refuses it).
    n_jobs : int or None
        Pairs fitted in parallel (joblib); not 0.

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

    def _checked_base(self):
        """The base estimator; a regressor is refused: the votes count the pairs each class
        wins, and a regressor's real-valued predictions win none (scikit-learn's
        ``OneVsOneClassifier`` then names one class for every sample)."""
        base = super()._checked_base()
        if is_regressor(base):
            raise InvalidParameterError(
                f"OneVsOneSelector needs a classifier as its estimator; {type(base).__name__} is a "
                "regressor, whose predictions are no class labels to vote with. Use a two-class "
                "classifier, e.g. PotentialSVM (the P-SVM classifier) or SupportFeatureMachine.")
        return base

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities coupled from the pairwise ones (:func:`pairwise_coupling`),
        columns in ``classes_`` order.

        An estimate separate from the votes of :meth:`predict`: where classes are close,
        its argmax can name another class than :meth:`predict` (see the module docstring).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._checked(X)
        n = len(self.classes_)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        # Each binary estimator's classes_ are (i, j): column 0 is P(i | i or j).
        pair_probabilities = np.column_stack([e.predict_proba(X)[:, 0] for e in self.estimators_])
        return pairwise_coupling(pair_probabilities, pairs, n)

    def _problems(self, c):
        return [(c[i], c[j]) for i in range(len(c)) for j in range(i + 1, len(c))]
