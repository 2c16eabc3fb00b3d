"""``panel``: a marker panel of single-cell data, chosen on training cells and scored on held-out ones.

The cells are split per cell type (every type keeps ``round(test_size n_k)`` cells, at
least one, for the test); :class:`~sfmlearn.panels.MarkerPanel` chooses the panel on the
training cells (screen, soft-SFM paths, greedy held-out allocation: guide *Marker
panels*) and classifies the test cells by the nearest class centre on the panel genes.
The result holds the held-out balanced accuracy BA = (1/K) sum_k recall_k, the recall
(sensitivity) of every type, the confusion matrix, the panel table and, for the dot
plot, per type and panel gene the fraction of cells expressing it (count > 0) and its
mean normalised expression z_ig = log(1 + 10^4 x_ig / sum_g x_ig) over all cells.
"""

import numbers
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.utils import check_random_state

from .._validation import check_labels
from ..exceptions import DataValidationError
from ..io.labelled import did_you_mean, listing
from ..panels import MarkerPanel, check_counts
from ..panels.counts import normalize_columns
from ..panels.marker_panel import MIN_CELLS_PER_TYPE
from ..panels.screen import class_means
from .data import class_counts
from .result import AnalysisResult, not_in_json
from .select import score_test_split
from .selectors import silent

__all__ = ["PanelResult", "read_cells", "run_panel", "split_cells"]


@dataclass
class PanelResult(AnalysisResult):
    """What :func:`run_panel` found; :meth:`to_dict` is ``sfmlearn panel --json``.

    Parameters
    ----------
    data, n_cells, n_genes : str, int, int
        The data: its name and shape (cells x genes).
    cell_types, cell_counts : list of str, dict
        The cell types (sorted) and the cells of each.
    size, panel_size : int, int
        The genes asked for and the genes on the panel.
    normalize : {"log1p", "none"}
        How the values were read: raw counts normalised by library size and log1p, or as given.
    include, exclude : list of str
        Genes put on the panel whatever the data say, and genes never chosen.
    test_size, random_state, n_train, n_test : float, int, int, int
        The held-out share of every type, the seed of the split and the panel's choices,
        and the cells on each side.
    panel : list of dict
        One row per panel gene in the order it was added: ``gene``, ``index`` (column of
        the data), ``cell_type``, ``weight`` (SFM weight at entry, scaled data; 0 off
        the type's SFM path), ``direction`` ("up"/"down" in its type; "-" for t = 0),
        ``t`` (Welch t), ``level`` ("fine", or "include" for an included gene) and ``source`` ("sfm":
        the type's SFM selected it; "ranking": offered by the type's Welch-t ranking;
        "include"); see ``MarkerPanel.markers_``.
    balanced_accuracy : float
        Held-out balanced accuracy: the mean over the types of their sensitivity.
    per_type : list of dict
        Per type: ``cell_type``, ``n_test``, ``sensitivity`` (recall) and ``specificity``
        (one against the rest) on the test cells.
    confusion_matrix : list of list of int
        ``M[i][j]``: test cells of ``cell_types[i]`` predicted as ``cell_types[j]``.
    dotplot : dict
        ``cells`` ("all"), ``cell_types``, ``genes`` (panel order) and, per type and gene,
        ``fraction_expressing`` (cells with a count > 0) and ``mean_expression`` (mean
        normalised value).
    fit_seconds, seconds : float, float
        The panel's fit and the whole analysis.
    estimator : MarkerPanel, optional
        The fitted panel (not in the JSON).
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    The JSON form reads back into an equal result:

    >>> import numpy as np
    >>> from sfmlearn.analysis import PanelResult, TrainingData, run_panel
    >>> from sfmlearn.panels import make_cell_counts
    >>> X, y, _ = make_cell_counts(200, 100, n_types=3, n_markers_per_type=2, random_state=0)
    >>> data = TrainingData("simulated", X, y, np.array([f"gene{j}" for j in range(100)]))
    >>> saved = run_panel(data, 4).to_dict()
    >>> PanelResult.from_dict(saved).to_dict() == saved
    True
    """

    data: str
    n_cells: int
    n_genes: int
    cell_types: list[str]
    cell_counts: dict[str, int]
    size: int
    panel_size: int
    normalize: str
    include: list[str]
    exclude: list[str]
    test_size: float
    random_state: int
    n_train: int
    n_test: int
    panel: list[dict]
    balanced_accuracy: float
    per_type: list[dict]
    confusion_matrix: list[list[int]]
    dotplot: dict
    fit_seconds: float
    seconds: float
    estimator: MarkerPanel | None = not_in_json()


