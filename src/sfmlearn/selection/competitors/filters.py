r"""Univariate filter scores and Golub's classifier (thesis 2.6.3).

The score functions follow scikit-learn's ``score_func`` contract, so they plug into
``SelectKBest`` / ``SelectPercentile``: ``score(X, y) -> (scores, pvalues)`` with larger
scores better and ``pvalues`` None where the score has no null distribution. Classes
are the two sorted labels of y, ``classes[1]`` the positive one.

* ``fisher_score``: :math:`(\mu_+ - \mu_-)^2 / (\sigma_+^2 + \sigma_-^2)` per feature;
  no p-values.
* ``golub_score``: :math:`|\mu_+ - \mu_-| / (\sigma_+ + \sigma_-)`; no p-values.
* ``t_score``: :math:`|\mu_+ - \mu_-| / \sqrt{s_+^2 / n_+ + s_-^2 / n_-}`; p-values of
  Welch's two-sided t-test.
* ``relief``: Kira & Rendell's Relief weights (thesis Fig. 2.11); no p-values.

Standard deviations are the sample ones (ddof = 1). A feature that is constant within
both classes scores 0 if the means agree and infinity if they differ (it separates the
classes perfectly). Golub's score is signed in the thesis (eq. 2.6); the ranking uses
its magnitude, and the signed values are ``GolubClassifier.coef_``.
"""

import numpy as np
from scipy import stats
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model._base import LinearClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import validate_params

from ..._validation import check_data, check_labels
from ...exceptions import DataValidationError
from .._checked import (FIT_CALLER, CheckedDecisionMixin, CheckedTransformMixin, SupportMaskMixin,
                        TwoClassMixin, fit_from_scratch)
from .._probability import PlattProbabilityMixin
from .._constraints import POSITIVE_INT
from ...utils.docstrings import fill_doc
from ._params import Param, declare_parameters, renamed, renamed_value

__all__ = ["fisher_score", "golub_score", "t_score", "relief", "GolubClassifier"]

#: The arguments of every score function.
_SCORE_ARGUMENTS = """
X : array-like of shape (n_samples, n_features)
    Training data.
y : array-like of shape (n_samples,)
    Two class labels.
"""
#: The second return value of the scores without a null distribution.
_NO_PVALUES = """
pvalues : None
    No p-values (the ``SelectKBest`` score-function contract).
"""
#: The data of the scores' examples: feature 0 separates the classes, feature 1 not.
_EXAMPLE_DATA = """
>>> import numpy as np
>>> X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]])
>>> y = [0, 0, 1, 1]
"""
#: Parameters and Returns of a score without p-values (the formula is in its summary).
_SCORE_CONTRACT = f"""
Parameters
----------{_SCORE_ARGUMENTS}
Returns
-------
scores : ndarray of shape (n_features,)
    The score of each feature (larger is better).{_NO_PVALUES}"""
_score_doc = fill_doc(score_contract=_SCORE_CONTRACT, score_arguments=_SCORE_ARGUMENTS,
                      no_pvalues=_NO_PVALUES, example_data=_EXAMPLE_DATA)


def _class_moments(X, y):
    """Means, sample variances and sizes of the two classes (checked input).

    Moments are in units of each column's largest magnitude (every score is a ratio of
    them, so unit-free): squares of values like 1e160 cannot overflow.
    """
    X = np.asarray(check_data(X), dtype=np.float64)
    peak = np.abs(X).max(axis=0)
    X = X / np.where(peak > 0, peak, 1.0)
    y = check_labels(y)
    if y.shape[0] != X.shape[0]:
        raise DataValidationError(
            f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; pass one label per row."
        )
    classes = np.unique(y)
    if classes.size != 2:
        raise DataValidationError(
            f"These scores compare two classes; y has {classes.size} distinct labels."
        )
    groups = [X[y == c] for c in classes]
    if min(g.shape[0] for g in groups) < 2:
        raise DataValidationError("Each class needs at least two samples for a variance.")
    means = [g.mean(axis=0) for g in groups]
    variances = [g.var(axis=0, ddof=1) for g in groups]
    sizes = [g.shape[0] for g in groups]
    return means, variances, sizes


