"""scikit-learn's ``__init__`` contract, written once."""

__all__ = ["set_parameters"]


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
