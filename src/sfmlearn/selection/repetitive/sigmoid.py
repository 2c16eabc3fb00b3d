r"""The sigmoid through the rSFM error curve and its tangent estimate (thesis 6.3-6.4, NC 4.4).

The test error of an SVM on the features left after the repetitions, against the
fraction x of discarded features, rises from the error of all features towards chance
(0.5). To that curve the sigmoid (thesis 6.3)

.. math::

    f(x) = a_0 + \frac{a_1}{1 + e^{-(x - a_2) / a_3}}

is fitted by least squares; when that fit is unstable (below) the restricted sigmoid
(thesis 6.4)

.. math::

    g(x) = \frac{0.5}{1 + e^{-(x - a_2) / a_3}}

is fitted instead. The tangent at the inflexion :math:`x = a_2` crosses chance at the
estimate

.. math::

    x^* = a_2 + \Big(0.5 - a_0 - \frac{a_1}{2}\Big) \frac{4 a_3}{a_1} \quad \text{(free)},
    \qquad x^* = a_2 + 2 a_3 \quad \text{(restricted)},

an estimate of the fraction of informative features (NC: "an upper limit").

"Unstable" (the thesis only says the free fit "gave numerically unstable results") is
made precise here. The free fit is rejected if any of these holds:

* the optimiser fails or the parameter covariance is not finite (a0..a3 not
  identifiable from the curve);
* a1 <= 0: the error does not rise as features are discarded;
* the fitted error leaves [-0.05, 1.05] somewhere in the evaluated range of x: an
  error rate cannot;
* the inflexion a2 lies farther than 2 a3 (the width of the sigmoid's bend) outside
  the evaluated range: then only the sigmoid's exponential tail meets the data, and
  a0, a1 and a2 trade off against each other without bound (the "numerically unstable"
  fits of thesis 6.4, e.g. a0 = -517, a2 = -2.7);
* a3 reaches its lower bound (a step: the tangent is vertical and x* is just a2).

The restricted fit is rejected on the first and the last condition. No estimate (NaN,
with ``reason``) is returned when both fits are rejected, or when x* falls outside
[0, 1]: x* < 0 means the tangent reaches chance before any feature is discarded (no
information detected), x* > 1 means the features left when the rSFM stopped still carry
information. Nothing is clipped or invented.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from scipy.optimize import OptimizeWarning, curve_fit
from scipy.special import expit

__all__ = ["CHANCE", "SigmoidFit", "choose_estimate", "fit_informative_sigmoid"]

CHANCE = 0.5
_RANGE_TOL = 0.05


def _free(x, a0, a1, a2, a3):
    return a0 + a1 * expit((x - a2) / a3)


def _restricted(x, a2, a3):
    return CHANCE * expit((x - a2) / a3)


@dataclass
class SigmoidFit:
    """One least-squares sigmoid fit and its tangent at the inflexion.

    ``kind`` is "free" (a0..a3) or "restricted" (a2, a3; a0 = 0, a1 = 0.5); ``params``
    is None when the optimiser failed. ``crossing`` is where the tangent at x = a2
    meets chance; ``problems`` lists why the fit is not trusted (empty if stable).
    The fit is callable: ``fit(x)`` is the sigmoid at fractions x.

    Parameters
    ----------
    kind : {"free", "restricted"}
        f(x) = a0 + a1 / (1 + exp(-(x - a2) / a3)) (thesis 6.3), or g(x) with a0 = 0 and
        a1 = 0.5 (thesis 6.4).
    params : ndarray or None
        (a0, a1, a2, a3) for the free fit, (a2, a3) for the restricted one; None when
        the optimiser failed.
    problems : tuple of str, default=()
        Why the fit is not trusted (module docstring); empty for a stable fit.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.selection.repetitive import SigmoidFit
    >>> fit = SigmoidFit("free", np.array([0.1, 0.4, 0.3, 0.05]))
    >>> fit.stable, round(fit.slope, 6), round(fit.crossing, 6)   # x* = a2 + (0.5 - a0 - a1/2) 4 a3 / a1
    (True, 2.0, 0.4)
    """

    kind: str
    params: np.ndarray | None
    problems: tuple = ()

    @property
    def stable(self):
        return self.params is not None and not self.problems

    @property
    def full_params(self):
        """(a0, a1, a2, a3), also for the restricted fit."""
        if self.params is None:
            return None
        return self.params if self.kind == "free" else np.r_[0.0, CHANCE, self.params]

    def __call__(self, x):
        a0, a1, a2, a3 = self.full_params
        return _free(np.asarray(x, dtype=float), a0, a1, a2, a3)

    @property
    def inflexion(self):
        return float(self.full_params[2])

    @property
    def slope(self):
        """f'(a2) = a1 / (4 a3)."""
        _, a1, _, a3 = self.full_params
        return float(a1 / (4.0 * a3))

    def tangent(self, x):
        return self(self.inflexion) + self.slope * (np.asarray(x, dtype=float) - self.inflexion)

    @property
    def crossing(self):
        """x* where the tangent at the inflexion equals chance (NaN without a fit)."""
        if self.params is None or self.slope == 0:
            return float("nan")
        return float(self.inflexion + (CHANCE - self(self.inflexion)) / self.slope)


