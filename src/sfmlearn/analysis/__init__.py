"""One function per user-facing analysis: fit, cross-validation, chance check, test scoring.

Each function takes the data and the analysis' options and returns a typed, versioned
result (:class:`~sfmlearn.analysis.result.AnalysisResult`) whose ``to_dict()`` is the
JSON that ``sfmlearn COMMAND --json`` prints and :mod:`sfmlearn.report` renders:

* :func:`run_select` -> :class:`SelectResult`: the fewest features that separate two
  classes (SFM or Weston's zero-norm SVM), CV accuracy with the features re-selected in
  every fold, the chance check (thesis eq. 2.3 and label permutations), test accuracy;
* :func:`run_path` -> :class:`PathResult`: the cross-validated soft-SFM path and the
  choice of C (best score or the one-standard-error rule);
* :func:`run_repeat` -> :class:`RepeatResult`: the repetitive SFM (NC 2013, 4.4), its
  ranking and the estimated fraction of informative features;
* :func:`run_compare` -> :class:`CompareResult`: how many features do I need? Held-out
  accuracy of sparse methods at every feature budget (nested cross-validation);
* :func:`run_fmri` -> :class:`FMRIResult`: leave-one-participant-out decoding of brain
  maps with the SFM, the t-map, the rSFM overlap (NC 2013 section 4, thesis chapter 6);
* :func:`run_panel` -> :class:`PanelResult`: a marker panel of single-cell data
  (:class:`~sfmlearn.panels.MarkerPanel`) chosen on training cells and scored on
  held-out ones (:func:`read_cells` reads the cells).

:func:`load_dataset` and :func:`read_training_file` give the :class:`TrainingData` of a
shipped dataset or of a user's file, :mod:`.fmri_data` the maps of the fMRI analysis;
:func:`describe_datasets` lists the shipped data, :mod:`.separability` answers how likely
a separating subset is by chance, :mod:`.illumination` corrects an image file and
:mod:`.reproduce` reruns the papers' results. :mod:`.names` holds the names the analyses
accept (datasets, simulation designs, boundary modes); it loads the standard library
only, so the command line can declare its options without loading NumPy.

The names load on first use (PEP 562), so importing :mod:`sfmlearn.analysis.names` costs
nothing else.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .catalogue import dataset_names, describe_dataset, describe_datasets
    from .compare import CompareResult, run_compare
    from .data import TrainingData, load_dataset, read_training_file
    from .fmri import FMRIResult, run_fmri
    from .panel import PanelResult, read_cells, run_panel
    from .path import PathResult, run_path
    from .repeat import RepeatResult, run_repeat
    from .result import AnalysisResult
    from .select import SelectResult, run_select

_SOURCES = {
    "AnalysisResult": ".result",
    "TrainingData": ".data", "load_dataset": ".data", "read_training_file": ".data",
    "run_select": ".select", "SelectResult": ".select",
    "run_path": ".path", "PathResult": ".path",
    "run_panel": ".panel", "PanelResult": ".panel", "read_cells": ".panel",
    "run_repeat": ".repeat", "RepeatResult": ".repeat",
    "run_fmri": ".fmri", "FMRIResult": ".fmri",
    "run_compare": ".compare", "CompareResult": ".compare",
    "dataset_names": ".catalogue", "describe_dataset": ".catalogue", "describe_datasets": ".catalogue",
}

__all__ = sorted(_SOURCES)

__getattr__, __dir__ = lazy_names(__name__, _SOURCES)
