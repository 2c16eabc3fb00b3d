"""Path methods of the budget comparison: sparse models fitted along a grid of sparsity.

A *path method* is any object with

    fit_path(X_train, y_train) -> (predictors, n_features)

where ``predictors`` is a list of fitted models (anything with ``predict``) and
``n_features[i]`` the number of features predictor i uses. A ``fit_path`` with a
``groups`` parameter gets the training part's groups (participants, runs) when the
comparison has them; an optional attribute ``path_fits`` says how many path fits one
call costs, for the limit of :data:`~.budgets.MAX_PATH_FITS` (1 where absent).
:func:`compare_budgets` (:mod:`.budgets`) needs nothing else, so a user's own method (a
lasso path, a filter plus a classifier for k = 1, 2, ...) enters the comparison with a
class of a few lines. The
defaults (:func:`default_path_methods`):

* :class:`SFMPath` -- the soft SFM along its data-adaptive grid of C
  (:func:`sfmlearn.sfm_path`, thesis 3.2): from the single feature maximising the scaled
  |mu+_j - mu-_j| to the hard solution; twice, with the hard-margin SVM on the selected
  features (``refit="svm"``, the default) and with L2 logistic regression on them
  (:class:`LogisticOnSFMPath`, the classifier of ``refit="logistic"``): the same
  supports, from one path fit, two classifiers, and neither is better on every data set
  (user guide, choosing C);
* :class:`RepetitiveSubsetsPath` -- the repetitive SFM (NC 4.4): subsets R_1, R_2, ...
  sorted by size (NC 4.4), and a linear SVM on the union of the first t of them for t = 1, 2, ...
  (the union's size is the budget it uses; :class:`~sfmlearn.RepetitiveSFM` with
  ``n_subsets=t`` and the same classifier); and the same with the soft SFM (C = 1,
  balanced) as the base, its subsets in the order found, and logistic regression on the
  unions. The hard SFM's subsets are the fewest features that separate the training
  samples, and on 31-175 of them they fit those samples' accidents; the soft SFM's
  subsets give up training errors for fewer features (user guide, "How many features do
  I need?", compares the two);
* :class:`StabilityRanking` -- the features ranked by how often the soft-SFM path selects
  them on halves of the data (:class:`~sfmlearn.StabilitySelection`, Meinshausen &
  Bühlmann), and L2 logistic regression on the k most frequent for k = 1, 2, ...: the
  budget decides how many, not a threshold;
* :class:`LogisticPath` -- l1- or elastic-net-penalised logistic regression on
  standardised features (scikit-learn) along 20 log-spaced C, from 1 % above the C at
  which the first feature enters (as the SFM path's grid starts just inside its end)
  over three decades for the l1 penalty and two for the elastic net (its ridge part
  lets correlated features enter together, so two decades already reach hundreds of
  features on microarray data, and the saga fits beyond them only cost time). With
  class weights a_i (``"balanced"``) and the intercept fitted, w = 0 is optimal while
  C max_j |sum_i a_i x_ij (t_i - p)| <= r
  (t_i in {0, 1}, p the weighted class-1 fraction, r the l1 ratio); that C is
  :func:`sklearn.svm.l1_min_c` with the class weights.
"""

import copy
import hashlib
import inspect
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import MaxAbsScaler, StandardScaler
from sklearn.utils.class_weight import compute_sample_weight

from ..exceptions import DataValidationError, NotSeparableError
from ..selection import StabilitySelection, SupportFeatureMachine, sfm_path
from ..selection.sfm.stability import path_estimator
from ..selection.sfm.unions import hyperplane_classifier, logistic_on_features
from ..selection.repetitive import run_repetitions
from ..selection.repetitive.estimator import SUBSETS_CLASSIFIER

