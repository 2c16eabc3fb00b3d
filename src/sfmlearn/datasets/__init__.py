"""Synthetic benchmarks of the papers and loaders of the real data shipped with sfmlearn.

The catalogue of shipped datasets (names, citations, terms, parts) is public here too:
:data:`CATALOG`, :data:`DATASETS` (those usable by ``sfmlearn select --dataset``),
:func:`load_named`, :func:`dataset_parts`, :func:`dataset_description`,
:func:`packaged_megabytes`.
"""

from ._haxby import load_haxby
from ._microarray import load_colon, load_leukemia
from ._ml05_synthetic import make_chessboard, make_quadratic_circle
from ._nips2003 import load_nips2003
from ._psvm_synthetic import make_psvm_nonlinear, make_psvm_redundancy, make_weston_modes
from ._registry import (
    CATALOG,
    DATASETS,
    CatalogEntry,
    dataset_description,
    dataset_parts,
    load_named,
    packaged_megabytes,
)
from ._sfm_synthetic import (
    NONSEPARABLE_SCENARIOS,
    make_basic,
    make_nonseparable,
    make_random_labels,
    make_separable_subspace,
    make_weston,
)
from ._toy_fmri import make_toy_fmri
from ._uci import load_uci

__all__ = [
    "CATALOG",
    "DATASETS",
    "NONSEPARABLE_SCENARIOS",
    "CatalogEntry",
    "dataset_description",
    "dataset_parts",
    "load_colon",
    "load_haxby",
    "load_leukemia",
    "load_named",
    "load_nips2003",
    "load_uci",
    "make_basic",
    "make_chessboard",
    "make_nonseparable",
    "make_psvm_nonlinear",
    "make_psvm_redundancy",
    "make_quadratic_circle",
    "make_random_labels",
    "make_separable_subspace",
    "make_toy_fmri",
    "make_weston",
    "make_weston_modes",
    "packaged_megabytes",
]
