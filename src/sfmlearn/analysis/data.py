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

from ..datasets import load_named
from ..exceptions import DataValidationError
from ..io import read_labelled

__all__ = ["TrainingData", "annotate", "class_counts", "load_dataset", "read_training_file"]


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
    test : tuple (X_test, y_test), optional
        An independent test split (shipped datasets that have one).
    groups : ndarray, optional
        Group ids (participants, batches): cross-validation keeps every group in one fold.
    annotations : pandas.DataFrame, optional
        Feature annotations, one row per feature.
    """

    source: str
    X: np.ndarray
    y: np.ndarray
    feature_names: np.ndarray
    test: tuple = None
    groups: np.ndarray = None
    annotations: pd.DataFrame = None


def load_dataset(name):
    """The :class:`TrainingData` of a shipped dataset (:data:`sfmlearn.datasets.DATASETS`)."""
    bunch = load_named(name)
    test = (bunch.X_test, bunch.y_test) if "X_test" in bunch else None
    groups = np.asarray(bunch.groups_train) if "groups_train" in bunch else None
    names = np.asarray(bunch.feature_names, dtype=str)
    annotations = (pd.DataFrame({"description": np.asarray(bunch.gene_descriptions, dtype=str)}, index=names)
                   if "gene_descriptions" in bunch else None)
    return TrainingData(name, np.asarray(bunch.X_train, dtype=np.float64), np.asarray(bunch.y_train), names,
                        test, groups, annotations)


def read_training_file(path, target=None, groups=None, *, pheno=None, samples_in_columns=False, layer=None,
                       classes=None):
    """The :class:`TrainingData` of a user's file (:func:`sfmlearn.io.read_labelled`): two classes.

    Raises
    ------
    DataValidationError
        When the labels hold other than two classes (the message says how to pick two).
    """
    data = read_labelled(path, target, groups, pheno=pheno, samples_in_columns=samples_in_columns,
                         layer=layer, classes=classes)
    found = pd.unique(pd.Series(data.y))
    if found.size != 2:
        shown = ", ".join(sorted(map(str, found))[:5]) + (" ..." if found.size > 5 else "")
        fix = ("pick two of them with --classes A B" if found.size > 2
               else "feature selection needs samples of two classes")
        raise DataValidationError(f"{data.source}: the labels '{target or 'y'}' hold {found.size} class(es) "
                                  f"({shown}); select and repeat separate two classes: {fix}")
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
