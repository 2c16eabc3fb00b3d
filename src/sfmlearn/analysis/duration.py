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

On fewer samples a unit is quick, and only its count can make the run long (label
permutations of a cross-validated choice): from :data:`TIMED_UNITS` units on (or fewer,
under a limit below what they could take at :data:`UNTIMED_UNIT_SECONDS` each), one unit
is timed at the run's own size, seconds = t(n) * units.
:func:`check_duration` raises when the estimate exceeds the caller's limit. The estimate is
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
from sklearn.utils import check_array, check_consistent_length

from ..exceptions import DataValidationError, SolverError
from ..model_selection import make_repeated_folds
from ..selection import (StabilitySelection, SupportFeatureMachine, SupportFeatureMachineCV, WestonZeroNormSVM,
                         WestonZeroNormSVMCV)
from ..selection.sfm.path import sfm_path
from ..selection.sfm.softness_cv import CV_N_CS
from ..selection.sfm.stability import path_estimator
from ..utils.time_limit import TimeLimitError

__all__ = ["PROBE_SIZES", "TIMED_UNITS", "UNTIMED_UNIT_SECONDS", "DurationEstimate", "DurationLimitError",
           "TimeLimitError", "chance_decides",
           "check_duration", "estimate_duration", "hours", "probe_rows", "repetition_fits", "repetitions_advice",
           "shorter_run", "work_unit"]

#: Samples of the two timed subsamples; analyses whose fits see no more samples than the
#: larger are timed at their own size, if at all (:data:`TIMED_UNITS`; the SFM's home:
#: every shipped set but madelon).
PROBE_SIZES = (200, 400)
#: The cross-validated softness choices and the selector whose path they fit per fold.
CV_BASES = {SupportFeatureMachineCV: SupportFeatureMachine, WestonZeroNormSVMCV: WestonZeroNormSVM}
#: On data no larger than the probes, runs of at least this many units are timed (one
#: unit at the run's size, about 1 % of the run): fewer units of a fit on at most
#: ``PROBE_SIZES[1]`` samples would each have to take over half a minute to fill an hour.
TIMED_UNITS = 100
#: What an untimed unit is taken to cost at most: the hour's share of :data:`TIMED_UNITS`
#: units. A run of fewer units is timed too where that many such units could exceed
#: the caller's limit (a limit lowered from the hour, such as ``--max-hours 0.01``).
UNTIMED_UNIT_SECONDS = 3600.0 / TIMED_UNITS
#: Bounds of the measured growth exponent: at least linear, at most cubic, so that two
#: noisy probe times cannot make a wild one (beyond the probes the growth can still be
#: steeper: 4.3 on madelon's path from 800 to 1600 samples, ``bench_duration.py``).
EXPONENT_RANGE = (1.0, 3.0)


