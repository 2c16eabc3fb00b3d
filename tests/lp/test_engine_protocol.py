"""The engine protocol (sfmlearn.lp.protocol): every engine conforms, and is checked once.

Every engine the package defines subclasses ``Engine``, declares a name and the problem
kinds it solves, and returns a verified ``LPSolution`` for a problem of each of them;
every registered ``solver`` name yields such an engine. Objects that do not conform
are refused before any fitting starts, with an error that says what is missing.
"""

import importlib
import pkgutil

import numpy as np
import pytest

import sfmlearn
from sfmlearn import L1SVM, L2L1SVM, SupportFeatureMachine
from sfmlearn.lp import ENGINES, KINDS, CheckedEngine, Engine, LPSolution, check_engine, make_engine
from sfmlearn.lp.monomial import MonomialEngine, MonomialLP, monomial_values, quadratic_monomials
from sfmlearn.lp.problems import HyperplaneLP, check_solution, sfm_lp
from sfmlearn.lp.protocol import LP, MONOMIAL_LP, RIDGE_QP
from sfmlearn.optim.qp import QPEngine

try:
    import swiglpk  # noqa: F401
    HAVE_GLPK = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_GLPK = False


def _all_engine_classes():
    """Every concrete Engine subclass defined in sfmlearn (all modules imported)."""
    for module in pkgutil.walk_packages(sfmlearn.__path__, "sfmlearn."):
        if module.name.startswith("sfmlearn.__main__"):
            continue
        importlib.import_module(module.name)
    found, todo = set(), [Engine]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("sfmlearn.") and not getattr(sub, "__abstractmethods__", None):
                found.add(sub)
    return found


def _data(n=24, d=6, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, 0] += 2.0 * y
    return X, y


def _problem(kind):
    X, y = _data()
    n, d = X.shape
    if kind == LP:
        return sfm_lp(X, y, np.ones(d), slack_cost=np.full(n, 0.5))
    if kind == RIDGE_QP:
        return HyperplaneLP(X, y, np.full(d, 0.1), 1.0, slack_cost=np.full(n, 1.0))
    pairs = quadratic_monomials(3)
    return MonomialLP(monomial_values(X[:, :3], pairs), y, pairs, np.full(3, 0.1), np.full(n, 1.0 / n))


def test_the_package_defines_the_engines_it_documents():
    names = {cls.name for cls in _all_engine_classes() if cls is not CheckedEngine}
    assert names == {"auto", "highs", "scipy", "glpk", "colgen", "ipm-qp",
                     "highs-monomial"}
    # Every problem kind has an engine.
    kinds = set().union(*(cls.kinds for cls in _all_engine_classes()))
    assert kinds == set(KINDS)


@pytest.mark.parametrize("cls", sorted(_all_engine_classes(), key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_every_engine_declares_the_protocol(cls):
    assert cls.kinds and cls.kinds <= set(KINDS)
    if cls is CheckedEngine:  # its name is the wrapped engine's
        engine = CheckedEngine(ENGINES["highs"]("standard"))
        assert engine.name == "highs"
    else:
        engine = cls()
        assert isinstance(cls.name, str) and cls.name
    for kind in cls.kinds:
        assert check_engine(engine, kind) is engine
        assert make_engine(engine, kind=kind) is engine  # conforming engines are not wrapped
    for kind in set(KINDS) - cls.kinds:
        with pytest.raises(TypeError, match=f"builds '{kind}' problems"):
            check_engine(engine, kind)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_registered_name_gives_a_conforming_engine(name):
    engine = make_engine(name)
    assert isinstance(engine, Engine) and LP in engine.kinds
    if name == "glpk" and not HAVE_GLPK:
        pytest.skip("swiglpk is not installed")
    problem = _problem(LP)
    solution = engine.solve(problem)
    assert isinstance(solution, LPSolution) and solution.status == "optimal"
    check_solution(problem, solution)


@pytest.mark.parametrize("engine, kind", [(QPEngine(), RIDGE_QP), (MonomialEngine(), MONOMIAL_LP)],
                         ids=["ipm-qp", "highs-monomial"])
def test_the_other_kinds_engines_return_solutions(engine, kind):
    solution = engine.solve(_problem(kind))
    assert isinstance(solution, LPSolution) and solution.status == "optimal"
    assert solution.engine == engine.name


class _NoSolve:
    name = "no-solve"


class _TwoArguments:
    def solve(self, problem, extra):  # not solve(problem)
        raise AssertionError("never called")


class _NotASolution:
    name = "not-a-solution"

    def solve(self, problem):
        return {"w": np.zeros(problem.n_columns)}


def test_a_non_conforming_solver_fails_before_fitting_with_a_clear_error():
    X, y = _data()
    # No solve at all: the parameter constraint says so.
    with pytest.raises(ValueError, match="'solver' parameter.*solve"):
        SupportFeatureMachine(solver=_NoSolve()).fit(X, y)
    with pytest.raises(TypeError, match=r"solve\(problem\).*another signature"):
        SupportFeatureMachine(solver=_TwoArguments()).fit(X, y)
    with pytest.raises(TypeError, match=r"solve\(problem\).*none"):
        make_engine(_NoSolve())
    # An engine of another kind: the QP engine would add a ridge the LP models do not have.
    with pytest.raises(TypeError, match=r"'ipm-qp' solves \['ridge_qp'\].*builds 'lp'"):
        L1SVM(solver=QPEngine()).fit(X, y)
    with pytest.raises(TypeError, match="'highs-monomial'.*builds 'lp'"):
        SupportFeatureMachine(solver=MonomialEngine()).fit(X, y)
    # A plain object for a kind whose answers only an Engine can vouch for.
    with pytest.raises(TypeError, match="Only 'lp' problems"):
        make_engine(_NotASolution(), kind=RIDGE_QP)
    # Answers that are not LPSolutions are refused when they arrive.
    with pytest.raises(sfmlearn.exceptions.SolverError, match="must return an .*LPSolution"):
        SupportFeatureMachine(solver=_NotASolution()).fit(X, y)
    with pytest.raises(ValueError, match="solver must be one of"):
        make_engine("cplexx")
    with pytest.raises(ValueError, match="kind must be one of"):
        check_engine(QPEngine(), "qp")


def test_the_l2_models_check_their_engine_kind(monkeypatch):
    # The l2 models build 'ridge_qp' problems; their engine is checked like a solver=.
    X, y = _data()
    assert L2L1SVM().fit(X, y).n_iter_ == 1
    monkeypatch.setattr(QPEngine, "kinds", frozenset({LP}))
    with pytest.raises(TypeError, match=r"'ipm-qp' solves \['lp'\].*builds 'ridge_qp'"):
        L2L1SVM().fit(X, y)
