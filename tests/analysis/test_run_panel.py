"""run_panel: a marker panel chosen on training cells, scored on held-out ones, as a versioned result."""

import json

import numpy as np
import pytest

from sfmlearn.analysis import PanelResult, TrainingData, run_panel
from sfmlearn.analysis.panel import split_cells
from sfmlearn.exceptions import DataValidationError
from sfmlearn.panels import make_cell_counts, normalize_counts

N_GENES = 200


@pytest.fixture(scope="module")
def simulated():
    """300 cells x 200 genes, 4 types with 3 planted markers each (planted table)."""
    X, y, planted = make_cell_counts(300, N_GENES, n_types=4, n_markers_per_type=3, fold_change=6.0,
                                     random_state=0)
    return TrainingData("simulated", X, y, np.array([f"gene{j}" for j in range(N_GENES)])), planted


@pytest.fixture(scope="module")
def result(simulated):
    return run_panel(simulated[0], 12)


def test_the_panel_has_the_size_asked_for_and_the_split_holds_out_every_type(simulated, result):
    data, _ = simulated
    genes = [row["gene"] for row in result.panel]
    assert result.panel_size == len(genes) == len(set(genes)) == 12 == result.size
    assert [data.feature_names[row["index"]] for row in result.panel] == genes
    assert result.n_train + result.n_test == result.n_cells == 300
    counts = result.cell_counts
    assert [row["n_test"] for row in result.per_type] == [max(1, round(0.3 * counts[t])) for t in result.cell_types]
    assert result.estimator.n_features_in_ == N_GENES


def test_the_scores_agree_with_the_confusion_matrix(result):
    matrix = np.array(result.confusion_matrix)
    assert matrix.shape == (4, 4) and matrix.sum() == result.n_test
    recall = np.diag(matrix) / matrix.sum(axis=1)
    assert [row["sensitivity"] for row in result.per_type] == pytest.approx(recall)
    assert result.balanced_accuracy == pytest.approx(recall.mean())
    assert result.balanced_accuracy > 0.9


def test_planted_markers_are_recovered(simulated, result):
    _, planted = simulated
    truth = dict(zip(planted.gene, planted.cell_type))
    found = [row for row in result.panel if row["gene"] in truth]
    assert len(found) >= 7  # of 12 planted markers (measured: 8-9 over five simulations)
    assert {truth[row["gene"]] for row in found} == set(result.cell_types)  # every type has one
    assert sum(row["cell_type"] == truth[row["gene"]] for row in found) >= 6
    direction = dict(zip(planted.gene, planted.direction))
    for row in found:
        if row["cell_type"] == truth[row["gene"]]:
            assert row["direction"] == direction[row["gene"]]


def test_the_json_round_trips(result):
    saved = json.loads(json.dumps(result.to_dict()))
    again = PanelResult.from_dict(saved)
    assert again.to_dict() == saved and again.estimator is None
    assert "estimator" not in saved and "schema_version" not in saved


def test_the_dot_plot_values_describe_all_cells(simulated, result):
    data, _ = simulated
    dots = result.dotplot
    fraction, mean = np.array(dots["fraction_expressing"]), np.array(dots["mean_expression"])
    assert dots["genes"] == [row["gene"] for row in result.panel] and dots["cell_types"] == result.cell_types
    assert fraction.shape == mean.shape == (4, 12)
    first = result.panel[0]["index"]
    counts = data.X[:, first].toarray().ravel()
    values = normalize_counts(data.X)[:, first].toarray().ravel()
    for k, cell_type in enumerate(result.cell_types):
        cells = data.y == cell_type
        assert fraction[k, 0] == pytest.approx(np.mean(counts[cells] > 0))
        assert mean[k, 0] == pytest.approx(values[cells].mean())


def test_include_and_exclude_are_honoured(simulated, result):
    data, _ = simulated
    chosen = [row["gene"] for row in result.panel]
    outsider = next(g for g in data.feature_names if g not in chosen)
    again = run_panel(data, 5, include=[outsider], exclude=chosen[:2])
    genes = [row["gene"] for row in again.panel]
    assert outsider in genes and not set(chosen[:2]) & set(genes)
    assert next(row for row in again.panel if row["gene"] == outsider)["level"] == "include"
    assert again.include == [outsider] and again.exclude == chosen[:2]