@dataclass(frozen=True)
class DurationEstimate:
    """One unit of an analysis timed on subsamples, extrapolated to the whole run.

    Parameters
    ----------
    unit : str
        What one unit is ("one path of 12 values of C").
    sizes, seconds : tuple
        The probes' sample sizes and times: two; or one, either at the run's own size
        (``n_samples``, small data) or when the first alone, grown linearly, already
        exceeded the limit (:attr:`lower_bound`).
    exponent : float
        The growth exponent e of t ~ n^e between the probes (1 with one probe).
    n_samples : int
        The samples a unit of the run sees.
    units : int
        Units the run fits.
    selected : int or None
        Features the last probe's fit selected, where it selects.
    others : tuple of DurationEstimate
        The estimates of the run's other kinds of unit (the random-subset SVMs of an
        fMRI analysis beside its SFM fits): added to the total and to the description.

    Examples
    --------
    >>> from sfmlearn.analysis.duration import DurationEstimate
    >>> estimate = DurationEstimate("one fit", (200, 400), (1.0, 4.0), 2.0, 4000, 10)
    >>> estimate.total_seconds  # 4 s x (4000 / 400)^2 x 10
    4000.0
    >>> estimate.describe().split(" (")[0]
    'about 1.1 h: one fit took 4 s on 400 samples and 1 s on 200 samples'
    """

    unit: str
    sizes: tuple
    seconds: tuple
    exponent: float
    n_samples: int
    units: int
    selected: int = None
    others: tuple = ()

    @property
    def extrapolated(self):
        """Whether the probes saw fewer samples than a unit of the run (then fewer
        samples shorten the run most)."""
        return self.sizes[-1] < self.n_samples

    @property
    def lower_bound(self):
        """Whether one probe grown linearly (the least growth) made the estimate."""
        return len(self.sizes) == 1 and self.extrapolated

    @property
    def total_seconds(self):
        """``seconds[-1] * (n_samples / sizes[-1]) ** exponent * units``, plus the others' totals."""
        own = self.seconds[-1] * (self.n_samples / self.sizes[-1]) ** self.exponent * self.units
        return own + sum(other.total_seconds for other in self.others)

    def describe(self):
        """The estimate and how it was made, in one sentence."""
        bound = "at least" if any(part.lower_bound for part in (self, *self.others)) else "about"
        return f"{bound} {hours(self.total_seconds)}: " + "; and ".join(
            part._how() for part in (self, *self.others))

    def _how(self):
        runs = f"the run fits {self.units} of them on up to {self.n_samples} samples"
        took = [f"took {hours(t)} on {n} samples" for n, t in zip(self.sizes, self.seconds)]
        if not self.extrapolated:
            return f"{self.unit} {took[0]}, as many as each of them sees, and the run fits {self.units} of them"
        if self.lower_bound:
            return f"{self.unit} {took[0]}, {runs}, and fits grow at least linearly with the samples"
        return (f"{self.unit} {took[1]} and {took[0].split(' ', 1)[1]} (time grows about as n^{self.exponent:.1f}), "
                f"and {runs}")


class DurationLimitError(DataValidationError):
    """An analysis refused before its work: its estimated duration exceeds the limit.

    Parameters
    ----------
    estimate : DurationEstimate
        The estimate (kept as the ``estimate`` attribute, so that a caller can word the
        refusal in its own terms: the command line names its flags).
    max_seconds : float
        The limit (kept as ``max_seconds``).
    advice : str
        What would shorten the run, in the library's words (kept as ``advice``:
        :func:`shorter_run`).

    Examples
    --------
    >>> from sfmlearn.analysis.duration import DurationEstimate, DurationLimitError
    >>> error = DurationLimitError(DurationEstimate("one fit", (200,), (1.0,), 1.0, 4000, 100), 600, "fewer folds")
    >>> str(error)[:44], error.max_seconds
    ('this run would take at least 33 min: one fit', 600)
    """

    def __init__(self, estimate, max_seconds, advice):
        self.estimate, self.max_seconds, self.advice = estimate, max_seconds, advice
        super().__init__(f"this run would take {estimate.describe()}; the limit is {hours(max_seconds)} ({advice}).")


def hours(seconds):
    """``seconds`` as seconds (two significant digits under 10 s), minutes or hours, as
    the refusals say them."""
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def shorter_run(estimate, ways):
    """What would shorten a refused run, as one phrase: fewer samples first when the
    estimate grew with them (:attr:`DurationEstimate.extrapolated`), then ``ways`` (the
    caller's options that fit less), then a larger max_seconds.

    Examples
    --------
    >>> from sfmlearn.analysis.duration import DurationEstimate, shorter_run
    >>> shorter_run(DurationEstimate("one fit", (200, 400), (1.0, 2.0), 1.0, 4000, 3), ["fewer folds (cv)"])
    'fewer samples, fewer folds (cv), or a larger max_seconds'
    >>> shorter_run(DurationEstimate("one fit", (60,), (1.0,), 1.0, 60, 3), [])  # timed at its own size
    'a larger max_seconds'
    """
    ways = ["fewer samples"] * estimate.extrapolated + list(ways)
    return f"{', '.join(ways)}, or a larger max_seconds" if ways else "a larger max_seconds"


