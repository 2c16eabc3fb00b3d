"""Mixins that validate X in ``decision_function`` / ``transform`` with sfmlearn's messages.

scikit-learn's ``LinearClassifierMixin.decision_function`` and ``SelectorMixin.transform``
validate X themselves, with messages such as "Complex data not supported" followed by
the whole array. These mixins run :func:`sfmlearn._validation.check_features` first (its
message names the problem and the fix) and then hand the original X on unchanged.
"""

from sklearn.utils.validation import check_is_fitted

from .._validation import check_features

__all__ = ["CheckedDecisionMixin", "CheckedTransformMixin"]


class CheckedDecisionMixin:
    """``decision_function`` (and so ``predict``) with sfmlearn's input messages."""

    def decision_function(self, X):
        check_is_fitted(self)
        check_features(self, X)
        return super().decision_function(X)


class CheckedTransformMixin:
    """``transform`` (the selected columns) with sfmlearn's input messages."""

    def transform(self, X):
        check_is_fitted(self)
        check_features(self, X)
        return super().transform(X)
