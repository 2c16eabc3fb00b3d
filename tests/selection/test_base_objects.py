"""A fit of the SFM family is explicit objects: problem, penalty, engine, the loop.

``estimator.prepare(X, y)`` validates once and builds a
:class:`~sfmlearn.selection._base.PreparedFit`; ``fit_prepared`` runs
``iterated_l1(problem, penalty, engine)`` per equality sign and stores the best run.
The softness path, the repetitive SFM's refitter and the CV estimators reuse those
public objects (tests/test_structure.py checks that no module reaches into another
class's private hooks).
"""

import warnings

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.datasets import make_weston
from sfmlearn.lp import HighsEngine, sfm_lp
from sfmlearn.optim import ITERATED_L1_TOL, SFMProblem, WestonProblem, ZeroNorm, iterated_l1
from sfmlearn.optim.problem import sample_costs
from sfmlearn.selection._base import PreparedFit, fit_problem

@pytest.fixture(scope="module")
def data():
    return make_weston(n_samples=40, n_noise=40, random_state=1)


def test_prepare_sets_no_fitted_attribute_and_fit_prepared_equals_fit(data):
    X, y = data
    model = SupportFeatureMachine(C=0.5)
    prepared = model.prepare(X, y)
    assert isinstance(prepared, PreparedFit) and not hasattr(model, "classes_")
    assert isinstance(prepared.problem, SFMProblem) and isinstance(prepared.penalty, ZeroNorm)
    assert [p.sign for p in prepared.problem.per_sign()] == [1.0, -1.0]
    fitted = SupportFeatureMachine(C=0.5).fit_prepared(prepared)
    direct = SupportFeatureMachine(C=0.5).fit(X, y)
    np.testing.assert_array_equal(fitted.support_, direct.support_)
    np.testing.assert_allclose(fitted.coef_, direct.coef_, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(fitted.classes_, direct.classes_)


def test_a_prepared_fit_serves_another_softness(data):
    X, y = data
    prepared = SupportFeatureMachine().prepare(X, y)
    assert not prepared.problem.soft
    at_C = prepared.with_slack_cost(sample_costs(2.0, prepared.weights))
    fitted = SupportFeatureMachine(C=2.0).fit_prepared(at_C)
    direct = SupportFeatureMachine(C=2.0).fit(X, y)
    np.testing.assert_array_equal(fitted.support_, direct.support_)
    np.testing.assert_allclose(fitted.coef_, direct.coef_, rtol=1e-9, atol=1e-12)


def test_weston_builds_its_own_problem(data):
    X, y = data
    prepared = WestonZeroNormSVM(C=1.0).prepare(X, y)
    assert isinstance(prepared.problem, WestonProblem)
    sign, run = fit_problem(prepared.problem, prepared.penalty, prepared.session,
                            reweight_slack=True, max_iter=50, tol=ITERATED_L1_TOL)
    assert sign is None
    fitted = WestonZeroNormSVM(C=1.0).fit(X, y)
    np.testing.assert_array_equal(np.flatnonzero(fitted.support_),
                                  prepared.data.candidates[run.support])


def test_the_former_call_form_of_iterated_l1_warns_and_gives_the_same_run():
    rng = np.random.default_rng(0)
    y = np.where(np.arange(20) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((20, 5))
    X[:, 0] = y * rng.uniform(1.0, 2.0, 20)
    new = iterated_l1(SFMProblem(X, y), ZeroNorm(), HighsEngine())

    def build_lp(columns, feature_cost, slack_cost):
        return sfm_lp(X[:, columns], y, feature_cost, slack_cost=slack_cost)

    with pytest.warns(FutureWarning, match="iterated_l1\\(problem, penalty, engine\\)"):
        old = iterated_l1(build_lp, np.ones(5), HighsEngine(), penalty=None)
    np.testing.assert_allclose(old.w, new.w, rtol=1e-12)
    assert old.history["n_features"] == new.history["n_features"] == [1, 1]
    assert old.converged and new.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iterated_l1(SFMProblem(X, y), None, HighsEngine())  # the new form is quiet
