"""What data ship with sfmlearn: the shape and classes of every part, citation and terms.

:func:`describe_dataset` describes one entry of :data:`sfmlearn.datasets.CATALOG` (its
parts loaded, so the shapes and class counts are the data's own);
:func:`describe_datasets` all of them with the packaged size; ``sfmlearn datasets``
prints them.
"""

import numpy as np
import scipy.sparse as sp

from ..datasets import CATALOG, DATASETS, dataset_description, dataset_parts, packaged_megabytes

__all__ = ["dataset_names", "describe_dataset", "describe_datasets"]


def dataset_names():
    """The names of every shipped dataset, in the catalogue's order.

    Returns
    -------
    list of str
        Those ``select`` can use and the others (multi-class, sparse, validation only).

    Examples
    --------
    >>> from sfmlearn.analysis import dataset_names
    >>> "leukemia" in dataset_names() and "haxby" in dataset_names()
    True
    """
    return list(CATALOG)


def _describe_part(X, y):
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    return {"n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
            "sparse": bool(sp.issparse(X)),
            "classes": {str(label): int(count) for label, count in zip(labels, counts)}}


def describe_dataset(name, *, description=False):
    """One shipped dataset as a JSON-ready dict.

    Parameters
    ----------
    name : str
        A name of :func:`dataset_names` (KeyError for others).
    description : bool
        Also give its full text (source, provenance, caveats).

    Returns
    -------
    dict
        Name, summary, how to load it in Python, whether ``select`` can use it, its parts
        (shape, sparse, class counts), citation and terms.

    Examples
    --------
    >>> from sfmlearn.analysis import describe_dataset
    >>> described = describe_dataset("leukemia")
    >>> described["parts"]["train"]["classes"], described["select"]
    ({'ALL': 27, 'AML': 11}, True)
    """
    entry = CATALOG[name]
    described = {
        "name": name,
        "summary": entry.summary,
        "python": f"sfmlearn.datasets.{entry.python}",
        "select": name in DATASETS,
        "parts": {part: _describe_part(X, y) for part, (X, y) in dataset_parts(name).items()},
        "citation": entry.citation,
        "terms": entry.terms,
    }
    if description:
        described["description"] = dataset_description(name)
    return described


def describe_datasets():
    """Every shipped dataset and the megabytes they take in the package.

    Returns
    -------
    dict
        ``{"packaged_megabytes": float, "datasets": [describe_dataset(name), ...]}``.

    Examples
    --------
    >>> from sfmlearn.analysis import dataset_names, describe_datasets
    >>> catalogue = describe_datasets()
    >>> [d["name"] for d in catalogue["datasets"]] == dataset_names(), catalogue["packaged_megabytes"] > 1
    (True, True)
    """
    return {"packaged_megabytes": packaged_megabytes(),
            "datasets": [describe_dataset(name) for name in CATALOG]}