def read_cells(path, target, *, layer=None):
    """Cells x genes with their cell types from a file (:func:`sfmlearn.io.read_labelled`).

    Parameters
    ----------
    path : path-like
        An AnnData ``.h5ad`` file (``target="obs:cell_type"``) or a table with one row
        per cell (``.csv``, ``.tsv``, ``.parquet``; ``target`` a column).
    target : str
        The cell types: an obs column or a table column.
    layer : str, optional
        AnnData: read this layer (e.g. ``"counts"``) instead of X.

    Returns
    -------
    sfmlearn.io.LabelledData
        ``X`` (sparse stays sparse), ``y``, ``feature_names`` (the genes) and ``source``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.analysis import read_cells
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "cells.csv"
    >>> _ = path.write_text("CD3E,MS4A1,type\\n4,0,T\\n0,7,B\\n3,1,T\\n")
    >>> cells = read_cells(path, "type")
    >>> cells.X.shape, cells.feature_names.tolist(), cells.y.tolist()
    ((3, 2), ['CD3E', 'MS4A1'], ['T', 'B', 'T'])
    >>> folder.cleanup()
    """
    from ..io import read_labelled  # the readers (pandas) only for a file

    return read_labelled(path, target, layer=layer)


def split_cells(y, test_size, rng, *, fewest_train=MIN_CELLS_PER_TYPE):
    """(training cells, test cells): per type ``max(1, round(test_size n_k))`` test cells.

    Parameters
    ----------
    y : array-like of shape (n_cells,)
        The cell type of every cell.
    test_size : float
        The share of every type held out, in (0, 1).
    rng : int or RandomState
        Which cells of a type are held out.
    fewest_train : int, default=3
        The training cells every type needs (two to place its centre, one held out
        inside the panel's own cross-validation).

    Returns
    -------
    train, test : ndarray of int
        Sorted cell indices.

    Raises
    ------
    DataValidationError
        When a type has too few cells for both sides (the message names it).

    Examples
    --------
    >>> from sfmlearn.analysis.panel import split_cells
    >>> train, test = split_cells(["a"] * 10 + ["b"] * 5, 0.3, 0)
    >>> len(train), len(test)  # round(3.0) + round(1.5) = 3 + 2 test cells
    (10, 5)
    """
    rng = check_random_state(rng)
    types, codes, counts = np.unique(np.asarray(y), return_inverse=True, return_counts=True)
    n_test = np.maximum(1, np.round(test_size * counts).astype(int))
    short = np.flatnonzero(counts - n_test < fewest_train)
    if short.size:
        raise DataValidationError(
            f"too few cells for a held-out test: cell type(s) "
            f"{listing([f'{types[k]} ({counts[k]} cells)' for k in short])}; every type needs "
            f"{fewest_train} training cells and 1 test cell (test_size={test_size:g}): drop or merge "
            "the small types, or lower test_size.")
    test = np.concatenate([rng.permutation(np.flatnonzero(codes == k))[:n_test[k]]
                           for k in range(counts.size)])
    is_test = np.zeros(codes.size, dtype=bool)
    is_test[test] = True
    return np.flatnonzero(~is_test), np.flatnonzero(is_test)


