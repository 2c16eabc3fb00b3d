"""Class probabilities from decision values: Platt scaling.

Platt (1999) maps a two-class decision value f to the probability of the positive class
by a sigmoid with two fitted parameters,

    P(y = +1 | f) = 1 / (1 + exp(A f + B)),

chosen to minimise the cross-entropy against smoothed targets

    t_i = (N_+ + 1) / (N_+ + 2)  for y_i = +1,      t_i = 1 / (N_- + 2)  for y_i = -1,

    F(A, B) = sum_i w_i [ log(1 + exp(z_i)) + (t_i - 1) z_i ],    z_i = A f_i + B.

The targets are Platt's estimates of the class probabilities under a uniform prior on
the out-of-sample labels: they keep A finite when the decision values separate the classes, which a hard
SFM always does on its training set. F is minimised by Newton's method with a
backtracking line search (Lin, Lin & Weng 2007: their problem (2) and Appendix C), by the
package's one small logistic solver, :func:`~sfmlearn.optim.logistic.logistic_newton`.

* :func:`fit_platt`, :func:`platt_probability`: the fit and the sigmoid;
* :class:`PlattProbabilityMixin`: ``predict_proba`` and ``predict_log_proba`` of a
  two-class estimator from its ``decision_function`` and the fitted
  ``probability_slope_`` (A) and ``probability_intercept_`` (B; 0 for the sigmoid that
  ``fit`` fits, see there).

References
----------
J. C. Platt, "Probabilistic outputs for support vector machines and comparisons to
regularized likelihood methods", in *Advances in Large Margin Classifiers*, MIT Press,
1999. H.-T. Lin, C.-J. Lin and R. C. Weng, "A note on Platt's probabilistic outputs for
support vector machines", *Machine Learning* 68:267-276, 2007.
"""

import numpy as np
from scipy.special import expit, log_expit
from sklearn.utils.validation import check_is_fitted

from ..optim.logistic import logistic_newton
from ..utils.docstrings import fill_text

__all__ = ["PlattProbabilityMixin", "fit_platt", "platt_log_probability", "platt_probability"]

#: With B = 0 the slope is kept at A <= -MIN_SLOPE / max|f|: decision values that carry no
#: evidence for the classes (held-out values at or below chance) give probabilities within
#: MIN_SLOPE / 4 of 1/2 that still rise with f, so the more probable class stays the
#: predicted one.
MIN_SLOPE = 1e-6


def platt_targets(y_signed):
    """Platt's smoothed targets t_+ = (N_+ + 1) / (N_+ + 2), t_- = 1 / (N_- + 2)."""
    positive = y_signed > 0
    n_pos = np.count_nonzero(positive)
    n_neg = y_signed.size - n_pos
    return np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))


def fit_platt(decision, y_signed, sample_weight=None, *, fit_intercept=True):
    """Platt's sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B)) fitted to decision values.

    Minimises the weighted cross-entropy F(A, B) of the module docstring against Platt's
    smoothed targets by Newton's method with backtracking (Lin, Lin & Weng 2007, Appendix C;
    :func:`~sfmlearn.optim.logistic.logistic_newton`).

    Parameters
    ----------
    decision : array-like of shape (n_samples,)
        Decision values f_i (positive for the positive class).
    y_signed : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    sample_weight : array-like of shape (n_samples,) or None
        Weights w_i of the cross-entropy terms. The targets use the sample counts
        N_+, N_- (Platt's prior counts samples), as scikit-learn's sigmoid calibration.
    fit_intercept : bool, default=True
        Fit B (Platt's two parameters). False fixes B = 0 and fits A alone, constrained
        to A <= -:data:`MIN_SLOPE` / max|f_i|: the sigmoid then gives probability 1/2 at
        f = 0 and rises with f, so the more probable class is the one the sign of f
        predicts. (F is convex in A, so where the unconstrained minimiser lies above
        the bound, for decision values at or below chance, the bound is the minimiser.)

    Returns
    -------
    A, B : float
        The slope and intercept; A < 0 when larger decision values mean the positive class.
    """
    f = np.asarray(decision, dtype=np.float64).ravel()
    y = np.asarray(y_signed).ravel()
    # P(y = +1 | f) = sigmoid(v f + c) in logistic_newton's terms: A = -v, B = -c. The
    # decision values are divided by their largest magnitude first (A scales back), so
    # data in any units (1e-160 or 1e160) give a well-conditioned Newton system.
    scale = float(np.max(np.abs(f))) if f.size and np.max(np.abs(f)) > 0 else 1.0
    v, c = logistic_newton((f / scale)[:, None], platt_targets(y), sample_weight, fit_intercept=fit_intercept)
    if not fit_intercept:
        v = np.maximum(v, MIN_SLOPE)
    return -float(v[0]) / scale, -c


