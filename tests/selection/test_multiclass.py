"""One-vs-rest and one-vs-one wrappers: per-problem supports, their union, the classifier."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn import PotentialSVM, PotentialSVR, RepetitiveSFM, SupportFeatureMachine
from sfmlearn.exceptions import DataValidationError
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


# -- input checks: the same mistake gives the same message in both wrappers -------------
WRAPPERS = [OneVsRestSelector, OneVsOneSelector]


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_a_refit_replaces_every_fitted_attribute(three_classes, wrapper):
    X, y = three_classes
    model = wrapper(SOFT).fit(pd.DataFrame(X, columns=[f"f{j}" for j in range(63)]), y)
    assert model.get_feature_names_out().tolist() == [f"f{j}" for j in np.flatnonzero(model.support_)]
    keep = y != "cat"
    model.fit(X[keep, :10], y[keep])  # a plain array, fewer columns, two classes
    assert not hasattr(model, "feature_names_in_")
    assert model.n_features_in_ == 10 and model.supports_.shape[1] == 10
    assert model.get_feature_names_out().tolist() == [f"x{j}" for j in np.flatnonzero(model.support_)]
    assert model.classes_.tolist() == ["ant", "bee"] and len(model.estimators_) == 1
    assert model.problems_ == ([("bee", "ant")] if wrapper is OneVsRestSelector else [("ant", "bee")])


class _MustNotFit(SupportFeatureMachine):
    def fit(self, X, y):
        raise AssertionError("a base estimator was fitted")


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("n_samples", [1, 10])
def test_one_class_is_refused_before_any_fit(wrapper, n_samples):
    X = np.random.default_rng(0).standard_normal((n_samples, 4))
    with pytest.raises(DataValidationError) as caught:
        wrapper(_MustNotFit()).fit(X, np.array(["a"] * n_samples))
    assert str(caught.value) == (
        f"y holds one class ('a'); {wrapper.__name__} separates two or more classes. Pass "
        "samples of at least two classes.")


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_n_jobs_zero_is_refused_by_parameter_validation(three_classes, wrapper):
    X, y = three_classes
    with pytest.raises(InvalidParameterError, match="'n_jobs' parameter"):
        wrapper(_MustNotFit(), n_jobs=0).fit(X, y)


def _wrong_columns(X, y, wrapper, method):
    getattr(wrapper(SOFT).fit(X, y), method)(X[:, :-1])


def _nan_column(X, y, wrapper):
    X = X.copy()
    X[:, 5] = np.nan
    wrapper(_MustNotFit()).fit(X, y)


def _continuous_y(X, y, wrapper):
    wrapper(_MustNotFit()).fit(X, np.random.default_rng(0).random(len(y)))


@pytest.mark.parametrize("mistake, expected", [
    (lambda X, y, w: _wrong_columns(X, y, w, "predict"), "X has 62 features, but {} is expecting 63"),
    (lambda X, y, w: _wrong_columns(X, y, w, "decision_function"), "X has 62 features, but {} is expecting 63"),
    (lambda X, y, w: _wrong_columns(X, y, w, "predict_proba"), "X has 62 features, but {} is expecting 63"),
    (_nan_column, "X contains 60 NaN (missing) and 0 infinite values."),
    (_continuous_y, "y looks continuous (real-valued), but {} needs class labels."),
], ids=["predict", "decision_function", "predict_proba", "nan", "continuous"])
def test_both_wrappers_refuse_a_mistake_with_the_same_message(three_classes, mistake, expected):
    X, y = three_classes
    messages = []
    for wrapper in WRAPPERS:
        with pytest.raises(DataValidationError) as caught:
            mistake(X, y, wrapper)
        messages.append(str(caught.value).replace(wrapper.__name__, "{}"))
        assert expected.format(wrapper.__name__) in str(caught.value)
    assert messages[0] == messages[1]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("method", ["decision_function", "predict", "predict_proba", "transform"])
def test_an_unfitted_wrapper_says_so(three_classes, wrapper, method):
    with pytest.raises(NotFittedError):
        getattr(wrapper(SOFT), method)(three_classes[0])


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_problems_name_the_classes_as_plain_python_values(three_classes, wrapper):
    X, y = three_classes
    codes = np.searchsorted(["ant", "bee", "cat"], y) + 1  # NumPy int64 labels 1, 2, 3
    for labels, first in [(y, "('ant', "), (codes, "(1, ")]:
        problems = wrapper(SOFT).fit(X, labels).problems_
        assert repr(problems).startswith("[" + first), repr(problems)


@pytest.mark.parametrize("wrapper", [OneVsRestSelector, OneVsOneSelector])
def test_labels_held_as_objects_fit_like_their_values(wrapper):
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20)
    X = rng.standard_normal((60, 12))
    X[np.arange(60), y] += 3.0
    base = SupportFeatureMachine(C=1.0, class_weight="balanced")
    as_objects = wrapper(base).fit(X, pd.Series(y, dtype=object))
    as_ints = wrapper(base).fit(X, y)
    assert as_objects.classes_.tolist() == [0, 1, 2]
    assert np.array_equal(as_objects.predict(X), as_ints.predict(X))


@pytest.mark.parametrize("wrapper", [OneVsRestSelector, OneVsOneSelector])
def test_a_base_that_only_selects_gives_a_wrapper_that_only_selects(wrapper):
    """RepetitiveSFM selects but does not classify: the wrapper keeps the supports and
    has no predict or decision_function (scikit-learn's message, not one from inside)."""
    from sfmlearn import RepetitiveSFM

    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.standard_normal((60, 30))
    for k in range(3):
        X[:, k] += 4.0 * (y == "abc"[k])
    selector = wrapper(RepetitiveSFM(max_repetitions=1)).fit(X, y)
    assert selector.support_[:3].all()
    for method in ("predict", "decision_function", "predict_proba"):
        assert not hasattr(selector, method)
        with pytest.raises(AttributeError, match=f"has no attribute '{method}'"):
            getattr(selector, method)
    with pytest.raises(AttributeError, match="has no attribute 'predict'"):
        selector.score(X, y)


class _PSVRMustNotFit(PotentialSVR):
    def fit(self, X, y):
        raise AssertionError("a base estimator was fitted")


def test_one_vs_one_refuses_a_regressor_base_before_any_fit(three_classes):
    X, y = three_classes
    with pytest.raises(InvalidParameterError, match="_PSVRMustNotFit is a regressor.*e.g. PotentialSVM"):
        OneVsOneSelector(_PSVRMustNotFit()).fit(X, y)
    # The classifier it names works; one-vs-rest ranks a regressor's outputs, as scikit-learn's.
    assert OneVsOneSelector(PotentialSVM()).fit(X, y).score(X, y) == 1.0
    assert OneVsRestSelector(PotentialSVR()).fit(X, y).score(X, y) == 1.0
