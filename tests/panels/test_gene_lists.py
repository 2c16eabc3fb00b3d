"""Which genes a panel may hold: gene names, include/exclude and constant genes."""

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from conftest import FAST
from sfmlearn.exceptions import DataValidationError
from sfmlearn.panels import MarkerPanel
from sfmlearn.panels.genes import _varies


def test_integer_column_labels_are_the_gene_names_and_include_reads_them_as_labels(cells):
    X, y, _ = cells
    labels = list(range(1399, 999, -1))  # integer gene ids, none equal to its position
    frame = pd.DataFrame(X.toarray(), columns=labels)
    panel = MarkerPanel(n_markers=5, include=[1003], exclude=[1010], **FAST).fit(frame, y)
    chosen = frame.columns[panel.panel_]
    assert chosen[0] == 1003 and 1010 not in chosen
    assert panel.genes_.tolist() == [str(label) for label in chosen]
    assert panel.markers_.gene.tolist() == panel.genes_.tolist()
    with pytest.raises(DataValidationError, match=r"\[3\] that X does not have.*by label, not by position"):
        MarkerPanel(n_markers=5, include=[3], **FAST).fit(frame, y)


def test_integer_gene_names_are_names_too(cells):
    X, y, _ = cells
    names = np.arange(X.shape[1])[::-1] + 5000
    panel = MarkerPanel(n_markers=4, include=[5001, 5002], **FAST).fit(X, y, gene_names=names)
    assert panel.genes_[:2].tolist() == ["5001", "5002"]
    assert panel.panel_[:2].tolist() == [X.shape[1] - 2, X.shape[1] - 3]


def test_text_names_keep_integers_as_column_indices(cells):
    X, y, _ = cells
    names = [f"g{j}" for j in range(X.shape[1])]
    panel = MarkerPanel(n_markers=4, include=[5, "g7"], **FAST).fit(X, y, gene_names=names)
    assert panel.genes_[:2].tolist() == ["g5", "g7"]


@pytest.mark.parametrize("which", ["include", "exclude"])
def test_a_gene_given_twice_is_used_once_with_a_warning(cells, which):
    X, y, _ = cells
    with pytest.warns(UserWarning, match=rf"{which} names the gene\(s\) \['0'\] more than once"):
        panel = MarkerPanel(n_markers=4, **{which: [0, 0]}, **FAST).fit(X, y)
    assert len(set(panel.panel_)) == len(panel.panel_) == 4
    assert panel.get_support().sum() == 4 == panel.transform(X).shape[1] == panel.centroids_.shape[1]
    assert (0 in panel.panel_) == (which == "include")


def test_the_same_gene_by_index_and_by_name_is_one_gene(cells):
    X, y, _ = cells
    names = [f"g{j}" for j in range(X.shape[1])]
    with pytest.warns(UserWarning, match="more than once"):
        panel = MarkerPanel(n_markers=4, include=[0, 0, 0, 0, "g0"], **FAST).fit(X, y, gene_names=names)
    assert len(set(panel.panel_)) == 4


def test_repeated_gene_names_are_refused(cells):
    X, y, _ = cells
    names = np.array([f"g{j}" for j in range(X.shape[1])], dtype=object)
    names[0] = names[-1] = "ACTB"
    with pytest.raises(DataValidationError, match=r"repeated names \['ACTB'\].*make them unique"):
        MarkerPanel(n_markers=4, include=["ACTB"], **FAST).fit(X, y, gene_names=names)
    with pytest.raises(DataValidationError, match=r"repeated names \['ACTB'\]"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, gene_names=names)  # even when unused


def _columns():
    """Columns: constant non-zero, all zero, zeros and a value, varying without zeros,
    constant non-zero with one stored explicit zero, negative and zero."""
    Z = np.zeros((6, 6))
    Z[:, 0] = 3.0
    Z[2, 2] = 1.5
    Z[:, 3] = np.arange(1, 7)
    Z[:, 4] = 2.0
    Z[1, 5] = -1.0
    return Z


@pytest.mark.parametrize("to", [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix])
def test_dense_and_sparse_agree_about_constant_genes(to):
    Z = _columns()
    expected = [False, False, True, True, False, True]
    assert _varies(Z).tolist() == expected
    sparse = to(Z)
    if to is sp.csr_matrix:  # an explicitly stored zero in the constant column 4 makes it vary
        sparse = sp.csr_matrix((np.r_[sparse.data, 0.0], np.r_[sparse.indices, 4],
                                np.r_[sparse.indptr[:-1], sparse.indptr[-1] + 1]), shape=Z.shape)
        expected[4] = True
    assert _varies(sparse).tolist() == expected


def test_a_constant_non_zero_gene_is_left_out_of_sparse_and_dense_data(cells):
    X, y, _ = cells
    Z = np.log1p(X.toarray()[:, :40])
    Z[:, 4] = 3.0
    for data in (Z, sp.csr_matrix(Z), sp.csc_matrix(Z)):
        with pytest.warns(UserWarning, match="1 genes are constant"):
            panel = MarkerPanel(n_markers=5, normalize="none", **FAST).fit(data, y)
        assert 4 not in panel.panel_


def test_an_included_constant_gene_stays_on_the_panel_without_a_direction(cells):
    X, y, _ = cells
    X = X.tolil()
    X[:, 5] = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        panel = MarkerPanel(n_markers=4, include=[5], **FAST).fit(X.tocsr(), y)
    messages = [str(w.message) for w in caught]
    assert any("included gene(s) ['5'] are constant" in m and "stay on the panel" in m for m in messages)
    assert not any("left out" in m for m in messages), messages
    row = panel.markers_.iloc[0]
    assert panel.panel_[0] == 5 and row.t == 0 and row.direction == "-" and row.source == "include"


def test_a_set_of_gene_names_is_read_as_names(cells):
    X, y, _ = cells
    names = [f"g{j}" for j in range(X.shape[1])]
    panel = MarkerPanel(n_markers=4, include={"g7", "g5"}, **FAST).fit(X, y, gene_names=names)
    assert panel.genes_[:2].tolist() == ["g5", "g7"]  # a set has no order: sorted


def test_unknown_genes_among_integer_gene_names_name_gene_names_as_the_source(cells):
    X, y, _ = cells
    names = np.arange(X.shape[1]) + 1000
    with pytest.raises(DataValidationError, match=r"\[3\] that X does not have; gene_names are not text, "
                                                  "so include and exclude name genes by name"):
        MarkerPanel(n_markers=4, include=[3], **FAST).fit(X, y, gene_names=names)


def test_a_gene_constant_up_to_rounding_is_not_ranked():
    from sfmlearn.panels.ranking import sfm_ranking

    value = np.log1p(1e4)
    Z = np.full((20, 1), value) + np.arange(20)[:, None] % 2 * np.spacing(value)  # one ulp apart
    positions, weights = sfm_ranking(Z, np.arange(20) < 10, n_Cs=3)
    assert positions.size == weights.size == 0
    assert not _varies(Z).any()
