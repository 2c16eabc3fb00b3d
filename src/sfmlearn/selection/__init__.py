"""Feature selectors with the scikit-learn API."""

from .alignment import KernelTargetAlignment
from .bradley import FSV, L1SVM, RLP
from .dc_svm import L2L0SVM, L2L1SVM, QuadraticFSV
from .filters import GolubClassifier, fisher_score, golub_score, relief, t_score
from .param_search import ml05_search
from .sfm import SupportFeatureMachine
from .svm import HardMarginSVM, SoftDoubleMinOver, svm_rfe
from .zero_norm import WestonZeroNormSVM

__all__ = [
    "SupportFeatureMachine", "WestonZeroNormSVM",
    "RLP", "L1SVM", "FSV", "L2L1SVM", "L2L0SVM", "QuadraticFSV", "KernelTargetAlignment",
    "HardMarginSVM", "SoftDoubleMinOver", "GolubClassifier", "svm_rfe",
    "fisher_score", "golub_score", "t_score", "relief", "ml05_search",
]
