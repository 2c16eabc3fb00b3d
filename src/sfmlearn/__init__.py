"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.

The names below load on first use (PEP 562 module ``__getattr__``), so ``import sfmlearn``
and the ``sfmlearn --help`` of the command line cost the standard library only; NumPy,
SciPy and scikit-learn load with the first estimator or function a program touches.
"""

import importlib
import warnings
from typing import TYPE_CHECKING

from ._lazy import lazy_names
from ._version import __version__

if TYPE_CHECKING:  # static tools see the names; the interpreter loads them on first use
    from .diagnostics import chance_report
    from .diagnostics import compare_budgets
    from .panels import MarkerPanel
    from .preprocessing import SFMScaler
    from .selection import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM,
                            KernelTargetAlignment, NonlinearPSVM, PotentialSVM, PotentialSVR,
                            QuadraticFSV, RepetitiveSFM, SoftDoubleMinOver, StabilitySelection,
                            SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM, WestonZeroNormSVMCV,
                            minimum_support, sfm_path)
    from .selection.repetitive import estimate_informative_fraction

__all__ = [
    # the SFM family: the estimators, the exact minimum, the softness path, cross-validated C
    # and stability selection over the path
    "SupportFeatureMachine", "SupportFeatureMachineCV", "WestonZeroNormSVM", "WestonZeroNormSVMCV",
    "RepetitiveSFM", "minimum_support", "sfm_path", "StabilitySelection", "estimate_informative_fraction",
    # the papers' competitors and baselines
    "RLP", "L1SVM", "FSV", "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment",
    "PotentialSVM", "PotentialSVR", "NonlinearPSVM", "GolubClassifier", "HardMarginSVM",
    "SoftDoubleMinOver",
    # the papers' preprocessing, and could this subset be chance?
    "SFMScaler", "chance_report",
    # how many features do I need? accuracy of sparse methods at every feature budget
    "compare_budgets",
    # marker panels for single-cell data: the fewest genes that identify every cell type
    "MarkerPanel",
]

#: The module each public name is loaded from; subpackages are their own module.
_SOURCES = {
    **dict.fromkeys(["SupportFeatureMachine", "WestonZeroNormSVM", "RepetitiveSFM", "minimum_support",
                     "sfm_path", "SupportFeatureMachineCV", "WestonZeroNormSVMCV", "StabilitySelection", "RLP",
                     "L1SVM", "FSV",
                     "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment", "PotentialSVM",
                     "PotentialSVR", "NonlinearPSVM", "GolubClassifier", "HardMarginSVM",
                     "SoftDoubleMinOver"], ".selection"),
    "estimate_informative_fraction": ".selection.repetitive",
    "SFMScaler": ".preprocessing",
    "chance_report": ".diagnostics",
    "compare_budgets": ".diagnostics",
    "MarkerPanel": ".panels",
}
#: Names the package root no longer exports: their home, for one release of warnings.
_MOVED = {"format_verdict": "diagnostics", "is_linearly_separable": "theory", "prob_separable": "theory",
          "prob_separable_subspace_bounds": "theory"}
#: Subpackages that ``sfmlearn.<name>`` loads without an explicit import.
_SUBPACKAGES = {"analysis", "datasets", "diagnostics", "experiments", "imaging", "io", "lp", "model_selection",
                "mvpa", "optim", "outputs", "panels", "plotting", "preprocessing", "report", "selection", "theory",
                "utils"}


_load, __dir__ = lazy_names(__name__, _SOURCES, extra=_SUBPACKAGES)


def __getattr__(name):
    """Load a public name or subpackage on first use; a moved name warns and loads from its home."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    if name in _MOVED:
        from .utils.deprecation import REMOVED_IN
        home = _MOVED[name]
        warnings.warn(f"sfmlearn.{name} moved to sfmlearn.{home}.{name}; the old import stops working in "
                      f"sfmlearn {REMOVED_IN}", FutureWarning, stacklevel=2)
        return getattr(importlib.import_module(f".{home}", __name__), name)
    return _load(name)
