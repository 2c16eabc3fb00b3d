"""Feature selectors with the scikit-learn API."""

from .sfm import SupportFeatureMachine, minimum_support
from .zero_norm import WestonZeroNormSVM

__all__ = ["SupportFeatureMachine", "WestonZeroNormSVM", "minimum_support"]
