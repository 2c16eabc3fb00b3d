"""The Support Feature Machine family: the hard, soft and class-balanced SFM (NC 2.2-2.3,
thesis 3.1-3.2), Weston's zero-norm SVM that shares its reweighting loop (thesis 2.6.5),
the softness path, the cross-validated choice of C and stability selection over the path.

The names load on first use (PEP 562): a hard fit does not load the path, the
cross-validation of C or the parameter search."""

from typing import TYPE_CHECKING

from ..._lazy import lazy_names

if TYPE_CHECKING:  # static tools see the names; the interpreter loads each module on first use
    from .machine import SupportFeatureMachine, minimum_support
    from .param_search import ml05_search
    from .path import SoftnessPath, default_Cs, sfm_path
    from .softness_cv import SupportFeatureMachineCV, WestonZeroNormSVMCV
    from .stability import StabilitySelection
    from .zero_norm import WestonZeroNormSVM

#: The module each public name is loaded from.
_SOURCES = {"SupportFeatureMachine": ".machine", "minimum_support": ".machine", "ml05_search": ".param_search",
            "SoftnessPath": ".path", "default_Cs": ".path", "sfm_path": ".path",
            "SupportFeatureMachineCV": ".softness_cv", "WestonZeroNormSVMCV": ".softness_cv",
            "StabilitySelection": ".stability",
            "WestonZeroNormSVM": ".zero_norm"}

__all__ = sorted(_SOURCES)

__getattr__, __dir__ = lazy_names(__name__, _SOURCES)
