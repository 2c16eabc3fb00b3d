"""The Potential SVM: the chapter's toy claims, the fitted model's meaning, sklearn checks."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from sfmlearn import NonlinearPSVM, PotentialSVM, PotentialSVR
from sfmlearn.datasets import make_psvm_nonlinear, make_psvm_redundancy
from sfmlearn.exceptions import DataValidationError
from sfmlearn.selection.competitors.psvm.mlp import _forward, unit_targets


def standardise(X):
    """Unit-length centred columns: the P-SVM's F."""
    centred = X - X.mean(axis=0)
    return centred / np.linalg.norm(centred, axis=0)


# -- PSVM 3.1: correlation is not what the P-SVM selects on -------------------------

def test_feature_uncorrelated_with_target_is_selected_because_it_cancels_another():
    X, t = make_psvm_redundancy("cancel")
    assert abs(np.corrcoef(X[:, 0], t)[0, 1]) < 1e-12
    model = PotentialSVR(epsilon=0.05).fit(X, t)
    assert model.support_.tolist() == [True, True]
    # f1 enters with the sign that cancels part of f2 (t = f1 + f2).
    assert model.alpha_[0] > 0 and model.alpha_[1] > 0


def test_most_target_correlated_feature_is_not_selected_because_it_is_redundant():
    X, t = make_psvm_redundancy("redundant")
    correlations = np.abs(np.corrcoef(X.T, t)[-1, :3])
    assert np.argmax(correlations) == 0  # f1: 0.9 against 0.71
    exact = PotentialSVR(epsilon=0.0).fit(X, t)  # no tolerance: t = f2 + f3 exactly
    assert exact.support_.tolist() == [False, True, True]
    assert abs(exact.alpha_[0]) < 1e-9
    # With a small tolerance f1 is the least relevant feature, not the most.
    small = PotentialSVR(epsilon=0.05).fit(X, t)
    assert small.relevance_[0] < small.relevance_[1:].min()


# -- PSVM 3.2, Table 1 (top): redundancy control ------------------------------------

def test_smaller_C_selects_more_of_the_six_redundant_relevant_features():
    relevant_found = {10.0: 0, 1.0: 0, 0.5: 0}
    for seed in range(8):
        X, y = make_psvm_redundancy("table1_top", 100, random_state=seed)
        for C in relevant_found:
            model = PotentialSVM(C=C, n_features_to_select=6).fit(X, y)
            assert model.support_.sum() == 6
            assert np.abs(model.alpha_).max() <= C
            relevant_found[C] += int(model.support_[:6].sum())
    assert relevant_found[0.5] > relevant_found[1.0] > relevant_found[10.0]


# -- PSVM 5.2: nonlinear selection ---------------------------------------------------

def test_nonlinear_psvm_ranks_xor_features_first_with_a_gap_and_linear_psvm_does_not():
    X, y = make_psvm_nonlinear("B", random_state=0)  # 500 x 100, y = x1 x2 clipped
    model = NonlinearPSVM(random_state=0).fit(X, y)
    assert set(np.flatnonzero(model.ranking_ <= 2)) == {0, 1}
    top = np.sort(model.relevance_)[::-1]
    assert top[1] > 1.3 * top[2]  # a visible gap after the two relevant features
    np.testing.assert_allclose(model.relevance_, np.abs(model.unit_alpha_).max(axis=0))

    linear = PotentialSVR(n_features_to_select=2).fit(X, y)
    assert set(np.flatnonzero(linear.support_)) != {0, 1}


def test_nonlinear_psvm_ranks_radial_features_first():
    # Task A (y = x1^2 + x2^2 clipped). At the chapter's 100 inputs our networks never
    # learn it (docs/psvm.md); with 50 inputs and weight_decay=3 they do in 4 of 5 seeds.
    X, y = make_psvm_nonlinear("A", n_features=50, random_state=0)
    model = NonlinearPSVM(weight_decay=3.0, combine="sum_squares", random_state=0).fit(X, y)
    assert set(np.flatnonzero(model.ranking_ <= 2)) == {0, 1}
    top = np.sort(model.relevance_)[::-1]
    assert top[1] > 2.0 * top[2]
    np.testing.assert_allclose(model.relevance_, (model.unit_alpha_ ** 2).sum(axis=0))
    assert model.training_stop_ == "goal" and model.training_error_ratio_ <= 0.05

    linear = PotentialSVR(n_features_to_select=2).fit(X, y)
    assert set(np.flatnonzero(linear.support_)) != {0, 1}