def _least_squares(model, x, e, p0, lower):
    """curve_fit with optimiser trouble turned into a list of problems."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", OptimizeWarning)
        try:
            params, cov = curve_fit(model, x, e, p0=p0, bounds=(lower, np.inf), maxfev=20000)
        except (RuntimeError, OptimizeWarning, ValueError) as exc:
            return None, (f"the least-squares fit failed ({exc})",)
    problems = []
    if not np.all(np.isfinite(cov)):
        problems.append("the parameter covariance is not finite (parameters not identifiable)")
    if params[-1] <= 1.01 * lower[-1]:
        problems.append("a3 reached its lower bound: the fit degenerated into a step")
    return params, tuple(problems)


def fit_informative_sigmoid(fraction, error):
    """Fit both sigmoids to an error curve; return ``(free, restricted)`` :class:`SigmoidFit`.

    See the module docstring for the fits (thesis 6.3-6.4) and the stability rules; the
    estimate of the informative fraction is where a fit's tangent at its inflexion meets
    chance (:attr:`SigmoidFit.crossing`).

    Parameters
    ----------
    fraction : array-like of shape (n_points,)
        Fraction of discarded features (0..1).
    error : array-like of shape (n_points,)
        Test error at those points (NaN entries are ignored). At least 5 points are
        needed; with fewer both fits come back without parameters.

    Returns
    -------
    free : SigmoidFit
        The four-parameter fit f(x) = a0 + a1 / (1 + exp(-(x - a2) / a3)).
    restricted : SigmoidFit
        The two-parameter fit g(x) = 0.5 / (1 + exp(-(x - a2) / a3)).

    Examples
    --------
    A curve that is exactly a sigmoid is recovered, and its tangent meets chance at
    x* = a2 + (0.5 - a0 - a1 / 2) 4 a3 / a1 = 0.4:

    >>> import numpy as np
    >>> from sfmlearn.selection.repetitive import fit_informative_sigmoid
    >>> x = np.linspace(0, 1, 21)
    >>> error = 0.1 + 0.4 / (1 + np.exp(-(x - 0.3) / 0.05))
    >>> free, restricted = fit_informative_sigmoid(x, error)
    >>> np.round(free.params, 4).tolist(), round(free.crossing, 4), free.stable
    ([0.1, 0.4, 0.3, 0.05], 0.4, True)
    """
    x, e = np.asarray(fraction, dtype=float), np.asarray(error, dtype=float)
    keep = np.isfinite(x) & np.isfinite(e)
    x, e = x[keep], e[keep]
    if x.size < 5 or np.ptp(x) == 0:
        problem = (f"only {x.size} distinct curve points; a sigmoid needs more",)
        return SigmoidFit("free", None, problem), SigmoidFit("restricted", None, problem)
    span = np.ptp(x)
    a3_min = 1e-4 * span
    low, high = e.min(), e.max()
    rising = np.flatnonzero(e >= 0.5 * (low + high))
    a2_guess = x[rising[0]] if rising.size else x.mean()
    params, problems = _least_squares(
        _free, x, e, [low, max(high - low, 1e-3), a2_guess, span / 10], [-np.inf, -np.inf, -np.inf, a3_min])
    free_problems = list(problems)
    if params is not None:
        a0, a1, a2, a3 = params
        if a1 <= 0:
            free_problems.append(f"a1 = {a1:.3g} <= 0: the error does not rise with discarded features")
        else:
            low_fit, high_fit = _free(np.array([x.min(), x.max()]), *params)
            if low_fit < -_RANGE_TOL or high_fit > 1 + _RANGE_TOL:
                free_problems.append(
                    f"the fitted error leaves [0, 1] in the evaluated range ({low_fit:.3g} to "
                    f"{high_fit:.3g})")
        if not x.min() - 2 * a3 <= a2 <= x.max() + 2 * a3:
            free_problems.append(
                f"the inflexion a2 = {a2:.3g} lies more than 2 a3 = {2 * a3:.3g} outside the "
                f"evaluated range [{x.min():.3g}, {x.max():.3g}]")
    free = SigmoidFit("free", params, tuple(free_problems))
    params, problems = _least_squares(_restricted, x, e, [a2_guess, span / 10], [-np.inf, a3_min])
    return free, SigmoidFit("restricted", params, problems)


def choose_estimate(free, restricted):
    """(estimate, fit_used, reason) from the two fits; NaN and a reason when none."""
    if free.stable:
        chosen = free
    elif restricted.stable:
        chosen = restricted
    else:
        return float("nan"), None, (
            "no stable sigmoid fit: free fit: " + "; ".join(free.problems)
            + "; restricted fit: " + "; ".join(restricted.problems))
    x_star = chosen.crossing
    if not np.isfinite(x_star):
        return float("nan"), None, f"the {chosen.kind} fit has a flat tangent"
    if x_star < 0:
        return float("nan"), None, (
            f"the tangent of the {chosen.kind} fit reaches chance before any feature is "
            f"discarded (x* = {x_star:.3g}): no informative features detected")
    if x_star > 1:
        return float("nan"), None, (
            f"the tangent of the {chosen.kind} fit meets chance only beyond 100 % discarded "
            f"(x* = {x_star:.3g}): the features left when the rSFM stopped still carry "
            "information")
    note = "" if free.stable else "free fit unstable (" + "; ".join(free.problems) + ")"
    return x_star, chosen.kind, note
