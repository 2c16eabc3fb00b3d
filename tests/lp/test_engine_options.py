"""Engine options: a bad value fails in the constructor, naming the option."""

from dataclasses import replace

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sfmlearn.exceptions import SolverError
from sfmlearn.lp import GenerationEngine, HighsEngine, ScipyEngine, make_engine, sfm_lp
from sfmlearn.lp.assembly import build_matrix_lp
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.lp.glpk import GlpkEngine
from sfmlearn.lp.highs_model import solve_matrix_lp_highs


@pytest.mark.parametrize("make, option", [
    (lambda: HighsEngine(time_limit=float("nan")), "time_limit"),  # ran without a limit
    (lambda: HighsEngine(time_limit=-1), "time_limit"),
    (lambda: HighsEngine(method="barrier"), "method"),
    (lambda: HighsEngine("dense"), "formulation"),
    (lambda: HighsEngine(presolve="off"), "presolve"),
    (lambda: ScipyEngine(time_limit=-1), "time_limit"),  # warned, then ran without a limit
    (lambda: ScipyEngine(method="interior-point"), "method"),  # AttributeError: ineqlin
    (lambda: GlpkEngine("dense"), "formulation"),
    (lambda: GenerationEngine(rows=True, initial_rows=-5), "initial_rows"),
    (lambda: GenerationEngine(max_rounds=0), "max_rounds"),
    (lambda: GenerationEngine(rows="no"), "rows"),
    (lambda: GenerationEngine(pricing_tol=-1.0), "pricing_tol"),
    (lambda: ColumnGenerationEngine(initial_size=-1), "initial_size"),
    (lambda: ColumnGenerationEngine(full_lp_below=-1), "full_lp_below"),
])
def test_a_bad_option_fails_in_the_constructor(make, option):
    with pytest.raises(InvalidParameterError, match=f"'{option}' parameter of"):
        make()


def test_make_engine_refuses_an_unknown_formulation_at_once():
    with pytest.raises(InvalidParameterError, match="'formulation' parameter of HighsEngine"):
        make_engine("highs", "dense")


def _soft_problem(n=40, d=60, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = rng.standard_normal((n, d))
    X[:, 0] += y
    return sfm_lp(X, y, np.ones(d), slack_cost=np.ones(n))


def test_the_full_lp_of_generation_may_be_named():
    # full_lp="highs" raised AttributeError: 'str' object has no attribute 'solve'.
    problem = _soft_problem()
    solution = GenerationEngine(full_lp="highs").solve(problem)
    assert solution.engine == "highs"
    assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)
    with pytest.raises(ValueError, match="solver must be one of"):
        GenerationEngine(full_lp="simplex")
    with pytest.raises(TypeError, match="solve"):
        GenerationEngine(full_lp=3)


def test_the_round_limit_says_how_to_get_an_answer():
    engine = GenerationEngine(rows=True, columns=True, initial_rows=2, row_batch=1, max_rounds=1)
    with pytest.raises(SolverError, match=r"did not converge in 1 rounds.*Raise max_rounds.*solver='highs'"):
        engine.solve(_soft_problem())


def test_a_status_other_than_the_time_limit_does_not_advise_more_time():
    lp = build_matrix_lp(_soft_problem(n=10, d=4))
    unbounded = replace(lp, cost=-np.ones_like(lp.cost))  # what a negative price did
    with pytest.raises(SolverError, match="model status") as caught:
        solve_matrix_lp_highs(unbounded)
    assert "time_limit" not in str(caught.value)
    assert "rescale the data" in str(caught.value)