def test_unit_targets_are_minus_the_derivative_of_the_induced_error():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4))
    layers = [(rng.standard_normal((4, 3)), rng.standard_normal(3)),
              (rng.standard_normal((3, 2)), rng.standard_normal(2)),
              (rng.standard_normal((2, 1)), rng.standard_normal(1))]
    output = _forward(layers, X)[-1][:, 0]

    def induced_error(unit, value):
        """e_l with the first-layer net input of ``unit`` set to ``value``."""
        hidden = X @ layers[0][0] + layers[0][1]
        hidden[:, unit] = value
        a = np.tanh(hidden)
        for W, b in layers[1:]:
            a = np.tanh(a @ W + b)
        return 0.5 * (a[:, 0] - output) ** 2

    targets = unit_targets(layers, X)
    h = 1e-6
    for unit in range(3):
        numeric = -(induced_error(unit, h) - induced_error(unit, -h)) / (2 * h)
        np.testing.assert_allclose(targets[unit], numeric, rtol=1e-5, atol=1e-9)


def test_nonlinear_psvm_warns_when_training_is_cut_short():
    X, y = make_psvm_nonlinear("B", n_samples=100, n_features=10, random_state=0)
    with pytest.warns(ConvergenceWarning, match="increase max_iter"):
        model = NonlinearPSVM(weight_decay=0.0, max_iter=2, random_state=0).fit(X, y)
    assert model.training_stop_ == "max_iter" and model.training_error_ratio_ > 0.05


def test_nonlinear_psvm_maps_two_classes_to_plus_minus_one_and_selects_k():
    X, y = make_psvm_nonlinear("B", n_samples=200, n_features=8, random_state=2)
    labels = np.where(y > 0, "yes", "no")
    model = NonlinearPSVM(n_features_to_select=3, random_state=0).fit(X, labels)
    assert model.classes_.tolist() == ["no", "yes"]
    assert model.support_.sum() == 3
    assert sorted(model.ranking_) == list(range(1, 9))
    assert model.transform(X).shape == (200, 3)


def test_nonlinear_psvm_refuses_one_class():
    X, _ = make_psvm_nonlinear("B", n_samples=40, n_features=6, random_state=0)
    with pytest.raises(DataValidationError, match=r"y contains only one class \('a'\)"):
        NonlinearPSVM(random_state=0).fit(X, ["a"] * 40)


@pytest.mark.parametrize("k", [None, 3])
def test_nonlinear_psvm_never_selects_features_of_zero_relevance(k):
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = rng.standard_normal((40, 8))
    X[:, 0] += 3 * y
    with pytest.warns(UserWarning, match="selected no feature: every relevance is 0.*Lower epsilon"):
        model = NonlinearPSVM(epsilon=0.1, n_features_to_select=k, random_state=0).fit(X, y)
    assert not model.relevance_.any() and not model.support_.any()
    fewer = NonlinearPSVM(epsilon=0.02, n_features_to_select=6, random_state=0)
    with pytest.warns(UserWarning, match="fewer than n_features_to_select=6"):
        fewer.fit(X, y)
    assert 0 < fewer.support_.sum() < 6
    np.testing.assert_array_equal(fewer.support_, fewer.relevance_ > 0)


# -- the fitted linear model means what the chapter says -----------------------------

def test_classifier_is_w_dot_standardised_x_plus_mean_label_and_sign_indicates_class():
    rng = np.random.default_rng(3)
    y = np.array(["a"] * 30 + ["b"] * 50)
    X = rng.standard_normal((80, 12))
    X[:, 0] += np.where(y == "b", 1.5, 0.0)  # indicative of classes_[1]
    X[:, 1] -= np.where(y == "b", 1.5, 0.0)  # indicative of classes_[0]
    model = PotentialSVM(epsilon=1.0).fit(X, y)
    assert model.classes_.tolist() == ["a", "b"]
    assert model.alpha_[0] > 0 > model.alpha_[1]
    y_signed = np.where(y == "b", 1.0, -1.0)
    expected = standardise(X) @ model.alpha_ + y_signed.mean()  # g(x) = w . f(x) + b
    np.testing.assert_allclose(model.decision_function(X), expected, atol=1e-10)
    np.testing.assert_array_equal(model.relevance_, np.abs(model.alpha_))
    np.testing.assert_array_equal(model.support_, model.alpha_ != 0)
    assert model.score(X, y) > 0.8


