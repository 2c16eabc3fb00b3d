"""Docstring texts the pyramid and volume functions share.

``@imaging_doc`` fills a docstring line ``%(name)s`` with the text ``name`` below
(:func:`sfmlearn.utils.docstrings.fill_doc`).
"""

from ..utils.docstrings import fill_doc

__all__ = ["imaging_doc"]

FRAGMENTS = {
    "boundary_mask_channels": """\
boundary : {"replicate", "circular", "linear", "quadratic"}, default="quadratic"
    Boundary extrapolation (module docstring).
mask : bool array of the spatial shape, optional
    The samples that are data (thesis eq. 5.2).
channel_axis : int, optional
    Axis holding colour channels (processed independently).""",
    "tiny_nifti": """\
>>> import nibabel as nib
>>> import numpy as np
>>> image = nib.Nifti1Image(np.zeros((2, 2, 2), np.float32), np.eye(4))""",
    "one_mm_mask": """\
>>> import numpy as np
>>> from sfmlearn.imaging.volumes import VolumeMask
>>> mask = VolumeMask(np.ones((4, 4, 2), bool), np.eye(4))   # 1 mm voxels""",
}

#: Decorator filling the shared texts into a docstring of imaging.
imaging_doc = fill_doc(**FRAGMENTS)
