"""WestonZeroNormSVM: margin constraints, soft margin, relation to the SFM."""

import numpy as np
import pytest

from sklearn.model_selection import StratifiedKFold

from sfmlearn import SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.datasets import load_leukemia, make_weston
from sfmlearn.exceptions import NotSeparableError


def test_hard_solution_has_margin_one_in_the_scaled_space():
    X, y = make_weston(40, 200, random_state=0)
    model = WestonZeroNormSVM().fit(X, y)
    Xs = model.scaler_.transform(X)
    margins = y * (Xs @ model.scaled_coef_ + _scaled_bias(model, X))
    assert margins.min() >= 1 - 1e-6
    assert model.history_["n_features"][0] >= model.support_.sum()


def _scaled_bias(model, X):
    # intercept_ is in input space; recover the scaled-space bias from one sample.
    Xs = model.scaler_.transform(X[:1])
    return model.decision_function(X[:1])[0] - Xs[0] @ model.scaled_coef_


def test_soft_margin_handles_overlapping_classes(rng):
    X = rng.standard_normal((60, 20))
    y = np.where(rng.random(60) < 0.5, 1, -1)
    X[:, 0] += 0.5 * y
    with pytest.raises(NotSeparableError):
        WestonZeroNormSVM().fit(X[:, :1], y)
    model = WestonZeroNormSVM(C=1.0).fit(X, y)
    assert model.n_training_errors_ > 0
    assert model.support_.sum() >= 1


def test_sfm_uses_no_more_features_than_weston_on_average():
    """NC Table 1 in miniature: the SFM returns fewer features than Weston's method."""
    sfm_sizes, weston_sizes = [], []
    for seed in range(8):
        X, y = make_weston(50, 100, random_state=seed)
        sfm_sizes.append(SupportFeatureMachine().fit(X, y).support_.sum())
        weston_sizes.append(WestonZeroNormSVM().fit(X, y).support_.sum())
    assert np.mean(sfm_sizes) < np.mean(weston_sizes)


@pytest.mark.parametrize("solver", ["auto", "colgen", "highs"])
def test_an_empty_first_solution_ends_the_loop_instead_of_crashing(solver):
    """Regression (found by the issue-16 peer table): on this leukemia CV fold the first
    soft AROM LP at C = 1 returns w = 0 while the reweighted slack still changes, so the
    next LP had no columns left and column generation raised IndexError on an empty
    master (60 of 75 Weston fits on leukemia folds crashed)."""
    data = load_leukemia()
    train, _ = next(StratifiedKFold(5, shuffle=True, random_state=2).split(data.X_train, data.y_train))
    X, y = data.X_train[train], data.y_train[train]
    with pytest.warns(UserWarning, match="selected no feature"):
        model = WestonZeroNormSVM(C=1.0, solver=solver).fit(X, y)
    assert not model.get_support().any()
    assert np.unique(model.predict(X)).size == 1  # the constant prediction the warning names
