"""The fMRI analysis of NC 4 / thesis 6.3 on a sample matrix, in one call.

:func:`analyse` runs, on maps X (n_maps, n_voxels), two classes y and participants:

1. leave-one-participant-out decoding with the SFM (accuracy, selected voxels per fold)
   and, as the reference, a linear SVM on all voxels (NC 4.3, thesis 6.4.1);
2. an SFM and (``repetitive``) a repetitive SFM on all maps: the selected voxels,
   their weights and the ranking of all voxels;
3. the group paired t-map on per-participant class means (NC 4.2);
4. with ``repetitive``: the rSFM in every fold -- rankings, SFM test errors, and with
   ``informative_every`` the estimated fraction of informative voxels (NC 4.4) -- the
   overlap of the folds' top-q% sets with the t-map's (NC Table 3) and the consistency
   of the top-q% sets across folds (thesis Fig. 6.5);
5. optionally label permutations within participants (thesis Fig. 6.8) and SVMs on
   random voxel subsets (NC Fig. 3).

The command ``sfmlearn fmri`` writes all of it as NIfTI maps, figures and a JSON
summary; :mod:`sfmlearn.experiments.fmri_simulation` compares it with a known truth.
"""

from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ..selection import RepetitiveSFM, SupportFeatureMachine
from .._validation import check_count
from ._checks import check_both_classes_per_group, check_grouped_problem, check_repetitive_options
from ._docs import mvpa_doc
from .consistency import consistency_map
from .decoding import decode
from .overlap import QUANTILES, check_quantiles, overlap_with_tmap
from .permutation import permuted_decoding
from .random_subsets import random_subset_svm
from .repetitive import repetitive_decoding
from .univariate import paired_t_map

__all__ = ["FMRIAnalysis", "analyse", "reference_svm"]


def reference_svm():
    """The all-voxel baseline: a linear SVM (C = 1) on standardised voxels.

    When the training maps are separable and every dual variable of the hard-margin SVM
    is below C = 1 -- typical for thousands of standardised voxels, whose squared norms
    are in the thousands -- this is the hard-margin SVM of the papers' comparisons;
    otherwise (few voxels, overlapping classes) it is a soft SVM.

    Returns
    -------
    sklearn.pipeline.Pipeline
        ``StandardScaler`` then ``SVC(kernel="linear", C=1)``, unfitted.

    Examples
    --------
    >>> from sfmlearn.mvpa import reference_svm
    >>> [name for name, _ in reference_svm().steps]
    ['standardscaler', 'svc']
    """
    return make_pipeline(StandardScaler(), SVC(kernel="linear", C=1.0))


@mvpa_doc
@dataclass
class FMRIAnalysis:
    """Everything :func:`analyse` computed (None where a step was not requested).

    Parameters
    ----------
    classes : ndarray of shape (2,)
        The two conditions.
    n_maps, n_voxels, n_groups : int
        Size of the data.
    decoding : Decoding
        Leave-one-group-out decoding with the estimator.
    svm : Decoding
        The same with the all-voxel :func:`reference_svm`.
    sfm : estimator
        The estimator fitted on all maps.
    tmap : TMap
        The group t-map.
    rsfm : RepetitiveSFM, optional
        The repetitive SFM on all maps.
    repetitive : RepetitiveDecoding, optional
        The rSFM in every fold (with the informative-fraction estimate).
    overlap : pandas.DataFrame, optional
        NC Table 3: overlap of the rSFM rankings with the t-map.
    consistency : dict
        Consistency maps (fraction of folds) per top-q %.
    permutations : PermutationDecoding, optional
        Decoding on within-group permuted labels.
    random_subsets : pandas.DataFrame, optional
        The random-subset SVM baseline.

    Examples
    --------
    %(toy_analysis)s
    >>> analysis.n_maps, analysis.n_voxels, analysis.n_groups, analysis.rsfm is None
    (24, 50, 6, True)
    """

    classes: np.ndarray
    n_maps: int
    n_voxels: int
    n_groups: int
    decoding: object
    svm: object
    sfm: object
    tmap: object
    rsfm: object = None
    repetitive: object = None
    overlap: object = None
    consistency: dict = field(default_factory=dict)
    permutations: object = None
    random_subsets: object = None


