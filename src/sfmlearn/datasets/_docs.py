"""Docstring texts the dataset generators and the catalogue share.

``@datasets_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["datasets_doc"]

FRAGMENTS = {
    "relevant_features": """\
n_features : int, default=100
    Number of features d.
n_relevant : int, default=5
    Number k of relevant features (the first k).
class_distance : float, default=0.3
    mu: the relevant features' class means are +-mu.""",
    "seed_then_returns": """\
random_state : int, Generator or None
    Seed.

Returns
-------""",
    "ml05_sizes": """\
n_samples : int, default=64
    Number of samples.
n_noise : int, default=2
    Number of noise features after x_1, x_2.""",
    "two_features_and_noise": """\
X : ndarray of shape (n_samples, 2 + n_noise)
    The samples.""",
    "catalog_name": """\
name : str
    A key of :data:`CATALOG`.""",
}

#: Decorator filling the shared texts into a docstring of datasets.
datasets_doc = fill_doc(**FRAGMENTS)
