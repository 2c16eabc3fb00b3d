"""Docstring texts the brain figures share.

``@plotting_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["plotting_doc"]

FRAGMENTS = {
    "coarse_mni_mask": """\
>>> import numpy as np
>>> from sfmlearn.imaging.simulate import mni152_mask
>>> from sfmlearn.imaging.volumes import downsample_mask
>>> mask = downsample_mask(mni152_mask(), 2)   # 457 voxels of 16 mm""",
}

#: Decorator filling the shared texts into a docstring of plotting.
plotting_doc = fill_doc(**FRAGMENTS)