def test_values_as_given_are_read_with_normalize_none(simulated):
    data, _ = simulated
    logged = TrainingData("logged", normalize_counts(data.X), data.y, data.feature_names)
    with pytest.raises(DataValidationError, match="non-integer"):
        run_panel(logged, 4)
    result = run_panel(logged, 4, normalize="none")
    assert result.normalize == "none" and result.panel_size == 4 and result.balanced_accuracy > 0.8


def test_the_library_writes_nothing_to_stdout(simulated, capsys):
    run_panel(simulated[0], 4)
    assert capsys.readouterr().out == ""


def test_split_cells_holds_out_a_share_of_every_type():
    y = np.repeat(["a", "b", "c"], [20, 7, 4])
    train, test = split_cells(y, 0.3, 0)
    assert np.intersect1d(train, test).size == 0 and np.union1d(train, test).tolist() == list(range(31))
    assert [int(np.sum(y[test] == t)) for t in "abc"] == [6, 2, 1]
    again, _ = split_cells(y, 0.3, 0)
    other, _ = split_cells(y, 0.3, 1)
    assert np.array_equal(train, again) and not np.array_equal(train, other)


def test_split_cells_refuses_a_type_too_small_for_both_sides():
    with pytest.raises(DataValidationError, match=r"tiny \(3 cells\)"):
        split_cells(np.repeat(["big", "tiny"], [30, 3]), 0.3, 0)


def _with(data, **changes):
    fields = {"source": data.source, "X": data.X, "y": data.y, "feature_names": data.feature_names, **changes}
    return TrainingData(**fields)


@pytest.mark.parametrize("size, message", [(N_GENES + 1, "the data have 200 genes"),
                                           (3, "ask for at least 4")])
def test_a_size_the_data_cannot_serve_is_refused(simulated, size, message):
    with pytest.raises(DataValidationError, match=message):
        run_panel(simulated[0], size)


def test_bad_input_is_refused_with_the_reason(simulated):
    data, _ = simulated
    with pytest.raises(DataValidationError, match="did you mean 'gene17'"):
        run_panel(data, 4, include=["Gene17"])
    with pytest.raises(DataValidationError, match="exclude: 1 gene"):
        run_panel(data, 4, exclude=["nothing"])
    negative = data.X.copy()
    negative.data[0] = -1
    with pytest.raises(DataValidationError, match="1 negative"):
        run_panel(_with(data, X=negative), 4)
    y = data.y.astype(object)
    y[5] = None
    with pytest.raises(DataValidationError, match="missing"):
        run_panel(_with(data, y=y), 4)
    with pytest.raises(DataValidationError, match="test_size"):
        run_panel(data, 4, test_size=1.0)


@pytest.mark.parametrize("seed", [None, np.random.RandomState(0), 1.5, True])
def test_a_seed_that_is_not_an_int_is_refused_before_any_work(simulated, monkeypatch, seed):
    from sfmlearn.analysis import panel

    monkeypatch.setattr(panel, "split_cells", None)  # nothing after the checks may run
    with pytest.raises(DataValidationError, match="random_state must be an int.*recorded.*repeated"):
        run_panel(simulated[0], 4, random_state=seed)


def test_any_sparse_format_is_read_and_a_dataframe_is_refused_with_the_fix(simulated):
    import pandas as pd

    data, _ = simulated
    expected = run_panel(data, 4)
    coo = run_panel(_with(data, X=data.X.tocoo()), 4)
    assert coo.panel == expected.panel and coo.confusion_matrix == expected.confusion_matrix
    frame = pd.DataFrame(data.X.toarray(), columns=data.feature_names)
    with pytest.raises(DataValidationError, match=r"pandas DataFrame.*df\.to_numpy\(\)"):
        run_panel(_with(data, X=frame), 4)


def test_nan_in_the_counts_is_named_as_missing(simulated):
    data, _ = simulated
    X = data.X.toarray()
    X[0, 0] = np.nan
    with pytest.raises(DataValidationError, match="1 NaN") as raised:
        run_panel(_with(data, X=X), 4)
    assert "non-integer" not in str(raised.value)
