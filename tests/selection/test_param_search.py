"""ML05 5.2.2 parameter selection: one validation half, the paper's grids and tie-breaks."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sfmlearn.datasets import make_weston
from sfmlearn.selection import FSV, L2L0SVM
from sfmlearn.selection.sfm.param_search import ML05_GRIDS, PreferOnTies, ml05_grid, ml05_search


def test_grids_are_the_papers():
    assert ml05_grid(FSV())["lam"] == [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
    grid = ml05_grid(L2L0SVM())
    np.testing.assert_allclose(np.log(grid["mu"]), np.arange(0, 11))
    np.testing.assert_allclose(np.log(grid["nu"]), np.arange(-5, 6))
    np.testing.assert_allclose(np.log(ML05_GRIDS["SVC"]["C"]), np.arange(-5, 6))
    with pytest.raises(ValueError, match="Pass param_grid"):
        ml05_grid(StandardScaler())


def test_ties_go_to_larger_nu_then_mu_and_smaller_c():
    results = {
        "mean_test_score": [0.9, 0.9, 0.9, 0.8],
        "params": [{"m__mu": 1.0, "m__nu": 2.0}, {"m__mu": 5.0, "m__nu": 2.0},
                   {"m__mu": 9.0, "m__nu": 1.0}, {"m__mu": 9.0, "m__nu": 9.0}],
    }
    assert PreferOnTies({"nu": "largest", "mu": "largest"})(results) == 1
    assert PreferOnTies({"C": "smallest"})(
        {"mean_test_score": [0.7, 0.7], "params": [{"C": 3.0}, {"C": 0.5}]}) == 1


def test_search_uses_one_random_half_and_refits_on_everything():
    X, y = make_weston(60, 20, random_state=0)
    search = ml05_search(FSV(), random_state=0)
    assert isinstance(search, GridSearchCV)
    search.fit(X, y)
    train, test = next(search.cv.split(X, y))
    assert len(train) == len(test) == 30
    assert search.best_estimator_.n_features_in_ == X.shape[1]
    best = np.flatnonzero(search.cv_results_["mean_test_score"] == search.cv_results_["mean_test_score"].max())
    chosen = search.cv_results_["params"][search.best_index_]["lam"]
    assert chosen == max(search.cv_results_["params"][i]["lam"] for i in best)


def test_search_nests_in_cross_validation_with_a_pipeline():
    X, y = make_weston(60, 20, random_state=1)
    pipeline = make_pipeline(StandardScaler(), FSV(scale=False))
    search = ml05_search(pipeline, {"fsv__lam": [0.1, 0.5]}, random_state=0)
    scores = cross_val_score(search, X, y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.6)