@mvpa_doc
def analyse(X, y, groups, *, estimator=None, repetitive=True, informative_every=10,
            max_repetitions=None, quantiles=QUANTILES, n_permutations=0,
            random_subset_repeats=0, random_state=0, n_jobs=None, verbose=0, progress=None):
    """Run the NC 4 / thesis 6.3 analysis (see the module docstring).

    Every option is checked before the first fit, so a bad one fails at once, not after
    the decoding. A sparse X is converted to a dense array (maps are dense by nature).

    Parameters
    ----------
    X, y, groups
        Maps (n_maps, n_voxels), two classes, participant (or run) per map.
    estimator : binary selector, default=SupportFeatureMachine()
    repetitive : bool, default=True
        Run the repetitive SFM (on all maps and in every fold).
    informative_every : int or None, default=10
        With ``repetitive``: estimate the informative fraction, evaluating the SVM after
        every k-th repetition (NC: 10); None skips the estimate.
    max_repetitions : int or None
        Cap on the repetitions of every rSFM run.
    quantiles : sequence of float
        Top-q% thresholds (NC Table 3).
    n_permutations : int or None
        Label permutations within participants (0 or None: none; thesis: 20).
    random_subset_repeats : int or None
        Random subsets per size for the random-subset SVM (0 or None: none; NC: 1000).
    random_state, n_jobs, verbose
    progress : callable(stage, done, total), optional
        Stages: "decoding", "rSFM", "SVM", "permutations", "random subsets".

    Returns
    -------
    FMRIAnalysis

    Examples
    --------
    %(toy_analysis)s
    >>> round(float(analysis.decoding.folds["accuracy"].mean()), 3)
    0.917
    """
    quantiles, n_permutations, random_subset_repeats = _check_options(
        estimator if repetitive else None, max_repetitions, informative_every, quantiles, n_permutations,
        random_subset_repeats)
    X, labels, classes, groups = check_grouped_problem(X, y, groups)
    check_both_classes_per_group(labels, classes, groups)  # for the t-map, before any fit
    estimator = SupportFeatureMachine() if estimator is None else estimator
    report = progress or (lambda stage, done, total: None)

    n_groups = np.unique(groups).size
    report("decoding", 0, n_groups)
    decoding = decode(X, labels, groups, estimator, n_jobs=n_jobs,
                      progress=_counter(report, "decoding", n_groups))
    svm = decode(X, labels, groups, reference_svm(), n_jobs=n_jobs)
    sfm = clone(estimator).fit(X, labels)
    tmap = paired_t_map(X, labels, groups)
    analysis = FMRIAnalysis(classes=classes, n_maps=X.shape[0], n_voxels=X.shape[1],
                            n_groups=n_groups, decoding=decoding, svm=svm, sfm=sfm, tmap=tmap)
    if repetitive:
        analysis.rsfm = RepetitiveSFM(clone(estimator), max_repetitions=max_repetitions,
                                      random_state=random_state).fit(X, labels, groups)
        analysis.repetitive = repetitive_decoding(
            X, labels, groups, estimator=estimator, max_repetitions=max_repetitions,
            informative_every=informative_every, random_state=random_state, n_jobs=n_jobs,
            verbose=verbose, progress=report)
        rankings = analysis.repetitive.rankings
        analysis.overlap = overlap_with_tmap(rankings, tmap.t, tmap.p, quantiles)
        analysis.consistency = {q: consistency_map(rankings, q) for q in quantiles}
    if n_permutations:
        report("permutations", 0, n_permutations)
        analysis.permutations = permuted_decoding(
            X, labels, groups, estimator, n_permutations=n_permutations,
            random_state=random_state, n_jobs=n_jobs,
            progress=lambda done, total: report("permutations", done, total))
    if random_subset_repeats:
        analysis.random_subsets = random_subset_svm(
            X, labels, groups, n_repeats=random_subset_repeats, random_state=random_state,
            n_jobs=n_jobs, progress=lambda done, total: report("random subsets", done, total))
    return analysis


def _check_options(rsfm_base, max_repetitions, informative_every, quantiles, n_permutations,
                   random_subset_repeats):
    """Every option of :func:`analyse` checked before the first fit (the steps that use them
    run last): (quantiles, n_permutations, random_subset_repeats). ``rsfm_base`` is the
    estimator when the repetitive SFM runs on it (None otherwise: any selector-classifier
    decodes)."""
    check_repetitive_options("analyse", estimator=rsfm_base, max_repetitions=max_repetitions,
                             informative_every=informative_every)
    return (check_quantiles(quantiles), _repeats("n_permutations", n_permutations),
            _repeats("random_subset_repeats", random_subset_repeats))


def _repeats(name, value):
    """A number of repeats of an optional step: a whole number >= 0, None meaning 0 (none)."""
    return 0 if value is None else check_count(name, value, 0)


def _counter(report, stage, total):
    done = [0]

    def tick():
        done[0] += 1
        report(stage, done[0], total)
    return tick
