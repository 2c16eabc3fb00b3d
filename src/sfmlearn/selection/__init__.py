"""Feature selectors with the scikit-learn API."""

from .repetitive import RepetitiveSFM
from .sfm import SupportFeatureMachine
from .zero_norm import WestonZeroNormSVM

__all__ = ["RepetitiveSFM", "SupportFeatureMachine", "WestonZeroNormSVM"]
