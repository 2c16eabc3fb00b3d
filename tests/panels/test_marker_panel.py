import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split

from conftest import FAST
from sfmlearn.exceptions import DataValidationError
from sfmlearn.panels import MarkerPanel, normalize_counts


def test_recovers_the_planted_markers_with_their_type_and_direction(cells):
    X, y, planted = cells
    panel = MarkerPanel(n_markers=12, **FAST).fit(X, y)
    table = panel.markers_.assign(index=panel.panel_)
    hits = table.merge(planted, on="index", suffixes=("", "_planted"))
    assert len(hits) >= 6  # of 12; once every type is recognised, margins pick the rest
    assert (hits.cell_type == hits.cell_type_planted).all()
    assert (hits.direction == hits.direction_planted).all()


def test_a_panel_as_small_as_the_types_holds_planted_markers_only(cells):
    X, y, planted = cells
    table = MarkerPanel(n_markers=4, **FAST).fit(X, y).markers_
    own = set(zip(planted.cell_type, planted["index"].astype(str)))
    assert set(zip(table.cell_type, table.gene)) <= own


def test_the_budget_is_spent_exactly_and_never_exceeded(cells):
    X, y, _ = cells
    for m in (4, 9):
        panel = MarkerPanel(n_markers=m, **FAST).fit(X, y)
        assert len(panel.panel_) == len(set(panel.panel_)) == m
        assert panel.get_support().sum() == m and panel.transform(X).shape == (600, m)
        assert len(panel.validation_scores_) == m


def test_predicts_held_out_cells_and_sparse_float32_match_dense(cells):
    X, y, _ = cells
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    sparse = MarkerPanel(n_markers=8, **FAST).fit(Xtr, ytr)
    dense = MarkerPanel(n_markers=8, **FAST).fit(Xtr.toarray().astype(np.float64), ytr)
    assert balanced_accuracy_score(yte, sparse.predict(Xte)) > 0.9
    np.testing.assert_array_equal(sparse.panel_, dense.panel_)
    np.testing.assert_array_equal(sparse.predict(Xte), dense.predict(Xte.toarray()))


def test_predict_is_the_nearest_centroid_on_the_panel(cells):
    X, y, _ = cells
    panel = MarkerPanel(n_markers=6, **FAST).fit(X, y)
    Z = normalize_counts(X).toarray()[:, panel.panel_]
    centres = np.array([Z[y == k].mean(axis=0) for k in panel.classes_])
    np.testing.assert_allclose(panel.centroids_, centres, rtol=1e-5)  # float32 sums
    nearest = ((Z[:, None] - centres[None]) ** 2).sum(axis=2).argmin(axis=1)
    np.testing.assert_array_equal(panel.predict(X), panel.classes_[nearest])


def test_include_and_exclude_by_name(cells):
    X, y, planted = cells
    names = [f"g{j}" for j in range(X.shape[1])]
    best = planted["index"].iloc[0]
    panel = MarkerPanel(n_markers=6, include=["g7"], exclude=[f"g{best}"], **FAST).fit(
        X, y, gene_names=names)
    assert "g7" in panel.genes_ and f"g{best}" not in panel.genes_
    assert panel.panel_[0] == 7 and panel.markers_.level.iloc[0] == "include"
    frame = pd.DataFrame(X.toarray(), columns=names)
    assert "g7" in MarkerPanel(n_markers=5, include=["g7"], **FAST).fit(frame, y).genes_


def test_coarse_types_stay_separable(cells):
    X, y, _ = cells
    coarse = np.where(np.isin(y, ["type0", "type1"]), "A", "B")
    flat = MarkerPanel(n_markers=3, **FAST).fit(X, y)
    panel = MarkerPanel(n_markers=3, **FAST).fit(X, y, coarse=coarse)
    flat_coarse = np.where(np.isin(flat.predict(X), ["type0", "type1"]), "A", "B")
    assert balanced_accuracy_score(coarse, panel.predict_coarse(X)) > \
        balanced_accuracy_score(coarse, flat_coarse) + 0.03
    assert dict(zip(panel.classes_, panel.coarse_of_)) == {
        "type0": "A", "type1": "A", "type2": "B", "type3": "B"}


def test_coarse_labels_must_group_the_cell_types(cells):
    X, y, _ = cells
    coarse = np.where(np.arange(y.size) % 2, "A", "B")
    with pytest.raises(DataValidationError, match="appear under several coarse types"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, coarse=coarse)


def test_per_type_problems_run_on_a_dask_cluster(cells):
    distributed = pytest.importorskip("distributed")
    import joblib
    X, y, _ = cells
    expected = MarkerPanel(n_markers=5, **FAST).fit(X, y).panel_
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster), joblib.parallel_backend("dask"):
        panel = MarkerPanel(n_markers=5, n_jobs=-1, **FAST).fit(X, y)
    np.testing.assert_array_equal(panel.panel_, expected)


def test_markers_table_names_type_gene_weight_direction(cells):
    X, y, _ = cells
    table = MarkerPanel(n_markers=8, **FAST).fit(sp.csc_matrix(X), y).markers_
    assert list(table.columns) == ["gene", "cell_type", "weight", "direction", "t", "level",
                                   "source"]
    assert set(table.cell_type) <= {"type0", "type1", "type2", "type3"}
    assert (np.sign(table.t) == np.where(table.direction == "up", 1, -1)).all()


