r"""Candidates beyond the path's hard end: unions of the repetitive SFM's subsets.

The soft SFM path (:func:`~sfmlearn.selection.sfm.path.sfm_path`) runs from one feature
to the hard SFM's few; where the information is spread over more features, larger
budgets pay (user guide, choosing C). The repetitive SFM (NC 4.4) supplies them: the
hard SFM, its features removed, refitted, ``max_repetitions`` times; its subsets sorted
by size, R_(1), R_(2), ..., and the union of the first t,

.. math::

    U_t = R_{(1)} \cup \dots \cup R_{(t)},

is a candidate feature set of |U_t| features. On U_t the classifier is the SFM's
``refit="logistic"`` placement (:func:`~sfmlearn.selection._placement.logistic_on_selected`):
L2 logistic regression (C = 1) on the standardised columns with the class weights of the
fit, expressed in the user's feature space (w_j = v_j / s_j, b = c - sum_j w_j m_j).
:class:`~sfmlearn.selection.sfm.softness_cv.SupportFeatureMachineCV` scores these fits
beside the path's in every inner fold, aligned by the number of features.
"""

import contextlib
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from .._placement import logistic_on_selected
from .machine import SupportFeatureMachine

__all__ = ["UNIONS_BASE", "UnionFit", "hyperplane_classifier", "logistic_on_features", "union_fits",
           "union_repetitions", "union_selector"]

#: The repetitive SFM's base estimator behind the unions: the hard SFM, which places no
#: hyperplane (``refit=None``) since only its subsets are used.
UNIONS_BASE = SupportFeatureMachine(refit=None)


@dataclass(frozen=True)
class UnionFit:
    """Logistic regression on the union of the first ``n_subsets`` repetitive-SFM subsets.

    ``features`` are the union's column indices (increasing); ``coef`` (dense, one
    entry per feature of the data) and ``intercept`` the hyperplane in input space;
    ``standardised_coef`` its weights on the standardised columns (v_j, zero outside
    the union), comparable across features as an SFM's ``scaled_coef_``.
    """

    n_subsets: int
    features: np.ndarray
    coef: np.ndarray
    intercept: float
    standardised_coef: np.ndarray

    @property
    def support(self):
        mask = np.zeros(self.coef.size, dtype=bool)
        mask[self.features] = True
        return mask

    def classifier(self, classes):
        """A fitted linear classifier of this hyperplane (labels ``classes``), for scorers."""
        return hyperplane_classifier(self.coef, self.intercept, classes)


class _Hyperplane(ClassifierMixin, BaseEstimator):
    """A fixed hyperplane as a fitted scikit-learn classifier (scorers call ``predict``)."""

    def fixed(self, coef, intercept, classes):
        self.coef_, self.intercept_, self.classes_ = coef, intercept, np.asarray(classes)
        return self

    def decision_function(self, X):
        return np.asarray(X @ self.coef_).ravel() + self.intercept_

    def predict(self, X):
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


def hyperplane_classifier(coef, intercept, classes):
    """The hyperplane ``coef . x + intercept`` (``coef`` dense over all features) as a
    fitted classifier: ``predict`` gives ``classes[1]`` where it is positive."""
    return _Hyperplane().fixed(coef, intercept, classes)


@contextlib.contextmanager
def _quiet_candidates():
    """Silence the warnings of the repetitive SFM's fits (a subset that separates only
    weakly; constant columns, which the path's fits report already): the held-out
    scores judge every candidate."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def union_repetitions(X, y_signed, max_repetitions):
    """The run of the repetitive SFM behind the unions: the hard base SFM, at most
    ``max_repetitions`` repetitions, no chance test, no hyperplane placed on the subsets
    (only they are used). ``X`` is validated data (dense or sparse), ``y_signed`` in
    {-1, +1}; returns its :class:`~sfmlearn.selection.repetitive.path.RepetitionPath`."""
    from ..repetitive.path import run_repetitions  # the repetitive SFM loads with the first union

    with _quiet_candidates():
        return run_repetitions(clone(UNIONS_BASE), X, y_signed, max_repetitions=max_repetitions, chance_alpha=None,
                               label="the unions of the choice of C")


def union_selector(repetitions, max_repetitions, n_subsets, classes, feature_names=None):
    """The fitted :class:`~sfmlearn.RepetitiveSFM` of ``repetitions`` (the
    :func:`union_repetitions` run of ``max_repetitions`` on data with these ``classes``
    and feature names) keeping the union of its first ``n_subsets`` subsets: the run's
    own configuration, without running it again."""
    from ..repetitive import RepetitiveSFM  # the repetitive package imports the SFM

    return RepetitiveSFM.from_repetitions(
        repetitions, classes, feature_names, estimator=clone(UNIONS_BASE), n_subsets=n_subsets,
        max_repetitions=max_repetitions, chance_alpha=None)


def union_fits(X, y_signed, sample_weight, repetitions, larger_than):
    """The :class:`UnionFit` of every union U_t (module docstring) with more than
    ``larger_than`` features, t = 1 .. the subsets of ``repetitions``
    (:func:`union_repetitions` on the same ``X``, ``y_signed``).

    ``sample_weight`` are the fit's per-sample class weights. The hard base SFM finds no
    subset on classes that no feature subset separates: then there is no union.
    """
    return [UnionFit(t, features, *logistic_on_features(X, y_signed, sample_weight, features))
            for t, features in enumerate(repetitions.unions(), start=1) if features.size > larger_than]


def logistic_on_features(X, y_signed, sample_weight, features):
    """The SFM's ``refit="logistic"`` hyperplane on the columns ``features`` of X (dense
    or sparse): ``(coef, intercept, standardised_coef)``, the weights dense over all
    features of X (zero outside ``features``), ``standardised_coef`` those on the
    standardised columns."""
    columns = X[:, features]
    columns = columns.toarray() if sp.issparse(columns) else np.asarray(columns, dtype=np.float64)
    w, b = logistic_on_selected(columns, y_signed, sample_weight)
    sd = columns.std(axis=0)
    sd[sd == 0] = 1.0
    coef, standardised = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    coef[features], standardised[features] = w, w * sd
    return coef, b, standardised
