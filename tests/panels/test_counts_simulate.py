import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn.exceptions import DataValidationError
from sfmlearn.panels import check_counts, counts, make_cell_counts, normalize_counts


def test_log1p_is_library_size_then_log(monkeypatch):
    monkeypatch.setattr(counts, "_ROWS", 2)  # sparse X normalised in blocks of cells
    X = np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0], [4.0, 0.0, 1.0], [0.0, 5.0, 0.0]])
    Z = normalize_counts(X, target_sum=10)  # three blocks, the later ones with counts
    expected = np.log1p(10 * X / np.maximum(X.sum(axis=1, keepdims=True), 1))
    np.testing.assert_allclose(Z, expected)
    np.testing.assert_allclose(normalize_counts(sp.csr_matrix(X), target_sum=10).toarray(), expected)


@pytest.mark.parametrize("normalize", ["log1p", "none"])
def test_normalize_columns_equals_normalizing_all_then_selecting(normalize):
    X = sp.csr_matrix(np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0]]))
    full = normalize_counts(X, normalize, target_sum=10)
    np.testing.assert_allclose(counts.normalize_columns(X, [2, 0], normalize, target_sum=10),
                               full[:, [2, 0]].toarray())


def test_float32_stays_float32_and_none_passes_through():
    X = sp.csr_matrix(np.array([[1, 2], [3, 0]], dtype=np.float32))
    assert normalize_counts(X).dtype == np.float32
    assert normalize_counts(X, "none") is X


@pytest.mark.parametrize("value, what", [(-1.0, "1 negative"), (0.5, "1 non-integer")])
def test_counts_refuse_negative_and_fractional_values(value, what):
    X = np.array([[1.0, value], [2.0, 3.0]])
    with pytest.raises(DataValidationError, match=what + r".*normalize='none'"):
        check_counts(X)


def test_simulated_counts_have_the_planted_markers():
    X, y, markers = make_cell_counts(800, 300, n_types=4, n_markers_per_type=3, random_state=1)
    assert sp.isspmatrix_csr(X) and X.dtype == np.float32 and X.shape == (800, 300)
    assert np.all(X.data == np.round(X.data)) and X.data.min() > 0
    assert len(markers) == 12 and markers["index"].is_unique
    assert set(markers["direction"]) == {"up", "down"}
    Z = normalize_counts(X).toarray()
    for _, row in markers.iterrows():
        inside = Z[y == row.cell_type, row["index"]].mean()
        outside = Z[y != row.cell_type, row["index"]].mean()
        assert (inside > outside) == (row.direction == "up")


def test_simulator_is_reproducible_and_checks_its_size():
    a = make_cell_counts(100, 100, n_types=2, n_markers_per_type=2, random_state=3)
    b = make_cell_counts(100, 100, n_types=2, n_markers_per_type=2, random_state=3)
    assert (a[0] != b[0]).nnz == 0 and (a[1] == b[1]).all()
    with pytest.raises(ValueError, match="Raise n_genes"):
        make_cell_counts(100, 10, n_types=4, n_markers_per_type=2)


@pytest.mark.parametrize("kind", [np.asarray, sp.csr_matrix, sp.csc_matrix])
def test_the_fit_reads_panel_columns_as_prediction_does(kind):
    X = kind(np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0], [4.0, 0.0, 1.0]]))
    fit_values = counts.NormalizedCounts(X, 10).columns([2, 0])
    np.testing.assert_allclose(fit_values, counts.normalize_columns(X, [2, 0], target_sum=10))
    full = normalize_counts(sp.csr_matrix(X), target_sum=10).toarray()
    np.testing.assert_allclose(fit_values, full[:, [2, 0]])


@pytest.mark.parametrize("value, what", [(np.nan, "1 NaN"), (np.inf, "1 infinite")])
def test_counts_name_missing_and_infinite_values_first(value, what):
    X = np.array([[1.0, value], [2.0, 3.0]])
    with pytest.raises(DataValidationError, match=what + r".*not counts: drop") as raised:
        check_counts(X)
    assert "non-integer" not in str(raised.value)
