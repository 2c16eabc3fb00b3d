"""Feature selectors with the scikit-learn API.

* :mod:`.sfm`: the Support Feature Machine family (hard, soft, class-balanced SFM, Weston's
  zero-norm SVM, the softness path, cross-validated C and stability selection) and :mod:`.repetitive`, the
  repetitive SFM with the informative-fraction estimate;
* :mod:`.competitors`: the papers' competing selectors and baselines (ML05, kernel-target
  alignment, the Potential SVM, hard-margin SVMs, filter scores);
* :mod:`.multiclass`: one-vs-rest and one-vs-one wrappers over any binary selector.

The private modules ``_base``, ``_checked``, ``_lpdata`` and ``_constraints`` hold what the
estimators share: the reweighted fit, the validated predict/transform mixins, scaled LP
data and the constraint checks.

The names load on first use (PEP 562): a program that fits the SFM does not load the
competitors (their P-SVM problems are the largest import) or the repetitive SFM.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:  # static tools see the names; the interpreter loads each family on first use
    from .competitors import (FSV, L1SVM, L2L0SVM, L2L1SVM, RLP, GolubClassifier, HardMarginSVM,
                              KernelTargetAlignment, NonlinearPSVM, PotentialSVM, PotentialSVR, QuadraticFSV,
                              SoftDoubleMinOver, fisher_score, golub_score, relief, svm_rfe, t_score)
    from .repetitive import RepetitiveSFM
    from .sfm import (SoftnessPath, StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV,
                      WestonZeroNormSVM, WestonZeroNormSVMCV, default_Cs, minimum_support, ml05_search, sfm_path)

#: The subpackage each public name is loaded from.
_SOURCES = {
    **dict.fromkeys(["FSV", "GolubClassifier", "HardMarginSVM", "KernelTargetAlignment", "L1SVM", "L2L0SVM",
                     "L2L1SVM", "NonlinearPSVM", "PotentialSVM", "PotentialSVR", "QuadraticFSV", "RLP",
                     "SoftDoubleMinOver", "fisher_score", "golub_score", "relief", "svm_rfe", "t_score"],
                    ".competitors"),
    "RepetitiveSFM": ".repetitive",
    **dict.fromkeys(["SoftnessPath", "StabilitySelection", "SupportFeatureMachine", "SupportFeatureMachineCV",
                     "WestonZeroNormSVM", "WestonZeroNormSVMCV", "default_Cs", "minimum_support", "ml05_search",
                     "sfm_path"], ".sfm"),
}

__all__ = sorted(_SOURCES)

__getattr__, __dir__ = lazy_names(__name__, _SOURCES)
