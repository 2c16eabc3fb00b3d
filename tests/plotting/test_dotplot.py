"""The dot plot of a marker panel: dot area = fraction expressing, colour = mean expression."""

import numpy as np
import pytest

from sfmlearn.exceptions import DataValidationError
from sfmlearn.plotting.dotplot import FULL_DOT, dotplot_figure

TYPES = ["B", "T", "NK"]
GENES = ["NKG7", "CD3E", "MS4A1", "CD79A"]
FRACTION = np.array([[0.1, 0.0, 0.9, 0.8], [0.2, 0.95, 0.05, 0.0], [0.9, 0.3, 0.0, 0.1]])
MEAN = np.array([[0.2, 0.0, 2.0, 1.5], [0.5, 3.0, 0.1, 0.0], [2.5, 0.6, 0.0, 0.3]])


def _dots(figure):
    return figure.axes[0].collections[0]


def test_dots_encode_fraction_as_area_and_mean_as_colour():
    figure = dotplot_figure(TYPES, GENES, FRACTION, MEAN)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == GENES
    assert [t.get_text() for t in ax.get_yticklabels()] == TYPES
    dots = _dots(figure)
    assert dots.get_sizes() == pytest.approx(FULL_DOT * FRACTION.ravel())
    assert np.asarray(dots.get_array()) == pytest.approx(MEAN.ravel())
    assert ax.get_title() == "4 panel genes in 3 cell types"


def test_genes_are_grouped_by_the_type_they_mark():
    figure = dotplot_figure(TYPES, GENES, FRACTION, MEAN, gene_types=["NK", "T", "B", "B"])
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == ["MS4A1", "CD79A", "CD3E", "NKG7"]
    assert _dots(figure).get_sizes()[:4] == pytest.approx(FULL_DOT * FRACTION[0, [2, 3, 1, 0]])


def test_scaling_per_gene_spans_zero_to_one():
    colours = _dots(dotplot_figure(TYPES, GENES, FRACTION, MEAN, scale_per_gene=True)).get_array()
    scaled = np.asarray(colours).reshape(3, 4)
    assert scaled.min(axis=0) == pytest.approx(0.0) and scaled.max(axis=0) == pytest.approx(1.0)
    assert scaled[:, 1] == pytest.approx([0.0, 1.0, 0.2])
    flat = _dots(dotplot_figure(TYPES, GENES, FRACTION, np.ones_like(MEAN), scale_per_gene=True)).get_array()
    assert np.asarray(flat) == pytest.approx(0.0)  # a gene equal in every type has nothing to scale


def test_a_dollar_in_a_name_is_drawn_as_is():
    figure = dotplot_figure(["a$b"], ["g$1"], [[0.5]], [[1.0]])
    figure.canvas.draw()  # mathtext would fail or misdraw on an unbalanced $
    assert figure.axes[0].get_xticklabels()[0].get_text() == r"g\$1"


@pytest.mark.parametrize("genes, fraction, mean, message", [
    (GENES[:3], FRACTION, MEAN, r"fraction_expressing has shape \(3, 4\) for 3 cell types and 3 genes"),
    (GENES, FRACTION, MEAN[:2], r"mean_expression has shape \(2, 4\) for 3 cell types and 4 genes"),
    (GENES, FRACTION[0], MEAN, r"fraction_expressing has shape \(4,\) for 3 cell types"),
])
def test_tables_of_another_shape_than_types_by_genes_are_refused(genes, fraction, mean, message):
    with pytest.raises(DataValidationError, match=message + r".*one row per cell type and one column per gene"):
        dotplot_figure(TYPES, genes, fraction, mean)


def test_gene_types_need_one_type_per_gene():
    with pytest.raises(DataValidationError, match=r"gene_types has 1 entry for 4 genes: give one entry per gene"):
        dotplot_figure(TYPES, GENES, FRACTION, MEAN, gene_types=["B"])
