"""The final hyperplane on the selected features: the ``refit`` step of a linear selector.

The reweighting loop decides *which* features; the hyperplane on them is placed
afterwards (``refit``), in the scaled space, by :func:`place_hyperplane`:

* ``"svm"``: the hard-margin linear SVM of the selected features (for a hard fit
  certified, which also proves strict separation), falling back to ``"center"`` when
  they do not separate the training data (soft fits);
* ``"center"``: the LP's direction with the bias in the middle of its widest gap with
  the fewest (class-weighted) training errors (:func:`best_threshold`);
* ``"logistic"``: L2-regularised logistic regression (C = 1) on the selected features
  standardised, with the fit's per-sample class weights (:func:`logistic_on_selected`): a
  soft margin that, unlike the hard SVM, does not follow the few training points
  nearest the boundary (in the soft SFM's automatic choice it gained on colon and lost
  on Haxby's face/house: ``benchmarks/bench_choice.py``, user guide, choosing C);
* None: the LP's own hyperplane; an estimator: cloned and fitted on the selected
  scaled features.

A hard fit's zero-margin rows are also met by points lying *on* the hyperplane, so
before anything but a certified SVM is returned the strict separation of the data is
checked (:func:`check_strict_separation`).
"""

import warnings

import numpy as np
from sklearn.base import clone

from ..exceptions import DataValidationError, NotSeparableError, SolverError
from ..lp.separability import inseparable_count, minimum_slack_hyperplane, strictly_separating_plane
from ..optim.hard_margin import hard_margin_svm
from ..optim.logistic import logistic_newton
from ..optim.svm import linear_svm

__all__ = ["best_threshold", "check_strict_separation", "logistic_on_selected", "place_hyperplane"]

#: Inverse L2 penalty of the ``"logistic"`` refit, on standardised selected features.
LOGISTIC_C = 1.0


def best_threshold(projection, y_signed, sample_weight):
    """Bias that places the hyperplane in the middle of its best gap along ``projection``.

    Minimises the weighted number of training errors of sign(projection + b); among
    equally good cuts it takes the widest gap between neighbouring projections. On data
    the direction separates this is the midpoint of the gap between the classes.
    """
    order = np.argsort(projection, kind="stable")
    p, y, w = projection[order], y_signed[order], sample_weight[order]
    # Cut k puts samples [0, k) on the negative side.
    pos_left = np.r_[0.0, np.cumsum(w * (y > 0))]
    neg_right = np.r_[np.cumsum((w * (y < 0))[::-1])[::-1], 0.0]
    errors = pos_left + neg_right
    gap = np.r_[np.inf, np.diff(p), np.inf]
    errors[gap <= 0] = np.inf  # no cut between equal projections
    best = np.flatnonzero(errors <= errors.min() + 1e-12)
    k = best[np.argmax(gap[best])]
    if k == 0:
        cut = p[0] - 1.0
    elif k == p.size:
        cut = p[-1] + 1.0
    else:
        cut = 0.5 * (p[k - 1] + p[k])
    return -cut


def _is_svm(refit):
    return isinstance(refit, str) and refit == "svm"


def certified_svm(X_sel, y_signed, lp_solution):
    """The hard-margin SVM of the selected features, (w, b), or None if it fails.

    Its certificate checks every margin >= 1, so a returned hyperplane proves strict
    separation, which both separability LPs (:func:`check_strict_separation`,
    :func:`~sfmlearn.optim.linear_svm`'s) would otherwise decide first: about 5 ms of
    each repetitive-SFM repetition at 88 x 6362. Wolfe's loop starts from the samples
    on the last LP's margin (``lp_solution``'s positive margin multipliers), most of
    which are the SVM's support vectors.
    """
    duals = getattr(lp_solution, "margin_duals", None)
    try:
        solution = hard_margin_svm(X_sel, y_signed, start=None if duals is None else duals > 0)
    except SolverError:  # not separable, or too thin to certify: decided as before
        return None
    return solution.w, solution.b


