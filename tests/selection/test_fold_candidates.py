"""The inner folds' scores: the direct balanced accuracy equals scikit-learn's."""

import warnings

import numpy as np
import pytest
from sklearn.metrics import check_scoring

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import make_weston
from sfmlearn.selection.sfm.fold_candidates import fold_scores


@pytest.mark.parametrize("rows", [slice(None), slice(0, 20), slice(20, 40)])
def test_the_default_scorer_is_scikit_learns_balanced_accuracy(rows):
    """On a held-out fold with both classes and on folds of one class (sorted rows)."""
    X, y = make_weston(n_samples=80, n_noise=30, random_state=3)
    y = np.where(y == np.unique(y)[1], 1, -1)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    fitted = SupportFeatureMachine(C=0.05).fit(X[::2], y[::2])
    X_test, y_test = X[1::2][rows], y[1::2][rows]
    estimator = SupportFeatureMachine()
    ours = fold_scores(estimator, "balanced_accuracy", [fitted], [fitted.decision_function(X_test)],
                       X_test, y_test)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns of a class absent from y_true
        theirs = check_scoring(estimator, scoring="balanced_accuracy")(fitted, X_test, y_test)
    assert ours == pytest.approx(theirs)
    assert 0.0 < ours < 1.0


def test_other_scorings_are_scikit_learns():
    X, y = make_weston(n_samples=60, n_noise=20, random_state=0)
    fitted = SupportFeatureMachine(C=0.05).fit(X, y)
    # decision values that contradict the model show that they are not what is scored
    wrong = [-fitted.decision_function(X)]
    score = fold_scores(SupportFeatureMachine(), "accuracy", [fitted], wrong, X, y)[0]
    assert score == pytest.approx(np.mean(fitted.predict(X) == y))
    assert score > 0.5
