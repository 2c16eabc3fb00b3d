"""Parameter selection as in ML05 5.2.2: one random validation half, the paper's grids.

ML05 chooses every weight parameter "minimising the error on an independent validation
set ... chosen randomly as one half of each run's (cross-validation) training set", over
discretised ranges, and breaks ties towards larger (nu, mu) resp. lambda and towards
the smallest SVM weight (1 - lambda)/lambda; the final classifier is then trained on
training and validation data together. That is scikit-learn's ``GridSearchCV`` with a
single 50 % ``ShuffleSplit``, a tie-breaking ``refit`` rule and refitting on all data:
:func:`ml05_search` builds it, so the result is an ordinary scikit-learn estimator
(nestable in ``cross_val_score``; ``n_jobs`` parallelises the grid).

The one-line use gives a tuned selector: ``ml05_search(FSV()).fit(X, y)`` searches
ML05's grid, refits the best on all data, predicts with it and answers ``get_support()``
like the selector itself (:class:`SelectorSearchCV`), so it drops into a ``Pipeline``
or :func:`~sfmlearn.model_selection.cross_validate_selection` where the bare selector
would.
"""

from numbers import Real

import numpy as np
from sklearn.model_selection import GridSearchCV, ShuffleSplit
from sklearn.utils._param_validation import (
    HasMethods, Interval, InvalidParameterError, validate_params,
)

__all__ = ["ML05_GRIDS", "ML05_PREFER", "ml05_grid", "ml05_search", "PreferOnTies", "SelectorSearchCV"]

_LAMBDAS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]

#: ML05 5.2.2's grids by estimator class name.
ML05_GRIDS = {
    "FSV": {"lam": _LAMBDAS},
    "L1SVM": {"lam": _LAMBDAS},
    "QuadraticFSV": {"lam": _LAMBDAS},
    "L2L1SVM": {"mu": list(np.exp(np.arange(0, 11))), "nu": list(np.exp(np.arange(-5, 6)))},
    "L2L0SVM": {"mu": list(np.exp(np.arange(0, 11))), "nu": list(np.exp(np.arange(-5, 6)))},
    "KernelTargetAlignment": {"lam": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]},
    # The SVM weight: C = (1 - lambda) / lambda in {e^-5, ..., e^5}.
    "SVC": {"C": list(np.exp(np.arange(-5, 6)))},
}

#: Tie-breaking of ML05 5.2.2, in priority order: larger nu, then mu, resp. lambda;
#: the smallest SVM weight C.
ML05_PREFER = {"nu": "largest", "mu": "largest", "lam": "largest", "C": "smallest"}


def ml05_grid(estimator):
    """ML05's grid for ``estimator`` (by class name); the error names the known ones."""
    name = type(estimator).__name__
    try:
        return {key: list(values) for key, values in ML05_GRIDS[name].items()}
    except KeyError:
        raise InvalidParameterError(
            f"ML05 gives no grid for {name}; known: {sorted(ML05_GRIDS)}. Pass param_grid."
        ) from None


class PreferOnTies:
    """A ``GridSearchCV`` ``refit`` rule: best mean score, ties broken by parameter value.

    ``prefer`` maps parameter names to "largest" or "smallest", in priority order;
    parameters may be given with a pipeline prefix (``"fsv__lam"`` matches ``"lam"``).
    Remaining ties go to the first candidate in grid order. ``metric`` names the score
    of a multi-metric search (``None`` for a single ``scoring``).
    """

    def __init__(self, prefer, metric=None):
        self.prefer = dict(prefer)
        self.metric = metric

    def __call__(self, cv_results):
        key_name = "mean_test_score" if self.metric is None else f"mean_test_{self.metric}"
        scores = np.asarray(cv_results[key_name], dtype=float)
        best = np.flatnonzero(scores >= np.nanmax(scores) - 1e-12)
        params = cv_results["params"]

        def key(index):
            out = []
            for name, direction in self.prefer.items():
                value = next((v for k, v in params[index].items()
                              if k == name or k.endswith("__" + name)), None)
                if value is not None:
                    out.append(-value if direction == "largest" else value)
            return tuple(out) + (index,)

        return int(min(best, key=key))


class SelectorSearchCV(GridSearchCV):
    """``GridSearchCV`` whose refitted best estimator is a feature selector: it answers
    ``get_support`` (and ``support_``) like that selector (the last step of a pipeline)."""

    def _best_selector(self):
        best = self.best_estimator_
        return best.steps[-1][1] if hasattr(best, "steps") else best

    @property
    def support_(self):
        return self._best_selector().get_support()

    def get_support(self, indices=False):
        """The features the refitted best selector keeps (mask, or indices)."""
        return self._best_selector().get_support(indices=indices)


@validate_params(
    {"estimator": [HasMethods(["fit"])], "param_grid": [dict, list, None],
     "prefer": [dict, None], "validation_size": [Interval(Real, 0, 1, closed="neither")]},
    prefer_skip_nested_validation=False,
)
def ml05_search(estimator, param_grid=None, *, prefer=None, validation_size=0.5,
                scoring="accuracy", random_state=None, n_jobs=None):
    """A ``GridSearchCV`` that selects parameters as ML05 5.2.2 does (module docstring).

    Parameters
    ----------
    estimator : estimator or Pipeline
    param_grid : dict or None
        None uses :func:`ml05_grid` (for a bare ML05 estimator).
    prefer : dict or None
        Tie-breaking (:class:`PreferOnTies`); None uses :data:`ML05_PREFER`.
    validation_size : float, default=0.5
        Fraction of each training set held out for validation.
    scoring : str, callable or dict, default="accuracy"
        With a dict (several scores, e.g. to record iteration counts), the first entry
        selects the parameters.
    random_state : int, RandomState or None
        Seeds the random validation half.
    n_jobs : int or None
        Grid points in parallel (joblib).

    Returns
    -------
    SelectorSearchCV
        An unfitted ``GridSearchCV`` with one random validation split and ML05's
        tie-breaking refit; once fitted it predicts with, and answers ``get_support()``
        of, the best estimator refitted on all data.

    Examples
    --------
    FSV's lambda chosen on one half of Weston's toy data, refitted on all of it:

    >>> from sfmlearn import FSV
    >>> from sfmlearn.datasets import make_weston
    >>> from sfmlearn.selection import ml05_search
    >>> X, y = make_weston(n_samples=50, n_noise=100, random_state=0)
    >>> search = ml05_search(FSV(), {"lam": [0.05, 0.1, 0.2]}, random_state=0).fit(X, y)
    >>> search.best_params_, search.get_support(indices=True).tolist()
    ({'lam': 0.2}, [2, 5])
    """
    grid = ml05_grid(estimator) if param_grid is None else param_grid
    split = ShuffleSplit(n_splits=1, test_size=validation_size, random_state=random_state)
    metric = next(iter(scoring)) if isinstance(scoring, dict) else None
    return SelectorSearchCV(
        estimator, grid, scoring=scoring, cv=split, n_jobs=n_jobs,
        refit=PreferOnTies(ML05_PREFER if prefer is None else prefer, metric),
    )