def test_regressor_solution_satisfies_the_primal_constraints():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((60, 20))
    y = 2.0 * X[:, 3] - X[:, 7] + 0.3 * rng.standard_normal(60) + 5.0
    model = PotentialSVR(epsilon=0.5).fit(X, y)
    F = standardise(X)
    # PSVM eq. 6: |F'(F w - y)| <= epsilon, with equality on the selected features.
    constraint = F.T @ (F @ model.alpha_ - y)
    assert np.all(np.abs(constraint) <= 0.5 + 1e-5)
    np.testing.assert_allclose(np.abs(constraint[model.support_]), 0.5, atol=1e-5)
    np.testing.assert_allclose(model.predict(X), F @ model.alpha_ + y.mean(), atol=1e-10)
    assert set(np.flatnonzero(model.support_)) >= {3, 7}


def test_dense_and_sparse_input_give_the_same_model():
    rng = np.random.default_rng(5)
    X = (rng.random((70, 40)) < 0.15).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + 0.3 * rng.standard_normal(70) > 0.5, 1, -1)
    dense = PotentialSVM(epsilon=0.7, C=0.8).fit(X, y)
    sparse = PotentialSVM(epsilon=0.7, C=0.8).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.alpha_, dense.alpha_, atol=1e-8)
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)),
                               dense.decision_function(X), atol=1e-8)


def test_epsilon_sets_the_number_of_features():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((100, 50))
    y = np.sign(X[:, :5].sum(axis=1) + rng.standard_normal(100))
    counts = [PotentialSVM(epsilon=e).fit(X, y).support_.sum() for e in (0.5, 1.0, 2.0, 4.0)]
    assert counts[0] > counts[1] > counts[2] > counts[3]
    epsilon_max = np.abs(standardise(X).T @ y).max()
    assert PotentialSVM(epsilon=epsilon_max * 1.0001).fit(X, y).support_.sum() == 0


@pytest.mark.parametrize("k", [1, 4, 9, 25])
def test_n_features_to_select_finds_an_epsilon_with_exactly_k_features(k):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 80))
    y = np.sign(X[:, :6].sum(axis=1) + rng.standard_normal(60))
    model = PotentialSVM(n_features_to_select=k, C=1.0).fit(X, y)
    assert model.support_.sum() == k == np.count_nonzero(model.alpha_)
    refit = PotentialSVM(epsilon=model.epsilon_, C=1.0).fit(X, y)
    np.testing.assert_array_equal(refit.support_, model.support_)


def test_n_features_to_select_warns_when_features_enter_together():
    # Two orthogonal features equally correlated with y enter at the same epsilon: no
    # epsilon gives exactly one non-zero coefficient.
    X = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    y = X[:, 0] + X[:, 1]
    with pytest.warns(UserWarning, match="exactly n_features_to_select=1"):
        model = PotentialSVR(n_features_to_select=1).fit(X, y)
    # The model is refitted on the one feature kept: it predicts from support_ alone.
    assert model.support_.tolist() == [True, False]
    assert np.flatnonzero(model.alpha_).tolist() == np.flatnonzero(model.coef_).tolist() == [0]
    changed = X.copy()
    changed[:, 1] = [5.0, -3.0, 2.0, 0.0]
    np.testing.assert_array_equal(model.predict(changed), model.predict(X))


def test_a_classifier_with_tied_features_predicts_from_its_support_alone():
    # Columns 0 and 1 are orthogonal and equally correlated with y: they enter together.
    H = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]], dtype=float)
    H = np.vstack([np.hstack([H, H]), np.hstack([H, -H])])  # the 8 x 8 Hadamard matrix
    y = (H[:, 1] > 0).astype(int)
    X = np.column_stack([H[:, 1] + H[:, 2], H[:, 1] - H[:, 2], H[:, 3], H[:, 4]])
    with pytest.warns(UserWarning, match="refitted on them"):
        model = PotentialSVM(n_features_to_select=1).fit(X, y)
    assert np.flatnonzero(model.support_).tolist() == np.flatnonzero(model.coef_).tolist() == [0]
    dropped = X.copy()
    dropped[:, 1:] = 0.0  # what transform removes does not change the decision
    np.testing.assert_array_equal(model.decision_function(X), model.decision_function(dropped))
    assert model.transform(X).shape == (8, 1)