def _ratio(numerator, denominator):
    """numerator / denominator with 0/0 = 0 and x/0 = inf (a separating constant)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / denominator
    out[denominator == 0] = np.where(numerator[denominator == 0] == 0, 0.0, np.inf)
    return out


@_score_doc
def fisher_score(X, y):
    r"""Fisher's criterion :math:`(\mu_+ - \mu_-)^2 / (\sigma_+^2 + \sigma_-^2)` per feature (thesis 2.6.3).

    %(score_contract)s

    Examples
    --------
    %(example_data)s
    >>> from sklearn.feature_selection import SelectKBest
    >>> from sfmlearn.selection import fisher_score
    >>> fisher_score(X, y)[0]
    array([4., 0.])
    >>> SelectKBest(fisher_score, k=1).fit(X, y).get_support()
    array([ True, False])
    """
    (m0, m1), (v0, v1), _ = _class_moments(X, y)
    return _ratio((m1 - m0) ** 2, v0 + v1), None


def golub_signal_to_noise(X, y):
    r"""Golub's signed score (thesis eq. 2.6).

    .. math:: P_j = \frac{\mu_{+j} - \mu_{-j}}{\sigma_{+j} + \sigma_{-j}}
    """
    (m0, m1), (v0, v1), _ = _class_moments(X, y)
    diff = m1 - m0
    return np.sign(diff) * _ratio(np.abs(diff), np.sqrt(v0) + np.sqrt(v1))


@_score_doc
def golub_score(X, y):
    r"""Golub et al.'s (1999) signal-to-noise :math:`|P_j|` for ranking (thesis 2.6.3).

    .. math::

        P_j = \frac{\mu_{+j} - \mu_{-j}}{\sigma_{+j} + \sigma_{-j}}

    %(score_contract)s

    Examples
    --------
    %(example_data)s
    >>> from sfmlearn.selection import golub_score
    >>> golub_score(X, y)[0].round(4)
    array([1.4142, 0.    ])
    """
    return np.abs(golub_signal_to_noise(X, y)), None


@_score_doc
def t_score(X, y):
    r"""Welch's :math:`|t| = |\mu_+ - \mu_-| / \sqrt{s_+^2 / n_+ + s_-^2 / n_-}` and its two-sided p-value.

    Parameters
    ----------
    %(score_arguments)s

    Returns
    -------
    scores : ndarray of shape (n_features,)
        ``|t|`` per feature.
    pvalues : ndarray of shape (n_features,)
        Two-sided p-values of Welch's test.

    Examples
    --------
    %(example_data)s
    >>> from sfmlearn.selection import t_score
    >>> scores, pvalues = t_score(X, y)
    >>> scores.round(3), pvalues.round(3)
    (array([2.828, 0.   ]), array([0.106, 1.   ]))
    """
    (m0, m1), (v0, v1), (n0, n1) = _class_moments(X, y)
    se2 = v0 / n0 + v1 / n1
    t = _ratio(np.abs(m1 - m0), np.sqrt(se2))
    # Welch-Satterthwaite degrees of freedom (1 where both variances vanish).
    with np.errstate(divide="ignore", invalid="ignore"):
        dof = se2**2 / ((v0 / n0) ** 2 / (n0 - 1) + (v1 / n1) ** 2 / (n1 - 1))
    dof = np.where(np.isfinite(dof), dof, 1.0)
    pvalues = 2.0 * stats.t.sf(t, dof)
    return t, pvalues


@validate_params(
    {"X": "no_validation", "y": "no_validation", "n_iterations": [POSITIVE_INT, None],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
@_score_doc
def relief(X, y, *, n_iterations=None, random_state=None):
    """Kira & Rendell's Relief weights (thesis Fig. 2.11) for ``SelectKBest``.

    For each drawn sample x with nearest hit h (same class) and nearest miss m
    (other class), w_j += (|x_j - m_j| - |x_j - h_j|) / range_j / t; neighbours under
    the sum of range-normalised differences (the thesis' distance), ties to the lower
    index. ``n_iterations=None`` visits every sample once (deterministic); otherwise
    that many samples are drawn with replacement using ``random_state``. Use
    ``functools.partial(relief, n_iterations=..., random_state=...)`` as a score_func.

    Parameters
    ----------
    %(score_arguments)s
    n_iterations : int or None, default=None
        Samples drawn with replacement; None visits every sample once.
    random_state : int, RandomState or None
        Seeds the draws when ``n_iterations`` is given.

    Returns
    -------
    scores : ndarray of shape (n_features,)
        The Relief weight per feature (larger is better).
    %(no_pvalues)s

    Examples
    --------
    %(example_data)s
    >>> from sfmlearn.selection import relief
    >>> relief(X, y)[0].round(4)
    array([ 0.3333, -1.    ])
    """
    X = np.asarray(check_data(X), dtype=np.float64)
    y = check_labels(y)
    _class_moments(X, y)  # same checks as the other scores
    span = X.max(axis=0) - X.min(axis=0)
    Xn = X / np.where(span > 0, span, 1.0)
    n = X.shape[0]
    if n_iterations is None:
        drawn = np.arange(n)
    else:
        drawn = check_random_state(random_state).randint(0, n, size=n_iterations)
    dist = cdist(Xn[drawn], Xn, metric="cityblock")
    dist[np.arange(drawn.size), drawn] = np.inf  # a sample is not its own neighbour
    same = y[drawn][:, None] == y[None, :]
    hit = np.argmin(np.where(same, dist, np.inf), axis=1)
    miss = np.argmin(np.where(~same, dist, np.inf), axis=1)
    x = Xn[drawn]
    weights = (np.abs(x - Xn[miss]) - np.abs(x - Xn[hit])).mean(axis=0)
    return weights, None


_N_FEATURES_TO_SELECT = Param(50, [POSITIVE_INT, None], """int or None, default=50
    Number of features voting (Golub et al. used 50). None uses all.""")


@declare_parameters(positional={"n_features_to_select": _N_FEATURES_TO_SELECT},
                    keyword={"n_features": renamed("n_features_to_select", _N_FEATURES_TO_SELECT)})
class GolubClassifier(CheckedDecisionMixin, PlattProbabilityMixin, TwoClassMixin, SupportMaskMixin,
                      CheckedTransformMixin, SelectorMixin, LinearClassifierMixin, BaseEstimator):
    r"""Golub's weighted-voting classifier (thesis 2.6.3): :math:`f(x) = w \cdot (x - (\mu_+ + \mu_-)/2)`.

    .. math::

        w_j = P_j = \frac{\mu_{+j} - \mu_{-j}}{\sigma_{+j} + \sigma_{-j}}

    on the ``n_features_to_select`` features with the largest :math:`|P_j|` (all features
    when None), zero elsewhere. Golub et
    al. (1999) used the 50 most informative genes.

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features_in_)
        P_j on the selected features, 0 elsewhere (an infinite P_j, a feature constant
        within each class, is replaced by +-(1 + the largest finite |P_j|)).
    intercept_ : ndarray of shape (1,)
        :math:`-w \cdot (\mu_+ + \mu_-) / 2`.
    scores_ : ndarray of shape (n_features_in_,)
        The signed scores P_j of every feature.
    %(probability_attributes)s
    support_, classes_, n_features_in_, feature_names_in_

    Examples
    --------
    >>> from sfmlearn import GolubClassifier
    >>> from sfmlearn.datasets import load_leukemia
    >>> data = load_leukemia()   # Golub et al.'s data: 38 training and 34 test samples
    >>> golub = GolubClassifier().fit(data.X_train, data.y_train)   # 50 genes vote
    >>> int(round(golub.score(data.X_test, data.y_test) * 34))   # test samples right
    33
    """

    @fit_from_scratch
    def fit(self, X, y, **fit_params):
        """Score every feature and keep the ``n_features_to_select`` with the largest |P_j|."""
        X, y_signed = self._check_fit(X, y, fit_params)
        count = renamed_value(self, "n_features", "n_features_to_select", stacklevel=FIT_CALLER)
        scores = golub_signal_to_noise(X, y_signed)
        keep = X.shape[1] if count is None else min(count, X.shape[1])
        order = np.argsort(-np.abs(scores), kind="stable")
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[order[:keep]] = True
        # A feature constant within each class but not between them has |P| = inf;
        # it votes with the largest finite weight plus one.
        finite = np.abs(scores[np.isfinite(scores)]).max(initial=0.0)
        weights = np.where(self.support_, np.clip(scores, -finite - 1.0, finite + 1.0), 0.0)
        midpoint = 0.5 * (X[y_signed > 0].mean(axis=0) + X[y_signed < 0].mean(axis=0))
        self.scores_ = scores
        self.coef_ = weights[None, :]
        self.intercept_ = np.array([-float(weights @ midpoint)])
        self._fit_probability(self._linear_decision(X), y_signed)
        return self
