"""MarkerPanel: the fewest genes that identify every cell type, as a scikit-learn estimator."""

import numbers
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize_scalar
from scipy.special import log_softmax, logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from .._validation import check_features, check_labels, check_xy
from ..exceptions import DataValidationError
from ..utils.parameters import N_JOBS, forget_fit, set_parameters
from .allocate import Level, greedy_panel
from .candidates import marker_table, rank_candidates
from .checks import (check_column_order, check_magnitude, non_text_labels, refuse_panel_columns_only,
                     warn_empty_cells)
from .counts import NORMALIZATIONS, NormalizedCounts, normalize_columns
from .genes import column_labels, gene_names_of, gene_sets
from .screen import class_means

__all__ = ["MarkerPanel"]

#: Fewest cells of a type: two to place its centre, one held out to score the panel.
MIN_CELLS_PER_TYPE = 3


class MarkerPanel(ClassifierMixin, SelectorMixin, BaseEstimator):
    """A gene panel of at most ``n_markers`` genes that identifies every cell type.

    Built in three steps (guide: *Marker panels*):

    1. **Screen.** Per cell type, the one-vs-rest Welch t of every gene on the
       normalised data (:mod:`sfmlearn.panels.screen`); the ``n_screen`` genes of
       largest |t| go on to the SFM.
    2. **Candidates.** Per cell type two lists (:mod:`sfmlearn.panels.candidates`):
       the genes that enter the class-balanced soft-SFM path (Klement, Anders &
       Martinetz, *Neural Comput.* 25:1548, 2013, eq. 2.9-2.10) on a class-balanced
       subsample of at most ``2 max_cells`` cells, in the order of the C at which they
       enter the support (:mod:`sfmlearn.panels.ranking`; types run in parallel with
       joblib), and the ``n_screen`` genes of largest Welch t (up-regulated first).
    3. **Allocate.** The budget is shared greedily: each step adds the candidate (the
       next genes of every list) that most raises a held-out score of the
       nearest-centroid rule on the panel, its balanced accuracy smoothed over the
       cells' margins (:mod:`sfmlearn.panels.allocate`), averaged over a stratified
       ``cv``-fold split of the training cells (centres from the other folds). With
       ``coarse`` labels the score averages the fine and the coarse level.

    ``predict`` assigns a cell to the nearest class centre (Euclidean, normalised values
    of the panel genes; Tibshirani et al., *PNAS* 99:6567, 2002, without shrinkage):
    ``argmin_k sum_{g in panel} (z_g - c_kg)^2``, centres from all training cells.
    ``predict_proba`` gives P(k | z) = exp(-a d_k(z)) / sum_j exp(-a d_j(z)) for the
    squared distances d_k (the class probabilities of Tibshirani et al. with equal
    priors, a = 1 / (2 sigma^2)); a is fitted on the training cells
    (:func:`fit_distance_scale`), and the most probable type is the predicted one.

    ``predict``, ``predict_proba``, ``decision_function`` and ``transform`` take cells
    with all the genes of ``fit``, not the panel genes alone: under "log1p" a cell's
    library size is summed over all its genes. For cells measured on the panel genes
    only (a targeted assay), fit a second panel on those columns, e.g.
    ``MarkerPanel(k, include=range(k)).fit(X[:, panel.panel_], y)``; its library
    sizes are over the panel genes. Cells given with the panel's columns alone are
    refused with that advice, and so is a DataFrame whose columns are not those of fit in
    the same order. Cells without any count (all-zero rows) get a :class:`UserWarning`
    under "log1p", in ``fit`` and when classified: normalised, they hold no information.

    Parameters
    ----------
    n_markers : int, default=50
        The budget: the panel has exactly this many genes (``include`` counted), the best
        the method finds. Below the number of cell types a :class:`UserWarning` says that
        some types have no gene of their own.
    normalize : {"log1p", "none"}, default="log1p"
        "log1p": X holds raw counts (non-negative integers, checked), normalised as
        log(1 + target_sum x_ig / sum_g x_ig); "none": X is used as given.
    target_sum : float, default=1e4
    include : sequence of int or str, default=()
        Genes on the panel whatever the data say: column indices, or names (``gene_names``
        or a DataFrame's column labels). When the names are not text (a DataFrame with
        integer column labels, integer ``gene_names``), every entry is a name, never a
        position. A gene given twice is used once (UserWarning).
    exclude : sequence of int or str, default=()
        Genes that cannot be probed; never chosen. Read as ``include``.
    n_screen : int, default=100
        Genes per type passed from the screen to the SFM, and the length of its Welch-t
        list.
    max_cells : int, default=200
        Cells of the type (and as many others, spread over the other types) per SFM
        problem, and cells per type in the inner cross-validation.
    n_Cs : int, default=8
        Points of each type's softness path.
    cv : int, default=3
        Folds of the inner cross-validation that scores the allocation; every cell
        type needs at least ``max(cv, 3)`` cells.
    lookahead : int, default=5
        Genes of every list offered at each greedy step.
    n_jobs : int or None, default=None
        Parallel per-type SFM problems (joblib; -1: all cores; 0 is refused).
    random_state : int, RandomState or None

    Attributes
    ----------
    panel_ : ndarray of int
        Column indices of the panel genes, in the order they were added.
    genes_ : ndarray of str
        Their names as text: ``gene_names``, else the DataFrame's column labels, else
        ``"<index>"``.
    markers_ : pandas.DataFrame
        One row per panel gene: ``gene``, ``cell_type`` (of the types whose SFM lists
        offered it, the one of largest |t|; for the other genes the type of largest
        |t|), ``weight`` (SFM weight at entry in that type's path, scaled data; 0 when
        the gene is not on the path), ``direction`` ("up"/"down": sign of the type's mean
        minus the other cells' mean; "-" when t = 0), ``t`` (Welch t), ``level``
        ("fine"/"coarse"/"include") and ``source``: why the gene is on the panel,
        "sfm" (the type's SFM path selected it: weight != 0), "ranking" (offered by the
        type's Welch-t ranking only) or "include".
    classes_ : ndarray
    centroids_ : ndarray of shape (n_classes, n_markers)
    coarse_classes_ : ndarray or None
    coarse_of_ : ndarray or None
        The coarse type of every class in ``classes_`` (fitted with ``coarse``).
    validation_scores_ : ndarray
        Held-out score after each greedy addition.
    probability_scale_ : float
        The a of ``predict_proba``, fitted on the training cells, which the centres
        saw: the probabilities are overconfident there. For held-out calibration use
        ``sklearn.calibration.CalibratedClassifierCV(panel, cv=5)``.
    n_features_in_, feature_names_in_
    column_labels_ : ndarray of object or None
        The DataFrame column labels of ``fit`` when they are not all text (e.g. integer
        gene ids, which scikit-learn does not record in ``feature_names_in_``), else
        None. A DataFrame given to ``predict``/``transform`` must have these columns
        in this order.

    Examples
    --------
    >>> from sfmlearn.panels import MarkerPanel, make_cell_counts
    >>> X, y, planted = make_cell_counts(600, 400, n_types=4, n_markers_per_type=3,
    ...                                  random_state=0)
    >>> panel = MarkerPanel(n_markers=8, random_state=0).fit(X, y)
    >>> len(panel.panel_), panel.score(X, y) > 0.9
    (8, True)
    """

    _parameter_constraints = {
        "n_markers": [Interval(numbers.Integral, 1, None, closed="left")],
        "normalize": [StrOptions(set(NORMALIZATIONS))],
        "target_sum": [Interval(numbers.Real, 0, None, closed="neither")],
        "include": ["array-like"],
        "exclude": ["array-like"],
        "n_screen": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_cells": [Interval(numbers.Integral, 2, None, closed="left")],
        "n_Cs": [Interval(numbers.Integral, 2, None, closed="left")],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "lookahead": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_jobs": N_JOBS,
        "random_state": ["random_state"],
    }

    def __init__(self, n_markers=50, *, normalize="log1p", target_sum=1e4, include=(),
                 exclude=(), n_screen=100, max_cells=200, n_Cs=8, cv=3, lookahead=5,
                 n_jobs=None, random_state=None):
        set_parameters(self, locals())

    # -- fit ----------------------------------------------------------------------
    def fit(self, X, y, *, coarse=None, gene_names=None):
        """Choose the panel on cells X (cells x genes) of types y.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_cells, n_genes)
        y : array-like of shape (n_cells,), the (fine) cell type of every cell
        coarse : array-like of shape (n_cells,), optional
            A coarser label of every cell (e.g. Zeisel's 7 classes over 47 subclasses);
            every cell type lies in one coarse type.
        gene_names : array-like of str, optional
            Gene names for ``include``/``exclude``/``genes_`` (instead of a DataFrame's
            column labels), in the order of the columns; repeated names are refused.

        A fit that raises leaves the panel unfitted, not half updated.
        """
        try:
            return self._fit(X, y, coarse, gene_names)
        except Exception:
            forget_fit(self)  # unfitted, not the last fit's centres beside the new data's classes
            raise

    def _fit(self, X, y, coarse, gene_names):
        """:meth:`fit`'s work."""
        self._validate_params()
        _check_counts_and_folds(self)
        labels = column_labels(X)
        self.column_labels_ = non_text_labels(labels)
        X, y = check_xy(self, X, check_labels(y), accept_sparse=("csr", "csc"))
        names = gene_names_of(gene_names, labels, X.shape[1])
        Z = _values_to_rank(X, self.normalize, self.target_sum)
        self.classes_, codes = np.unique(y, return_inverse=True)
        _check_types(self, codes)
        levels_codes = [codes]
        self.coarse_classes_ = self.coarse_of_ = None
        if coarse is not None:
            self.coarse_classes_, coarse_codes, self.coarse_of_ = _coarse_levels(coarse, codes, self.classes_)
            levels_codes.append(coarse_codes)
        include, allowed = gene_sets(Z, names, self.include, self.exclude, self.n_markers)
        rng = check_random_state(self.random_state)
        candidates = [rank_candidates(
            Z, level_codes, level_codes.max() + 1, allowed, n_screen=self.n_screen,
            max_cells=self.max_cells, n_Cs=self.n_Cs, n_jobs=self.n_jobs, rng=rng)
            for level_codes in levels_codes]
        lists = [(level, *entry) for level, found in enumerate(candidates) for entry in found.lists()]
        panel, owner = self._allocate(Z, levels_codes, [genes for *_, genes in lists], include, rng)
        self.panel_ = np.asarray(panel, dtype=int)
        self.genes_ = names.text[self.panel_]
        self.markers_ = marker_table(self.panel_, self.genes_, owner, lists, candidates,
                                     [self.classes_, self.coarse_classes_])
        panel_values = (Z.columns(self.panel_) if self.normalize != "none"
                        else normalize_columns(X, self.panel_, "none"))  # the library sizes of the fit
        self.centroids_ = class_means(panel_values, codes, self.classes_.size)
        self.probability_scale_ = fit_distance_scale(
            _squared_distances(panel_values, self.centroids_), codes)
        return self

    def _allocate(self, Z, levels_codes, lists, include, rng):
        """Greedy allocation on held-out cells (columns: the union of the candidate lists)."""
        candidates = np.unique(np.concatenate([include, *lists]).astype(int))
        position = {g: i for i, g in enumerate(candidates)}
        cells = _capped(levels_codes[0], self.max_cells, rng)
        folds = StratifiedKFold(self.cv, shuffle=True, random_state=rng.randint(2**31))
        values = _columns(Z[cells], candidates)
        fine = levels_codes[0][cells]
        groups = [np.unique(np.column_stack([levels_codes[0], c]), axis=0)[:, 1]
                  for c in levels_codes]
        levels = [Level(values[test], codes[cells][test],
                        class_means(values[train], fine[train], self.classes_.size), group)
                  for train, test in folds.split(values, fine)
                  for codes, group in zip(levels_codes, groups)]
        rankings = [np.array([position[g] for g in genes], dtype=int) for genes in lists]
        panel, owner, self.validation_scores_ = greedy_panel(
            levels, rankings, self.n_markers, [position[g] for g in include], self.lookahead)
        if len(panel) < self.n_markers:
            raise DataValidationError(
                f"only {len(panel)} candidate genes passed the screen for n_markers="
                f"{self.n_markers}; lower n_markers to at most {len(panel)}, or raise n_screen "
                f"(now {self.n_screen}).")
        return candidates[panel], owner

    # -- predict ------------------------------------------------------------------
    def _get_support_mask(self):
        check_is_fitted(self, "panel_")
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.panel_] = True
        return mask

    def _checked_cells(self, X):
        """X checked as cells with the genes of fit (predict and transform alike)."""
        check_is_fitted(self, "panel_")
        refuse_panel_columns_only(X, self.panel_.size, self.n_features_in_)
        checked = check_features(self, X, accept_sparse=("csr", "csc"))
        check_column_order(X, self.column_labels_)
        return checked

    def _panel_distances(self, X):
        """Squared distances of the checked cells X to every class centre on the panel."""
        X = self._checked_cells(X)
        if self.normalize == "none":
            values = normalize_columns(X, self.panel_, "none")
            check_magnitude(values, self.panel_.size)
        else:
            warn_empty_cells(X, "cells to classify", "their predicted types and probabilities say nothing "
                             "about them (an empty cell is nearest the type of least expression)", stacklevel=3)
            values = normalize_columns(X, self.panel_, self.normalize, target_sum=self.target_sum)
        return _squared_distances(values, self.centroids_)

    def transform(self, X):
        """The panel genes' columns of X (cells with all the genes of fit, checked as in
        :meth:`predict`); a numeric NumPy array keeps its dtype."""
        checked = self._checked_cells(X)
        numeric = isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "biuf"
        return self._transform(X if numeric else checked)

    def decision_function(self, X):
        """Minus the squared distance of every cell to every class centre on the panel.

        For two classes, as in scikit-learn, one column: d(x, c_0) - d(x, c_1), positive
        for ``classes_[1]``.
        """
        distances = self._panel_distances(X)
        if distances.shape[1] == 2:
            return distances[:, 0] - distances[:, 1]
        return -distances

    def predict(self, X):
        """The cell type of the nearest class centre on the panel genes."""
        nearest = np.argmin(self._panel_distances(X), axis=1)
        return self.classes_[nearest]

    def predict_log_proba(self, X):
        """Log of :meth:`predict_proba`."""
        distances = self._panel_distances(X)  # checks the fit first
        return log_softmax(-self.probability_scale_ * distances, axis=1)

    def predict_proba(self, X):
        """P(cell type | x) = exp(-a d_k(x)) / sum_j exp(-a d_j(x)), columns in
        ``classes_`` order (see the class docstring and ``probability_scale_``)."""
        distances = self._panel_distances(X)  # checks the fit first
        return softmax(-self.probability_scale_ * distances, axis=1)

    def predict_coarse(self, X):
        """The coarse type of the predicted cell type (fitted with ``coarse``)."""
        check_is_fitted(self, "panel_")
        if self.coarse_of_ is None:
            raise DataValidationError("predict_coarse needs a panel fitted with coarse labels: "
                             "fit(X, y, coarse=...).")
        return self.coarse_of_[np.argmin(self._panel_distances(X), axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


def _check_types(panel, codes):
    """Refuse labels a panel cannot separate; warn when the budget is below the types."""
    if type_of_target(panel.classes_[codes]) == "continuous":
        raise DataValidationError(
            "y looks continuous (real-valued); a panel needs cell-type labels. Pass "
            "one label per cell.")
    if panel.classes_.size < 2:
        raise DataValidationError(
            f"y holds one class ({str(panel.classes_[0])!r}); a panel separates at least two "
            "cell types.")
    fewest = max(MIN_CELLS_PER_TYPE, panel.cv)
    if codes.size < fewest * 2:
        raise DataValidationError(
            f"n_samples={codes.size} cells is too few: every cell type needs "
            f"{fewest} cells or more.")
    small = panel.classes_[np.bincount(codes) < fewest]
    if small.size:
        raise DataValidationError(
            f"cell type(s) {small[:5].tolist()} have fewer than {fewest} cells (at least "
            f"3, and one per fold of cv={panel.cv}); drop them, merge them into a related "
            "type, or lower cv.")
    if panel.n_markers < panel.classes_.size:
        warnings.warn(
            f"n_markers={panel.n_markers} is below the {panel.classes_.size} cell types: "
            "some types get no gene of their own and are recognised only by the other "
            "types' genes. Raise n_markers to give every type a marker.", UserWarning,
            stacklevel=4)


def _coarse_levels(coarse, codes, classes):
    """(coarse classes, coarse code of every cell, coarse type of every class in ``classes``)
    of the coarse labels; each fine type (``codes``) must lie in one coarse type."""
    coarse_classes, coarse_codes = np.unique(check_labels(coarse, name="coarse"), return_inverse=True)
    if coarse_classes.size < 2:
        raise DataValidationError(
            f"coarse holds one class ({str(coarse_classes[0])!r}); give at least two "
            "coarse types or leave coarse out.")
    if coarse_codes.size != codes.size:
        raise DataValidationError(f"coarse has {coarse_codes.size} labels for "
                                  f"{codes.size} cells; give one per cell.")
    pairs = np.unique(np.column_stack([codes, coarse_codes]), axis=0)
    split = classes[np.bincount(pairs[:, 0]) > 1]
    if split.size:
        raise DataValidationError(
            f"cell type(s) {split[:5].tolist()} appear under several coarse types; "
            "coarse must group the fine types (one coarse label per fine type).")
    return coarse_classes, coarse_codes, coarse_classes[pairs[:, 1]]


def _values_to_rank(X, normalize, target_sum):
    """What a panel ranks: X as given under "none" (refused when its squares overflow), else
    its normalised counts (:class:`NormalizedCounts`; a warning for cells without counts)."""
    if normalize == "none":
        check_magnitude(X, max(X.shape))
        return X
    Z = NormalizedCounts(X, target_sum)  # checks the counts
    warn_empty_cells(X, "training cells", "normalised they are all zeros, the profile of no cell "
                     "type, and pull the class centres toward it", stacklevel=4)
    return Z


#: The parameters that are counts: a bool (True == 1 for Python) is refused.
_COUNTS = ("n_markers", "n_screen", "max_cells", "n_Cs", "cv", "lookahead", "n_jobs")


def _check_counts_and_folds(panel):
    """Refuse a bool where a count is expected, and ``max_cells`` below ``cv`` (the inner
    cross-validation takes at most ``max_cells`` cells of a type and needs one per fold)."""
    for name in _COUNTS:
        value = getattr(panel, name)
        if isinstance(value, (bool, np.bool_)):
            raise InvalidParameterError(f"The {name!r} parameter of MarkerPanel must be a whole "
                                        f"number, not a bool; got {value}.")
    if panel.max_cells < panel.cv:
        raise InvalidParameterError(
            f"max_cells={panel.max_cells} is below cv={panel.cv}: the inner cross-validation "
            "takes at most max_cells cells of every type and needs one in every fold; raise "
            "max_cells or lower cv.")


def fit_distance_scale(distances, codes):
    """The a >= 0 of P(k | x) = exp(-a d_k) / sum_j exp(-a d_j) fitted to labelled distances.

    Minimises the cross-entropy sum_i [log sum_k exp(-a d_ik) + a sum_k t_ik d_ik]
    against Platt's smoothed targets (Platt 1999, in *Advances in Large Margin
    Classifiers*, MIT Press): t_ik = (N_k + 1) / (N_k + 2) for the cell's own type k,
    the rest shared equally by the other types. For two types this is Platt's sigmoid
    of d_0 - d_1 through 1/2 at equal distances; the smoothing keeps a finite when the
    centres separate the training cells. The objective is convex in a; it is minimised
    over log a (bounded, 30 decades around 1 / the mean distance).

    Parameters
    ----------
    distances : ndarray of shape (n_cells, n_types)
        Squared distances d_ik of every cell to every type's centre.
    codes : ndarray of int of shape (n_cells,)
        The type of every cell (column index of ``distances``).
    """
    n, n_types = distances.shape
    counts = np.bincount(codes, minlength=n_types)
    own = (counts[codes] + 1.0) / (counts[codes] + 2.0)
    targets = np.repeat(((1.0 - own) / (n_types - 1))[:, None], n_types, axis=1)
    targets[np.arange(n), codes] = own

    def cross_entropy(log_a):
        z = -np.exp(log_a) * distances
        return float(np.sum(logsumexp(z, axis=1) - np.sum(targets * z, axis=1)))

    centre = -np.log(max(float(distances.mean()), np.finfo(float).tiny))
    reach = 15.0 * np.log(10.0)
    found = minimize_scalar(cross_entropy, bounds=(centre - reach, centre + reach),
                            method="bounded", options={"xatol": 1e-8})
    return float(np.exp(found.x))


def _squared_distances(values, centroids):
    """(n_cells, n_types) squared Euclidean distances of the rows to the centres, one
    centre at a time (a (cells, types, genes) temporary would be 1.6 GB for 10^5 cells,
    20 types and 100 genes)."""
    return np.stack([((values - centre) ** 2).sum(axis=1) for centre in centroids], axis=1)


def _columns(Z, columns):
    """Dense (n_cells, len(columns)) float array of the chosen columns."""
    block = Z[:, columns]
    return np.asarray(block.toarray() if sp.issparse(block) else block, dtype=float)


def _capped(codes, max_cells, rng):
    """Indices of at most ``max_cells`` random cells of every class, in order."""
    keep = [cells if cells.size <= max_cells else rng.choice(cells, max_cells, replace=False)
            for cells in (np.flatnonzero(codes == k) for k in np.unique(codes))]
    return np.sort(np.concatenate(keep))
