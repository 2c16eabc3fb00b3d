"""On pure noise the nested estimate of the automatic choice is at chance, while its
inner selection score is optimistic: the two numbers a user sees must not be confused."""

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score

from sfmlearn import SupportFeatureMachineCV

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SEEDS = range(10)


def _noise(seed, n=40, d=100):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.permutation(np.repeat(["a", "b"], n // 2))


@pytest.fixture(scope="module")
def estimates():
    nested, selection = [], []
    for seed in SEEDS:
        X, y = _noise(seed)
        model = SupportFeatureMachineCV(Cs=5, cv=3, n_repeats=1, random_state=seed)
        outer = StratifiedKFold(5, shuffle=True, random_state=seed)
        nested.append(cross_val_score(model, X, y, cv=outer, scoring="balanced_accuracy").mean())
        fitted = model.fit(X, y)
        results = fitted.budget_results_
        complete = results["n_folds_within"] == fitted.n_splits_
        selection.append(results["mean_test_score"][complete].max())
    return np.array(nested), np.array(selection)


def test_nested_estimate_on_pure_noise_is_at_chance(estimates):
    nested, _ = estimates
    assert abs(nested.mean() - 0.5) <= 0.05


def test_inner_selection_score_is_above_the_nested_estimate(estimates):
    nested, selection = estimates
    assert selection.mean() > nested.mean()
