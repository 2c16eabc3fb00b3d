"""What one inner fold of the cross-validated SFM computes: its candidates' held-out
scores, supports and signed distances.

Every training fold fits the soft-SFM path (at C n / n_train: the slack term sums C over
the training errors, so the same C is softer on fewer samples) and, with
``max_repetitions``, the unions of the repetitive SFM's subsets beyond the path's densest
fit (:mod:`.unions`). Each candidate is scored on the held-out fold, and its decision
values there are divided by ||w / f|| (f: the SFM's feature scaling) so that Platt's
sigmoid sees distances that are comparable across fits
(:class:`~sfmlearn.selection.sfm.softness_cv.SupportFeatureMachineCV`).
A column constant in a training fold is not reported: the full data's fit names the
constant features once (:class:`~sfmlearn.exceptions.ConstantFeatureWarning`).
"""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import check_scoring
from sklearn.utils._param_validation import InvalidParameterError

from ...exceptions import DataValidationError
from ...model_selection import mean_recall
from ...preprocessing import quiet_constant_features
from .._base import class_sample_weights
from .path import sfm_path
from .unions import hyperplane_classifier, union_fits, union_repetitions

__all__ = ["SIGNED_CLASSES", "check_fold_scoring", "check_inner_scoring", "distance_scale", "feature_factor",
           "fold_candidates", "fold_scores", "signed_balanced_accuracy"]

#: The folds fit on labels -1/+1.
SIGNED_CLASSES = np.array([-1, 1])


def fold_candidates(estimator, X, y, train, test, Cs, scoring, max_repetitions, classes=SIGNED_CLASSES):
    """Scores and decision values on the test fold, and supports, of the candidates fitted
    on the training fold: the path's fits (at C n / n_train, module docstring), then the
    unions of repetitive-SFM subsets beyond its densest fit (:mod:`.unions`; none when
    ``max_repetitions`` is 0). ``y`` holds -1/+1; a scorer other than the default sees
    the user's labels ``classes`` (``classes[1]`` for +1)."""
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]  # one copy of each
    with quiet_constant_features():
        path = sfm_path(X_train, y_train, Cs * (y.size / train.size), estimator=estimator, probability=False)
        models, supports = list(path.estimators), [path.supports]
        if max_repetitions:
            weights = class_sample_weights(y_train, SIGNED_CLASSES, estimator.class_weight)
            repetitions = union_repetitions(X_train, y_train, max_repetitions)
            for union in union_fits(X_train, y_train, weights, repetitions, path.n_features.max()):
                models.append(union.classifier(SIGNED_CLASSES))
                supports.append(union.support[None, :])
    raw = [fitted.decision_function(X_test) for fitted in models]
    scores = fold_scores(estimator, scoring, models, raw, X_test, y_test, classes)
    factor = feature_factor(path.estimators[0])
    decisions = np.array([values / distance_scale(fitted.coef_, factor) for values, fitted in zip(raw, models)])
    return scores, np.vstack(supports), decisions


def fold_scores(estimator, scoring, models, decisions, X_test, y_test, classes=SIGNED_CLASSES):
    """Held-out scores of the fitted ``models`` whose ``decision_function`` on ``X_test``
    gave ``decisions``: scikit-learn's scorer (``check_scoring``), except for the default
    "balanced_accuracy", computed directly from the decision values on the folds' labels
    -1/+1 (every candidate predicts +1 where its decision value is positive): the mean
    recall of the classes in the fold, as ``balanced_accuracy_score``. The inner CV
    scores hundreds of fits, and scikit-learn's input checks and confusion matrix cost
    more than the prediction itself. Another scorer sees every candidate and the fold's
    labels in the user's labels ``classes`` (so that ``pos_label`` means what it says)."""
    if scoring == "balanced_accuracy":
        return np.array([signed_balanced_accuracy(values, y_test) for values in decisions])
    scorer = check_scoring(estimator, scoring=scoring)
    labels = np.asarray(classes)[(np.asarray(y_test) > 0).astype(int)]
    return np.array([scorer(_InUserLabels(fitted, classes), X_test, labels) for fitted in models])


class _InUserLabels(ClassifierMixin, BaseEstimator):
    """A candidate fitted on -1/+1 labels, as a classifier of the user's ``classes``."""

    def __init__(self, fitted=None, classes=None):
        self.fitted, self.classes = fitted, classes

    @property
    def classes_(self):
        return np.asarray(self.classes)

    def decision_function(self, X):
        return self.fitted.decision_function(X)

    def predict(self, X):
        return self.classes_[(np.asarray(self.decision_function(X)) > 0).astype(int)]


