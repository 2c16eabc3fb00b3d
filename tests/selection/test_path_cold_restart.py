"""sfm_path repeats a fit cold when HiGHS cannot finish it from the previous C's warm start."""

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine, sfm_path
from sfmlearn.datasets import make_weston
from sfmlearn.exceptions import SolverError


def _fail_once_on_a_warm_start(monkeypatch, at_call):
    original = SupportFeatureMachine.fit_prepared
    calls = []

    def flaky(self, prepared, **options):
        calls.append(prepared.session)
        if len(calls) == at_call:
            raise SolverError("HiGHS stopped with model status 'Unknown' in a restricted master.")
        return original(self, prepared, **options)

    monkeypatch.setattr(SupportFeatureMachine, "fit_prepared", flaky)
    return calls


def test_a_failed_warm_start_is_fitted_cold_and_the_path_goes_on(monkeypatch):
    X, y = make_weston(n_samples=40, n_noise=40, random_state=0)
    Cs = np.array([0.3, 0.6, 1.2])
    expected = [SupportFeatureMachine(C=C).fit(X, y).support_ for C in Cs]
    calls = _fail_once_on_a_warm_start(monkeypatch, at_call=2)
    path = sfm_path(X, y, Cs)
    assert len(calls) == 4  # the second C once warm (failed), once cold
    assert calls[2] is not calls[1] and calls[3] is calls[2]  # cold session, then kept
    np.testing.assert_array_equal(path.supports, expected)


def test_without_warm_start_a_solver_error_is_raised(monkeypatch):
    X, y = make_weston(n_samples=40, n_noise=40, random_state=0)
    _fail_once_on_a_warm_start(monkeypatch, at_call=2)
    with pytest.raises(SolverError, match="Unknown"):
        sfm_path(X, y, [0.3, 0.6, 1.2], warm_start=False)
