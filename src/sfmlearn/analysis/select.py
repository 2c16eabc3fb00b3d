"""``select``: the fewest features that separate two classes, with CV, chance check and test score.

The selector (the SFM of NC 2013, 2.2-2.3, or Weston's zero-norm SVM) is fitted on all
training samples; its accuracy is estimated by k-fold cross-validation with the features
re-selected in every fold (so the estimate is not biased by the selection); the chance
check bounds the probability that random data of this shape are separable in that many
features (thesis eq. 2.3, P <= min(1, C(d, k) P_{k,n})) and, with permutations, tests
the subset size against label permutations.
"""

import time
from dataclasses import dataclass

import numpy as np

from ..selection import SupportFeatureMachine, WestonZeroNormSVM
from .data import SelectorResult, annotate
from .result import not_in_json
from .selectors import cross_validate, make_selector, silent, softness_summary, timed_fit

__all__ = ["SelectResult", "run_select"]


@dataclass
class SelectResult(SelectorResult):
    """What :func:`run_select` found; :meth:`to_dict` is ``sfmlearn select --json``.

    ``selected`` lists the selected features (index, name, weight on the scaled features,
    annotations), largest |weight| first; ``cv`` (folds, grouped, accuracy_mean,
    accuracy_std, accuracy, n_selected), ``chance`` (:meth:`ChanceReport.to_dict
    <sfmlearn.diagnostics.ChanceReport.to_dict>`) with ``chance_verdict``, ``C_auto``
    (the cross-validated choice of C) and ``test_accuracy`` with ``n_test`` are present
    when computed. ``estimator`` is the fitted selector (not in the JSON).

    Parameters
    ----------
    data, n_samples, n_features, classes, class_counts : str, int, int, list, dict
        The data: its name, shape, class labels and samples per class.
    method, C, class_weight : str, float or None, str or None
        The selector's class name, softness (None: hard) and class weights.
    selected, n_selected : list of dict, int
        The selected features, largest |weight| first, and how many.
    train_accuracy, fit_seconds : float, float
        Accuracy on the training data and the fit's time.
    C_auto, cv, chance, chance_verdict, test_accuracy, n_test : optional
        The choice of C (``C="auto"``), the cross-validation, the chance check and its
        verdict, the accuracy on the independent test split and its size.
    seconds : float
        The whole analysis' time.
    estimator : SupportFeatureMachine or WestonZeroNormSVM, optional
        The fitted selector.
    schema_version : int
        The version of the JSON (:class:`~sfmlearn.analysis.AnalysisResult`).

    Examples
    --------
    The hard SFM on the leukemia training data, without cross-validation; the first selected gene
    and the number of features the estimator saw:

    >>> from sfmlearn.analysis import load_dataset, run_select
    >>> result = run_select(load_dataset("leukemia"), cv=0)
    >>> result.to_dict()["selected"][0]["name"], result.estimator.n_features_in_
    ('U50136_rna1_at', 7129)
    """

    OPTIONAL = frozenset({"C_auto", "cv", "chance", "chance_verdict", "test_accuracy", "n_test"})

    selected: list[dict]
    n_selected: int
    train_accuracy: float
    fit_seconds: float
    C_auto: dict | None = None
    cv: dict | None = None
    chance: dict | None = None
    chance_verdict: str | None = None
    test_accuracy: float | None = None
    n_test: int | None = None
    seconds: float | None = None
    estimator: SupportFeatureMachine | WestonZeroNormSVM | None = not_in_json()


def run_select(data, *, method="sfm", C=None, class_weight=None, select=None, scale=True, cv=5,
               random_state=0, n_permutations=0, chance_bound=False, n_jobs=1, progress=silent):
    """Select features of ``data`` and evaluate them.

    Parameters
    ----------
    data : TrainingData
        Two-class training data (:func:`load_dataset`, :func:`read_training_file`).
    method : {"sfm", "weston"}
        The SFM or Weston's zero-norm SVM (l1-AROM).
    C : float, "auto" or None
        Softness; None for the hard method (needs separable classes); "auto" chooses it
        by cross-validation over the data-adaptive path (``select``: "best" or "1se").
    class_weight : {"balanced"} or None
        Balanced: C+ n+ = C- n- (thesis 3.2).
    scale : bool
        Standardise and scale the samples to mean norm 1 (thesis 3.5) before selecting.
    cv : int
        Folds of the cross-validation (0 skips it; groups stay within one fold).
    n_permutations : int
        Label permutations of the chance test (0: the bound only, if ``chance_bound``).
    chance_bound : bool
        Compute the chance check's bound even without permutations (for a report).
    select : {"best", "1se"}, optional
        With ``C="auto"``: the best mean CV score or the one-standard-error rule.
    random_state : int
        Seed of the folds and the permutations.
    n_jobs : int
        Parallel permutations (joblib).
    progress : callable
        ``progress(stage, done, total)``, called as every stage starts and advances.

    Returns
    -------
    SelectResult

    Raises
    ------
    UnseparatedFit
        A hard method on classes that are not linearly separable.

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset, run_select
    >>> result = run_select(load_dataset("leukemia"), cv=0)
    >>> result.n_selected, [s["name"] for s in result.selected], result.n_test
    (2, ['U50136_rna1_at', 'X95735_at'], 34)
    """
    X, y, groups = data.X, data.y, data.groups
    estimator = make_selector(method, C, class_weight, select=select, random_state=random_state, scale=scale)
    started = time.perf_counter()
    fit_seconds = timed_fit(estimator, data, progress, f"fitting {type(estimator).__name__}")
    chosen = np.flatnonzero(estimator.support_)
    order = chosen[np.argsort(-np.abs(estimator.scaled_coef_[chosen]))]
    result = SelectResult(
        **SelectResult.describe_selector(data, estimator, float(estimator.C_) if C == "auto" else C, class_weight),
        selected=annotate([{"index": int(j), "name": str(data.feature_names[j]),
                            "weight": float(estimator.scaled_coef_[j])} for j in order], data.annotations),
        n_selected=int(chosen.size), train_accuracy=float(estimator.score(X, y)), fit_seconds=fit_seconds,
        estimator=estimator)
    if C == "auto":
        result.C_auto = softness_summary(estimator, data.feature_names, data.annotations)
    if cv:
        result.cv = cross_validate(estimator, X, y, groups, cv, random_state, progress)
    if n_permutations or chance_bound:
        from ..diagnostics import chance_report, format_verdict  # sklearn.neighbors and scipy.stats: when asked

        what = f"{n_permutations} permutations" if n_permutations else "bound for the report"
        progress(f"chance report ({what})", 0, None)
        report = chance_report(X, y, estimator, groups=groups, n_permutations=n_permutations,
                               random_state=random_state, n_jobs=n_jobs)
        result.chance, result.chance_verdict = report.to_dict(), format_verdict(report)
    if data.test is not None:
        X_test, y_test = data.test
        result.test_accuracy = float(estimator.score(X_test, np.asarray(y_test)))
        result.n_test = int(len(y_test))
    result.seconds = time.perf_counter() - started
    return result