def work_unit(estimator, y, groups=None):
    """The unit of work of ``estimator`` and how many units one of its fits runs.

    A cross-validated softness choice (``SupportFeatureMachineCV`` and its kin) fits one
    path per inner fold (its own folds on ``y`` and ``groups``: repeated k-fold, or
    leave one group out) and one on all data; a stability selection one path per half;
    a path method of :mod:`sfmlearn.diagnostics.budget_paths` is one unit per
    ``fit_path``; any other selector is its own unit.

    Parameters
    ----------
    estimator : selector or path method
    y : array-like of shape (n_samples,)
        The labels the estimator will be fitted on.
    groups : array-like of shape (n_samples,) or None
        Its group ids.

    Returns
    -------
    name : str
    fit : callable
        ``fit(X, y)`` runs one unit.
    units : int
        Units per fit of ``estimator``.
    share : float
        The share of the samples a unit sees (0.5 for a stability selection's halves).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachineCV
    >>> from sfmlearn.analysis.duration import work_unit
    >>> name, fit, units, share = work_unit(SupportFeatureMachineCV(), np.array([0, 1] * 20))
    >>> name, units, share  # 5 folds x 3 repeats + all data
    ('one path of 12 values of C', 16, 1.0)
    """
    if hasattr(estimator, "fit_path"):
        return (f"one {type(estimator).__name__}", estimator.fit_path, 1, 1.0)
    Cs = getattr(estimator, "Cs", None)
    n_Cs = CV_N_CS if Cs is None else (Cs if isinstance(Cs, Integral) else len(Cs))
    if isinstance(estimator, StabilitySelection):
        return (f"one path of {n_Cs} values of C", _path_fit(path_estimator(estimator.estimator), n_Cs),
                2 * estimator.n_pairs, 0.5)
    if type(estimator) in CV_BASES:  # the softness CV estimators
        base_class = CV_BASES[type(estimator)]
        names = base_class().get_params(deep=False).keys() - {"C"}
        base = base_class(**{k: v for k, v in estimator.get_params(deep=False).items() if k in names})
        y = np.asarray(y)
        inner = make_repeated_folds(estimator.cv, np.zeros((y.size, 1)), y, groups, n_repeats=estimator.n_repeats,
                                    random_state=estimator.random_state)
        return (f"one path of {n_Cs} values of C", _path_fit(base, n_Cs), len(inner) + 1, 1.0)
    return (f"one fit of {type(estimator).__name__}", lambda X, y: clone(estimator).fit(X, y), 1, 1.0)


