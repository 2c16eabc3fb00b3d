"""One-line tuned selectors: ML05's searches answer get_support, and the
repetitive SFM chooses how many subsets to keep by inner cross-validation."""

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn import RepetitiveSFM
from sfmlearn.datasets import make_basic, make_weston
from sfmlearn.model_selection import cross_validate_selection
from sfmlearn.selection import L1SVM, ml05_search


def test_ml05_search_is_a_tuned_selector_in_one_line():
    X, y = make_weston(60, 20, random_state=0)
    search = ml05_search(L1SVM(), random_state=0).fit(X, y)
    best = search.best_estimator_
    np.testing.assert_array_equal(search.get_support(), best.get_support())
    np.testing.assert_array_equal(search.get_support(indices=True), np.flatnonzero(best.support_))
    assert search.support_.shape == (X.shape[1],)
    # usable wherever a selector is: per-fold supports of the tuned selector
    cv = cross_validate_selection(ml05_search(L1SVM(), random_state=0), X, y, cv=3, random_state=0)
    assert cv.supports.shape == (3, X.shape[1]) and cv.supports.any()


@pytest.fixture(scope="module")
def rsfm():
    X, y = make_basic(40, 200, 20, class_distance=1.0, random_state=0)
    return X, y, RepetitiveSFM(n_subsets="auto", max_repetitions=6, random_state=0).fit(X, y)


def test_n_subsets_auto_takes_the_best_mean_held_out_score(rsfm):
    X, y, model = rsfm
    scores = model.n_subsets_scores_
    assert scores.shape == (5, 6)
    mean = np.nanmean(scores, axis=0)
    assert model.n_subsets_ == int(np.nanargmax(mean[: len(model.subsets_)])) + 1
    kept = np.concatenate(model.subsets_by_size_[: model.n_subsets_])
    np.testing.assert_array_equal(np.flatnonzero(model.support_), np.sort(kept))


def test_n_subsets_is_validated():
    X, y = make_basic(20, 30, 5, class_distance=1.0, random_state=0)
    with pytest.raises(InvalidParameterError, match="n_subsets"):
        RepetitiveSFM(n_subsets="many").fit(X, y)
    fixed = RepetitiveSFM(n_subsets=2, max_repetitions=3).fit(X, y)
    assert fixed.n_subsets_ == 2
