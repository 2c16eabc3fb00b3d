"""Feature selectors with the scikit-learn API."""

from .psvm import NonlinearPSVM, PotentialSVM, PotentialSVR
from .sfm import SupportFeatureMachine, minimum_support
from .zero_norm import WestonZeroNormSVM

__all__ = [
    "NonlinearPSVM",
    "PotentialSVM",
    "PotentialSVR",
    "SupportFeatureMachine",
    "WestonZeroNormSVM",
    "minimum_support",
]
