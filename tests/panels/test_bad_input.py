"""Bad input to MarkerPanel: a one-line error naming the problem and the fix, or a warning."""

import re
import warnings

import numpy as np
import pytest

from conftest import FAST
from sfmlearn.exceptions import DataValidationError
from sfmlearn.panels import MarkerPanel


def test_a_type_with_fewer_than_three_cells(cells):
    X, y, _ = cells
    y = y.copy()
    y[:2] = "rare"
    with pytest.raises(DataValidationError, match=r"\['rare'\] have fewer than 3 cells.*merge"):
        MarkerPanel(n_markers=5, **FAST).fit(X, y)


def test_missing_labels(cells):
    X, y, _ = cells
    y = y.astype(object)
    y[[3, 9]] = None
    with pytest.raises(DataValidationError, match="2 missing labels.*Drop those samples"):
        MarkerPanel(n_markers=5, **FAST).fit(X, y)


@pytest.mark.parametrize("value", [-1.0, 0.5])
def test_values_that_are_not_counts(cells, value):
    X, y, _ = cells
    X = X.copy()
    X.data[0] = value
    with pytest.raises(DataValidationError, match="expects raw counts.*normalize='none'"):
        MarkerPanel(n_markers=5, **FAST).fit(X, y)
    MarkerPanel(n_markers=5, normalize="none", **FAST).fit(X, y)  # declared as given: fine


def test_unexpressed_genes_are_left_out_with_a_warning(cells):
    X, y, _ = cells
    X = X.tolil()
    X[:, [0, 1, 2]] = 0
    with pytest.warns(UserWarning, match="3 genes are constant"):
        panel = MarkerPanel(n_markers=5, **FAST).fit(X.tocsr(), y)
    assert not set(panel.panel_) & {0, 1, 2}


def test_a_budget_larger_than_the_genes(cells):
    X, y, _ = cells
    with pytest.raises(DataValidationError, match="n_markers=500 exceeds the 400 genes.*lower"):
        MarkerPanel(n_markers=500, **FAST).fit(X, y)


def test_a_budget_below_the_number_of_types_warns_and_is_still_spent(cells):
    X, y, _ = cells
    with pytest.warns(UserWarning, match="below the 4 cell types.*Raise n_markers"):
        panel = MarkerPanel(n_markers=2, **FAST).fit(X, y)
    assert len(panel.panel_) == 2


def test_include_larger_than_the_budget_and_conflicting_gene_lists(cells):
    X, y, _ = cells
    with pytest.raises(DataValidationError, match="include holds 3 genes but n_markers=2"):
        MarkerPanel(n_markers=2, include=[0, 1, 2], **FAST).fit(X, y)
    with pytest.raises(DataValidationError, match="both include and exclude"):
        MarkerPanel(n_markers=4, include=[5], exclude=[5], **FAST).fit(X, y)
    with pytest.raises(DataValidationError, match="does not have.*gene_names"):
        MarkerPanel(n_markers=4, include=["CD3E"], **FAST).fit(X, y)


def test_predict_coarse_without_coarse_labels(cells):
    X, y, _ = cells
    panel = MarkerPanel(n_markers=4, **FAST).fit(X, y)
    with pytest.raises(DataValidationError, match="fit\\(X, y, coarse=...\\)"):
        panel.predict_coarse(X)


def test_a_continuous_target(cells):
    X, _, _ = cells
    with pytest.raises(DataValidationError, match="continuous"):
        MarkerPanel(n_markers=4, **FAST).fit(X, np.linspace(0, 1, X.shape[0]))


def test_max_cells_below_cv_is_refused_before_any_work(cells, monkeypatch):
    from sklearn.utils._param_validation import InvalidParameterError

    from sfmlearn.panels import marker_panel

    X, y, _ = cells
    monkeypatch.setattr(marker_panel, "gene_sets", None)  # nothing after the checks may run
    with pytest.raises(InvalidParameterError, match="max_cells=2 is below cv=3.*raise max_cells or lower cv"):
        MarkerPanel(n_markers=4, max_cells=2, random_state=0).fit(X, y)
    with pytest.raises(InvalidParameterError, match="max_cells=4 is below cv=5"):
        MarkerPanel(n_markers=4, max_cells=4, cv=5, random_state=0).fit(X, y)


def test_coarse_with_one_class_is_refused_before_any_work(cells, monkeypatch):
    from sfmlearn.panels import marker_panel

    X, y, _ = cells
    monkeypatch.setattr(marker_panel, "rank_candidates", None)
    with pytest.raises(DataValidationError, match=r"coarse holds one class \('all cells'\).*leave coarse out"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, coarse=np.full(y.size, "all cells"))


@pytest.mark.parametrize("params", [dict(n_markers=True), dict(lookahead=True), dict(n_jobs=True), dict(n_jobs=0)])
def test_counts_refuse_bools_and_n_jobs_zero(cells, params):
    from sklearn.utils._param_validation import InvalidParameterError

    X, y, _ = cells
    name = next(iter(params))
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of MarkerPanel"):
        MarkerPanel(**{"n_markers": 4, **params}).fit(X, y)


