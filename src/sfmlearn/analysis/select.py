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

from ..exceptions import DataValidationError
from ..preprocessing import first_duplicates
from ..selection import StabilitySelection, SupportFeatureMachine, WestonZeroNormSVM
from ..selection.sfm.stability import path_estimator
from ..utils.time_limit import time_limit
from .data import SelectorResult, annotate
from .result import not_in_json
from .duration import check_duration, estimate_duration
from .selectors import (check_choice_folds, count_folds, cross_validate, make_selector, silent, softness_summary,
                        timed_fit)

__all__ = ["SelectResult", "identical_columns", "run_select", "score_test_split", "stability_summary",
           "unstable_features"]

#: Features of largest selection frequency listed in a stability selection's summary.
STABILITY_SHOWN = 20
#: How a stability selection's summary names the path it fitted.
PATH_NAMES = {"SupportFeatureMachine": "the soft SFM path", "WestonZeroNormSVM": "Weston's zero-norm SVM path"}


@dataclass
class SelectResult(SelectorResult):
    """What :func:`run_select` found; :meth:`to_dict` is ``sfmlearn select --json``.

    ``selected`` lists the selected features (index, name, weight on the scaled features,
    annotations), largest |weight| first; ``cv`` (folds, grouped, accuracy_mean,
    accuracy_std, accuracy, n_selected, selected_per_fold), ``chance``
    (:meth:`ChanceReport.to_dict <sfmlearn.diagnostics.ChanceReport.to_dict>`) with
    ``chance_verdict``, ``C_auto`` (the cross-validated choice of C, with ``selections``:
    its table's rows grouped by the feature set the full-data fit selects at them),
    ``stability`` (:func:`stability_summary`, with ``constant_prediction``, the class
    predicted for every sample, when no feature is stable, and ``identical_columns``; the
    ``selected`` rows then carry their ``frequency``) and ``test_accuracy`` with ``n_test``
    are present when computed.
    ``estimator`` is the fitted selector (not in the JSON).

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
    scaled : bool, optional
        Whether the selector scaled the features (``scale``): the weights then refer to
        the scaled features, else to the features as given (absent: scaled).
    weakly_separated : bool, optional
        True when a hard fit classifies some training samples wrongly: its selected
        features leave them on its zero-margin hyperplane, although more features
        separate the data strictly (a soft C or Weston's zero-norm SVM avoids it).
    C_auto, cv, chance, chance_verdict, test_accuracy, n_test : optional
        The choice of C (``C="auto"``), the cross-validation, the chance check and its
        verdict, the accuracy on the independent test split and its size.
    stability : dict, optional
        With ``stability``: the stability selection's threshold, half-sample fits,
        mean selected per half, bound on false selections and most frequent features
        (:func:`stability_summary`); ``identical_columns``: the groups of exactly equal
        columns that hold a stable or most frequent feature (one list of ``index``,
        ``name``, ``frequency`` per group), whose halves' selections are split between
        the copies (:func:`identical_columns`).
    test_class_counts, test_confusion_matrix, test_per_class : optional
        The test split's samples per class; its confusion matrix (rows: true class,
        columns: predicted class, both in the order of ``classes``); per class (one
        against the rest) its samples, sensitivity (recall) and specificity.
    test_positive_class, test_sensitivity, test_specificity : optional
        With two classes: the positive class (the second of the sorted classes, whose
        weights are positive) and its sensitivity and specificity.
    test_misclassified : list of dict, optional
        The misclassified test samples: ``id`` (text: the sample's id when the test split
        carries them, else ``#`` and its 1-based position in the split), ``class`` (true)
        and ``predicted``.
    unstable_features : list of dict, optional
        With cross-validation: the selected features that fewer than half of the outer
        folds' refits (the folds of the estimate in ``cv``, whose ``selected_per_fold``
        lists what each refit selected) selected: ``index``, ``name``, ``folds_selected``
        and ``folds``.
    seconds : float
        The whole analysis' time.
    estimator : SupportFeatureMachine, WestonZeroNormSVM or StabilitySelection, optional
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

    OPTIONAL = frozenset({"scaled", "weakly_separated", "C_auto", "stability", "cv", "chance", "chance_verdict", "test_accuracy", "n_test",
                          "test_class_counts", "test_confusion_matrix", "test_per_class", "test_positive_class",
                          "test_sensitivity", "test_specificity", "test_misclassified", "unstable_features"})

    selected: list[dict]
    n_selected: int
    train_accuracy: float
    fit_seconds: float
    C_auto: dict | None = None
    stability: dict | None = None
    cv: dict | None = None
    chance: dict | None = None
    chance_verdict: str | None = None
    test_accuracy: float | None = None
    n_test: int | None = None
    test_class_counts: dict | None = None
    test_confusion_matrix: list[list[int]] | None = None
    test_per_class: list[dict] | None = None
    test_positive_class: str | None = None
    test_sensitivity: float | None = None
    test_specificity: float | None = None
    test_misclassified: list[dict] | None = None
    unstable_features: list[dict] | None = None
    scaled: bool | None = None
    weakly_separated: bool | None = None
    seconds: float | None = None
    estimator: SupportFeatureMachine | WestonZeroNormSVM | StabilitySelection | None = not_in_json()


def run_select(data, *, method="sfm", C=None, class_weight=None, select=None, stability=None, scale=True, cv=5,
               random_state=0, n_permutations=0, chance_bound=False, n_jobs=1, max_seconds=None, progress=silent):
    """Select features of ``data`` and evaluate them.

    Parameters
    ----------
    data : TrainingData
        Two-class training data (:func:`load_dataset`, :func:`read_training_file`); its
        ``test`` split is ``(X_test, y_test)`` or ``(X_test, y_test, sample_ids)``.
    method : {"sfm", "weston"}
        The SFM or Weston's zero-norm SVM (l1-AROM).
    C : float, "auto" or None
        Softness; None for the hard method (needs separable classes); "auto" chooses it
        by cross-validation over the data-adaptive path (``select``: "best" or "1se").
    class_weight : {"balanced", "none"} or None
        Balanced: C+ n+ = C- n- (thesis 3.2); "none": one C for every sample; None: the
        selector's default (balanced for the SFM with ``C="auto"``, unweighted otherwise).
    stability : float or None
        Select the features that the soft path of ``method`` selects on at least this
        fraction of half-samples (:class:`~sfmlearn.StabilitySelection`, threshold pi,
        with its bound on the expected false selections); ``C`` is then not used, and
        ``class_weight`` None means balanced classes.
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
        Parallel permutations and, with ``stability``, half-sample fits (joblib).
    max_seconds : float or None
        Refuse, before any fit, a run estimated to take longer
        (:func:`~sfmlearn.analysis.duration.check_duration`: the fit, the folds' refits and
        the permutations' refits, timed on subsamples), and end a run that passes it
        (:class:`~sfmlearn.utils.time_limit.TimeLimitError`). None: no limit, nothing timed.
    progress : callable
        ``progress(stage, done, total)``, called as every stage starts and advances.

    Returns
    -------
    SelectResult

    Raises
    ------
    UnseparatedFit
        A hard method on classes that are not linearly separable.
    DurationLimitError
        The estimated duration exceeds ``max_seconds``.
    TimeLimitError
        The run passed ``max_seconds`` (its message says how far it got).

    Examples
    --------
    >>> from sfmlearn.analysis import load_dataset, run_select
    >>> result = run_select(load_dataset("leukemia"), cv=0)
    >>> result.n_selected, [s["name"] for s in result.selected], result.n_test
    (2, ['U50136_rna1_at', 'X95735_at'], 34)
    """
    X, y, groups = data.X, data.y, data.groups
    estimator = make_selector(method, C, class_weight, select=select, random_state=random_state, scale=scale,
                              stability=stability, n_jobs=n_jobs)
    started = time.perf_counter()
    if C == "auto" and stability is None:
        check_choice_folds(X, y, groups, cv, random_state)
    if n_permutations and groups is not None:  # refused now, not after the fit and the folds
        from ..diagnostics import check_permutable_groups

        check_permutable_groups(y, groups)
    if max_seconds is not None:
        fits = 1 + (count_folds(cv, y, groups, random_state) if cv else 0) + n_permutations
        estimate = estimate_duration(estimator, X, y, fits, groups=groups, max_seconds=max_seconds, progress=progress,
                                     random_state=random_state)
        check_duration(estimate, max_seconds, ["a fixed C"] * (C == "auto" and stability is None)
                       + ["fewer folds (cv) or none"] * bool(cv) + ["fewer n_permutations"] * bool(n_permutations))
    with time_limit(max_seconds):
        fit_seconds = timed_fit(estimator, data, progress, f"fitting {type(estimator).__name__}")
        chosen = np.flatnonzero(estimator.support_)
        order = chosen[np.argsort(-np.abs(estimator.scaled_coef_[chosen]))]
        weighted = estimator.estimator if stability is not None else estimator
        result = SelectResult(
            **SelectResult.describe_selector(data, estimator, estimator.C_ if C == "auto" else C,  # float or None
                                             weighted.class_weight),
            selected=annotate([{"index": int(j), "name": str(data.feature_names[j]),
                                "weight": float(estimator.scaled_coef_[j])} for j in order], data.annotations),
            n_selected=int(chosen.size), train_accuracy=float(estimator.score(X, y)), fit_seconds=fit_seconds,
            scaled=scale, estimator=estimator)
        if C is None and stability is None and result.train_accuracy < 1:
            result.weakly_separated = True  # samples on the zero-margin hyperplane (_placement.check_strict_separation)
        if stability is not None:
            for row in result.selected:
                row["frequency"] = float(estimator.selection_frequency_[row["index"]])
            result.stability = stability_summary(estimator, data.feature_names)
            frequency = estimator.selection_frequency_
            shown = [row["index"] for row in result.stability["most_frequent"]]
            candidates = list(dict.fromkeys(shown + sorted(chosen.tolist(), key=lambda j: -frequency[j])))
            result.stability["identical_columns"] = [
                [{"index": int(j), "name": str(data.feature_names[j]), "frequency": float(frequency[j])} for j in group]
                for group in identical_columns(X, candidates)]
            if not chosen.size:  # no stable feature: one class for every sample
                result.stability["constant_prediction"] = str(estimator.predict(X[:1])[0])
        if C == "auto":
            progress("full-data path of the choice of C", 0, None)
            result.C_auto = softness_summary(estimator, data.feature_names, data.annotations, X=X, y=y,
                                             grouped=groups is not None)
        if cv:
            try:
                result.cv = cross_validate(estimator, X, y, groups, cv, random_state, progress,
                                           feature_names=data.feature_names)
            except DataValidationError as exc:  # the halves of a training fold, not of the data
                if stability is None:
                    raise
                raise DataValidationError(f"In a training fold of the {cv}-fold cross-validation: {exc} Fewer folds, "
                                          "or none (cv=0), avoid it.") from exc
            result.unstable_features = unstable_features(result.selected, result.cv["selected_per_fold"])
        if n_permutations or chance_bound:
            from ..diagnostics import chance_report, format_verdict  # sklearn.neighbors and scipy.stats: when asked

            what = f"{n_permutations} permutations" if n_permutations else "bound for the report"
            progress(f"chance report ({what})", 0, None)
            report = chance_report(X, y, groups=groups, n_permutations=n_permutations, random_state=random_state,
                                   n_jobs=n_jobs, fitted=estimator)
            result.chance, result.chance_verdict = report.to_dict(), format_verdict(report)
        if data.test is not None:
            X_test, y_test = data.test[:2]
            y_test = np.asarray(y_test)
            result.test_accuracy = float(estimator.score(X_test, y_test))
            result.n_test = int(len(y_test))
            ids = data.test[2] if len(data.test) > 2 else [f"#{i + 1}" for i in range(len(y_test))]
            for key, value in score_test_split(y_test, estimator.predict(X_test), result.classes, ids).items():
                setattr(result, key, value)
    result.seconds = time.perf_counter() - started
    return result


def stability_summary(fitted, feature_names, shown=STABILITY_SHOWN):
    """What a fitted :class:`~sfmlearn.StabilitySelection` says beyond its stable set:
    ``threshold`` pi, ``n_halves`` (half-sample fits of the path), ``mean_union_size``
    q (features selected per half), ``n_candidate_features`` p (non-constant),
    ``false_selection_bound`` q^2 / ((2 pi - 1) p) (Meinshausen & Buehlmann 2010,
    Theorem 1) and ``most_frequent``: the ``shown`` features of largest selection
    frequency (``index``, ``name``, ``frequency``; ties: the lower index), frequency > 0;
    ``path_estimator`` (the class whose soft path was fitted) and ``kind``, the method in
    words, e.g. "stability selection over the soft SFM path, pi 0.6".

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn import StabilitySelection
    >>> from sfmlearn.datasets import make_weston
    >>> X, y = make_weston(n_samples=40, n_noise=30, random_state=0)
    >>> fitted = StabilitySelection(n_pairs=5, random_state=0).fit(X, y)
    >>> summary = stability_summary(fitted, [f"g{j}" for j in range(X.shape[1])])
    >>> summary["n_halves"], summary["most_frequent"][0]["frequency"] >= summary["threshold"]
    (10, True)
    """
    frequency = fitted.selection_frequency_
    order = np.argsort(-frequency, kind="stable")[:shown]
    order = order[frequency[order] > 0]
    bound = fitted.false_selection_bound_
    base = type(path_estimator(fitted.estimator)).__name__
    path = PATH_NAMES.get(base, f"{base} path")
    return {"path_estimator": base, "kind": f"stability selection over {path}, pi {fitted.threshold:g}",
            "threshold": float(fitted.threshold), "n_halves": int(fitted.n_halves_),
            "mean_union_size": float(fitted.mean_union_size_),
            "n_candidate_features": int(fitted.n_candidate_features_),
            "false_selection_bound": float(bound) if np.isfinite(bound) else None,
            "most_frequent": [{"index": int(j), "name": str(feature_names[j]), "frequency": float(frequency[j])}
                              for j in order]}


def identical_columns(X, candidates):
    """The groups of exactly equal columns of ``X`` (dense or sparse) that hold one of the
    ``candidates`` (column indices): one sorted index array per group of two or more, in the
    order of their first candidate (:func:`~sfmlearn.preprocessing.first_duplicates`).

    Copies of one column share its selections: each sparse fit takes one copy or another,
    so a stability selection splits the copy's frequency between them (module docstring of
    :mod:`sfmlearn.selection.sfm.stability`).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 5.0]])
    >>> [group.tolist() for group in identical_columns(X, [0, 1])]
    [[0, 2]]
    """
    first = first_duplicates(X)
    groups = {}
    for j in candidates:
        same = np.flatnonzero(first == first[j])
        if same.size > 1:
            groups.setdefault(first[j], same)
    return list(groups.values())


def score_test_split(y_true, y_pred, classes, sample_ids):
    """What a clinician asks of a test split, as a :class:`SelectResult`'s ``test_*`` fields.

    The confusion matrix ``M[i, j]`` counts the samples of class ``classes[i]`` predicted
    as ``classes[j]``; per class ``c`` (one against the rest) the sensitivity is
    ``M[c, c] / sum_j M[c, j]`` (recall) and the specificity is the fraction of the other
    classes' samples not predicted as ``c``. With two classes the positive class is
    ``classes[1]``, the second of the sorted classes (the one positive weights favour).

    Examples
    --------
    >>> summary = score_test_split(["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "b"], ["s1", "s2", "s3", "s4"])
    >>> summary["test_confusion_matrix"], summary["test_sensitivity"], summary["test_specificity"]
    ([[1, 1], [0, 2]], 1.0, 0.5)
    >>> summary["test_misclassified"]
    [{'id': 's2', 'class': 'a', 'predicted': 'b'}]
    """
    y_true, y_pred = np.asarray(y_true).astype(str), np.asarray(y_pred).astype(str)
    classes = [str(c) for c in classes]
    matrix = np.array([[int(np.sum((y_true == t) & (y_pred == p))) for p in classes] for t in classes])
    total = matrix.sum()
    per_class = []
    for i, c in enumerate(classes):
        positives, called = matrix[i].sum(), matrix[:, i].sum()
        negatives = total - positives
        per_class.append({"class": c, "n": int(positives),
                          "sensitivity": float(matrix[i, i] / positives) if positives else None,
                          "specificity": float((negatives - (called - matrix[i, i])) / negatives)
                          if negatives else None})
    wrong = np.flatnonzero(y_true != y_pred)
    summary = {"test_class_counts": {c: int(n) for c, n in zip(classes, matrix.sum(axis=1))},
               "test_confusion_matrix": matrix.tolist(), "test_per_class": per_class,
               "test_misclassified": [{"id": str(sample_ids[i]), "class": str(y_true[i]), "predicted": str(y_pred[i])}
                                      for i in wrong]}
    if len(classes) == 2:
        summary.update(test_positive_class=classes[1], test_sensitivity=per_class[1]["sensitivity"],
                       test_specificity=per_class[1]["specificity"])
    return summary


def unstable_features(selected, selected_per_fold):
    """The ``selected`` features (rows with ``index`` and ``name``) that fewer than half of
    the cross-validation's refits selected (``selected_per_fold``: the names each fold's
    refit selected), with the number of folds that did.

    Examples
    --------
    >>> unstable_features([{"index": 4, "name": "g4"}, {"index": 9, "name": "g9"}],
    ...                   [["g4", "g9"], ["g4"], ["g4", "g1"]])
    [{'index': 9, 'name': 'g9', 'folds_selected': 1, 'folds': 3}]
    """
    folds = len(selected_per_fold)
    counts = [(row, sum(row["name"] in fold for fold in selected_per_fold)) for row in selected]
    return [{"index": row["index"], "name": row["name"], "folds_selected": k, "folds": folds}
            for row, k in counts if 2 * k < folds]
