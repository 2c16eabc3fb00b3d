"""Docstring texts the MVPA functions share: the maps they take and the toy data of their examples.

``@mvpa_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`). The examples run on
:func:`sfmlearn.datasets.make_toy_fmri`: 6 participants with 4 maps each, voxels 0-2
informative.
"""

from ..utils.docstrings import fill_doc

__all__ = ["mvpa_doc"]

_TOY = """\
>>> from sfmlearn.datasets import make_toy_fmri
>>> X, y, groups = make_toy_fmri(random_state=0)   # 6 participants x 4 maps; voxels 0-2 informative"""

_Q = """\
q : float
    Top-q % (of all voxels)."""

FRAGMENTS = {
    "maps": """\
X : array-like of shape (n_maps, n_voxels)
    The maps.
y : array-like of shape (n_maps,)
    Two classes.""",
    "rankings_q": """\
rankings : ndarray of shape (n_folds, n_voxels)
    Rankings of every fold (1 = best).
""" + _Q,
    "q_top_set": _Q + """

Returns
-------
ndarray of bool of shape (n_voxels,)
    The top set.""",
    "toy_maps": _TOY,
    "toy_volumes": """\
>>> import numpy as np
""" + _TOY + """
>>> from sfmlearn.imaging.volumes import VolumeMask
>>> mask = VolumeMask(np.ones((5, 10, 1), bool), np.diag([3.0, 3.0, 3.0, 1.0]))   # 50 voxels, 3 mm""",
    "toy_decoding": _TOY + """
>>> from sfmlearn import SupportFeatureMachine
>>> from sfmlearn.mvpa import decode
>>> result = decode(X, y, groups, SupportFeatureMachine())   # leave one participant out""",
    "toy_permuted": _TOY + """
>>> from sfmlearn import SupportFeatureMachine
>>> from sfmlearn.mvpa import permuted_decoding
>>> result = permuted_decoding(X, y, groups, SupportFeatureMachine(), n_permutations=3,
...                            random_state=0)""",
    "toy_repetitive": _TOY + """
>>> from sfmlearn.mvpa import repetitive_decoding
>>> result = repetitive_decoding(X, y, groups, max_repetitions=3, random_state=0)""",
    "toy_tmap": _TOY + """
>>> from sfmlearn.mvpa import paired_t_map
>>> tmap = paired_t_map(X, y, groups)""",
    "toy_analysis": _TOY + """
>>> from sfmlearn.mvpa import analyse
>>> analysis = analyse(X, y, groups, repetitive=False, random_state=0)""",
}

#: Decorator filling the shared texts into a docstring of mvpa.
mvpa_doc = fill_doc(**FRAGMENTS)
