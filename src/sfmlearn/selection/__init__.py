"""Feature selectors with the scikit-learn API."""

from .alignment import KernelTargetAlignment
from .hinge_lp import FSV, L1SVM, RLP
from .hinge_qp import L2L0SVM, L2L1SVM
from .filters import GolubClassifier, fisher_score, golub_score, relief, t_score
from .param_search import ml05_search
from .path import SoftnessPath, default_Cs, sfm_path
from .psvm import NonlinearPSVM, PotentialSVM, PotentialSVR
from .quadratic_fsv import QuadraticFSV
from .repetitive import RepetitiveSFM
from .sfm import SupportFeatureMachine, minimum_support
from .softness_cv import SupportFeatureMachineCV, WestonZeroNormSVMCV
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
    "SoftnessPath",
    "SupportFeatureMachine",
    "SupportFeatureMachineCV",
    "WestonZeroNormSVM",
    "WestonZeroNormSVMCV",
    "default_Cs",
    "fisher_score",
    "golub_score",
    "minimum_support",
    "ml05_search",
    "relief",
    "sfm_path",
    "svm_rfe",
    "t_score",
]
