"""Synthetic benchmarks of the papers and loaders of the real data shipped with sfmlearn."""

from ._microarray import load_leukemia
from ._psvm_synthetic import make_psvm_nonlinear, make_psvm_redundancy, make_weston_modes
from ._sfm_synthetic import make_basic, make_weston

__all__ = [
    "load_leukemia",
    "make_basic",
    "make_psvm_nonlinear",
    "make_psvm_redundancy",
    "make_weston",
    "make_weston_modes",
]
