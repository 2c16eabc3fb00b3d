"""The estimator conventions every selector shares, with sfmlearn's input checks.

* :class:`TwoClassMixin`: the prelude of ``fit`` (unused fit arguments refused, the
  ``_parameter_constraints`` checked, X and y validated once at the edge by
  :func:`sfmlearn._validation.check_binary_problem`), predictions by the sign of the
  decision function, and the matching scikit-learn tags (two classes; sparse input
  where ``_sparse_input`` says so; no NaN).
* :class:`SupportMaskMixin`: what ``SelectorMixin`` needs, from ``support_``.
* :class:`CheckedDecisionMixin`, :class:`CheckedTransformMixin`: scikit-learn's
  ``LinearClassifierMixin.decision_function`` and ``SelectorMixin.transform`` validate X
  themselves, with messages such as "Complex data not supported" followed by the whole
  array. These run :func:`sfmlearn._validation.check_features` instead (its message
  names the problem and the fix) and compute on the array it returns (``transform``
  selects from a numeric NumPy array as given, keeping its dtype), so X is validated, and
  a feature-name mismatch warned about, once.
* :class:`~._probability.PlattProbabilityMixin` (in :class:`TwoClassSelector`):
  ``predict_proba`` from Platt's sigmoid of the decision function, fitted in ``fit``.
* :func:`fit_from_scratch`: the ``fit`` of every selector here replaces the whole fitted
  state, and a fit that raises leaves the estimator unfitted.
"""

import functools
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import check_is_fitted

from .._validation import ACCEPTED_SPARSE, check_binary_problem, check_features, check_fit_params
from ..utils.parameters import forget_fit
from ._probability import PlattProbabilityMixin

__all__ = ["FIT_CALLER", "CheckedDecisionMixin", "CheckedTransformMixin", "LinearTwoClassSelector",
           "SupportMaskMixin", "TrainingSet", "TwoClassMixin", "TwoClassSelector", "fit_from_scratch"]

#: The ``stacklevel`` (as for :func:`warnings.warn`) of the user's line that called a
#: ``fit`` decorated by :func:`fit_from_scratch`, counted from that ``fit``'s body: 1 is the
#: body, 2 the decorator's wrapper, 3 the caller. A warning raised in a function that
#: ``fit`` calls adds one per call in between.
FIT_CALLER = 3


def fit_from_scratch(fit):
    """Decorate an estimator's ``fit``: it starts unfitted and, if it raises, ends unfitted.

    Every fitted attribute is removed (:func:`~sfmlearn.utils.parameters.forget_fit`)
    before the fit, so none that only some settings set survives from an earlier fit,
    and again when the fit raises: a refit that fails (data not separable, one class,
    ...) must not leave the last fit's model beside the new data's ``classes_`` and
    ``n_features_in_``, which would predict the new labels with the old hyperplane.
    """
    @functools.wraps(fit)
    def replacing_fit(self, *args, **kwargs):
        forget_fit(self)
        try:
            return fit(self, *args, **kwargs)
        except Exception:
            forget_fit(self)
            raise
    return replacing_fit


@dataclass(frozen=True)
class TrainingSet:
    """A validated two-class training set: what ``fit`` knows before it fits anything.

    ``X`` (float, sparse kept sparse), ``y`` in {-1, +1} with +1 for ``classes[1]``,
    the sorted ``classes``, and ``n_features`` / ``feature_names`` (None for arrays)
    for the fitted ``n_features_in_`` / ``feature_names_in_``.
    """

    X: object
    y: np.ndarray
    classes: np.ndarray
    n_features: int
    feature_names: np.ndarray | None = None


class TwoClassMixin:
    """Two-class estimators: the ``fit`` prelude, sign predictions and their tags.

    ``_sparse_input`` (class attribute) says whether ``fit`` and the prediction
    methods take scipy.sparse X; the tag ``input_tags.sparse`` follows it.
    """

    _sparse_input = False

    def _training_set(self, X, y, fit_params=None):
        """Validate the arguments of ``fit`` into a :class:`TrainingSet` (no fitted
        attribute is set; scikit-learn's ``validate_data`` records ``n_features_in_``)."""
        check_fit_params(self, fit_params)
        self._validate_params()
        X, y_signed, classes = check_binary_problem(
            self, X, y, accept_sparse=ACCEPTED_SPARSE if self._sparse_input else False)
        return TrainingSet(X, y_signed, classes, X.shape[1],
                           getattr(self, "feature_names_in_", None))

    def _check_fit(self, X, y, fit_params=None):
        """Validate the arguments of ``fit``; sets ``classes_``, returns (X, y as -1/+1).

        ``classes_[1]`` is the positive class (+1).
        """
        training = self._training_set(X, y, fit_params)
        self.classes_ = training.classes
        return training.X, training.y

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = self._sparse_input
        tags.input_tags.allow_nan = False
        return tags


class SupportMaskMixin:
    """``_get_support_mask`` (all ``SelectorMixin`` needs) from the fitted ``support_``."""

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_


class CheckedDecisionMixin:
    """``decision_function`` (and so ``predict``) of a linear classifier
    (``LinearClassifierMixin``) with sfmlearn's input messages."""

    def decision_function(self, X):
        check_is_fitted(self)
        return self._linear_decision(check_features(self, X))

    def _linear_decision(self, X):
        """X @ coef_.T + intercept_ for validated X (the training decision values, and
        :meth:`decision_function`'s after :func:`~sfmlearn._validation.check_features`)."""
        return safe_sparse_dot(X, self.coef_.T, dense_output=True).ravel() + self.intercept_[0]


class CheckedTransformMixin(TransformerMixin):
    """``transform`` (the selected columns) with sfmlearn's input messages; a
    ``TransformerMixin`` itself, so that ``set_output(transform="pandas")`` wraps it."""

    def transform(self, X):
        check_is_fitted(self)
        checked = check_features(self, X)
        numeric = isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "biuf"
        return self._transform(X if numeric else checked)  # a numeric array keeps its dtype


class TwoClassSelector(PlattProbabilityMixin, TwoClassMixin, SupportMaskMixin, CheckedTransformMixin,
                       SelectorMixin, ClassifierMixin, BaseEstimator):
    """A two-class selector-classifier with every convention above: the one base of
    such estimators (subclasses give ``fit``, ``support_`` and ``decision_function``,
    and fit the probabilities with ``_fit_probability`` at the end of ``fit``)."""


class LinearTwoClassSelector(CheckedDecisionMixin, TwoClassSelector, LinearClassifierMixin):
    """A :class:`TwoClassSelector` whose decision function is ``X @ coef_.T + intercept_``."""