def repetition_fits(rsfm, n_features, selected, soft):
    """Base fits of one run of the repetitive SFM ``rsfm``: the features over the size of
    one subset (``selected``: a probe's; None counts subsets of one feature, the most
    repetitions), or ``max_repetitions`` when fewer, each with its chance test's
    ``chance_cv`` folds for a ``soft`` base. Where that chance test decides when the
    run stops (:func:`chance_decides`), only the first repetition is certain and only
    it is counted: such a run goes on under its time limit
    (:func:`sfmlearn.utils.time_limit.time_limit`).

    Examples
    --------
    >>> from sfmlearn import RepetitiveSFM
    >>> from sfmlearn.analysis.duration import repetition_fits
    >>> repetition_fits(RepetitiveSFM(), 2000, 4, soft=False)  # 2000 features in subsets of 4
    500
    >>> repetition_fits(RepetitiveSFM(max_repetitions=10), 2000, 4, soft=True)  # and 5 chance folds each
    60
    >>> repetition_fits(RepetitiveSFM(max_repetitions=100000), 50, None, soft=False)  # not more than the features
    50
    >>> repetition_fits(RepetitiveSFM(), 2000, 4, soft=True)  # the chance test decides: one repetition
    6
    """
    repetitions = 1 if chance_decides(rsfm, soft) else -(-n_features // max(selected or 1, 1))
    repetitions = min(repetitions, rsfm.max_repetitions or repetitions)  # no run outlasts its features
    return repetitions * (1 + (rsfm.chance_cv if soft else 0))


def chance_decides(rsfm, soft):
    """Whether a run of ``rsfm`` with a ``soft`` base ends when its chance test says so, a
    length no count before the run can tell (no ``max_repetitions``)."""
    return soft and rsfm.chance_alpha is not None and not rsfm.max_repetitions


def repetitions_advice(max_repetitions):
    """How to ask a repetitive SFM for fewer repetitions: a ``max_repetitions`` cap, or
    fewer of them when one is set."""
    return "fewer max_repetitions" if max_repetitions else "max_repetitions"


def _path_fit(base, n_Cs):
    return lambda X, y: sfm_path(X, y, n_Cs, estimator=base, probability=False)


def probe_rows(y, size, random_state=0):
    """``size`` sample indices (all, if fewer) drawn within each class: 2 of every class
    first (all of a smaller one), so that a rare class still reaches the probe's fit,
    and the rest in proportion to what the classes have left (largest remainders)."""
    rng = np.random.default_rng(random_state)
    labels, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    take = np.minimum(counts, 2)
    left = counts - take
    rest = max(0, min(size, y.size) - take.sum())
    if rest:
        quota = rest * left / left.sum()
        share = np.floor(quota).astype(int)
        share[np.argsort(share - quota, kind="stable")[:rest - share.sum()]] += 1
        take += share
    rows = [rng.choice(np.flatnonzero(codes == k), size=take[k], replace=False) for k in range(labels.size)]
    return np.sort(np.concatenate(rows))


def estimate_duration(estimator, X, y, fits=1, *, groups=None, max_seconds=None, progress=None, random_state=0):
    """How long ``fits`` fits of ``estimator`` on ``X, y`` take (module docstring).

    Parameters
    ----------
    estimator : selector or path method
        Its unit of work is timed (:func:`work_unit`).
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fits : int or callable, default=1
        Fits of ``estimator`` the run makes (folds' refits, permutations); or
        ``fits(selected)``, the count given the features a fit selects (the
        repetitive SFM's repetitions): called with the last probe's, and with None
        before any probe, to decide whether small data are timed.
    groups : array-like of shape (n_samples,) or None
        Group ids: the estimator's inner folds keep groups whole.
    max_seconds : float or None
        A first probe that alone, grown linearly, exceeds it ends the timing (a lower
        bound, :attr:`DurationEstimate.lower_bound`).
    progress : callable or None
        ``progress(stage, done, total)``, told when the probes run.
    random_state : int
        Seeds the probes' subsamples (:func:`probe_rows`).

    Returns
    -------
    DurationEstimate or None
        None when a unit sees at most ``PROBE_SIZES[1]`` samples and the run fits
        fewer than :data:`TIMED_UNITS` units, whose :data:`UNTIMED_UNIT_SECONDS` each
        stay within ``max_seconds``; when a larger run has a class of fewer
        than 2 samples, or when the data or a probe fail (the analysis then reports
        its own error).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import SupportFeatureMachine
    >>> from sfmlearn.analysis.duration import estimate_duration
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.standard_normal((300, 20)), np.array([0, 1] * 150)
    >>> estimate_duration(SupportFeatureMachine(C=1.0), X, y) is None  # 300 samples, one fit: not timed
    True
    >>> estimate_duration(SupportFeatureMachine(C=1.0), X, y, fits=500).sizes  # timed at its own size
    (300,)
    >>> X, y = rng.standard_normal((900, 20)), np.array([0, 1] * 450)
    >>> estimate = estimate_duration(SupportFeatureMachine(C=1.0), X, y, fits=6)
    >>> estimate.sizes, estimate.n_samples, estimate.units
    ((200, 400), 900, 6)
    """
    count = fits if callable(fits) else (lambda selected: fits)
    try:  # data the analysis will refuse, or folds they do not allow: the analysis says why
        X = check_array(X, accept_sparse=("csr", "csc"), dtype=None)
        y = np.asarray(y)
        check_consistent_length(X, y)
        unit, fit, units, share = work_unit(estimator, y, groups)
        n_unit = int(share * y.size)
        small = n_unit <= PROBE_SIZES[1]
        count_units = units * count(None)
        within = max_seconds is None or count_units * UNTIMED_UNIT_SECONDS < max_seconds
        if small and count_units < TIMED_UNITS and within:
            return None
        if not small and np.unique(y, return_counts=True)[1].min() < 2:  # a subsample keeps 2 of every class
            return None
    except (ValueError, TypeError):
        return None
    # Small data: the unit twice at the run's size, and the second (warm) time is kept:
    # the first pays the process's first fit (imports, HiGHS' start), several times a
    # quick unit's own time.
    probe_sizes = (n_unit, n_unit) if small else PROBE_SIZES
    if progress is not None:
        progress(f"estimating the run time on {' and '.join(map(str, sorted(set(probe_sizes))))} samples", 0, None)
    sizes, seconds = [], []
    for size in probe_sizes:
        rows = probe_rows(y, size, random_state)
        started = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the analysis warns about its own data
                fitted = fit(X[rows], y[rows])
        except (ValueError, TypeError, SolverError):  # the analysis reports its own error (DataValidationError
            return None  # and NotSeparableError are ValueErrors)
        sizes.append(rows.size)
        seconds.append(time.perf_counter() - started)
        selected = getattr(fitted, "support_", None)
        selected = None if selected is None else int(np.count_nonzero(selected))
        least = seconds[0] * n_unit / sizes[0] * units * count(selected)
        if not small and len(sizes) == 1 and max_seconds is not None and least > max_seconds:
            break
    if small:
        sizes, seconds = sizes[1:], seconds[1:]
    if len(sizes) == 1:
        exponent = EXPONENT_RANGE[0]
    else:
        ratio = max(seconds[1], 1e-9) / max(seconds[0], 1e-9)
        exponent = float(np.clip(np.log(ratio) / np.log(sizes[1] / sizes[0]), *EXPONENT_RANGE))
    return DurationEstimate(unit, tuple(sizes), tuple(seconds), exponent, n_unit, units * count(selected), selected)


def check_duration(estimate, max_seconds, ways=()):
    """Refuse a run whose estimate exceeds the limit.

    Parameters
    ----------
    estimate : DurationEstimate or None
        None: not timed, nothing is refused.
    max_seconds : float or None
        The limit (None: none).
    ways : sequence of str
        The caller's options that would fit less, in its words; the message adds fewer
        samples and a larger max_seconds (:func:`shorter_run`).

    Raises
    ------
    DurationLimitError
        Naming the estimate, the limit and what would shorten the run.

    Examples
    --------
    >>> from sfmlearn.analysis.duration import DurationEstimate, check_duration
    >>> estimate = DurationEstimate("one fit", (200, 400), (1.0, 2.0), 1.0, 800, 3)
    >>> check_duration(estimate, 20.0, ["fewer folds (cv)"])  # 12 s: allowed
    >>> check_duration(estimate, 10.0, ["fewer folds (cv)"])
    Traceback (most recent call last):
    ...
    sfmlearn.analysis.duration.DurationLimitError: ...; the limit is 10 s (fewer samples, fewer folds (cv), or ...).
    """
    if estimate is not None and max_seconds is not None and estimate.total_seconds > max_seconds:
        raise DurationLimitError(estimate, max_seconds, shorter_run(estimate, ways))