def _check_request(names, n_types, size, include, exclude):
    """Refuse a size the data cannot fill or that leaves a type without a gene, and unknown genes."""
    if size > names.size:
        raise DataValidationError(f"a panel of {size} genes was asked for, but the data have {names.size} "
                                  f"genes; ask for at most {names.size}.")
    if size < n_types:
        raise DataValidationError(f"a panel of {size} genes cannot give each of the {n_types} cell types a "
                                  f"gene of its own; ask for at least {n_types}.")
    known = set(names.tolist())
    for what, genes in (("include", include), ("exclude", exclude)):
        unknown = [g for g in genes if g not in known]
        if unknown:
            raise DataValidationError(f"{what}: {len(unknown)} gene(s) not in the data ({listing(unknown)})"
                                      f"{did_you_mean(unknown[0], names) or '.'}")


def _check_seed(random_state):
    """Refuse a seed that is not an int: the result records it so that the run can be repeated."""
    if not isinstance(random_state, numbers.Integral) or isinstance(random_state, (bool, np.bool_)):
        raise DataValidationError(
            f"random_state must be an int (the seed is recorded in the result, so that the run can be "
            f"repeated); got {random_state!r}. Pass a whole number, e.g. random_state=0.")


def _cells_matrix(X):
    """``data.X`` as a matrix whose rows can be taken (``X[train]``): a NumPy array, or sparse
    CSR/CSC (other sparse formats, e.g. COO, are converted to CSR). A DataFrame is refused:
    its column labels would compete with ``feature_names``."""
    if isinstance(X, pd.DataFrame):
        raise DataValidationError(
            "data.X is a pandas DataFrame; pass its values and its columns apart: "
            "TrainingData(source, df.to_numpy(), y, df.columns.astype(str).to_numpy()).")
    if sp.issparse(X):
        return X if X.format in ("csr", "csc") else X.tocsr()
    return np.asarray(X)


def _dot_plot(X, codes, n_types, panel, normalize):
    """Per type and panel gene: the fraction of cells expressing it and its mean normalised value."""
    block = X[:, panel]
    raw = np.asarray(block.toarray() if hasattr(block, "toarray") else block, dtype=float)
    values = normalize_columns(X, panel, normalize)
    return class_means((raw > 0).astype(float), codes, n_types), class_means(values, codes, n_types)


