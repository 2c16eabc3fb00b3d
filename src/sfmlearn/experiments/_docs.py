"""Docstring texts the experiment runner and the results page share.

``@experiments_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["experiments_doc"]

FRAGMENTS = {
    "separability_outcome": """\
>>> from sfmlearn.experiments import Context, compute, get_result
>>> result = get_result("thesis-sep-bounds")   # the separability bound of leukemia's shape
>>> outcome = compute(result, Context(quick=True))""",
}

#: Decorator filling the shared texts into a docstring of experiments.
experiments_doc = fill_doc(**FRAGMENTS)
