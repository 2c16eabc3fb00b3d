"""The papers' competing selectors and baselines: the Bradley-Mangasarian family and its
DC-programming variants (ML05 2-4), kernel-target alignment (ML05 3.2.2), the Potential SVM
(PSVM 2-4), the hard-margin SVM and SoftDoubleMinOver, and the filter scores (thesis 2.3).

Parameters that several of them share are declared once (:mod:`._params`): default,
constraints and docstring entry; a renamed parameter keeps its old name for one release.
"""

from .alignment import KernelTargetAlignment
from .filters import GolubClassifier, fisher_score, golub_score, relief, t_score
from .hinge_lp import FSV, L1SVM, RLP
from .hinge_qp import L2L0SVM, L2L1SVM
from .psvm import NonlinearPSVM, PotentialSVM, PotentialSVR
from .quadratic_fsv import QuadraticFSV
from .svm import HardMarginSVM, SoftDoubleMinOver, svm_rfe

__all__ = ["FSV", "GolubClassifier", "HardMarginSVM", "KernelTargetAlignment", "L1SVM", "L2L0SVM", "L2L1SVM",
           "NonlinearPSVM", "PotentialSVM", "PotentialSVR", "QuadraticFSV", "RLP", "SoftDoubleMinOver",
           "fisher_score", "golub_score", "relief", "svm_rfe", "t_score"]
