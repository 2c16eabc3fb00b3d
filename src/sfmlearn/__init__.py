"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.
"""

from .informative import estimate_informative_fraction
from .preprocessing import SFMScaler
from .selection import RepetitiveSFM, SupportFeatureMachine, WestonZeroNormSVM

__version__ = "0.1.0"

__all__ = [
    "RepetitiveSFM",
    "SFMScaler",
    "SupportFeatureMachine",
    "WestonZeroNormSVM",
    "__version__",
    "estimate_informative_fraction",
]
