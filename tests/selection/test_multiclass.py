"""One-vs-rest and one-vs-one wrappers: per-problem supports, their union, the classifier."""

import numpy as np
import pytest

from sfmlearn import RepetitiveSFM, SupportFeatureMachine
from sfmlearn.selection.multiclass import OneVsOneSelector, OneVsRestSelector

SOFT = SupportFeatureMachine(C=1.0, class_weight="balanced")


@pytest.fixture(scope="module")
def three_classes():
    """Class c has feature c shifted by +4; 60 noise features besides."""
    rng = np.random.default_rng(0)
    y = np.repeat(["ant", "bee", "cat"], 20)
    X = rng.standard_normal((60, 63))
    for c, label in enumerate(["ant", "bee", "cat"]):
        X[y == label, c] += 4.0
    return X, y


def test_one_vs_rest_finds_each_class_marker(three_classes):
    X, y = three_classes
    ovr = OneVsRestSelector(SOFT).fit(X, y)
    assert ovr.problems_ == [("ant", "rest"), ("bee", "rest"), ("cat", "rest")]
    assert [np.flatnonzero(s).tolist() for s in ovr.supports_] == [[0], [1], [2]]
    np.testing.assert_array_equal(np.flatnonzero(ovr.support_), [0, 1, 2])
    np.testing.assert_array_equal(ovr.selection_counts_[:3], [1, 1, 1])
    assert ovr.transform(X).shape == (60, 3)
    assert ovr.score(X, y) > 0.9
    assert ovr.decision_function(X).shape == (60, 3)


def test_one_vs_one_fits_each_pair_on_its_own_samples(three_classes):
    X, y = three_classes
    ovo = OneVsOneSelector(SOFT).fit(X, y)
    assert ovo.problems_ == [("ant", "bee"), ("ant", "cat"), ("bee", "cat")]
    for (a, b), support in zip(ovo.problems_, ovo.supports_):
        pair = np.isin(y, [a, b])
        direct = SupportFeatureMachine(C=1.0, class_weight="balanced").fit(X[pair], y[pair])
        np.testing.assert_array_equal(support, direct.support_)
        markers = {"ant": 0, "bee": 1, "cat": 2}
        assert 0 < support.sum() and set(np.flatnonzero(support)) <= {markers[a], markers[b]}
    np.testing.assert_array_equal(ovo.selection_counts_, ovo.supports_.sum(axis=0))
    np.testing.assert_array_equal(ovo.support_, ovo.supports_.any(axis=0))
    assert ovo.score(X, y) > 0.9


def test_parallel_fits_give_the_same_supports(three_classes):
    X, y = three_classes
    serial = OneVsOneSelector(SOFT).fit(X, y)
    parallel = OneVsOneSelector(SOFT, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(serial.supports_, parallel.supports_)


def test_selectors_without_a_classifier_still_report_supports(three_classes):
    X, y = three_classes
    ovr = OneVsRestSelector(RepetitiveSFM(SOFT, max_repetitions=2, chance_alpha=None)).fit(X, y)
    assert ovr.supports_.shape == (3, 63)
    for c in range(3):
        assert ovr.supports_[c, c]  # each class marker is in its first subset
    with pytest.raises(AttributeError):
        ovr.predict(X)


def test_two_classes_give_one_binary_problem(three_classes):
    X, y = three_classes
    keep = y != "cat"
    ovr = OneVsRestSelector(SOFT).fit(X[keep], y[keep])
    assert len(ovr.estimators_) == 1 and ovr.problems_ == [("bee", "ant")]