def test_every_panel_gene_has_a_reason_sfm_weight_or_ranking(cells):
    X, y, _ = cells
    panel = MarkerPanel(n_markers=12, **FAST).fit(X, y)
    table = panel.markers_
    assert set(table.source) <= {"sfm", "ranking"} and (table.source == "sfm").any()
    assert ((table.source == "sfm") == (table.weight != 0)).all()
    # the direction of every gene is the sign of its type's mean minus the other cells'
    Z = normalize_counts(X).toarray()
    for gene, row in zip(panel.panel_, table.itertuples()):
        if row.source == "ranking":
            inside, outside = Z[y == row.cell_type, gene], Z[y != row.cell_type, gene]
            assert np.sign(inside.mean() - outside.mean()) == np.sign(row.t)


def test_a_second_panel_on_the_panel_genes_classifies_cells_measured_on_them_alone(cells):
    """predict needs the genes of fit (the library size is over all of them); cells measured
    on the panel genes only are classified by a panel fitted on those columns."""
    X, y, _ = cells
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    panel = MarkerPanel(n_markers=6, **FAST).fit(Xtr, ytr)
    k = len(panel.panel_)
    alone = MarkerPanel(n_markers=k, include=range(k), **FAST).fit(Xtr[:, panel.panel_], ytr)
    assert alone.panel_.tolist() == list(range(k))
    assert balanced_accuracy_score(yte, alone.predict(Xte[:, panel.panel_])) > 0.9


def test_cells_on_the_panel_genes_alone_get_the_fix_and_the_fix_works(cells):
    X, y, _ = cells
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    panel = MarkerPanel(n_markers=8, **FAST).fit(Xtr, ytr)
    targeted = Xte[:, panel.panel_]
    for method in (panel.predict, panel.predict_proba, panel.decision_function):
        with pytest.raises(DataValidationError, match=r"include=range\(8\)\)\.fit\(X_train\[:, panel\.panel_\]"):
            method(targeted)
    with pytest.raises(DataValidationError, match="Pass the same columns as in fit"):
        panel.predict(Xte[:, :9])  # any other count: the plain mismatch
    on_panel = MarkerPanel(8, include=range(8), **FAST).fit(Xtr[:, panel.panel_], ytr)
    np.testing.assert_array_equal(np.sort(on_panel.panel_), np.arange(8))
    assert balanced_accuracy_score(yte, on_panel.predict(targeted)) > 0.9


@pytest.mark.parametrize("factor", [1e-8, 1e-5, 1e5, 1e8])
def test_the_panel_does_not_depend_on_the_scale_of_the_data(cells, factor):
    X, y, _ = cells
    Z = normalize_counts(X).astype(np.float64)
    panel = MarkerPanel(n_markers=6, normalize="none", **FAST).fit(Z, y)
    scaled = MarkerPanel(n_markers=6, normalize="none", **FAST).fit(Z * factor, y)
    np.testing.assert_array_equal(scaled.panel_, panel.panel_)
    np.testing.assert_allclose(scaled.validation_scores_, panel.validation_scores_, rtol=1e-9)
    np.testing.assert_array_equal(scaled.predict(Z * factor), panel.predict(Z))
    np.testing.assert_allclose(scaled.predict_proba(Z * factor), panel.predict_proba(Z), atol=1e-6)


def test_integer_column_labels_are_kept_and_other_column_orders_refused(cells):
    X, y, _ = cells
    frame = pd.DataFrame(X[:, :80].toarray(), columns=range(100, 180))
    panel = MarkerPanel(n_markers=4, **FAST).fit(frame, y)
    assert panel.column_labels_.tolist() == list(range(100, 180))
    expected = panel.predict(frame)
    np.testing.assert_array_equal(panel.predict(frame.to_numpy()), expected)  # no labels: as in fit
    reordered = frame[frame.columns[::-1]]
    for method in (panel.predict, panel.transform, lambda cells: panel.score(cells, y)):
        with pytest.raises(DataValidationError, match=r"column 0 is 179, in fit it was 100.*same order"):
            method(reordered)
    np.testing.assert_array_equal(panel.predict(reordered[panel.column_labels_]), expected)
    text = MarkerPanel(n_markers=4, **FAST).fit(frame.rename(columns=str), y)
    assert text.column_labels_ is None and text.feature_names_in_[0] == "100"


def test_transform_checks_cells_as_predict_does(cells):
    X, y, _ = cells
    dense = X.toarray()
    panel = MarkerPanel(n_markers=4, **FAST).fit(dense, y)
    for bad, message in [(np.full((2, 400), "a"), "non-numeric values"), (dense[0], "must be 2-D"),
                         (np.where(dense > 50, np.nan, dense), "NaN.*Impute or drop"),
                         (dense[:, panel.panel_], r"include=range\(4\)\)\.fit\(X_train\[:, panel\.panel_\]")]:
        with pytest.raises(DataValidationError, match=message):
            panel.transform(bad)
    assert panel.transform(dense.astype(np.int64)).dtype == np.int64
    np.testing.assert_array_equal(panel.transform(X).toarray(), dense[:, np.sort(panel.panel_)])
    names = [f"g{j}" for j in range(400)]
    frame = pd.DataFrame(dense, columns=names)
    named = MarkerPanel(n_markers=4, **FAST).fit(frame, y)
    with pytest.raises(DataValidationError, match="Pass the same columns as in fit"):
        named.transform(frame[names[::-1]])
