"""sfmlearn.analysis: one function per analysis, a typed result whose JSON is the command's."""

import numpy as np
import pytest

from sfmlearn.analysis import (PathResult, RepeatResult, SelectResult, TrainingData, load_dataset, run_path,
                               run_repeat, run_select)
from sfmlearn.analysis import names
from sfmlearn.analysis.result import SCHEMA_VERSION
from sfmlearn.analysis.selectors import UnseparatedFit
from sfmlearn.datasets import DATASETS
from sfmlearn.exceptions import NotSeparableError
from sfmlearn.imaging import BOUNDARY_MODES
from sfmlearn.imaging.simulate import DESIGNS


def test_the_names_the_parsers_offer_are_the_librarys():
    assert names.DATASET_NAMES == tuple(sorted(DATASETS))
    assert names.SIMULATION_DESIGNS == tuple(sorted(DESIGNS))
    assert names.BOUNDARY_MODES == tuple(BOUNDARY_MODES)
    from sfmlearn.analysis.selectors import CV_METHODS, METHODS
    assert names.SELECTORS == tuple(sorted(METHODS)) == tuple(sorted(CV_METHODS))


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 15)
    X = rng.standard_normal((30, 12))
    X[:, 3] += 3.0 * (y == "b")
    return TrainingData("toy", X, y, np.array([f"f{j}" for j in range(12)]))


def test_select_result_round_trips_through_its_json(data):
    stages = []
    result = run_select(data, C=1.0, cv=3, chance_bound=True, progress=lambda *a: stages.append(a))
    assert isinstance(result, SelectResult) and result.schema_version == SCHEMA_VERSION
    assert result.selected[0]["name"] == "f3" and result.cv["folds"] == 3 and "chance_verdict" in result.to_dict()
    assert [s[0] for s in stages][:2] == ["fitting SupportFeatureMachine", "3-fold cross-validation"]
    payload = result.to_dict()
    assert list(payload)[:3] == ["data", "n_samples", "n_features"] and "estimator" not in payload
    assert "test_accuracy" not in payload and payload["C"] == 1.0
    again = SelectResult.from_dict(payload)
    assert again.to_dict() == payload and again.estimator is None


def test_a_json_of_a_newer_schema_or_without_a_key_is_refused(data):
    payload = run_select(data, C=1.0, cv=0).to_dict()
    with pytest.raises(ValueError, match="newer"):
        SelectResult.from_dict({**payload, "schema_version": SCHEMA_VERSION + 1})
    with pytest.raises(KeyError, match="selected"):
        SelectResult.from_dict({k: v for k, v in payload.items() if k != "selected"})


def test_a_hard_fit_on_inseparable_classes_says_so(data):
    mixed = TrainingData("mixed", np.vstack([data.X, data.X]), np.concatenate([data.y, data.y[::-1]]),
                         data.feature_names)
    with pytest.raises(UnseparatedFit) as caught:
        run_select(mixed, cv=0)
    assert isinstance(caught.value, NotSeparableError) and isinstance(caught.value.__cause__, NotSeparableError)


def test_path_and_repeat_return_their_results(data):
    path = run_path(data, Cs=4, cv=3)
    assert isinstance(path, PathResult) and path.model is not None
    assert path.C_auto["C"] == path.C and PathResult.from_dict(path.to_dict()).to_dict() == path.to_dict()
    repeat = run_repeat(data, C=1.0, max_repetitions=2, estimate=False)
    assert isinstance(repeat, RepeatResult) and repeat.n_repetitions <= 2
    assert "estimate" not in repeat.to_dict() and repeat.ranking[0]["repetition"] == 1
    assert RepeatResult.from_dict(repeat.to_dict()).to_dict() == repeat.to_dict()


def test_the_shared_data_fields_keep_every_json_in_its_order(data):
    data_keys = ["data", "n_samples", "n_features", "classes"]
    selector_keys = [*data_keys, "class_counts", "method", "C", "class_weight"]
    assert list(run_select(data, C=1.0, cv=0).to_dict()) == [
        *selector_keys, "selected", "n_selected", "train_accuracy", "fit_seconds", "scaled", "seconds"]
    assert list(run_path(data, Cs=3, cv=3).to_dict()) == [*selector_keys, "n_selected", "selected", "C_auto",
                                                          "seconds"]
    assert list(run_repeat(data, C=1.0, max_repetitions=1, estimate=False).to_dict()) == [
        *data_keys, "method", "C", "class_weight", "n_repetitions", "stop_reason", "stopped_because",
        "n_ranked", "fit_seconds", "subsets", "subset_sizes_by_size", "ranking", "class_counts", "seconds"]