def run_panel(data, size, *, include=None, exclude=None, test_size=0.3, random_state=0, normalize="log1p",
              n_jobs=None, progress=silent):
    """Choose a marker panel of ``size`` genes on training cells and score it on held-out cells.

    Parameters
    ----------
    data : TrainingData or sfmlearn.io.LabelledData
        Cells x genes (``X``: a NumPy array or a scipy.sparse matrix of any format; a
        pandas DataFrame is refused, pass ``df.to_numpy()`` and its columns as
        ``feature_names``), their cell types (``y``), the genes' names
        (``feature_names``) and a name for the data (``source``): :func:`read_cells`.
    size : int
        The genes on the panel (the budget; at least the number of cell types).
    include, exclude : sequence of str, optional
        Gene names put on the panel whatever the data say (counted in the budget), and
        genes that cannot be probed.
    test_size : float, default=0.3
        The share of every cell type held out to score the panel (at least one cell).
    random_state : int, default=0
        Seed of the split and of the panel's subsamples and inner folds, recorded in the
        result (so only an int: the run can be repeated from it).
    normalize : {"log1p", "none"}, default="log1p"
        "log1p": X holds raw counts (non-negative integers, checked on all cells);
        "none": the values are used as given.
    n_jobs : int, optional
        Parallel per-type SFM problems (joblib).
    progress : callable
        ``progress(stage, done, total)``, called as every stage starts.

    Returns
    -------
    PanelResult

    Raises
    ------
    DataValidationError
        A size above the genes or below the cell types, a type with too few cells for
        the split, NaN/inf values, values that are not counts under "log1p", unknown
        include/exclude genes, a seed that is not an int, X as a DataFrame.

    Examples
    --------
    Four simulated cell types with three planted markers each; a panel of 8 genes:

    >>> import numpy as np
    >>> from sfmlearn.analysis import TrainingData, run_panel
    >>> from sfmlearn.panels import make_cell_counts
    >>> X, y, planted = make_cell_counts(300, 200, n_types=4, n_markers_per_type=3,
    ...                                  fold_change=6.0, random_state=0)
    >>> data = TrainingData("simulated", X, y, np.array([f"gene{j}" for j in range(200)]))
    >>> result = run_panel(data, 8)
    >>> result.panel_size, result.n_test, result.balanced_accuracy > 0.9
    (8, 91, True)
    >>> bool(planted.gene.isin([row["gene"] for row in result.panel]).sum() >= 4)
    True
    """
    if not 0 < test_size < 1:
        raise DataValidationError(f"test_size must lie between 0 and 1 (the share of cells held out); "
                                  f"got {test_size}.")
    _check_seed(random_state)
    started = time.perf_counter()
    X = _cells_matrix(data.X)
    include = [str(g) for g in (include or ())]
    exclude = [str(g) for g in (exclude or ())]
    names = np.asarray(data.feature_names).astype(str)
    cell_types, codes = np.unique(check_labels(data.y).astype(str), return_inverse=True)
    _check_request(names, cell_types.size, size, include, exclude)
    if normalize == "log1p":
        check_counts(X)
    estimator = MarkerPanel(size, normalize=normalize, include=include, exclude=exclude, n_jobs=n_jobs,
                            random_state=random_state)
    # the command has no n_screen: every type's screen keeps enough genes to fill the size asked for
    estimator.set_params(n_screen=max(estimator.n_screen, size))
    y = cell_types[codes]
    train, test = split_cells(y, test_size, check_random_state(random_state),
                              fewest_train=max(MIN_CELLS_PER_TYPE, estimator.cv))
    progress(f"choosing a panel of {size} genes on {train.size} cells", 0, None)
    fitted = time.perf_counter()
    estimator.fit(X[train], y[train], gene_names=names)
    fit_seconds = time.perf_counter() - fitted
    progress(f"scoring the panel on {test.size} held-out cells", 0, None)
    scores = score_test_split(y[test], estimator.predict(X[test]), cell_types, test)
    per_type = [{"cell_type": row["class"], "n_test": row["n"], "sensitivity": row["sensitivity"],
                 "specificity": row["specificity"]} for row in scores["test_per_class"]]
    fraction, mean = _dot_plot(X, codes, cell_types.size, estimator.panel_, normalize)
    markers = estimator.markers_
    panel = [{"gene": str(row.gene), "index": int(j), "cell_type": str(row.cell_type), "weight": float(row.weight),
              "direction": str(row.direction), "t": float(row.t), "level": str(row.level),
              "source": str(row.source)}
             for j, row in zip(estimator.panel_, markers.itertuples(index=False))]
    return PanelResult(
        data=str(data.source), n_cells=int(X.shape[0]), n_genes=int(X.shape[1]),
        cell_types=cell_types.tolist(), cell_counts=class_counts(y), size=int(size),
        panel_size=int(estimator.panel_.size), normalize=normalize, include=include, exclude=exclude,
        test_size=float(test_size), random_state=int(random_state), n_train=int(train.size),
        n_test=int(test.size), panel=panel,
        balanced_accuracy=float(np.mean([row["sensitivity"] for row in per_type])), per_type=per_type,
        confusion_matrix=scores["test_confusion_matrix"],
        dotplot={"cells": "all", "cell_types": cell_types.tolist(), "genes": [row["gene"] for row in panel],
                 "fraction_expressing": fraction.tolist(), "mean_expression": mean.tolist()},
        fit_seconds=fit_seconds, seconds=time.perf_counter() - started, estimator=estimator)
