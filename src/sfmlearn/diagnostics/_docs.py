"""Docstring texts the diagnostics share: neighbourhood and SVM-model parameters, example setups.

``@diagnostics_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["diagnostics_doc"]

FRAGMENTS = {
    "neighbours": """\
X : array-like of shape (n_samples, n_features)
    The samples.
k : int, default=5
    Number of neighbours.
metric : str, default="euclidean"
    Any metric of :func:`scipy.spatial.distance.cdist`.""",
    "samples_center": """\
X : array-like of shape (n_samples, n_features)
    The samples.
center : bool, default=False
    Measure from the sample mean instead of the origin.""",
    "loo_model": """\
mu2 : float, default=0.0
    Mean squared mean difference per feature (0: random labels).
sigma2, tau2 : float, default=1.0
    Per-feature variances of the two classes.
C : float or None, default=None
    Softness (None: hard margin).
loss : {"hinge", "squared_hinge"}, default="hinge"
    The soft-margin loss.
normalize : bool, default=False
    Divide every feature by sqrt(d).""",
    "softness_variance": """\
C : float or None, default=None
    Softness (None: hard margin).
feature_variance : float, default=1.0
    Variance of the features.""",
    "gaussian_cloud": """\
>>> import numpy as np
>>> X = np.random.default_rng(0).normal(size=(10, 1000))""",
    "leukemia_report": """\
>>> from sfmlearn import SupportFeatureMachine, chance_report
>>> from sfmlearn.datasets import load_leukemia
>>> data = load_leukemia()
>>> report = chance_report(data.X_train, data.y_train, SupportFeatureMachine(),
...                        n_permutations=5, random_state=0)""",
}

#: Decorator filling the shared texts into a docstring of diagnostics.
diagnostics_doc = fill_doc(**FRAGMENTS)
