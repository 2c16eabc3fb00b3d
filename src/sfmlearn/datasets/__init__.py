"""Synthetic benchmarks of the papers and loaders of the real data shipped with sfmlearn."""

from ._microarray import load_leukemia
from ._ml05_synthetic import make_chessboard, make_quadratic_circle
from ._sfm_synthetic import make_basic, make_weston

__all__ = ["load_leukemia", "make_basic", "make_chessboard", "make_quadratic_circle", "make_weston"]
