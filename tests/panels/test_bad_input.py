"""Bad input to MarkerPanel: a one-line error naming the problem and the fix, or a warning."""

import re

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