def check_strict_separation(owner, X_candidates, X_sel, y_signed, w, b, witness=None):
    """Hard fits: raise NotSeparableError when no hyperplane strictly separates the data.

    The zero-margin rows y_i (w . x_i + b) >= 0 are also met by points lying *on* the
    hyperplane, so a hard SFM 'solution' exists for data that no hyperplane strictly
    separates (e.g. a duplicated sample with both labels). Moving the LP's hyperplane
    (w, b) off those points proves strict separation when it works
    (:func:`~sfmlearn.lp.separability.strictly_separating_plane`, a least-squares solve
    and a check); otherwise the LP separability test on the selected features
    ``X_sel``, and if needed on all candidates ``X_candidates``, tells the cases apart.
    The last is answered by ``witness``, the fit's
    :class:`~sfmlearn.lp.separability.SeparationWitness`, while its columns are still
    candidates (:func:`~sfmlearn.lp.separability.inseparable_count`).
    """
    if strictly_separating_plane(X_sel, y_signed, w, b) is not None:
        return
    if not minimum_slack_hyperplane(X_sel, y_signed)[2].any():
        return
    inseparable = inseparable_count(X_candidates, y_signed, witness)
    if inseparable:
        raise NotSeparableError(
            f"The two classes are not linearly separable ({inseparable} "
            f"samples cannot be placed strictly on their side; the zero-margin hard "
            f"{owner} would only put them on its hyperplane). Pass a "
            f"softness C (e.g. {owner}(C=1.0)) to allow training errors."
        )
    warnings.warn(
        f"The {w.size} selected features separate the training data only weakly: "
        "some samples lie on the hyperplane (the zero-margin SFM allows it), although "
        "the data are strictly separable with more features. Training accuracy can be "
        "below 100%; a soft SFM (C) or WestonZeroNormSVM avoids this.", UserWarning,
    )


def logistic_on_selected(X_sel, y_signed, sample_weight):
    """(w, b) of ``"logistic"`` in the space of ``X_sel``.

    Each selected column is standardised (z_j = (x_j - m_j) / s_j; constant columns keep
    s_j = 1) and min_(v, c) 1/2 ||v||^2 + LOGISTIC_C sum_i a_i log(1 + exp(-y_i (v . z_i + c)))
    is solved (:func:`~sfmlearn.optim.logistic.logistic_newton`, scikit-learn's
    ``LogisticRegression(C=1)`` objective); in the columns' own space w_j = v_j / s_j and
    b = c - sum_j w_j m_j.
    """
    mean, sd = X_sel.mean(axis=0), X_sel.std(axis=0)
    sd[sd == 0] = 1.0
    v, c = logistic_newton((X_sel - mean) / sd, (y_signed > 0).astype(np.float64), sample_weight,
                           penalty=1.0 / LOGISTIC_C)
    w = v / sd
    return w, float(c - w @ mean)


def place_hyperplane(refit, prepared, support, w, b, lp_solution, *, owner):
    """The final (w, b) in the scaled space on the candidate positions ``support``.

    ``prepared`` is the fit's :class:`~sfmlearn.selection._base.PreparedFit` (data,
    labels, class weights, whether the problem is soft); ``lp_solution`` the last LP's
    solution; ``owner`` the estimator's name for messages.
    """
    data, y_signed = prepared.data, prepared.training.y
    X_sel = data.scaled_columns(support)
    if not prepared.problem.soft:
        placed = certified_svm(X_sel, y_signed, lp_solution) \
            if _is_svm(refit) and support.size else None
        if placed is not None:
            return placed
        check_strict_separation(owner, prepared.problem.X, X_sel, y_signed, w, b, prepared.separation)
    if refit is None or support.size == 0:
        return w, b
    if _is_svm(refit):
        try:
            return linear_svm(X_sel, y_signed)
        except NotSeparableError:
            pass  # soft fits: the selected features overlap; centre the SFM direction
        except SolverError as exc:  # not certified (see optim/hard_margin.py)
            warnings.warn(f"The hard-margin SVM refit failed ({exc}); the SFM direction "
                          "is centred instead (as refit='center').", UserWarning)
    if isinstance(refit, str) and refit == "logistic":
        return logistic_on_selected(X_sel, y_signed, prepared.weights)
    if isinstance(refit, str):
        return w, best_threshold(X_sel @ w, y_signed, prepared.weights)
    model = clone(refit).fit(X_sel, y_signed)
    try:
        return np.ravel(model.coef_), float(np.ravel(getattr(model, "intercept_", 0.0))[0])
    except AttributeError:
        raise DataValidationError(
            f"refit={type(refit).__name__}(...) gives no linear coef_ after fit, and the {owner}'s hyperplane "
            "is linear; pass a linear classifier (LinearSVC(), LogisticRegression(), SVC(kernel='linear')) or "
            "refit='logistic'.") from None
