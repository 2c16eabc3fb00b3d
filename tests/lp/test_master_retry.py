"""The restricted master repeats a solve from scratch when HiGHS ends it without a result."""

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine
from sfmlearn.datasets import make_weston
from sfmlearn.exceptions import SolverError
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


def test_a_second_failure_raises_with_the_status(monkeypatch):
    X, y = make_weston(n_samples=60, n_noise=60, random_state=1)
    calls, cleared = _failing_solves(monkeypatch, fail=lambda call: call >= 2)
    with pytest.raises(SolverError, match="restricted master"):
        SupportFeatureMachine(solver="rowgen").fit(X, y)
    assert cleared == [2] and len(calls) == 3
