"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.
"""

from .preprocessing import SFMScaler
from .selection import (
    FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM, KernelTargetAlignment,
    QuadraticFSV, SoftDoubleMinOver, SupportFeatureMachine, WestonZeroNormSVM,
)

__version__ = "0.1.0"

__all__ = [
    "SFMScaler", "SupportFeatureMachine", "WestonZeroNormSVM",
    "RLP", "L1SVM", "FSV", "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment",
    "HardMarginSVM", "SoftDoubleMinOver", "GolubClassifier", "__version__",
]