def platt_log_probability(decision, A, B):
    """(log P(y = -1 | f), log P(y = +1 | f)) under Platt's sigmoid, without overflow:
    log P(+1) = log sigma(-(A f + B)), log P(-1) = log sigma(A f + B)."""
    z = A * np.asarray(decision, dtype=np.float64) + B
    return log_expit(z), log_expit(-z)


def platt_probability(decision, A, B):
    """P(y = +1 | f) = 1 / (1 + exp(A f + B)) (Platt 1999)."""
    return expit(-(A * np.asarray(decision, dtype=np.float64) + B))


#: The fitted attributes of :class:`PlattProbabilityMixin`, as the estimators list them.
PROBABILITY_ATTRIBUTES = """\
probability_slope_, probability_intercept_ : float
    Platt's A and B: ``predict_proba`` gives ``classes_[1]`` the probability
    1 / (1 + exp(A f + B)) of the decision value f; A is fitted on the training
    set and B = 0, so 1/2 falls on the decision threshold (see ``predict_proba``)."""


class PlattProbabilityMixin:
    """``predict_proba`` / ``predict_log_proba`` of a two-class classifier (Platt 1999).

    The estimator's ``fit`` calls :meth:`_fit_probability` with its decision values on
    the training set; it sets ``probability_slope_`` (A) and ``probability_intercept_``
    (B) of P(classes_[1] | x) = 1 / (1 + exp(A f(x) + B)).

    In ``fit`` the sigmoid is fitted with B = 0 (``fit_platt(..., fit_intercept=False)``):
    it passes through 1/2 at the decision threshold f = 0, so the more probable class
    is always the one ``predict`` returns, as scikit-learn's classifiers guarantee. A
    free B would move that point to f = -B/A and make the two disagree for the
    decision values in between. The probabilities increase with ``decision_function``:
    A < 0, and where the decision values carry no evidence for the classes the slope
    stays at its bound (:data:`MIN_SLOPE`) and the probabilities within 10^-6 of 1/2.

    The training decision values come from the model that saw those samples, so they
    are overconfident and the probabilities lean towards 0 and 1. For probabilities
    calibrated on held-out samples (both A and B) wrap the model in
    ``sklearn.calibration.CalibratedClassifierCV(model, cv=5)``.

    A subclass docstring line ``%(probability_attributes)s`` becomes the description of
    the two attributes (:data:`PROBABILITY_ATTRIBUTES`), written once.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__doc__ = fill_text(cls.__doc__, {"probability_attributes": PROBABILITY_ATTRIBUTES})

    def _fit_probability(self, decision, y_signed):
        """Fit the sigmoid (B = 0) to the training decision values; called by ``fit``."""
        self.probability_slope_, self.probability_intercept_ = fit_platt(
            decision, y_signed, fit_intercept=False)

    def _probability_decision(self, X):
        """The values the sigmoid maps: the decision function (a subclass may rescale it)."""
        return self.decision_function(X)

    def predict_log_proba(self, X):
        """Log of :meth:`predict_proba`, computed without overflow."""
        check_is_fitted(self, "probability_slope_", msg=(
            "This %(name)s has no probability sigmoid: it is not fitted, or it was fitted without "
            "one (probability=False, as the candidates of a cross-validation); call fit first."))
        log_negative, log_positive = platt_log_probability(
            self._probability_decision(X), self.probability_slope_, self.probability_intercept_)
        return np.column_stack([log_negative, log_positive])

    def predict_proba(self, X):
        """Class probabilities, columns in ``classes_`` order: Platt's sigmoid
        1 / (1 + exp(A f(x) + B)) of the decision function for ``classes_[1]``.

        Fitted on the training decision values, so overconfident (see the class
        docstring); use ``sklearn.calibration.CalibratedClassifierCV`` for held-out
        calibration.
        """
        return np.exp(self.predict_log_proba(X))
