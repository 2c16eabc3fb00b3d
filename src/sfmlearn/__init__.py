"""sfmlearn: find the fewest features that explain a classification.

The Support Feature Machine and its family of sparse, embedded feature selectors for
high-dimensional, small-sample data, with the scikit-learn API.
"""

from .preprocessing import SFMScaler
from .selection import (
    NonlinearPSVM,
    PotentialSVM,
    PotentialSVR,
    SupportFeatureMachine,
    WestonZeroNormSVM,
)

__version__ = "0.1.0"

__all__ = [
    "NonlinearPSVM",
    "PotentialSVM",
    "PotentialSVR",
    "SFMScaler",
    "SupportFeatureMachine",
    "WestonZeroNormSVM",
    "__version__",
]
