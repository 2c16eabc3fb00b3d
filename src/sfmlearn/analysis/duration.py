"""Refuse, before the work starts, an analysis whose fits would run for hours.

The fit counts the estimators refuse (``MAX_FOLD_FITS``, ``MAX_PATH_FITS``) bound a
grid, not its cost. The cost of one SFM fit grows with the number of samples n, on data
that no hyperplane separates well much faster than linearly, on data with d >> n more
slowly (user guide, speed and scale: runs that would take hours).

So the growth is measured, not assumed. Before a cross-validated analysis on more than
``PROBE_SIZES[1]`` samples per fit, :func:`estimate_duration` times one *unit* of its
work (one fit of the base estimator, or one path over the grid of C) on stratified
subsamples of the two probe sizes, reads the exponent e of t ~ n^e between them
(clamped to :data:`EXPONENT_RANGE`) and extrapolates:

    seconds = t(n_2) * (n / n_2)^e * units

:func:`check_duration` raises when that exceeds the caller's limit. The estimate is
an order of magnitude, not a bound: it leaves out the repetitive SFM's fits beside the
path, the samples a fold holds out and parallel jobs, and the growth can steepen
beyond the probes (``benchmarks/bench_duration.py`` compares it with measured times).
"""

import time
import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import train_test_split

from ..exceptions import DataValidationError, SolverError
from ..selection import (StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM,
                         WestonZeroNormSVMCV)
from ..selection.sfm.path import DEFAULT_N_CS, sfm_path
from ..selection.sfm.softness_cv import CV_N_CS

__all__ = ["PROBE_SIZES", "DurationEstimate", "DurationLimitError", "check_duration", "estimate_duration", "work_unit"]

#: Samples of the two timed subsamples; analyses whose fits see fewer samples than the
#: larger are not timed (the SFM's home: every shipped set but madelon).
PROBE_SIZES = (200, 400)
#: The cross-validated softness choices and the selector whose path they fit per fold.
CV_BASES = {SupportFeatureMachineCV: SupportFeatureMachine, WestonZeroNormSVMCV: WestonZeroNormSVM}
#: Bounds of the measured growth exponent (fits cost at least linear, at most cubic time).
EXPONENT_RANGE = (1.0, 3.0)


@dataclass(frozen=True)
class DurationEstimate:
    """One unit of an analysis timed on two subsamples, extrapolated to the whole run
    (``selected``: the features the larger probe's fit selected, where it selects)."""

    unit: str
    sizes: tuple
    seconds: tuple
    exponent: float
    n_samples: int
    units: int
    selected: int = None

    @property
    def total_seconds(self):
        """``seconds[1] * (n_samples / sizes[1]) ** exponent * units``."""
        return self.seconds[1] * (self.n_samples / self.sizes[1]) ** self.exponent * self.units

    def describe(self):
        """The estimate and how it was made, in one sentence."""
        return (f"about {hours(self.total_seconds)}: {self.unit} took {self.seconds[1]:.1f} s on {self.sizes[1]} "
                f"samples and {self.seconds[0]:.1f} s on {self.sizes[0]} (time grows about as n^{self.exponent:.1f}), "
                f"and the run fits {self.units} of them on up to {self.n_samples} samples")


class DurationLimitError(DataValidationError):
    """An analysis refused before its work: its estimated duration exceeds the limit.

    ``estimate`` (:class:`DurationEstimate`) and ``max_seconds`` let a caller word the
    refusal in its own terms (the command line names its flags).
    """

    def __init__(self, estimate, max_seconds, advice):
        self.estimate, self.max_seconds = estimate, max_seconds
        super().__init__(f"this run would take {estimate.describe()}; the limit is {hours(max_seconds)} ({advice}).")


def hours(seconds):
    """``seconds`` as minutes or hours, as the refusals say them."""
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def work_unit(estimator):
    """(name, fit(X, y), units per fit of ``estimator``, share of the samples a unit sees).

    A cross-validated softness choice (``SupportFeatureMachineCV`` and its kin) fits one
    path per inner fold and one on all data; a stability selection one path per half;
    a path method of :mod:`sfmlearn.diagnostics.budget_paths` is one unit per
    ``fit_path``; any other selector is its own unit.
    """
    if hasattr(estimator, "fit_path"):
        return (f"one {type(estimator).__name__}", estimator.fit_path, 1, 1.0)
    Cs = getattr(estimator, "Cs", None)
    n_Cs = CV_N_CS if Cs is None else (Cs if isinstance(Cs, Integral) else len(Cs))
    if isinstance(estimator, StabilitySelection):
        base = clone(estimator.estimator) if estimator.estimator is not None else None
        return (f"one path of {n_Cs} values of C", _path_fit(base, n_Cs), 2 * estimator.n_pairs, 0.5)
    if type(estimator) in CV_BASES:  # the softness CV estimators
        base_class = CV_BASES[type(estimator)]
        names = base_class().get_params(deep=False).keys() - {"C"}
        base = base_class(**{k: v for k, v in estimator.get_params(deep=False).items() if k in names})
        inner = (estimator.cv if isinstance(estimator.cv, Integral) else 5) * estimator.n_repeats
        return (f"one path of {n_Cs} values of C", _path_fit(base, n_Cs), inner + 1, 1.0)
    return (f"one fit of {type(estimator).__name__}", lambda X, y: clone(estimator).fit(X, y), 1, 1.0)


def _path_fit(base, n_Cs):
    return lambda X, y: sfm_path(X, y, n_Cs or DEFAULT_N_CS, estimator=base, probability=False)


def estimate_duration(estimator, X, y, fits=1, progress=None, random_state=0):
    """How long ``fits`` fits of ``estimator`` on ``X, y`` take (module docstring).

    ``progress(stage, done, total)`` is told when the probes run.

    Returns
    -------
    DurationEstimate or None
        None when a unit sees at most ``PROBE_SIZES[1]`` samples, when a class is too
        small to subsample, or when a probe fails (the analysis then reports its own error).
    """
    unit, fit, units, share = work_unit(estimator)
    y = np.asarray(y)
    n_unit = int(share * y.size)
    if n_unit <= PROBE_SIZES[1] or np.unique(y, return_counts=True)[1].min() < 2:
        return None
    if progress is not None:
        progress(f"estimating the run time on {PROBE_SIZES[0]} and {PROBE_SIZES[1]} samples", 0, None)
    seconds = []
    for size in PROBE_SIZES:
        started = time.perf_counter()
        try:
            rows, _ = train_test_split(np.arange(y.size), train_size=size, stratify=y, random_state=random_state)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the analysis warns about its own data
                fitted = fit(X[rows], y[rows])
        except (ValueError, SolverError):  # DataValidationError and NotSeparableError are ValueErrors
            return None
        seconds.append(time.perf_counter() - started)
    ratio = max(seconds[1], 1e-9) / max(seconds[0], 1e-9)
    exponent = float(np.clip(np.log(ratio) / np.log(PROBE_SIZES[1] / PROBE_SIZES[0]), *EXPONENT_RANGE))
    selected = getattr(fitted, "support_", None)
    return DurationEstimate(unit, PROBE_SIZES, tuple(seconds), exponent, n_unit, units * fits,
                            None if selected is None else int(np.count_nonzero(selected)))


def check_duration(estimate, max_seconds, advice):
    """Raise :class:`DurationLimitError` (naming the estimate, the limit and ``advice``)
    when ``estimate`` (None: not timed) exceeds ``max_seconds`` (None: no limit)."""
    if estimate is not None and max_seconds is not None and estimate.total_seconds > max_seconds:
        raise DurationLimitError(estimate, max_seconds, advice)
