"""Feature selectors with the scikit-learn API."""

from .alignment import KernelTargetAlignment
from .hinge_lp import FSV, L1SVM, RLP
from .hinge_qp import L2L0SVM, L2L1SVM
from .filters import GolubClassifier, fisher_score, golub_score, relief, t_score
from .param_search import ml05_search
from .psvm import NonlinearPSVM, PotentialSVM, PotentialSVR
from .quadratic_fsv import QuadraticFSV
from .repetitive import RepetitiveSFM
from .sfm import SupportFeatureMachine, minimum_support
from .svm import HardMarginSVM, SoftDoubleMinOver, svm_rfe
from .zero_norm import WestonZeroNormSVM

__all__ = [
    "FSV",
    "GolubClassifier",
    "HardMarginSVM",
    "KernelTargetAlignment",
    "L1SVM",
    "L2L0SVM",
    "L2L1SVM",
    "NonlinearPSVM",
    "PotentialSVM",
    "PotentialSVR",
    "QuadraticFSV",
    "RLP",
    "RepetitiveSFM",
    "SoftDoubleMinOver",
    "SupportFeatureMachine",
    "WestonZeroNormSVM",
    "fisher_score",
    "golub_score",
    "minimum_support",
    "ml05_search",
    "relief",
    "svm_rfe",
    "t_score",
]
