"""Docstring texts the splitters and scores share.

``@model_selection_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["model_selection_doc"]

FRAGMENTS = {
    "fold_parameters": """\
cv : None, int, "loo", "logo", splitter or iterable
    As in :func:`make_cv`.
X : array-like of shape (n_samples, n_features)
    The samples.
y : array-like of shape (n_samples,)
    The labels.
groups : array-like of shape (n_samples,), optional
    Group ids.""",
    "index_pairs": """\
Returns
-------
list of (ndarray, ndarray)
    The (train, test) index pairs.""",
    "six_and_four": """\
>>> import numpy as np
>>> X, y = np.zeros((10, 1)), np.array([0] * 6 + [1] * 4)""",
    "leukemia_bootstrap": """\
>>> from sfmlearn import SupportFeatureMachine
>>> from sfmlearn.datasets import load_leukemia
>>> from sfmlearn.model_selection import bootstrap_632_score
>>> data = load_leukemia()
>>> result = bootstrap_632_score(SupportFeatureMachine(), data.X_train, data.y_train,
...                              n_bootstraps=5, random_state=0)""",
}

#: Decorator filling the shared texts into a docstring of model_selection.
model_selection_doc = fill_doc(**FRAGMENTS)
