"""Filter scores (thesis 2.6.3) against direct computations, and Golub's classifier."""

import numpy as np
import pytest
from scipy import stats
from sklearn.feature_selection import SelectKBest
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn.exceptions import DataValidationError
from sfmlearn.selection import GolubClassifier, fisher_score, golub_score, relief, t_score


@parametrize_with_checks([GolubClassifier(n_features_to_select=2)])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    y = np.where(rng.random(40) > 0.45, "tumour", "normal")
    X[y == "tumour", 0] += 1.5
    X[y == "tumour", 1] -= 1.2
    return X, y


def test_fisher_and_golub_scores_match_the_thesis_formulas(data):
    X, y = data
    pos, neg = X[y == "tumour"], X[y == "normal"]  # "tumour" sorts last: positive class
    for j in range(6):
        a, b = pos[:, j], neg[:, j]
        fisher = (a.mean() - b.mean()) ** 2 / (np.var(a, ddof=1) + np.var(b, ddof=1))
        golub = abs(a.mean() - b.mean()) / (np.std(a, ddof=1) + np.std(b, ddof=1))
        assert fisher_score(X, y)[0][j] == pytest.approx(fisher)
        assert golub_score(X, y)[0][j] == pytest.approx(golub)
    assert fisher_score(X, y)[1] is None


def test_t_score_is_welchs_test(data):
    X, y = data
    t, p = t_score(X, y)
    reference = stats.ttest_ind(X[y == "tumour"], X[y == "normal"], equal_var=False)
    np.testing.assert_allclose(t, np.abs(reference.statistic))
    np.testing.assert_allclose(p, reference.pvalue)


def _relief_loop(X, y):
    """Thesis Fig. 2.11 written as plain loops over samples and features."""
    span = X.max(axis=0) - X.min(axis=0)
    n, d = X.shape
    w = np.zeros(d)
    for i in range(n):
        dist = [np.inf if k == i else sum(abs(X[i, j] - X[k, j]) / span[j] for j in range(d))
                for k in range(n)]
        hit = min((k for k in range(n) if y[k] == y[i] and k != i), key=lambda k: (dist[k], k))
        miss = min((k for k in range(n) if y[k] != y[i]), key=lambda k: (dist[k], k))
        for j in range(d):
            w[j] += (abs(X[i, j] - X[miss, j]) - abs(X[i, j] - X[hit, j])) / span[j] / n
    return w


def test_relief_matches_the_algorithm_and_ranks_the_informative_feature_first(data):
    X, y = data
    weights, pvalues = relief(X, y)
    np.testing.assert_allclose(weights, _relief_loop(X, y), atol=1e-12)
    assert pvalues is None and np.argmax(weights) == 0
    sampled, _ = relief(X, y, n_iterations=200, random_state=0)
    np.testing.assert_array_equal(sampled, relief(X, y, n_iterations=200, random_state=0)[0])


def test_scores_plug_into_select_k_best(data):
    X, y = data
    for score in (fisher_score, golub_score, t_score):
        assert set(np.flatnonzero(SelectKBest(score, k=2).fit(X, y).get_support())) == {0, 1}
    assert np.flatnonzero(SelectKBest(relief, k=1).fit(X, y).get_support()).tolist() == [0]


def test_constant_within_class_features_score_zero_or_infinity():
    X = np.array([[1.0, 5.0], [1.0, 5.0], [2.0, 5.0], [2.0, 5.0]])
    y = [0, 0, 1, 1]
    scores, _ = fisher_score(X, y)
    assert scores[0] == np.inf and scores[1] == 0.0
    model = GolubClassifier(n_features_to_select=None).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), y)


def test_golub_classifier_votes_around_the_class_midpoint(data):
    X, y = data
    model = GolubClassifier(n_features_to_select=2).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(model.support_), [0, 1])
    pos, neg = X[y == "tumour"], X[y == "normal"]
    w = (pos.mean(0) - neg.mean(0)) / (pos.std(0, ddof=1) + neg.std(0, ddof=1))
    w[2:] = 0
    np.testing.assert_allclose(model.decision_function(X), (X - (pos.mean(0) + neg.mean(0)) / 2) @ w)
    assert model.coef_[0, 1] < 0 < model.coef_[0, 0]  # signed scores


def test_scores_reject_more_than_two_classes():
    with pytest.raises(DataValidationError, match="two classes"):
        fisher_score(np.zeros((6, 2)), [0, 1, 2, 0, 1, 2])


def test_relief_parameters_fail_like_every_estimator_parameter():
    # Parameter checks are scikit-learn's constraints everywhere (InvalidParameterError,
    # a ValueError naming the parameter), also for the score functions.
    from sklearn.utils._param_validation import InvalidParameterError

    X = np.arange(20.0).reshape(10, 2)
    y = np.repeat([0, 1], 5)
    for bad in (0, 2.5, "10"):
        with pytest.raises(InvalidParameterError, match="'n_iterations' parameter of relief"):
            relief(X, y, n_iterations=bad)
