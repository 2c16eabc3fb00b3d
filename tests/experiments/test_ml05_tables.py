"""ML05 Tables 3/4/6 reproduction: the data preparation and the published numbers
(fast), and an end-to-end quick run (slow)."""

import numpy as np
import pytest

from sfmlearn.datasets import make_weston
from sfmlearn.experiments import ml05_tables


# ML05 Table 1: samples and features of every data set (colon: Alon et al., 62 x 2000).
ML05_TABLE1 = {
    "wpbc60": (110, 32), "wpbc24": (155, 32), "liver": (345, 6), "cleveland": (297, 13),
    "ionosphere": (351, 34), "pima": (768, 8), "bcw": (683, 9), "sonar": (208, 60),
    "musk": (476, 166), "colon": (62, 2000),
}


@pytest.mark.parametrize("name", sorted(ML05_TABLE1))
def test_data_sets_have_ml05_table1_shapes(name):
    X, y = ml05_tables.load_ml05_dataset(name)
    assert X.shape == ML05_TABLE1[name]
    assert np.isfinite(X).all()
    assert set(np.unique(y)) == {-1, 1}


def test_published_numbers_are_transcribed():
    published = ml05_tables.PUBLISHED
    assert published[("sonar", "l2-l1-SVM")] == {"dim": 50.4, "error": 22.6, "variance": 0.1}
    assert published[("musk", "Kernel-target alignment")]["dca_iterations"] == 676.5
    assert ("musk", "Quad. FSV") not in published
    assert published[("bcw", "Kernel-target alignment, lambda=0")] == {"dim": 3.0, "error": 4.0}
    assert len({key for key in published if key[1] in ml05_tables.METHODS}) == 9 * 10 - 1


def test_svm_ranking_filter_keeps_a_few_relevant_features():
    X, y = make_weston(120, 40, random_state=0)
    X = X / X.std(axis=0)
    model = ml05_tables.SVMRankingFilter(C=1.0, random_state=0).fit(X, y)
    assert 1 <= model.features_.size <= 10
    assert np.mean(model.features_ < 6) >= 0.5
    assert model.score(X, y) > 0.8


@pytest.mark.slow
def test_quick_run_end_to_end():
    frame = ml05_tables.run(quick=True)
    assert set(frame.dataset) == {"liver", "bcw"}
    errors = frame[frame.metric == "error"]
    assert (errors.runs == 3).all() and errors.ours_std.notna().all()
    # The majority class alone errs on 42 % (liver) and 35 % (BCW): a selector that
    # learned nothing lands there. Measured (this quick run): liver 30-38 %, BCW 3-7 %.
    assert (errors.loc[errors.dataset == "liver", "value"] < 40).all()
    assert (errors.loc[errors.dataset == "bcw", "value"] < 10).all()
    # Every published error lies within 3 standard errors (three folds combined with
    # ML05's own fold variance); measured |z| <= 2.5. A method off by more than the
    # fold noise fails here.
    published = errors.dropna(subset=["published"])
    assert len(published) == 20
    se = np.sqrt((published.ours_std / np.sqrt(published.runs)) ** 2 + published.published_se**2)
    assert (np.abs(published.value - published.published) <= 3 * se).all()
    dims = frame[frame.metric == "dim"]
    assert (dims.value >= 1).all() and (dims.value <= dims.dataset.map({"liver": 6, "bcw": 9})).all()
