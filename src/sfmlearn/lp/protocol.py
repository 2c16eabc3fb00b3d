"""What an engine is: the one protocol every solver of a hyperplane problem follows.

An estimator builds a problem (:mod:`.problems`, :mod:`.monomial`) and hands it to an
engine; the engine returns an :class:`~sfmlearn.lp.problems.LPSolution`. As skglm's
solvers declare what they need of datafits and penalties, here the estimator names the
**kind** of problem it builds and the engine declares the kinds it solves;
:func:`check_engine` compares the two once, when the estimator sets up its fit
(:func:`sfmlearn.lp.engines.make_engine`), not in the middle of a solve.

* ``lp``: a :class:`~sfmlearn.lp.problems.HyperplaneLP`, objective
  sum_j c_j |w_j| + sum_i C_i xi_i. Engines: the registered names ``highs``, ``scipy``,
  ``glpk``, ``colgen``, ``auto`` (:mod:`.engines`), and any object with ``solve``.
* ``ridge_qp``: a ``HyperplaneLP`` without equality row and with finite slack costs,
  objective plus (ridge / 2) ||w||^2, the ridge being the engine's parameter. Engine:
  :class:`~sfmlearn.optim.qp.QPEngine` (ML05's l2-l1 / l2-l0 SVMs).
* ``monomial_lp``: a :class:`~sfmlearn.lp.monomial.MonomialLP`, one DCA step of
  quadratic FSV (ML05 4.2.3). Engine: :class:`~sfmlearn.lp.monomial.MonomialEngine`.

The contract of ``solve(problem)``, for every kind:

* it returns an ``LPSolution`` whose ``status`` is ``"optimal"`` (``w``, ``b``, ``xi`` of
  soft problems, ``objective``, and the row duals where the engine has them) or
  ``"infeasible"`` (with ``info["certificate"]``, :mod:`.certificates`); any other
  outcome raises :class:`~sfmlearn.exceptions.SolverError`;
* the answer is verified before it is returned: every row and the objective
  (:func:`~sfmlearn.lp.checks.check_solution` or the kind's own check), an
  "infeasible" by its certificate;
* ``session()`` returns an object with the same ``solve(problem)`` that may keep state
  between the problems it is given - a live solver model, working sets - so that a
  sequence of problems on the same data (the reweighting loop, both signs of the
  soft SFM, the repetitions of the repetitive SFM, a path of slack costs) is solved
  warm. The default session is the engine itself (every solve cold);
  :class:`~sfmlearn.lp.rowgen.GenerationEngine` keeps one HiGHS model per session
  (:mod:`.rowgen`, "Sessions"). A session belongs to one fit: estimators create it
  when they set up the fit and drop it afterwards (it holds the data and may not be
  picklable).

The built-in engines subclass :class:`Engine` and keep this contract themselves. Any
other object with a ``solve(problem)`` method is accepted as an ``lp`` engine and
wrapped in :class:`~sfmlearn.lp.engines.CheckedEngine`, which verifies its answers the
same way.
"""

import inspect
from abc import ABC, abstractmethod
from numbers import Real

from sklearn.utils._param_validation import Interval, validate_parameter_constraints

__all__ = ["Engine", "KINDS", "LP", "MONOMIAL_LP", "RIDGE_QP", "TIME_LIMIT", "check_engine"]

#: The constraint of an engine's ``time_limit``: None (no limit) or seconds > 0 (NaN,
#: which HiGHS would read as no limit, and negative values are refused).
TIME_LIMIT = [None, Interval(Real, 0, None, closed="neither")]

LP = "lp"
RIDGE_QP = "ridge_qp"
MONOMIAL_LP = "monomial_lp"

#: The problem kinds (module docstring): name -> what an engine of that kind solves.
KINDS = {
    LP: "HyperplaneLP, objective sum_j c_j |w_j| + sum_i C_i xi_i",
    RIDGE_QP: "HyperplaneLP without equality row, finite slack costs, plus (ridge/2) ||w||^2",
    MONOMIAL_LP: "MonomialLP, a DCA step of quadratic FSV (ML05 4.2.3)",
}


