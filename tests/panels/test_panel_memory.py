"""What a panel fit holds in memory: no normalised copy of X, float32 counts kept."""

import numpy as np
import pytest
import scipy.sparse as sp

from conftest import FAST
from sfmlearn.panels import MarkerPanel, counts


@pytest.mark.parametrize("to", [np.asarray, sp.csr_matrix, sp.csc_matrix])
def test_normalized_rows_equal_the_rows_of_the_normalized_matrix(to):
    X = np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0], [5.0, 0.0, 1.0]])
    view = counts.NormalizedCounts(to(X), 10)
    full = np.log1p(10 * X / np.maximum(X.sum(axis=1, keepdims=True), 1))
    for rows in (slice(1, 3), np.array([3, 0]), slice(0, 4)):
        block = view[rows]
        assert block.dtype == np.float64 and sp.issparse(block) == (to is not np.asarray)
        np.testing.assert_allclose(block.toarray() if sp.issparse(block) else block, full[rows])
    assert view.shape == X.shape


def test_float32_and_float64_counts_give_the_same_panel_and_table(cells):
    X, y, _ = cells
    single = MarkerPanel(n_markers=6, **FAST).fit(X.astype(np.float32), y)
    double = MarkerPanel(n_markers=6, **FAST).fit(X.astype(np.float64), y)
    np.testing.assert_array_equal(single.panel_, double.panel_)
    assert single.markers_.equals(double.markers_)
    np.testing.assert_array_equal(single.centroids_, double.centroids_)


def test_fit_leaves_x_as_given(cells):
    X, y, _ = cells
    before = X.copy()
    MarkerPanel(n_markers=5, **FAST).fit(X, y)
    assert X.dtype == before.dtype and (X != before).nnz == 0


@pytest.mark.parametrize("dtype, read_as", [(np.float32, np.float32), (np.int64, np.float64)])
def test_h5ad_counts_keep_float32(tmp_path, dtype, read_as):
    anndata = pytest.importorskip("anndata")
    import pandas as pd

    from sfmlearn.io.h5ad import read_h5ad

    values = np.array([[1, 0, 3], [0, 2, 1], [4, 1, 0], [0, 0, 5]], dtype=dtype)
    obs = pd.DataFrame({"cell_type": ["a", "b", "a", "b"]}, index=[f"c{i}" for i in range(4)])
    var = pd.DataFrame(index=["g0", "g1", "g2"])
    for name, matrix in (("sparse", sp.csr_matrix(values)), ("dense", values)):
        path = tmp_path / f"{name}.h5ad"
        anndata.AnnData(X=matrix, obs=obs, var=var).write_h5ad(path)
        data = read_h5ad(path, "obs:cell_type")
        assert data.X.dtype == read_as and sp.issparse(data.X) == (name == "sparse")
        np.testing.assert_array_equal(data.X.toarray() if sp.issparse(data.X) else data.X, values)

