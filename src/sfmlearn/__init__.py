"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.

The names below load on first use (PEP 562 module ``__getattr__``), so ``import sfmlearn``
and the ``sfmlearn --help`` of the command line cost the standard library only; NumPy,
SciPy and scikit-learn load with the first estimator or function a program touches.
"""

import importlib
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:  # static tools see the names; the interpreter loads them on first use
    from . import diagnostics, theory
    from .diagnostics import chance_report, format_verdict
    from .preprocessing import SFMScaler
    from .selection import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM,
                            KernelTargetAlignment, NonlinearPSVM, PotentialSVM, PotentialSVR,
                            QuadraticFSV, RepetitiveSFM, SoftDoubleMinOver, SupportFeatureMachine,
                            SupportFeatureMachineCV, WestonZeroNormSVM, WestonZeroNormSVMCV,
                            minimum_support, sfm_path)
    from .selection.repetitive import estimate_informative_fraction
    from .theory import is_linearly_separable, prob_separable, prob_separable_subspace_bounds

__all__ = [
    # the estimators (sfmlearn.selection): the SFM family, the papers' competitors, baselines
    "SupportFeatureMachine", "WestonZeroNormSVM", "RepetitiveSFM", "minimum_support",
    # softness chosen for the user: the path and cross-validated C
    "sfm_path", "SupportFeatureMachineCV", "WestonZeroNormSVMCV",
    "RLP", "L1SVM", "FSV", "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment",
    "PotentialSVM", "PotentialSVR", "NonlinearPSVM",
    "GolubClassifier", "HardMarginSVM", "SoftDoubleMinOver",
    # the papers' preprocessing and the informative-fraction estimate
    "SFMScaler", "estimate_informative_fraction",
    # could this subset be chance? (sfmlearn.diagnostics, sfmlearn.theory)
    "chance_report", "format_verdict", "is_linearly_separable", "prob_separable",
    "prob_separable_subspace_bounds", "diagnostics", "theory",
    "__version__",
]

#: The module each public name is loaded from; subpackages (``diagnostics``, ``theory``)
#: are their own module.
_SOURCES = {
    **dict.fromkeys(["SupportFeatureMachine", "WestonZeroNormSVM", "RepetitiveSFM", "minimum_support",
                     "sfm_path", "SupportFeatureMachineCV", "WestonZeroNormSVMCV", "RLP", "L1SVM", "FSV",
                     "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment", "PotentialSVM",
                     "PotentialSVR", "NonlinearPSVM", "GolubClassifier", "HardMarginSVM",
                     "SoftDoubleMinOver"], ".selection"),
    "estimate_informative_fraction": ".selection.repetitive",
    "SFMScaler": ".preprocessing",
    "chance_report": ".diagnostics", "format_verdict": ".diagnostics",
    "is_linearly_separable": ".theory", "prob_separable": ".theory",
    "prob_separable_subspace_bounds": ".theory",
    "diagnostics": None, "theory": None,
}


def __getattr__(name):
    """Load a public name on first use and keep it in the module (later lookups are direct)."""
    if name not in _SOURCES:
        raise AttributeError(f"module 'sfmlearn' has no attribute {name!r}")
    source = _SOURCES[name]
    value = (importlib.import_module(f".{name}", __name__) if source is None
             else getattr(importlib.import_module(source, __name__), name))
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