class Engine(ABC):
    """Base of the engines: ``name``, the ``kinds`` solved, and a verified ``solve``.

    Subclasses set the class attributes ``name`` (a short label, stored in
    ``LPSolution.engine``) and ``kinds`` (a frozenset of :data:`KINDS` keys) and
    implement :meth:`solve` under the module's contract: an "optimal" answer verified
    against every row, an "infeasible" one with a certificate, anything else raised.
    Estimators pass an ``Engine`` through unwrapped, so a subclass vouches for its own
    answers; an object that does not subclass it gets
    :class:`~sfmlearn.lp.engines.CheckedEngine`'s checks instead.

    Examples
    --------
    An engine that delegates to HiGHS and keeps the contract by returning HiGHS'
    verified answer:

    >>> import numpy as np
    >>> from sfmlearn.lp import Engine, HighsEngine, check_engine, weston_lp
    >>> class Delegating(Engine):
    ...     name = "delegating"
    ...     kinds = frozenset({"lp"})
    ...     def solve(self, problem):
    ...         return HighsEngine().solve(problem)
    >>> engine = check_engine(Delegating())
    >>> engine.session() is engine   # the default session: every solve cold
    True
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> engine.solve(weston_lp(X, y, np.ones(2))).status
    'optimal'
    """

    name = None
    kinds = frozenset()
    #: The allowed values of the constructor's options, declared as scikit-learn's
    #: estimators declare theirs and checked by :meth:`_check_options`.
    _parameter_constraints = {}

    def _check_options(self):
        """Raise scikit-learn's ``InvalidParameterError`` (a ``ValueError``) naming the
        first option that breaks :attr:`_parameter_constraints`; called by the
        constructors, so a bad option fails before any solve."""
        options = {name: getattr(self, name) for name in self._parameter_constraints}
        validate_parameter_constraints(self._parameter_constraints, options,
                                       caller_name=type(self).__name__)

    @abstractmethod
    def solve(self, problem):
        """Solve ``problem`` (of one of :attr:`kinds`); a verified ``LPSolution``."""

    def session(self):
        """An object whose ``solve`` may stay warm across problems (module docstring);
        here the engine itself."""
        return self


def _takes_one_argument(method):
    try:
        inspect.signature(method).bind(None)
    except TypeError:
        return False
    except ValueError:  # no signature (a builtin): assume it conforms
        return True
    return True


def check_engine(engine, kind=LP):
    """``engine`` if it can solve problems of ``kind``; a ``TypeError`` naming the gap.

    An :class:`Engine` must declare ``kind`` in its ``kinds``; any other object must
    have a ``solve(problem)`` method and is only accepted for ``lp`` problems (whose
    answers :class:`~sfmlearn.lp.engines.CheckedEngine` can verify). Returns the engine
    unchanged; wrapping is :func:`~sfmlearn.lp.engines.make_engine`'s job.

    Parameters
    ----------
    engine : object
        The candidate engine.
    kind : str, default="lp"
        The kind of problem it will be given, a key of :data:`KINDS`.

    Returns
    -------
    object
        ``engine`` itself.

    Raises
    ------
    TypeError
        ``engine`` has no ``solve(problem)`` method, or cannot solve ``kind``.
    ValueError
        ``kind`` is not a key of :data:`KINDS`.

    Examples
    --------
    >>> from sfmlearn.lp import HighsEngine, check_engine
    >>> check_engine(HighsEngine()).name
    'highs'
    >>> check_engine(HighsEngine(), kind="monomial_lp")
    Traceback (most recent call last):
    ...
    TypeError: The engine 'highs' solves ['lp'] problems, but this estimator builds ...
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}; got {kind!r}.")
    solve = getattr(engine, "solve", None)
    if not callable(solve) or not _takes_one_argument(solve):
        raise TypeError(
            f"An engine needs a method solve(problem) -> LPSolution "
            f"(sfmlearn.lp.protocol); {type(engine).__name__} has "
            f"{'none' if not callable(solve) else 'one with another signature'}. Pass a "
            "solver name such as 'highs', or an object with that method."
        )
    if isinstance(engine, Engine):
        if kind not in engine.kinds:
            raise TypeError(
                f"The engine {engine.name!r} solves {sorted(engine.kinds)} problems, but this "
                f"estimator builds '{kind}' problems ({KINDS[kind]}). Pass an engine of that "
                "kind (sfmlearn.lp.protocol lists them)."
            )
    elif kind != LP:
        raise TypeError(
            f"Only 'lp' problems can go to an engine that does not subclass "
            f"sfmlearn.lp.protocol.Engine (its answers are checked by the LP checks); this "
            f"one builds '{kind}' problems and got {type(engine).__name__}."
        )
    return engine
