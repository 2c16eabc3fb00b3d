"""Marker panels for single-cell data: the fewest genes that identify every cell type.

Targeted spatial transcriptomics (MERFISH, Xenium, CosMx) measures a panel of 10-500
genes chosen in advance from single-cell RNA-seq. :class:`MarkerPanel` chooses such a
panel with per-type soft-SFM paths and a greedy, held-out allocation of the budget, and
classifies cells from it; :func:`normalize_counts` states the count-data convention it
reads; :func:`make_cell_counts` simulates counts with planted markers.

The domain layer sits above the estimators (like :mod:`sfmlearn.mvpa`): it uses
:func:`sfmlearn.selection.sfm_path` and :class:`~sfmlearn.selection.SupportFeatureMachine`
through their public API only.
"""

from .counts import check_counts, normalize_counts
from .marker_panel import MarkerPanel
from .simulate import make_cell_counts

__all__ = ["MarkerPanel", "check_counts", "make_cell_counts", "normalize_counts"]
