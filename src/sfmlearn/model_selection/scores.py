"""Scores for small test sets: Hand & Till's AUC and an exact test of balanced accuracy."""

import numpy as np
from scipy.stats import binom, rankdata

from ..exceptions import DataValidationError

__all__ = ["balanced_accuracy_p_value", "hand_till_auc", "mean_recall"]


def mean_recall(y_true, y_pred):
    """Balanced accuracy: the mean over the classes in ``y_true`` of their recall.

    The value of ``balanced_accuracy_score``, without its warning for a test fold of one
    class (which group-wise folds can be), and without scikit-learn's input checks, which
    cost more than the count when hundreds of inner-fold fits are scored.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.

    Returns
    -------
    float
        The mean over the classes present in ``y_true`` of the fraction of their samples
        predicted as that class.

    Examples
    --------
    >>> from sfmlearn.model_selection import mean_recall
    >>> mean_recall(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    0.75
    >>> mean_recall(["a", "a"], ["a", "b"])   # a fold of one class: its recall
    0.5
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    return float(np.mean([np.mean(y_pred[y_true == label] == label) for label in np.unique(y_true)]))


def _binary_auc(positive, negative):
    """P(score of a random positive > score of a random negative), ties counting 1/2.

    The rank form of thesis 2.4 / Hand & Till (2001): with r_i the ranks (ties get their
    mean rank) of the n+ positives among all n+ + n- scores,
    AUC = (sum_i r_i - n+ (n+ + 1) / 2) / (n+ n-).
    """
    ranks = rankdata(np.r_[positive, negative])
    n_pos, n_neg = positive.size, negative.size
    return (ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def hand_till_auc(y_true, y_score, *, labels=None):
    """Area under the ROC curve; for more classes, Hand & Till's (2001) M.

    Binary: ``y_score`` is one score per sample, larger meaning ``labels[1]`` (the
    sorted second label, as in ``decision_function``); the result is the usual AUC.
    Multi-class: ``y_score`` has one column per label (any monotone scores, e.g. one-vs-
    rest decision values, need not sum to one) and

        M = 2 / (c (c - 1)) sum_{i < j} (A(i|j) + A(j|i)) / 2,

    where A(i|j) is the AUC of column i between the samples of classes i and j. With
    probabilities this equals ``roc_auc_score(multi_class="ovo")``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores (see above).
    labels : array-like, optional
        The classes in the order of the score columns (default: sorted ``y_true``).

    Returns
    -------
    float
        The AUC, or M for more than two classes.

    Examples
    --------
    >>> from sfmlearn.model_selection import hand_till_auc
    >>> float(hand_till_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))
    0.75
    """
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    if y_score.ndim == 0 or y_score.shape[0] != y_true.size:
        raise DataValidationError(
            f"y_score must hold one score (or row of scores) per label of y_true ({y_true.size}); "
            f"got shape {y_score.shape}.")
    if np.isnan(y_score).any():
        raise DataValidationError(
            f"y_score holds {int(np.isnan(y_score).sum())} NaN scores, which have no rank. Drop those "
            "samples from y_true and y_score, or score them.")
    labels = np.unique(y_true) if labels is None else np.asarray(labels)
    missing = [lab for lab in labels if not np.any(y_true == lab)]
    if missing or labels.size < 2:
        raise DataValidationError(
            f"AUC needs samples of every label; labels {missing or labels.tolist()} have none "
            "(too few test samples? pool the out-of-fold scores).")
    if y_score.ndim == 1:
        if labels.size != 2:
            raise DataValidationError(
                f"one score per sample defines a binary AUC, but there are {labels.size} labels; "
                "pass one score column per label.")
        return _binary_auc(y_score[y_true == labels[1]], y_score[y_true == labels[0]])
    if y_score.shape != (y_true.size, labels.size):
        raise DataValidationError(
            f"y_score has shape {y_score.shape}; expected ({y_true.size}, {labels.size}): "
            "one column per label.")
    pair_aucs = []
    for i in range(labels.size):
        for j in range(i + 1, labels.size):
            in_i, in_j = y_true == labels[i], y_true == labels[j]
            a_ij = _binary_auc(y_score[in_i, i], y_score[in_j, i])
            a_ji = _binary_auc(y_score[in_j, j], y_score[in_i, j])
            pair_aucs.append(0.5 * (a_ij + a_ji))
    return float(np.mean(pair_aucs))


def balanced_accuracy_p_value(y_true, y_pred):
    """One-sided p-value of a two-class balanced accuracy against guessing.

    Null hypothesis: the predictions are coin flips independent of the labels, so the
    numbers of correct predictions in the two classes are independent Binomial(n_k, 1/2).
    The p-value P(BA >= observed BA) is exact. Guessing with any other fixed rate q (e.g.
    always the same class) has the same mean BA of 1/2 and a smaller variance, so the
    p-value is conservative for every label-independent classifier.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (two classes).

    Returns
    -------
    float
        P(BA >= observed BA) under guessing.

    Examples
    --------
    >>> from sfmlearn.model_selection import balanced_accuracy_p_value
    >>> balanced_accuracy_p_value([0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1])   # (1/2)^6
    0.015625
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_pred.shape != y_true.shape:
        raise DataValidationError(
            f"y_pred must hold one prediction per label of y_true; got shapes {y_pred.shape} and {y_true.shape}.")
    labels = np.unique(y_true)
    if labels.size != 2:
        raise DataValidationError(f"the balanced-accuracy test needs two classes; got {labels.size}.")
    n1, n2 = (np.count_nonzero(y_true == lab) for lab in labels)
    c1 = np.count_nonzero((y_true == labels[0]) & (y_pred == labels[0]))
    c2 = np.count_nonzero((y_true == labels[1]) & (y_pred == labels[1]))
    observed = c1 / n1 + c2 / n2
    k1 = np.arange(n1 + 1)
    # Smallest c2 with k1/n1 + c2/n2 >= observed (a tolerance absorbs rounding).
    needed = np.ceil(n2 * (observed - k1 / n1) - 1e-9).clip(0, n2 + 1)
    return float(np.sum(binom.pmf(k1, n1, 0.5) * binom.sf(needed - 1, n2, 0.5)))
