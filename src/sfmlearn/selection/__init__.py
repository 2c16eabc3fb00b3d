"""Feature selectors with the scikit-learn API."""

from .sfm import SupportFeatureMachine
from .zero_norm import WestonZeroNormSVM

__all__ = ["SupportFeatureMachine", "WestonZeroNormSVM"]