def test_messages_show_plain_values(cells):
    X, y, _ = cells
    with pytest.raises(DataValidationError, match=r"y holds one class \('only'\)") as raised:
        MarkerPanel(n_markers=4, **FAST).fit(X, np.array(["only"] * y.size))
    assert "np." not in str(raised.value)
    with pytest.raises(DataValidationError, match=r"names genes \[7\.5\]") as raised:
        MarkerPanel(n_markers=4, include=np.array([7.5]), **FAST).fit(X, y)
    assert "np." not in str(raised.value)


def test_a_budget_the_screen_cannot_fill_names_the_most_genes(cells):
    X, y, _ = cells
    with pytest.raises(DataValidationError, match=r"only (\d+) candidate.*at most \1, or raise n_screen") as raised:
        MarkerPanel(n_markers=200, **FAST).fit(X, y)
    assert int(re.search(r"only (\d+)", str(raised.value)).group(1)) < 200


def test_a_failed_refit_leaves_the_panel_unfitted(cells):
    from sklearn.exceptions import NotFittedError

    X, y, _ = cells
    panel = MarkerPanel(n_markers=4, **FAST).fit(X, y)
    renamed = np.char.replace(y.astype(str), "type", "kind")
    with pytest.raises(DataValidationError, match="does not have"):
        panel.set_params(include=["nope"]).fit(X[:, :300], renamed)
    assert not hasattr(panel, "classes_") and not hasattr(panel, "centroids_")
    with pytest.raises(NotFittedError):
        panel.predict(X)


def test_values_whose_squares_overflow_are_refused_before_any_work(cells, monkeypatch):
    from sfmlearn.panels import marker_panel, normalize_counts

    X, y, _ = cells
    Z = normalize_counts(X).astype(np.float64)
    fitted = MarkerPanel(n_markers=4, normalize="none", **FAST).fit(Z, y)
    with pytest.raises(DataValidationError, match=r"as large as 1e\+160.*Rescale X first"):
        fitted.predict(np.full((2, X.shape[1]), 1e160))  # distances to the centres would be infinite
    monkeypatch.setattr(marker_panel, "rank_candidates", None)
    with pytest.raises(DataValidationError, match=r"as large as 2e\+160.*Rescale X first, e\.g\. X / 1e\+160"):
        MarkerPanel(n_markers=4, normalize="none", **FAST).fit(Z * (2e160 / Z.max()), y)


def test_gene_names_in_another_shape_are_refused_with_the_shape(cells):
    X, y, _ = cells
    names = np.array([f"g{j}" for j in range(X.shape[1])])
    with pytest.raises(DataValidationError, match=r"gene_names has shape \(1, 400\); give a 1-D list"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, gene_names=names.reshape(1, -1))
    with pytest.raises(DataValidationError, match="gene_names has 399 names for 400 genes"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, gene_names=names[1:])


@pytest.mark.parametrize("unordered", [set, frozenset, lambda names: dict.fromkeys(names).keys()])
def test_gene_names_without_an_order_are_refused(cells, unordered):
    X, y, _ = cells
    names = unordered(f"g{j}" for j in range(X.shape[1]))
    with pytest.raises(DataValidationError, match="which has no order.*ordered list"):
        MarkerPanel(n_markers=4, **FAST).fit(X, y, gene_names=names)


def test_a_single_class_is_named_before_the_cell_count(cells):
    X, _, _ = cells
    with pytest.raises(DataValidationError, match=r"y holds one class \('a'\)"):
        MarkerPanel(n_markers=3, **FAST).fit(X[:4], ["a"] * 4)


def test_a_gene_constant_after_normalisation_is_named_so():
    rng = np.random.default_rng(0)
    X = rng.integers(1, 50, size=(30, 1)).astype(float)  # one gene: every cell's whole library
    y = np.repeat(["a", "b", "c"], 10)
    with pytest.warns(UserWarning, match="1 genes are constant .*after library-size normalisation"), \
            pytest.raises(DataValidationError, match="not constant after library-size normalisation.*"
                                                     "normalize='none'"):
        MarkerPanel(n_markers=1, **FAST).fit(X, y)


def test_cells_without_counts_are_warned_about_in_fit_and_predict(cells):
    X, y, _ = cells
    X = X.tolil()
    X[[0, 7], :] = 0
    with pytest.warns(UserWarning, match=r"2 of 600 training cells have no counts.*Drop empty cells"):
        panel = MarkerPanel(n_markers=4, **FAST).fit(X.tocsr(), y)
    empty = np.zeros((1, X.shape[1]))
    for method in (panel.predict, panel.predict_proba, panel.decision_function):
        with pytest.warns(UserWarning, match=r"1 of 1 cells to classify have no counts.*say nothing"):
            method(empty)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        panel.predict(X[1:5].tocsr())  # cells with counts: no warning