def check_inner_scoring(estimator, scoring):
    """Refuse, before any fit, a name that is no scorer, and a scorer that needs
    ``predict_proba``: the inner candidates have decision values only (the probabilities
    are fitted to their held-out values after the choice)."""
    if scoring == "balanced_accuracy":
        return
    try:
        scorer = check_scoring(estimator, scoring=scoring)
    except ValueError:  # scikit-learn's message lists every scorer and names check_scoring
        raise InvalidParameterError(
            f"{type(estimator).__name__}: scoring={scoring!r} is not a scorer; pass a name of "
            "sklearn.metrics.get_scorer_names() (such as 'balanced_accuracy' or 'roc_auc') or a callable "
            "scorer(estimator, X, y).") from None
    response = getattr(scorer, "_response_method", "predict")
    response = (response,) if isinstance(response, str) else tuple(response)
    if not {"predict", "decision_function"} & set(response):
        raise DataValidationError(
            f"scoring={scoring!r} needs predicted probabilities, which the inner candidates do not have "
            "(predict_proba is calibrated after the choice); choose a scorer of labels or decision values, "
            "such as 'balanced_accuracy' or 'roc_auc'.")


def check_fold_scoring(estimator, scoring, X, y_signed, folds, classes=SIGNED_CLASSES):
    """Refuse, before any fit, a scorer that cannot score every test fold: one that fails
    on the labels (``pos_label=1`` for labels "a" and "b") or that has no value on a fold
    holding one class (the AUC on leave-one-out folds). Each fold is scored once with a
    classifier of constant decision 0; the default "balanced_accuracy" scores any fold."""
    if scoring == "balanced_accuracy":
        return
    owner = type(estimator).__name__
    constant = hyperplane_classifier(np.zeros(X.shape[1]), 0.0, SIGNED_CLASSES)
    for number, (_, test) in enumerate(folds):
        y_test = y_signed[test]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                score = fold_scores(estimator, scoring, [constant], [np.zeros(test.size)], X[test], y_test, classes)[0]
        except (ValueError, TypeError) as exc:
            raise DataValidationError(
                f"{owner}: scoring={scoring!r} cannot score the test folds of labels "
                f"{', '.join(map(str, classes))}: {str(exc).rstrip('.')}. "
                "Pass a scorer that knows the labels (make_scorer(..., pos_label=...)) or "
                "scoring='balanced_accuracy'.") from None
        if np.isnan(score) and np.unique(y_test).size < 2:
            only = str(classes[int(y_test[0] > 0)])
            raise DataValidationError(
                f"{owner}: scoring={scoring!r} has no value on a test fold that holds one class (fold "
                f"{number} holds only {only!r}, as leave-one-out folds and groups of one class do); use "
                "folds that hold both classes (e.g. cv=5) or scoring='balanced_accuracy', which scores "
                "the class a fold holds.")


def signed_balanced_accuracy(decision, y_signed):
    """Balanced accuracy of the prediction sign(decision) (+1 where positive, else -1) of
    labels ``y_signed`` in {-1, +1}; a class absent from the fold does not count."""
    return mean_recall(y_signed, np.where(np.asarray(decision) > 0, 1, -1))


def feature_factor(fitted):
    """The factors of the SFM's scaling (z_j = (x_j - m_j) f_j) of a fitted SFM; ones unscaled."""
    scaler = getattr(fitted, "scaler_", None)
    return np.ones(fitted.n_features_in_) if scaler is None else scaler.feature_factor_


def distance_scale(coef, factor):
    """||w / f||: the decision value w . x + b divided by it is the signed distance of x to
    the hyperplane in the SFM's scaled space (1 for w = 0). Platt's sigmoid is fitted to
    these distances: decision values themselves are on each fit's own scale (a hard-margin
    SVM on one feature with a small gap has huge ones), distances are comparable across
    the folds' fits and the final one."""
    coef = np.ravel(coef)  # constant features (factor 0) are never selected: their weight is 0
    norm = float(np.linalg.norm(np.divide(coef, factor, out=np.zeros_like(coef), where=factor > 0)))
    return norm if norm > 0 else 1.0
