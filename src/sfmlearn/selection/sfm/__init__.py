"""The Support Feature Machine family: the hard, soft and class-balanced SFM (NC 2.2-2.3,
thesis 3.1-3.2), Weston's zero-norm SVM that shares its reweighting loop (thesis 2.6.5),
the softness path and the cross-validated choice of C."""

from .machine import SupportFeatureMachine, minimum_support
from .param_search import ml05_search
from .path import SoftnessPath, default_Cs, sfm_path
from .softness_cv import SupportFeatureMachineCV, WestonZeroNormSVMCV
from .zero_norm import WestonZeroNormSVM

__all__ = ["SoftnessPath", "SupportFeatureMachine", "SupportFeatureMachineCV", "WestonZeroNormSVM",
           "WestonZeroNormSVMCV", "default_Cs", "minimum_support", "ml05_search", "sfm_path"]
