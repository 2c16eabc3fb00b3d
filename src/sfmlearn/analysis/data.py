"""The training data of ``select``, ``path`` and ``repeat``: a shipped dataset or a user's file.

The reading itself -- tables, NPZ, expression matrices with sample sheets, GEO series
matrices, AnnData -- and its checks against label leaks live in :mod:`sfmlearn.io`
(:func:`~sfmlearn.io.read_labelled`); this module adds what the analyses need on top:
exactly two classes, a shipped dataset as the alternative (with its independent test
split), and the feature annotations (a ``Gene Symbol`` column, AnnData ``var``, the
leukemia gene descriptions) attached to the features an analysis reports.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..datasets import load_named
from ..exceptions import DataValidationError
from .result import AnalysisResult

__all__ = ["DataResult", "SelectorResult", "TrainingData", "annotate", "class_counts", "load_dataset",
           "read_training_file"]


@dataclass
class TrainingData:
    """Two-class training data with what the analyses report about its features.

    Parameters
    ----------
    source : str
        What the data are (a file name, a dataset name), shown in results.
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    feature_names : ndarray of str
    test : tuple (X_test, y_test[, sample_ids]), optional
        An independent test split (shipped datasets that have one), with the test
        samples' ids (text) where the dataset has them.
    groups : ndarray, optional
        Group ids (participants, batches): cross-validation keeps every group in one fold.
    annotations : pandas.DataFrame, optional
        Feature annotations, one row per feature.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.analysis import TrainingData, run_select
    >>> X = np.array([[0.0, 1.0], [0.2, 3.0], [1.0, 2.0], [1.2, 0.5]])
    >>> data = TrainingData("four points", X, np.array(["a", "a", "b", "b"]), np.array(["x", "z"]))
    >>> [s["name"] for s in run_select(data, cv=0).selected]
    ['x']
    """

    source: str
    X: np.ndarray
    y: np.ndarray
    feature_names: np.ndarray
    test: tuple = None
    groups: np.ndarray = None
    annotations: pd.DataFrame = None


def load_dataset(name):
    """The :class:`TrainingData` of a shipped dataset (:data:`sfmlearn.datasets.DATASETS`).

    Parameters
    ----------
    name : str
        A dataset that ``select`` can use (:data:`sfmlearn.analysis.names.DATASET_NAMES`).

    Returns
    -------
    TrainingData
        The training part, with the independent test split, groups and gene descriptions
        where the dataset has them.

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset
    >>> data = load_dataset("leukemia")
    >>> data.X.shape, data.test[0].shape, list(data.annotations.columns)
    ((38, 7129), (34, 7129), ['description'])
    """
    bunch = load_named(name)
    test = None
    if "X_test" in bunch:
        ids = (np.asarray(bunch.patient_test).astype(str),) if "patient_test" in bunch else ()
        test = (bunch.X_test, bunch.y_test, *ids)
    groups = np.asarray(bunch.groups_train) if "groups_train" in bunch else None
    names = np.asarray(bunch.feature_names, dtype=str)
    annotations = (pd.DataFrame({"description": np.asarray(bunch.gene_descriptions, dtype=str)}, index=names)
                   if "gene_descriptions" in bunch else None)
    X = bunch.X_train  # DEXTER's word counts stay sparse, as a sparse file's matrix does
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    return TrainingData(name, X, np.asarray(bunch.y_train), names, test, groups, annotations)


def read_training_file(path, target=None, groups=None, *, pheno=None, samples_in_columns=False, layer=None,
                       classes=None):
    """The :class:`TrainingData` of a user's file (:func:`sfmlearn.io.read_labelled`): two classes.

    Parameters
    ----------
    path : path
        The data file: a table, NPZ, expression matrix, GEO series matrix or AnnData.
    target : str, optional
        The labels' column (default ``y``).
    groups : str, optional
        The column of group ids.
    pheno : path, optional
        A sample sheet holding ``target`` (and ``groups``), matched by sample id.
    samples_in_columns : bool
        The file is an expression matrix (one column per sample).
    layer : str, optional
        AnnData: use this layer instead of X.
    classes : pair of str, optional
        Keep only the samples of these two classes.

    Returns
    -------
    TrainingData
        The data, its feature names, groups and feature annotations.

    Raises
    ------
    DataValidationError
        When the labels hold other than two classes (the message says how to pick two).

    Examples
    --------
    Four samples in a table whose column 'state' holds the two classes:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.analysis import read_training_file
    >>> folder = tempfile.TemporaryDirectory()
    >>> table = Path(folder.name) / "toy.csv"
    >>> rows = ["g1,g2,state", "0.1,2,ill", "0.3,1,well", "0.2,3,ill", "0.9,0,well"]
    >>> _ = table.write_text(chr(10).join(rows))
    >>> data = read_training_file(table, "state")
    >>> data.X.shape, data.feature_names.tolist()
    ((4, 2), ['g1', 'g2'])
    >>> folder.cleanup()
    """
    from ..io import read_labelled  # the readers (pandas, scipy.stats) only for a file

    data = read_labelled(path, target, groups, pheno=pheno, samples_in_columns=samples_in_columns,
                         layer=layer, classes=classes)
    found = pd.unique(pd.Series(data.y))
    if found.size != 2:
        shown = ", ".join(sorted(map(str, found))[:5]) + (" ..." if found.size > 5 else "")
        fix = ("pick two of them with --classes A B" if found.size > 2
               else "feature selection needs samples of two classes")
        raise DataValidationError(f"{data.source}: the labels '{target or 'y'}' hold {found.size} class(es) "
                                  f"({shown}); select, path, repeat and compare separate two classes: {fix}")
    return TrainingData(path, data.X, data.y, data.feature_names, None, data.groups, data.feature_annotations)


def annotate(rows, annotations):
    """Add ``"annotations": {column: text}`` to every feature row (dicts with an ``index``)."""
    if annotations is not None and annotations.shape[1]:
        for row in rows:
            row["annotations"] = {str(k): str(v) for k, v in annotations.iloc[row["index"]].items()}
    return rows


def class_counts(y):
    """Samples per class, for the data summary of results and reports."""
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    return {str(c): int(k) for c, k in zip(labels, counts)}


@dataclass
class DataResult(AnalysisResult):
    """Base of the results of ``select``, ``path`` and ``repeat``: the data they were run on.

    Parameters
    ----------
    data, n_samples, n_features, classes : str, int, int, list
        The data: its name, shape and class labels.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).
    """

    data: str
    n_samples: int
    n_features: int
    classes: list[str]

    @staticmethod
    def describe_data(data, estimator):
        """The data fields of a result: ``data`` (TrainingData) and the classes ``estimator`` was fitted on."""
        return {"data": data.source, "n_samples": int(data.X.shape[0]), "n_features": int(data.X.shape[1]),
                "classes": [str(c) for c in estimator.classes_]}


@dataclass
class SelectorResult(DataResult):
    """Base of the results of ``select`` and ``path``: the data and the fitted selector.

    Parameters
    ----------
    data, n_samples, n_features, classes : str, int, int, list
        The data: its name, shape and class labels (:class:`DataResult`).
    class_counts : dict
        Samples per class.
    method, C, class_weight : str, float or None, str or None
        The selector's class name, its softness and the class weights.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).
    """

    class_counts: dict[str, int]
    method: str
    C: float | None
    class_weight: str | None

    @classmethod
    def describe_selector(cls, data, selector, C, class_weight):
        """The data and selector fields of a result of ``selector`` fitted on ``data``."""
        return {**cls.describe_data(data, selector), "class_counts": class_counts(data.y),
                "method": type(selector).__name__, "C": C, "class_weight": class_weight}