__all__ = ["SOFT_SUBSETS_BASE", "LogisticOnSFMPath", "LogisticPath", "PreparedPredictor", "RepetitiveSubsetsPath",
           "SFMPath", "StabilityRanking", "default_path_methods", "fit_path_with_groups", "logistic_on_each"]

#: Grid points of the logistic paths.
LOGISTIC_N_CS = 20
#: The logistic grids span this factor above the C at which the first feature enters.
LOGISTIC_SPAN = 1e3
#: The logistic grids start this factor above the C at which the first feature enters.
FIRST_C_MARGIN = 1.01
#: The elastic net's grid spans two decades (module docstring).
ELASTIC_NET_SPAN = 1e2
#: liblinear's ``intercept_scaling`` on sparse data (``LogisticPath``): 100 times the largest
#: value MaxAbsScaler leaves, so liblinear's penalty on the intercept is negligible.
SPARSE_INTERCEPT_SCALING = 100.0
#: saga's tolerance on sparse data as a fraction of ``tol`` (``LogisticPath``).
SPARSE_SAGA_TOL_FACTOR = 0.1


def fit_path_with_groups(method, X, y, groups=None):
    """``method.fit_path(X, y)``, passing ``groups`` where its ``fit_path`` takes them (module
    docstring).

    Parameters
    ----------
    method : path method
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    groups : ndarray of shape (n_samples,) or None

    Returns
    -------
    (predictors, n_features)
        What ``fit_path`` returns.
    """
    if groups is not None and "groups" in inspect.signature(method.fit_path).parameters:
        return method.fit_path(X, y, groups=groups)
    return method.fit_path(X, y)


class PreparedPredictor:
    """A fitted model applied after a fixed preparation of the data (a fitted scaler's
    ``transform``, a column subset): ``predict(X) = model.predict(prepare(X))``."""

    def __init__(self, prepare, model):
        self.prepare, self.model = prepare, model

    def predict(self, X):
        return self.model.predict(self.prepare(X))


class SFMPath:
    """The soft-SFM path (:func:`sfmlearn.sfm_path`) on each training set's own grid.

    Parameters
    ----------
    estimator : SupportFeatureMachine, default=SupportFeatureMachine(class_weight="balanced")
        The model of the path (its C is ignored); by default the one of
        :class:`~sfmlearn.SupportFeatureMachineCV`'s automatic choice.
    n_Cs : int, default=20
        Points of the data-adaptive grid, computed on the training data passed to
        :meth:`fit_path`.

    The supports of the latest paths are kept, keyed by a digest of their training data,
    so :class:`LogisticOnSFMPath` places its classifiers on them without solving the LPs
    again.
    """

    #: Training sets whose supports are kept (an outer fold and its inner folds).
    KEPT = 16

    def __init__(self, estimator=None, n_Cs=20):
        self.estimator, self.n_Cs = estimator, n_Cs
        self._supports = {}

    def path_estimator(self):
        """The estimator of the path (``estimator``, or its default)."""
        return SupportFeatureMachine(class_weight="balanced") if self.estimator is None else self.estimator

    def fit_path(self, X, y):
        path = sfm_path(X, y, Cs=self.n_Cs, estimator=clone(self.path_estimator()), probability=False)
        self._supports[_digest(X, y)] = path.supports
        while len(self._supports) > self.KEPT:
            self._supports.pop(next(iter(self._supports)))
        return path.estimators, path.n_features

    def supports(self, X, y):
        """The path's supports on these training data (kept, or fitted now), one row per C."""
        kept = self._supports.get(_digest(X, y))
        if kept is None:
            self.fit_path(X, y)
            kept = self._supports[_digest(X, y)]
        return kept