@pytest.mark.parametrize("name", names.DATASET_NAMES)
def test_every_shipped_dataset_loads_as_training_data(name):
    """DEXTER's word counts ship sparse: they stay a sparse float matrix, as a sparse file's do."""
    import scipy.sparse as sp

    data = load_dataset(name)
    assert data.X.dtype == np.float64 and data.X.shape == (data.y.size, data.feature_names.size)
    assert sp.issparse(data.X) == (name == "dexter")


def test_a_sparse_shipped_dataset_is_selected_from():
    result = run_select(load_dataset("dexter"), cv=0)
    assert result.n_selected >= 1 and 0.5 < result.train_accuracy <= 1


def test_a_shipped_dataset_brings_its_test_split():
    data = load_dataset("leukemia")
    result = run_select(data, cv=0)
    assert result.n_test == len(data.test[1]) and 0 <= result.test_accuracy <= 1


def test_the_automatic_choice_keeps_the_groups_in_its_inner_folds(data, monkeypatch):
    """select --C auto --groups: the full-data choice and every outer fold's choice get the
    groups, so their inner folds leave one group out."""
    from sfmlearn import SupportFeatureMachineCV

    groups = np.tile(np.arange(5), 6)
    grouped = TrainingData("toy", data.X, data.y, data.feature_names, groups=groups)
    fit, seen = SupportFeatureMachineCV.fit, []

    def spy(self, X, y, groups=None, **params):
        seen.append(None if groups is None else np.unique(groups).size)
        return fit(self, X, y, groups=groups, **params)

    monkeypatch.setattr(SupportFeatureMachineCV, "fit", spy)
    result = run_select(grouped, C="auto", cv=5)
    assert result.estimator.n_splits_ == 5 and result.estimator.n_repeats_ == 1
    assert result.cv["grouped"] and result.cv["folds"] == 5
    assert seen == [5] + [4] * 5  # the full data's fit, then every outer training fold's


def test_identical_columns_groups_the_exact_copies_of_the_candidates():
    import scipy.sparse as sp

    from sfmlearn.analysis.select import identical_columns

    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(12, 40)).astype(float)
    X[:, 7] = X[:, 30] = X[:, 2]  # one column and two copies
    X[:, 11] = X[:, 5]
    X[:-1, 20] = X[:-1, 9]  # equal but for the last row
    for matrix in (X, sp.csr_matrix(X), sp.csc_array(X)):
        groups = identical_columns(matrix, [30, 9, 7, 5])
        assert [group.tolist() for group in groups] == [[2, 7, 30], [5, 11]]
    assert identical_columns(X, [9, 20]) == []


def test_the_chance_bound_of_a_report_reads_the_fit_instead_of_repeating_it(data, monkeypatch):
    from sfmlearn import SupportFeatureMachineCV

    fits = []
    original = SupportFeatureMachineCV.fit
    monkeypatch.setattr(SupportFeatureMachineCV, "fit",
                        lambda self, *args, **kwargs: fits.append(1) or original(self, *args, **kwargs))
    result = run_select(data, C="auto", cv=0, chance_bound=True)
    assert len(fits) == 1 and result.chance["subset_size"] == result.n_selected


def test_identical_columns_of_huge_values_and_of_stored_zeros_are_found():
    import scipy.sparse as sp

    from sfmlearn.analysis.select import identical_columns

    huge = np.array([[1e308, 1e308, 1.0], [1e308, 1e308, 2.0], [-1e308, -1e308, 3.0]])
    assert [group.tolist() for group in identical_columns(huge, [0])] == [[0, 1]]
    stored = sp.csc_matrix((np.array([0.0, 5.0, 5.0]), np.array([0, 1, 1]), np.array([0, 2, 3, 3])), shape=(2, 3))
    # column 0 holds a stored zero and a 5 in row 1: equal to column 1; column 2 is empty
    assert [group.tolist() for group in identical_columns(stored, [0, 2])] == [[0, 1]]


@pytest.mark.parametrize("class_weight, expected", [(None, "balanced"), ("balanced", "balanced"), ("none", None)])
def test_class_weight_none_unbalances_the_cross_validated_sfm(data, class_weight, expected):
    """The SFM's cross-validated choice balances by default, so "none" is the only way to
    one C for every sample; each run records the weights its selector used."""
    path = run_path(data, class_weight=class_weight, Cs=3, cv=3)
    assert path.model.class_weight == expected and path.class_weight == expected
    stable = run_select(data, class_weight=class_weight, stability=0.6, cv=0, chance_bound=False)
    assert stable.class_weight == expected


def test_repeat_records_the_weights_its_base_selector_used(data):
    for class_weight, expected in [("none", None), ("balanced", "balanced")]:
        result = run_repeat(data, C=1.0, class_weight=class_weight, max_repetitions=1, estimate=False)
        assert result.class_weight == expected