def test_constant_columns_get_zero_relevance():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((40, 6))
    X[:, 2] = 3.7
    X[:, 4] = 0.0
    y = np.where(X[:, 0] > 0, 1, -1)
    model = PotentialSVM(epsilon=0.1).fit(X, y)
    assert model.alpha_[2] == 0 and model.alpha_[4] == 0
    assert model.coef_[0, 2] == 0 and np.isfinite(model.intercept_).all()


def test_dorothea_sized_sparse_data_fit_without_densifying():
    # 350 x 100000 sparse binary, as DOROTHEA's validation split (nnz ~ 3.2e5); a dense
    # copy would take 280 MB.
    rng = np.random.default_rng(9)
    n = 350
    y = np.where(rng.random(n) < 0.1, 1, -1)
    informative = (rng.random((n, 5)) < np.where(y > 0, 0.6, 0.01)[:, None]).astype(float)
    nnz = int(n * 99_995 * 0.009)
    noise = sp.csc_matrix((np.ones(nnz), (rng.integers(0, n, nnz), rng.integers(0, 99_995, nnz))),
                          shape=(n, 99_995))
    noise.data[:] = 1.0  # binary (duplicate positions were summed)
    X = sp.hstack([sp.csc_matrix(informative), noise], format="csr")
    tracemalloc.start()
    try:
        model = PotentialSVM(epsilon=2.0).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100e6
    assert set(np.argsort(-model.relevance_)[:5]) == set(range(5))
    assert model.decision_function(X).shape == (n,)


@pytest.mark.parametrize("params, message", [
    ({"epsilon": -1.0}, "'epsilon' parameter"),
    ({"C": 0.0}, "'C' parameter"),
    ({"n_features_to_select": 0}, "'n_features_to_select' parameter"),
    ({"n_features_to_select": 11}, "exceeds the number of features"),
    ({"tol": 0.0}, "'tol' parameter"),
])
def test_invalid_parameters_are_named(params, message):
    X = np.random.default_rng(0).standard_normal((20, 10))
    y = np.r_[np.ones(10), -np.ones(10)]
    with pytest.raises(ValueError, match=message):
        PotentialSVM(**params).fit(X, y)


def test_nonlinear_psvm_rejects_bad_parameters_and_sparse_input():
    X, y = make_psvm_nonlinear("B", n_samples=40, n_features=5, random_state=0)
    with pytest.raises(ValueError, match="'combine' parameter"):
        NonlinearPSVM(combine="mean").fit(X, y)
    with pytest.raises(DataValidationError, match="hidden_layer_sizes"):
        NonlinearPSVM(hidden_layer_sizes=(0,)).fit(X, y)
    with pytest.raises(TypeError, match="dense data is required"):
        NonlinearPSVM().fit(sp.csr_matrix(X), y)


@parametrize_with_checks(
    [PotentialSVM(), PotentialSVM(C=0.5, n_features_to_select=1), PotentialSVR(),
     NonlinearPSVM(hidden_layer_sizes=(4,), random_state=0)],
)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        # n_features_to_select=1 on tiny check data may tie; the warning is documented.
        warnings.simplefilter("ignore", UserWarning)
        check(estimator)


def test_duplicate_columns_share_one_weight_filled_up_to_C():
    rng = np.random.default_rng(10)
    X = rng.standard_normal((50, 6))
    X = np.hstack([X, X[:, [0, 0]]])  # columns 6 and 7 copy column 0
    y = np.where(X[:, 0] + 0.2 * rng.standard_normal(50) > 0, 1, -1)
    free = PotentialSVM(epsilon=0.5).fit(X, y)
    assert free.alpha_[0] > 0 and free.alpha_[6] == free.alpha_[7] == 0  # C=None: first copy
    total = free.alpha_[0]
    boxed = PotentialSVM(epsilon=0.5, C=0.4 * total).fit(X, y)
    # The copies carry the weight one after another, each up to C.
    assert boxed.alpha_[0] == boxed.alpha_[6] == pytest.approx(0.4 * total)
    assert 0 < boxed.alpha_[7] <= 0.4 * total
    F = standardise(X)
    for model in (free, boxed):  # the same decision function as the un-merged problem
        constraint = F.T @ (F @ model.alpha_ - np.where(y > 0, 1.0, -1.0))
        assert np.all(np.abs(constraint) <= 0.5 + 1e-5)