class LogisticOnSFMPath:
    """The supports of an :class:`SFMPath`, each with L2 logistic regression on it.

    The classifier of ``SupportFeatureMachine(refit="logistic")`` (standardised
    columns, C = 1, the path estimator's class weights;
    :func:`~sfmlearn.selection.sfm.unions.logistic_on_features`) on the same features:
    the same path with another classifier, and the LPs are solved once for both.

    Parameters
    ----------
    path : SFMPath
        The path whose supports are used (kept from its own :meth:`~SFMPath.fit_path`
        on the same training data, else fitted).
    """

    def __init__(self, path):
        self.path = path

    def fit_path(self, X, y):
        supports = self.path.supports(X, y)
        class_weight = self.path.path_estimator().class_weight
        return logistic_on_each(X, y, class_weight, [np.flatnonzero(s) for s in supports]), supports.sum(axis=1)


def logistic_on_each(X, y, class_weight, feature_sets):
    """The SFM's ``refit="logistic"`` classifier (L2 logistic regression, C = 1, on the
    standardised columns, weighted by ``class_weight``;
    :func:`~sfmlearn.selection.sfm.unions.logistic_on_features`) fitted on each of
    ``feature_sets`` (column indices of X), as fitted classifiers."""
    classes = np.unique(y)
    y_signed = np.where(y == classes[1], 1.0, -1.0)
    weights = compute_sample_weight(class_weight, y)
    return [hyperplane_classifier(*logistic_on_features(X, y_signed, weights, features)[:2], classes)
            for features in feature_sets]


def _digest(X, y):
    """A digest of training data: their shape, values and labels."""
    digest = hashlib.blake2b(digest_size=16)
    parts = (X.data, X.indices, X.indptr) if sp.issparse(X) else (np.ascontiguousarray(X),)
    for part in (*parts, np.asarray(y).astype(str)):
        digest.update(np.ascontiguousarray(part).tobytes())
    digest.update(repr(X.shape).encode())
    return digest.hexdigest()


class RepetitiveSubsetsPath:
    """The first t subsets of the repetitive SFM and a classifier on their union (subsets sorted by size for a
    hard base, in the order found for a soft one).

    Parameters
    ----------
    estimator : binary selector, default=SupportFeatureMachine()
        The base selector of :func:`~sfmlearn.selection.repetitive.run_repetitions`.
    max_repetitions : int, default=10
        Subsets found at most.
    classifier : estimator or "logistic", default=SUBSETS_CLASSIFIER
        Trained on the union: an estimator (by default an :class:`~sfmlearn.SFMScaler`
        and ``LinearSVC(C=1)``, as ``RepetitiveSFM(n_subsets="auto")``), or
        ``"logistic"``: the SFM's ``refit="logistic"`` classifier with the base
        estimator's class weights (:func:`logistic_on_each`), as on the unions of
        :class:`~sfmlearn.SupportFeatureMachineCV`.

    A soft base runs without the repetitive SFM's chance test: every repetition is a point
    of the path, and the held-out folds judge it. Its unions follow the order in which the
    subsets were found (:meth:`~sfmlearn.selection.repetitive.RepetitionPath.unions`):
    once the informative features are taken, the soft SFM keeps one or two of the weak
    ones left, and sorted by size these subsets would come before the first, informative
    one. A hard base's subsets are sorted by size (NC 4.4). A hard base SFM on classes
    that no feature subset separates finds no subset: the path is then empty, and the
    method reaches no budget.
    """

    def __init__(self, estimator=None, max_repetitions=10, classifier=None):
        self.estimator, self.max_repetitions, self.classifier = estimator, max_repetitions, classifier

    def fit_path(self, X, y):
        if isinstance(self.classifier, str) and self.classifier != "logistic":
            raise ValueError(f'classifier must be an estimator or "logistic"; got {self.classifier!r}.')
        base = SupportFeatureMachine() if self.estimator is None else self.estimator
        try:
            path = run_repetitions(clone(base), X, y, max_repetitions=self.max_repetitions, chance_alpha=None)
        except NotSeparableError:
            return [], np.zeros(0, dtype=int)
        unions = path.unions("size" if getattr(base, "C", None) is None else "found")
        sizes = np.array([union.size for union in unions], dtype=int)
        if self.classifier == "logistic":
            return logistic_on_each(X, y, getattr(base, "class_weight", None), unions), sizes
        classifier = SUBSETS_CLASSIFIER if self.classifier is None else self.classifier
        return [PreparedPredictor(_Columns(union), clone(classifier).fit(X[:, union], y)) for union in unions], sizes


