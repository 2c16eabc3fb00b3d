"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.
"""

from . import diagnostics, theory
from ._version import __version__
from .diagnostics import chance_report, format_verdict
from .preprocessing import SFMScaler
from .selection import (
    FSV,
    L1SVM,
    L2L0SVM,
    L2L1SVM,
    RLP,
    GolubClassifier,
    HardMarginSVM,
    KernelTargetAlignment,
    NonlinearPSVM,
    PotentialSVM,
    PotentialSVR,
    QuadraticFSV,
    RepetitiveSFM,
    SoftDoubleMinOver,
    SupportFeatureMachine,
    SupportFeatureMachineCV,
    WestonZeroNormSVM,
    WestonZeroNormSVMCV,
    minimum_support,
    sfm_path,
)
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
