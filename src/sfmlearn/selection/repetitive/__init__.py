"""The repetitive SFM and the informative-fraction estimate (NC 4.4, thesis 3.2, 6.3-6.4).

* :mod:`.path`: :func:`run_repetitions` -- fit, discard the selected features, refit --
  and its result :class:`RepetitionPath` (subsets, ranking, stop reason); the building
  block of everything below and of :mod:`sfmlearn.mvpa`.
* :mod:`.estimator`: :class:`RepetitiveSFM`, the path as a scikit-learn selector.
* :mod:`.informative`: :func:`estimate_informative_fraction` -- cross-validated paths, an
  SVM on the features left, a sigmoid through the error curve.

The estimate lives here, beside the repetitive SFM, rather than in a statistics module
above :mod:`sfmlearn.selection`: ``RepetitiveSFM(informative_every=k)`` runs it inside
``fit``, so a module above would have to be imported from below (the cycle the old
``sfmlearn/informative.py`` hid with imports inside functions).
"""

from .estimator import RepetitiveSFM
from .informative import (
    DEFAULT_CS,
    InformativeFraction,
    SigmoidFit,
    estimate_informative_fraction,
    fit_informative_sigmoid,
)
from .path import STOP_REASONS, RepetitionPath, run_repetitions

__all__ = [
    "DEFAULT_CS",
    "InformativeFraction",
    "RepetitionPath",
    "RepetitiveSFM",
    "STOP_REASONS",
    "SigmoidFit",
    "estimate_informative_fraction",
    "fit_informative_sigmoid",
    "run_repetitions",
]