class StabilityRanking:
    """L2 logistic regression on the k features the soft-SFM path selects most often on
    halves of the data, k = 1, 2, ..., ``max_features``.

    The ranking is :class:`~sfmlearn.StabilitySelection`'s ``selection_frequency_`` (ties:
    the lower column index); only features that some half selected are ranked. With
    ``groups`` each group stays whole in one half. Training data that cannot be halved
    with both classes in each half (a class of one sample, or with groups a class within
    one group) give an empty path: the method then reaches no budget. The classifier is
    the SFM's ``refit="logistic"`` with the path estimator's class weights
    (:func:`logistic_on_each`).

    Parameters
    ----------
    estimator : SupportFeatureMachine, WestonZeroNormSVM or None, default=None
        The path's estimator (None: ``SupportFeatureMachine(class_weight="balanced")``).
    n_pairs : int, default=25
        Complementary pairs of halves.
    max_features : int, default=50
        The largest k.
    random_state : int, default=0
        Seeds the halves, so the same data give the same ranking.
    """

    def __init__(self, estimator=None, n_pairs=25, max_features=50, random_state=0):
        self.estimator, self.n_pairs, self.max_features = estimator, n_pairs, max_features
        self.random_state = random_state

    @property
    def path_fits(self):
        """Path fits one :meth:`fit_path` costs: two paths on halves cost about one on all."""
        return self.n_pairs

    def fit_path(self, X, y, groups=None):
        model = StabilitySelection(self.estimator, n_pairs=self.n_pairs, threshold=0.0, max_features=1,
                                   random_state=self.random_state)
        try:
            stability = model.fit(X, y, groups=groups)
        except DataValidationError:  # X and y are checked by the caller: the data cannot be halved
            return [], np.zeros(0, dtype=int)
        frequency = stability.selection_frequency_
        order = np.argsort(-frequency, kind="stable")[:min(self.max_features, np.count_nonzero(frequency))]
        class_weight = path_estimator(self.estimator).class_weight
        sizes = np.arange(1, order.size + 1)
        return logistic_on_each(X, y, class_weight, [order[:k] for k in sizes]), sizes


class _Columns:
    """``X[:, columns]`` as a picklable callable."""

    def __init__(self, columns):
        self.columns = columns

    def __call__(self, X):
        return X[:, self.columns]


