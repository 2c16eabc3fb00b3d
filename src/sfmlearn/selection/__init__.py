"""Feature selectors with the scikit-learn API."""

from .psvm import NonlinearPSVM, PotentialSVM, PotentialSVR
from .repetitive import RepetitiveSFM
from .sfm import SupportFeatureMachine, minimum_support
from .zero_norm import WestonZeroNormSVM

__all__ = [
    "NonlinearPSVM",
    "PotentialSVM",
    "PotentialSVR",
    "RepetitiveSFM",
    "SupportFeatureMachine",
    "WestonZeroNormSVM",
    "minimum_support",
]
