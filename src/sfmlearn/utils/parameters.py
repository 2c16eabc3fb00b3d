"""scikit-learn's estimator contracts, written once: ``__init__`` stores the parameters,
``fit`` replaces the whole fitted state, ``n_jobs`` is never 0."""

from numbers import Integral

from sklearn.utils._param_validation import Interval

__all__ = ["forget_fit", "set_parameters"]

#: The ``_parameter_constraints`` entry of scikit-learn's ``n_jobs``: None, -1 (all cores),
#: -2 (all but one) ..., or 1, 2, ...; never 0 (joblib's "n_jobs == 0 has no meaning" would
#: surface only after work was done).
N_JOBS = [Interval(Integral, None, -1, closed="right"), Interval(Integral, 1, None, closed="left"), None]


def set_parameters(estimator, arguments):
    """Store every ``__init__`` argument as the attribute of its name, unchanged.

    scikit-learn's contract: ``__init__`` only stores its parameters, so that
    ``get_params``, ``set_params`` and ``clone`` see them as given. Called as
    ``set_parameters(self, locals())`` first thing in ``__init__``, it is that contract
    for estimators with many parameters.

    Parameters
    ----------
    estimator : object
        The estimator being constructed.
    arguments : dict
        ``locals()`` of its ``__init__`` (``self`` is skipped).

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> from sfmlearn.utils.parameters import set_parameters
    >>> class Demo(BaseEstimator):
    ...     def __init__(self, alpha=1.0, *, beta=None):
    ...         set_parameters(self, locals())
    >>> Demo(alpha=2.0).get_params()
    {'alpha': 2.0, 'beta': None}
    """
    for name, value in arguments.items():
        if name != "self":
            setattr(estimator, name, value)


def forget_fit(estimator):
    """Remove every fitted attribute (public names ending in ``_``) of ``estimator``.

    Called first in a ``fit`` whose attributes depend on its parameters or data (an
    attribute only some settings set), or when a fit fails: then no attribute of an
    earlier fit survives beside those of the new one, and a failed fit leaves the
    estimator unfitted rather than half updated.

    Parameters
    ----------
    estimator : object
        The estimator; its parameters and private attributes are kept.

    Returns
    -------
    None

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> from sfmlearn.utils.parameters import forget_fit
    >>> model = BaseEstimator()
    >>> model.coef_, model._cache = [1.0], {}
    >>> forget_fit(model)
    >>> hasattr(model, "coef_"), hasattr(model, "_cache")
    (False, True)
    """
    for name in [key for key in vars(estimator) if key.endswith("_") and not key.startswith("_")]:
        delattr(estimator, name)