class LogisticPath:
    """l1 or elastic-net logistic regression on standardised features, along a grid of C.

    Parameters
    ----------
    l1_ratio : float, default=1.0
        1: the l1 penalty (solver ``liblinear``); below 1: elastic net (solver ``saga``).
    n_Cs : int, default=20
        Grid points, log-spaced from the first-feature C (module docstring) over
        ``span``.
    span : float, default=1e3
        Ratio of the largest to the smallest C.
    max_iter : int, default=1000
        Iterations per fit; the fits along the grid start warm from the previous C.
    tol : float, default=1e-3
        Tolerance of the solver.
    random_state : int, default=0
        Seeds the solvers' shuffling (liblinear's and saga's coordinate order), so the
        same data give the same path.

    Standardisation uses :class:`~sklearn.preprocessing.StandardScaler`, or
    :class:`~sklearn.preprocessing.MaxAbsScaler` for sparse data (it keeps them sparse).
    Fits that stop at ``max_iter`` are kept (their warnings silenced): a grid point is a
    candidate, and its held-out score says what it is worth.

    MaxAbsScaler does not centre, so on sparse data the intercept carries the class
    balance. liblinear penalises the intercept like a weight: with its default
    ``intercept_scaling=1`` the fits on DEXTER's word counts kept b = 0, and the
    one-word fits predicted one class for every test sample (balanced accuracy 50 %).
    On sparse data the l1 path therefore uses ``intercept_scaling`` =
    :data:`SPARSE_INTERCEPT_SCALING`, and saga, which converges slowly on uncentred
    columns, runs with ``tol`` times :data:`SPARSE_SAGA_TOL_FACTOR`. On centred (dense)
    data the optimal intercept is near 0, and liblinear's default is kept.
    """

    def __init__(self, l1_ratio=1.0, n_Cs=LOGISTIC_N_CS, span=LOGISTIC_SPAN, max_iter=1000, tol=1e-3,
                 random_state=0):
        self.l1_ratio, self.n_Cs, self.span, self.max_iter, self.tol = l1_ratio, n_Cs, span, max_iter, tol
        self.random_state = random_state

    def fit_path(self, X, y):
        sparse = sp.issparse(X)
        scaler = (MaxAbsScaler() if sparse else StandardScaler()).fit(X)
        Z = scaler.transform(X)
        first = FIRST_C_MARGIN * first_feature_C(Z, y, self.l1_ratio)
        liblinear = self.l1_ratio == 1
        options = {"intercept_scaling": SPARSE_INTERCEPT_SCALING} if sparse and liblinear else {}
        tol = self.tol * SPARSE_SAGA_TOL_FACTOR if sparse and not liblinear else self.tol
        model = LogisticRegression(l1_ratio=self.l1_ratio, solver="liblinear" if liblinear else "saga",
                                   class_weight="balanced", max_iter=self.max_iter, tol=tol,
                                   warm_start=True, random_state=self.random_state, **options)
        predictors, sizes = [], []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            for C in np.geomspace(first, first * self.span, self.n_Cs):
                fitted = copy.deepcopy(model.set_params(C=C).fit(Z, y))
                predictors.append(PreparedPredictor(scaler.transform, fitted))
                sizes.append(int(np.count_nonzero(fitted.coef_)))
        return predictors, np.array(sizes, dtype=int)


def first_feature_C(Z, y, l1_ratio=1.0):
    """The largest C at which class-balanced penalised logistic regression keeps w = 0.

    C_0 = r / max_j |sum_i a_i z_ij (t_i - p)| (module docstring): with the intercept at
    its optimum p = sum a_i t_i / sum a_i for w = 0, that is where the l1 subgradient
    condition first fails.
    """
    y = np.asarray(y)
    weights = compute_sample_weight("balanced", y)
    target = (y == np.unique(y)[1]).astype(float)
    residual = weights * (target - np.sum(weights * target) / np.sum(weights))
    gradient = np.abs(np.asarray(Z.T @ residual)).max()
    return l1_ratio / gradient if gradient > 0 else 1.0


#: The base of the soft repetitive SFM's path: the plain soft SFM (C = 1, balanced), no
#: hyperplane placed (only its subsets are used).
SOFT_SUBSETS_BASE = SupportFeatureMachine(C=1.0, class_weight="balanced", refit=None)


def default_path_methods():
    """name -> path method: the SFM path (two refits), the repetitive SFM (hard, and soft
    with logistic regression), the SFM's stability ranking, l1- and elastic-net logistic."""
    return {
        "SFM path": (path := SFMPath()),
        "SFM path, logistic refit": LogisticOnSFMPath(path),
        "repetitive SFM": RepetitiveSubsetsPath(),
        "soft repetitive SFM": RepetitiveSubsetsPath(SOFT_SUBSETS_BASE, classifier="logistic"),
        "SFM stability ranking": StabilityRanking(),
        "l1-logistic": LogisticPath(l1_ratio=1.0),
        "elastic-net logistic": LogisticPath(l1_ratio=0.5, span=ELASTIC_NET_SPAN),
    }
