"""Bad and quirky inputs at the LP layer and the LP-based estimators.

Each row of the table is one input; its check asserts either the correct result
(compared with an equivalent well-behaved input, or with what the data force) or an
exception that is a ValueError/RuntimeError subclass whose message names the problem.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn import FSV, L1SVM, RLP, SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.exceptions import (ConstraintViolationError, DataValidationError,
                                 NotSeparableError, SolverError)
from sfmlearn.lp import HighsEngine, sfm_lp, weston_lp
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.lp.engines import make_engine
from sfmlearn.lp.problems import HyperplaneLP, LPSolution, build_matrix_lp


def _separable(n=18, d=5, seed=0, shift=3.0):
    """Feature 1 separates the classes alone; the others are noise."""
    rng = np.random.default_rng(seed)
    y = np.array([1, 1, 1, 0, 0, 0] * (n // 6))
    X = rng.standard_normal((y.size, d))
    X[:, 1] += shift * (2 * y - 1)
    return X, y


def _fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def _same_selection(model, X_quirky, X_plain, y):
    a = _fit(model(), X_quirky, y)
    b = _fit(model(), X_plain, y)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_allclose(a.history_["objective"], b.history_["objective"], rtol=1e-7, atol=1e-9)
    return a


def _raises(exc, pattern, call):
    assert issubclass(exc, (ValueError, RuntimeError))
    with pytest.raises(exc, match=pattern):
        call()


def _stored_zeros(X, fmt="csr"):
    """X with explicitly stored zeros (``Z.data[::3] = 0``); compare
    with ``Z.toarray()``, the same values held densely."""
    Z = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
    Z.data[::3] = 0.0
    return Z


# -- the cases --------------------------------------------------------------------------

def case_stored_zeros_csr():
    X, y = _separable(d=6)
    X[:, 5] = 4.0 * (2 * y - 1)  # still separates after the zeroing of every 3rd value
    Z = _stored_zeros(X)
    model = _same_selection(SupportFeatureMachine, Z, Z.toarray(), y)
    assert model.score(Z, y) == 1.0


def case_stored_zeros_csc_float32_soft():
    X, y = _separable(shift=1.0)
    Z = _stored_zeros(X.astype(np.float32), "csc")
    _same_selection(lambda: SupportFeatureMachine(C=0.5), Z, Z.toarray(), y)


def case_stored_zeros_in_every_lp_estimator():
    X, y = _separable(shift=1.0)
    Z = _stored_zeros(X)
    for model in (lambda: WestonZeroNormSVM(C=1.0), L1SVM, FSV):
        _same_selection(model, Z, Z.toarray(), y)
    a, b = _fit(RLP(), Z, y), _fit(RLP(), Z.toarray(), y)  # RLP: unique objective only
    np.testing.assert_allclose(a.history_["objective"], b.history_["objective"], rtol=1e-7)


def case_column_of_stored_zeros_only():
    X, y = _separable()
    X = np.hstack([X, np.zeros((y.size, 1))])
    Z = sp.csr_matrix(X)
    Z = Z + sp.csr_matrix((np.zeros(3), ([0, 4, 7], [5, 5, 5])), shape=X.shape)
    model = _same_selection(SupportFeatureMachine, Z, X, y)
    assert not model.support_[5]


def case_all_zero_sparse_columns():
    X, y = _separable()
    Z = sp.csr_matrix(np.hstack([np.zeros((y.size, 4)), X, np.zeros((y.size, 4))]))
    model = _fit(SupportFeatureMachine(), Z, y)
    assert np.flatnonzero(model.support_).tolist() == [5]  # feature 1 of X


def case_all_zero_columns_in_the_lp():
    X, y = _separable()
    X = np.hstack([X, np.zeros((y.size, 3))])
    y_signed = 2.0 * y - 1
    for problem in (sfm_lp(X, y_signed, np.ones(8)), weston_lp(X, y_signed, np.ones(8))):
        solution = HighsEngine().solve(problem)
        assert solution.status == "optimal" and not solution.w[5:].any()


def case_integer_sparse_input():
    X, y = _separable()
    Xi = np.round(10 * X).astype(np.int64)
    _same_selection(SupportFeatureMachine, sp.csr_matrix(Xi), Xi.astype(float), y)


def case_duplicated_samples_with_both_labels_hard():
    X, y = _separable()
    _raises(NotSeparableError, "not linearly separable",
            lambda: _fit(SupportFeatureMachine(), np.vstack([X, X[:1]]), np.r_[y, 1 - y[0]]))


def case_duplicated_samples_with_both_labels_soft():
    X, y = _separable()
    model = _fit(SupportFeatureMachine(C=1.0), np.vstack([X, X[:1]]), np.r_[y, 1 - y[0]])
    assert np.flatnonzero(model.support_).tolist() == [1]
    assert model.n_training_errors_ >= 1  # one of the two copies must be wrong


def case_duplicated_samples_same_label():
    X, y = _separable()
    _same_selection(SupportFeatureMachine, np.vstack([X, X, X]), np.vstack([X, X, X]), np.r_[y, y, y])
    model = _fit(SupportFeatureMachine(), np.vstack([X, X]), np.r_[y, y])
    assert np.flatnonzero(model.support_).tolist() == [1]


def case_duplicated_features():
    X, y = _separable()
    model = _fit(SupportFeatureMachine(), np.hstack([X, X[:, 1:2]]), y)
    assert model.support_.sum() == 1 and (model.support_[1] or model.support_[5])
    assert model.score(np.hstack([X, X[:, 1:2]]), y) == 1.0


def case_huge_magnitudes():
    X, y = _separable()
    _same_selection(SupportFeatureMachine, 1e12 * X, X, y)


def case_mixed_column_scales():
    X, y = _separable()
    _same_selection(SupportFeatureMachine, X * np.logspace(-6, 6, X.shape[1]), X, y)


def case_small_magnitudes():
    X, y = _separable()
    _same_selection(SupportFeatureMachine, 1e-6 * X, X, y)


def case_tiny_unscaled_data_is_not_called_inseparable():
    # HiGHS drops matrix entries below 1e-9: unscaled, such columns are refused before the
    # LP (they would look constant, and the data "not separable"); the message says to rescale.
    X, y = _separable()
    _raises(DataValidationError, "below the 1e-09 under which the LP solver reads a coefficient as 0.*keep scale=True",
            lambda: _fit(SupportFeatureMachine(scale=False), 1e-12 * X, y))


def case_two_samples():
    X = np.array([[1.0, 0.0, 3.0], [0.0, 1.0, 3.0]])
    model = _fit(SupportFeatureMachine(), X, [1, 0])
    assert model.support_.sum() == 1 and model.score(X, [1, 0]) == 1.0


def case_one_feature_separable():
    X, y = _separable()
    model = _fit(SupportFeatureMachine(), X[:, 1:2], y)
    assert model.support_.tolist() == [True] and model.score(X[:, 1:2], y) == 1.0


def case_one_feature_not_separable():
    X, y = _separable()
    for model in (SupportFeatureMachine(), WestonZeroNormSVM()):
        _raises(NotSeparableError, "not linearly separable.*C=1.0", lambda: _fit(model, X[:, :1], y))


def case_all_features_constant():
    y = np.array([1, 0] * 6)
    _raises(DataValidationError, "features are constant",
            lambda: _fit(SupportFeatureMachine(), np.ones((12, 4)), y))


def case_imbalanced_labels():
    X, y = _separable()
    keep = np.r_[np.flatnonzero(y == 1)[:1], np.flatnonzero(y == 0)]
    model = _fit(SupportFeatureMachine(), X[keep], y[keep])
    assert model.support_[1] and model.score(X[keep], y[keep]) == 1.0


def case_xor_with_many_copies_under_column_generation():
    base = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]] * 5, dtype=float)
    X = np.tile(base, (1, 60)) * np.random.default_rng(0).uniform(0.9, 1.1, 120)
    _raises(NotSeparableError, "not linearly separable",
            lambda: _fit(SupportFeatureMachine(solver="colgen"), X, [1, 1, 0, 0] * 5))


def case_nan_in_sparse_input():
    X, y = _separable()
    X[2, 3] = np.nan
    _raises(DataValidationError, "NaN", lambda: _fit(SupportFeatureMachine(), sp.csr_matrix(X), y))


def case_inf_in_input():
    X, y = _separable()
    X[2, 3] = np.inf
    _raises(DataValidationError, "infinite", lambda: _fit(SupportFeatureMachine(), X, y))


class _Liar:
    """An engine that answers 'infeasible' to everything."""

    name = "liar"

    def solve(self, problem):
        return LPSolution("infeasible", engine=self.name)


class _Sloppy:
    """An engine whose 'optimal' w = 0 violates the equality row."""

    name = "sloppy"

    def solve(self, problem):
        return LPSolution("optimal", w=np.zeros(problem.n_columns), b=0.0, objective=0.0,
                          xi=np.zeros(problem.n_samples) if problem.is_soft else None)


def case_engine_lying_infeasible():
    X, y = _separable()
    _raises(SolverError, "'liar'.*cannot be certified.*feasible",
            lambda: _fit(SupportFeatureMachine(solver=_Liar()), X, y))


def case_engine_returning_an_infeasible_point():
    X, y = _separable()
    _raises(ConstraintViolationError, "equality row",
            lambda: _fit(SupportFeatureMachine(solver=_Sloppy()), X, y))


def case_unknown_solver_and_formulation():
    _raises(ValueError, "solver must be one of", lambda: make_engine("cplexx"))
    _raises(ValueError, "standard formulation only", lambda: make_engine("colgen", "sparse"))
    X, y = _separable()
    problem = sfm_lp(X, 2.0 * y - 1, np.ones(5))
    _raises(ValueError, "formulation must be one of", lambda: build_matrix_lp(problem, "dense"))
    _raises(ValueError, "equality must be", lambda: sfm_lp(X, 2.0 * y - 1, np.ones(5), equality="mean"))


def case_zero_feature_costs_in_column_generation():
    X, y = _separable(d=120)
    y_signed = 2.0 * y - 1
    problem = HyperplaneLP(X, y_signed, np.zeros(120), 1.0, slack_cost=np.ones(y.size))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division-by-zero warnings either
        solution = ColumnGenerationEngine(full_lp_below=0).solve(problem)
    assert solution.objective == pytest.approx(0.0, abs=1e-9)  # separable: no slack needed


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}


def test_the_battery_is_large_enough():
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_input(case):
    CASES[case]()


def test_tiny_magnitudes_with_scaling():
    """Data of magnitude 1e-12 select what the unscaled data select (SFMScaler's
    constancy test is relative to each column's own magnitude)."""
    X, y = _separable()
    _same_selection(SupportFeatureMachine, 1e-12 * X, X, y)
