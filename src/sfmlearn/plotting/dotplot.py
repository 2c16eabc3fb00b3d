"""The dot plot of a marker panel: cell types x panel genes.

Each dot shows one gene in one cell type: its area the fraction of the type's cells that
express the gene (count > 0), its colour the mean normalised expression (scanpy's
``sc.pl.dotplot`` convention). A good panel shows a block of large, dark dots per type.
"""

import numpy as np
from matplotlib.figure import Figure

from ..exceptions import DataValidationError
from ._checks import check_length, number_of

__all__ = ["dotplot_figure"]

#: Dot area (points^2) of a gene expressed by every cell of a type.
FULL_DOT = 220.0


def dotplot_figure(cell_types, genes, fraction_expressing, mean_expression, *, gene_types=None,
                   scale_per_gene=False):
    """Dots of cell types (rows) x genes (columns): size = fraction expressing, colour = mean.

    Parameters
    ----------
    cell_types : sequence of str
        The rows, top to bottom.
    genes : sequence of str
        The columns, left to right.
    fraction_expressing : array-like of shape (n_types, n_genes)
        Fraction of the type's cells with a count > 0, in [0, 1].
    mean_expression : array-like of shape (n_types, n_genes)
        Mean normalised expression of the gene in the type.
    gene_types : sequence of str, optional
        The cell type each gene marks; the columns are then grouped by type, in the order
        of ``cell_types`` (stable within a type), so the marked type's dots form a diagonal.
    scale_per_gene : bool, default=False
        Colour (m_kg - min_k m_kg) / (max_k m_kg - min_k m_kg) instead of m_kg: 0 in the
        type of lowest mean, 1 in the type of highest (scanpy's ``standard_scale="var"``),
        so a marker stands out even where every type expresses it.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    DataValidationError
        When a table's shape is not (cell types, genes) or ``gene_types`` does not name
        one type per gene.

    Examples
    --------
    >>> from sfmlearn.plotting.dotplot import dotplot_figure
    >>> figure = dotplot_figure(["B", "T"], ["CD3E", "MS4A1"], [[0.05, 0.9], [0.8, 0.1]],
    ...                         [[0.0, 2.1], [1.7, 0.1]], gene_types=["T", "B"])
    >>> [label.get_text() for label in figure.axes[0].get_xticklabels()]
    ['MS4A1', 'CD3E']
    """
    fraction = _table("fraction_expressing", fraction_expressing, cell_types, genes)
    mean = _table("mean_expression", mean_expression, cell_types, genes)
    order = np.arange(len(genes))
    if gene_types is not None:
        check_length("gene_types", gene_types, len(genes), "gene")
        rank = {t: k for k, t in enumerate(cell_types)}
        order = np.array(sorted(order, key=lambda j: rank.get(gene_types[j], len(rank))), dtype=int)
    fraction, mean = fraction[:, order], mean[:, order]
    label = "mean expression"
    if scale_per_gene:
        low, spread = mean.min(axis=0), np.ptp(mean, axis=0)
        mean = np.divide(mean - low, spread, out=np.zeros_like(mean), where=spread > 0)
        label = "mean expression, scaled per gene"
    n_types, n_genes = fraction.shape
    fig = Figure(figsize=(min(4.0 + 0.32 * n_genes, 24.0), max(2.6, 1.6 + 0.32 * n_types)), layout="constrained")
    ax, side = fig.subplots(1, 2, width_ratios=[max(n_genes, 2), 2.2])
    columns, rows = np.meshgrid(np.arange(n_genes), np.arange(n_types))
    dots = ax.scatter(columns.ravel(), rows.ravel(), s=FULL_DOT * fraction.ravel(), c=mean.ravel(), cmap="Reds",
                      vmin=0, edgecolors="0.4", linewidths=0.4)
    ax.set_xticks(np.arange(n_genes), [_literal(genes[j]) for j in order], rotation=90, fontsize="small")
    ax.set_yticks(np.arange(n_types), [_literal(t) for t in cell_types], fontsize="small")
    ax.set_xlim(-0.7, n_genes - 0.3)
    ax.set_ylim(n_types - 0.3, -0.7)
    ax.set_title(f"{n_genes} panel genes in {n_types} cell types")
    side.axis("off")
    for share in (0.25, 0.5, 1.0):
        side.scatter([], [], s=FULL_DOT * share, c="0.6", edgecolors="0.4", label=f"{share:.0%}")
    side.legend(title="cells expressing", loc="upper left", frameon=False, fontsize="small",
                title_fontsize="small", labelspacing=1.0)
    colours = fig.colorbar(dots, cax=side.inset_axes([0.05, 0.12, 0.8, 0.07]), orientation="horizontal")
    colours.set_label(label, fontsize="small")
    colours.ax.tick_params(labelsize="small")
    return fig


def _table(name, values, cell_types, genes):
    """``values`` as floats of shape (cell types, genes); any other shape is refused, naming both."""
    table = np.asarray(values, dtype=float)
    expected = (len(cell_types), len(genes))
    if table.shape != expected:
        raise DataValidationError(
            f"{name} has shape {table.shape} for {number_of(expected[0], 'cell type')} and "
            f"{number_of(expected[1], 'gene')}: give one row per cell type and one column per gene, shape {expected}.")
    return table


def _literal(text):
    """Text drawn character for character (a ``$`` does not start mathtext)."""
    return str(text).replace("$", r"\$")
