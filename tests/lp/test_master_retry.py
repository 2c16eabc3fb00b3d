"""The restricted master repeats a solve from scratch when HiGHS ends it without a result, and a\nsecond failure hands the problem to the full LP."""

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import make_weston
from sfmlearn.exceptions import SolverError
from sfmlearn.lp import HighsEngine
from sfmlearn.lp.master import Master


def _failing_solves(monkeypatch, fail):
    """Make ``Master._solve`` end without a result on the calls for which ``fail(call)``
    holds, and record every call and every ``clearSolver`` of a master."""
    original = Master._solve
    calls, cleared = [], []

    def flaky(self):
        calls.append(self)
        if fail(len(calls)):
            self.runs += 1
            return None
        return original(self)

    original_run = Master.run

    def recording_run(self):
        clear = self.h.clearSolver

        def recorded():
            cleared.append(len(calls))
            return clear()

        self.h.clearSolver = recorded
        try:
            return original_run(self)
        finally:
            self.h.clearSolver = clear

    monkeypatch.setattr(Master, "_solve", flaky)
    monkeypatch.setattr(Master, "run", recording_run)
    return calls, cleared


@pytest.mark.parametrize("solver", ["rowgen", "rowcolgen"])
def test_a_solve_without_result_is_repeated_from_scratch(monkeypatch, solver):
    X, y = make_weston(n_samples=60, n_noise=60, random_state=1)
    expected = SupportFeatureMachine(solver=solver).fit(X, y)
    calls, cleared = _failing_solves(monkeypatch, fail=lambda call: call == 2)
    fitted = SupportFeatureMachine(solver=solver).fit(X, y)
    assert cleared == [2]  # the second solve failed, the solver was cleared once
    assert len(calls) >= 3
    np.testing.assert_array_equal(fitted.support_, expected.support_)
    np.testing.assert_allclose(fitted.coef_, expected.coef_, rtol=1e-6, atol=1e-9)


def test_a_master_failing_warm_and_cold_hands_the_problem_to_the_full_lp(monkeypatch):
    X, y = make_weston(n_samples=60, n_noise=60, random_state=1)
    expected = SupportFeatureMachine(solver="rowgen").fit(X, y)
    full_lps = []
    original = HighsEngine.solve

    def recorded(self, problem):
        full_lps.append(problem)
        return original(self, problem)

    monkeypatch.setattr(HighsEngine, "solve", recorded)
    calls, cleared = _failing_solves(monkeypatch, fail=lambda call: call >= 2)
    fitted = SupportFeatureMachine(solver="rowgen").fit(X, y)
    assert cleared[0] == 2 and len(full_lps) >= 1  # retried from scratch once, then the full LP
    np.testing.assert_array_equal(fitted.support_, expected.support_)
    np.testing.assert_allclose(fitted.coef_, expected.coef_, rtol=1e-6, atol=1e-9)


def test_the_full_lp_failing_too_raises(monkeypatch):
    X, y = make_weston(n_samples=60, n_noise=60, random_state=1)

    def failing(self, problem):
        raise SolverError("HiGHS stopped with model status 'Unknown'.", status="Unknown")

    monkeypatch.setattr(HighsEngine, "solve", failing)
    _failing_solves(monkeypatch, fail=lambda call: call >= 2)
    with pytest.raises(SolverError, match="Unknown"):
        SupportFeatureMachine(solver="rowgen").fit(X, y)


@pytest.mark.slow  # about 20 s
def test_the_grid_of_1600_madelon_samples_is_found_through_the_full_lp():
    """HiGHS ends the restricted master of this hard-margin LP (the grid's large end) with
    status "Unknown", warm and cold; the full LP says the classes are not separable."""
    from sklearn.model_selection import train_test_split

    from sfmlearn.datasets import load_named
    from sfmlearn.selection.sfm.path import default_Cs

    data = load_named("madelon")
    rows, _ = train_test_split(np.arange(data.y_train.size), train_size=1600, stratify=data.y_train, random_state=0)
    y = np.where(data.y_train[rows] == np.unique(data.y_train)[1], 1.0, -1.0)
    grid = default_Cs(data.X_train[rows], y, estimator=SupportFeatureMachine(class_weight="balanced"), n_Cs=12)
    assert grid.size == 12 and np.all(np.diff(grid) > 0)


@pytest.fixture
def simplex_fails(monkeypatch):
    """HighsEngine's simplex ends without an answer (the status of ``simplex_fails.status``)."""
    from sfmlearn.lp import highs

    original = highs.solve_matrix_lp_highs

    def flaky(lp, *, method="simplex", **options):
        if method == "simplex":
            raise SolverError("HiGHS stopped with model status (not optimal).", status=flaky.status)
        return original(lp, method=method, **options)

    flaky.status = "Unknown"
    monkeypatch.setattr(highs, "solve_matrix_lp_highs", flaky)
    return flaky


def test_the_full_lp_is_solved_again_by_the_interior_point_method_when_the_simplex_fails(simplex_fails):
    from sfmlearn.lp import sfm_lp

    X, y = make_weston(n_samples=40, n_noise=20, random_state=0)
    problem = sfm_lp(X, np.where(y > 0, 1.0, -1.0), np.ones(X.shape[1]))
    solved = HighsEngine().solve(problem)
    assert solved.status == "optimal" and solved.info["method"] == "ipm after the simplex failed"
    expected = HighsEngine(method="ipm").solve(problem)
    np.testing.assert_allclose(solved.w, expected.w, atol=1e-9)
    simplex_fails.status = "Time limit reached"  # a limit the caller set is not retried
    with pytest.raises(SolverError):
        HighsEngine(time_limit=1.0).solve(problem)
