"""Checks of the cells a marker panel is fitted on or classifies, beyond sfmlearn's shared ones.

:func:`sfmlearn._validation.check_xy` and :func:`~sfmlearn._validation.check_features`
refuse what no estimator can use (text, NaN, a wrong number of columns); these refuse or
warn about what would make a panel's answer silently wrong:

* values whose squared distances overflow float64 (the panel would compare infinities);
* cells without any count under "log1p" (normalised, an empty cell is all zeros, the
  profile of no cell type, yet it gets a confident label);
* cells given on the panel genes alone (a targeted assay), with the fix;
* a DataFrame whose non-text column labels (e.g. integer gene ids, which scikit-learn's
  ``feature_names_in_`` does not record) are not those of fit, in the same order.
"""

import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..exceptions import DataValidationError
from .genes import _shown, column_labels

__all__ = ["check_column_order", "check_magnitude", "non_text_labels", "refuse_panel_columns_only",
           "warn_empty_cells"]


def check_magnitude(X, n_terms):
    """Refuse values so large that their squared differences, summed ``n_terms`` at a time,
    overflow float64.

    A panel compares sums of squared differences: over the cells (Welch t, class spreads)
    in fit, over the panel genes in predict. With |x| <= M every such sum is at most
    ``n_terms (2 M)^2``; larger values would end in infinities, NaN scores and an
    optimiser's error after all the work. The choice of genes does not depend on the
    data's scale, so the fix is to rescale.

    Parameters
    ----------
    X : ndarray or sparse matrix of finite values
    n_terms : int
        The most terms a sum of squares over X has.
    """
    values = X.data if sp.issparse(X) else np.asarray(X)
    if values.size == 0:
        return
    largest = max(float(values.max()), -float(values.min()))  # no |X| temporary
    limit = np.sqrt(np.finfo(np.float64).max / (4.0 * max(n_terms, 1)))
    if largest > limit:
        raise DataValidationError(
            f"X holds values as large as {largest:.3g} in magnitude: their squared distances overflow "
            f"float64 (the largest usable is about {limit:.1e} here). Rescale X first, e.g. X / "
            f"{10.0 ** np.floor(np.log10(largest)):.0e}: a panel on rescaled values is the same panel.")


def warn_empty_cells(X, cells, effect, *, stacklevel):
    """Warn when rows of counts X have no count at all (their total is 0).

    Parameters
    ----------
    X : ndarray or sparse matrix of checked counts
    cells : str
        What the rows are, e.g. "training cells".
    effect : str
        What empty cells do there, for the message.
    stacklevel : int
        Of the warning, so that it points at the caller's line.
    """
    n_empty = int(np.count_nonzero(np.asarray(X.sum(axis=1)).ravel() == 0))
    if n_empty:
        warnings.warn(
            f"{n_empty} of {X.shape[0]} {cells} have no counts (all-zero rows): {effect}. Drop empty "
            "cells first, e.g. X[np.asarray(X.sum(axis=1)).ravel() > 0] (scanpy: "
            "sc.pp.filter_cells(adata, min_counts=1)).", UserWarning, stacklevel=stacklevel + 1)


def non_text_labels(labels):
    """A DataFrame's column ``labels`` (:func:`~.genes.column_labels`) when they are not all
    text (e.g. integer gene ids), else None: scikit-learn records only text labels
    (``feature_names_in_``)."""
    if labels is None or all(isinstance(label, str) for label in labels):
        return None
    return labels


def check_column_order(X, fitted_labels):
    """Refuse a DataFrame X whose column labels are not ``fitted_labels`` in the same order
    (None: fit saw no such labels, nothing to compare). X has as many columns as in fit
    (checked before)."""
    labels = column_labels(X)
    if fitted_labels is None or labels is None or pd.Index(labels).equals(pd.Index(fitted_labels)):
        return
    both_missing = pd.isna(labels) & pd.isna(fitted_labels)
    first = np.flatnonzero((pd.Index(labels) != pd.Index(fitted_labels)) & ~both_missing)[0]
    (shown,), (expected,) = _shown(labels[first:first + 1]), _shown(fitted_labels[first:first + 1])
    raise DataValidationError(
        f"X's column labels differ from those of fit: column {first} is {shown!r}, in fit it was "
        f"{expected!r}. Pass the genes of fit in the same order, e.g. X[panel.column_labels_].")


def refuse_panel_columns_only(X, n_panel, n_features):
    """Cells given on the ``n_panel`` panel genes alone (a targeted assay) get the fix, not a
    count mismatch: their library sizes would be over other genes than in fit
    (``n_features``)."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2 and shape[1] == n_panel != n_features:
        raise DataValidationError(
            f"X has {n_panel} columns, as many as the panel's genes, but the panel was fitted on "
            f"{n_features} genes and predicts from cells with all of them (a cell's library size "
            f"is summed over all its genes). For cells measured on the panel genes only, fit a panel on "
            f"those columns: MarkerPanel({n_panel}, include=range({n_panel})).fit(X_train[:, panel.panel_], y).")
