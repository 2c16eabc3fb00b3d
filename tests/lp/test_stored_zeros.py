"""Sparse input with explicitly stored zeros is the same LP as its dense equivalent.

``Z = csr_matrix(X); Z.data[::3] = 0`` stores zeros where there were values: the LP
builders must count the entries they materialise (the scaled block drops stored zeros),
not the entries the user's matrix stores.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn import FSV, L1SVM, RLP, SupportFeatureMachine, WestonZeroNormSVM
from sfmlearn.lp import HighsEngine, sfm_lp
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.lp.operators import ScaledMatrix
from sfmlearn.lp.problems import build_matrix_lp, data_columns


def with_stored_zeros(X, fmt, every=2):
    """``X`` as a csr/csc matrix that also stores every ``every``-th zero explicitly."""
    zeros = np.argwhere(X == 0)[::every]
    coo = sp.coo_matrix(X)
    rows = np.r_[coo.row, zeros[:, 0]]
    cols = np.r_[coo.col, zeros[:, 1]]
    data = np.r_[coo.data, np.zeros(len(zeros), X.dtype)]
    Z = sp.coo_matrix((data, (rows, cols)), shape=X.shape).asformat(fmt)
    assert Z.nnz > np.count_nonzero(X) and Z.dtype == X.dtype
    return Z


def _data(dtype, seed=0, n=36, d=30):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, d))
    X[:, :3] += 0.8 * y[:, None]  # informative but overlapping: non-degenerate soft LPs
    X[np.abs(X) < 0.5] = 0.0
    return X.astype(dtype), y


ESTIMATORS = {
    "sfm": lambda: SupportFeatureMachine(C=1.0),
    "weston": lambda: WestonZeroNormSVM(C=1.0),
    "rlp": RLP,
    "l1svm": L1SVM,
    "fsv": FSV,
}


@pytest.mark.parametrize("name", list(ESTIMATORS))
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_stored_zeros_give_the_dense_selection_and_objective(name, fmt, dtype):
    X, y = _data(dtype)
    Z = with_stored_zeros(X, fmt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = ESTIMATORS[name]().fit(X, y)
        stored = ESTIMATORS[name]().fit(Z, y)
        clean = ESTIMATORS[name]().fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(stored.history_["objective"], dense.history_["objective"],
                               rtol=1e-7, atol=1e-9)
    if name != "rlp":  # RLP prices no feature: its optimal w is not unique, dense or sparse
        np.testing.assert_array_equal(stored.support_, dense.support_)
    # Without the stored zeros the LP is the same matrix: identical weights.
    np.testing.assert_array_equal(stored.coef_, clean.coef_)


@pytest.mark.filterwarnings("ignore:The 1 selected features separate:UserWarning")
def test_hard_sfm_with_stored_zeros():
    rng = np.random.default_rng(3)
    y = np.where(np.arange(20) % 2 == 0, 1, -1)
    X = rng.standard_normal((20, 40))
    X[:, 0] += 3 * y
    X[np.abs(X) < 0.7] = 0.0
    Z = sp.csr_matrix(X)
    Z.data[::3] = 0.0  # stored zeros where there were values
    dense = SupportFeatureMachine().fit(Z.toarray(), y)
    stored = SupportFeatureMachine().fit(Z, y)
    np.testing.assert_array_equal(stored.support_, dense.support_)
    np.testing.assert_allclose(stored.history_["objective"], dense.history_["objective"], rtol=1e-7)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_builders_count_only_materialised_entries(fmt):
    X, y = _data(np.float64, seed=1)
    Z = with_stored_zeros(X, fmt)
    factor = np.linspace(0.5, 2.0, X.shape[1])  # scaling drops the stored zeros
    operator = ScaledMatrix(Z, factor)
    assert operator.nnz == np.count_nonzero(X)
    assert operator.block().nnz == np.count_nonzero(X)
    problem = sfm_lp(operator, y.astype(float), np.ones(X.shape[1]))
    for formulation in ("standard", "sparse"):
        lp = build_matrix_lp(problem, formulation)
        assert np.all(lp.value != 0.0) and lp.start[-1] == lp.value.size
    start, index, value = data_columns(operator, y.astype(float))
    assert value.size == np.count_nonzero(X) and np.all(value != 0.0)
    dense_problem = sfm_lp(ScaledMatrix(X, factor), y.astype(float), np.ones(X.shape[1]))
    assert HighsEngine().solve(problem).objective == pytest.approx(
        HighsEngine().solve(dense_problem).objective, rel=1e-9)
    # Column generation builds its columns with data_columns: same answer.
    generated = ColumnGenerationEngine(full_lp_below=0, initial_size=2).solve(problem)
    assert generated.objective == pytest.approx(HighsEngine().solve(dense_problem).objective, rel=1e-7)
