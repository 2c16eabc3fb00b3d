"""Row and column generation: the full LP's optimum for every engine choice.

Each problem is solved by the full LP in HiGHS (the reference) and by every generation
mode; objective and support must agree (random continuous data have a unique optimal
vertex), and each answer is checked against every sample's row.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sfmlearn import SupportFeatureMachine
from sfmlearn.lp import GenerationEngine, HighsEngine, sfm_lp, weston_lp
from sfmlearn.lp.engines import make_engine
from sfmlearn.lp.operators import ScaledMatrix
from sfmlearn.lp.rowgen import ROWS_FROM

ENGINES = ["auto", "rowcolgen", "rowgen", "colgen"]


def _data(n, d, *, separable, fmt="dense", dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.4, 1.0, -1.0)  # unbalanced on purpose
    X = rng.standard_normal((n, d))
    if separable:  # a margin in the first three features
        X[:, :3] = y[:, None] * (0.5 + np.abs(X[:, :3]))
    else:
        X[:, :5] += 0.4 * y[:, None]
    if fmt == "sparse":
        X[rng.random((n, d)) < 0.7] = 0.0
        return sp.csr_array(X.astype(dtype)), y
    return X.astype(dtype), y


def _problem(kind, X, y):
    d = X.shape[1]
    cost = np.random.default_rng(1).uniform(0.5, 2.0, d)
    weights = np.where(y > 0, 1.0 / np.mean(y > 0), 1.0 / np.mean(y < 0)) / y.size
    soft = {"hard": None, "soft": np.full(y.size, 0.5), "weighted": 40.0 * weights}
    if kind.startswith("weston"):
        return weston_lp(X, y, cost, slack_cost=soft[kind.split("-")[1]])
    name, slack, *eq = kind.split("-")
    return sfm_lp(X, y, cost, slack_cost=soft[slack], sign=-1.0 if "minus" in eq else 1.0,
                  equality="mean_margin" if "mean" in eq else "class_means")


def _assert_same_optimum(problem, solution, reference):
    assert solution.status == reference.status == "optimal"
    assert solution.objective == pytest.approx(reference.objective, rel=1e-7, abs=1e-9)
    np.testing.assert_array_equal(np.flatnonzero(solution.w), np.flatnonzero(reference.w))
    # Every sample's row, whether or not it was in the master.
    X = problem.X.dense_block()
    t = problem.y * (X @ solution.w + solution.b)
    xi = solution.xi if problem.is_soft else 0.0
    scale = 1.0 + np.abs(solution.w).sum() * np.abs(X).max()
    assert np.all(t + xi >= problem.margin - 1e-7 * scale)


CASES = [  # (kind, n, d, fmt, dtype, separable)
    ("sfm-hard", 250, 100, "dense", np.float64, True),
    ("sfm-soft", 300, 120, "dense", np.float64, False),
    ("sfm-soft-minus", 300, 120, "dense", np.float64, False),
    ("sfm-weighted", 250, 200, "dense", np.float32, False),
    ("sfm-soft-mean", 250, 80, "dense", np.float64, False),
    ("sfm-soft", 250, 300, "sparse", np.float64, False),
    ("weston-hard", 250, 100, "dense", np.float64, True),
    ("weston-soft", 300, 100, "dense", np.float32, False),
    ("weston-weighted", 250, 150, "sparse", np.float64, False),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind, n, d, fmt, dtype, separable", CASES,
                         ids=[f"{c[0]}-{c[1]}x{c[2]}-{c[3]}-{np.dtype(c[4]).name}" for c in CASES])
def test_every_engine_finds_the_full_lp_optimum(engine, kind, n, d, fmt, dtype, separable):
    X, y = _data(n, d, separable=separable, fmt=fmt, dtype=dtype)
    problem = _problem(kind, X, y)
    reference = HighsEngine().solve(problem)
    solution = make_engine(engine).solve(problem)
    _assert_same_optimum(problem, solution, reference)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sfm-hard", "sfm-soft", "sfm-weighted", "weston-soft"])
@pytest.mark.parametrize("n, d", [(3000, 300), (1000, 3000), (3000, 3000)])
def test_large_problems_match_the_full_lp(kind, n, d):
    X, y = _data(n, d, separable=kind.endswith("hard"), dtype=np.float32 if n == d else np.float64)
    problem = _problem(kind, X, y)
    reference = HighsEngine().solve(problem)
    for engine in ENGINES:
        _assert_same_optimum(problem, make_engine(engine).solve(problem), reference)


def test_auto_restricts_the_samples_from_rows_from_on():
    X, y = _data(1200, 100, separable=False)
    solution = make_engine("auto").solve(_problem("sfm-soft", X, y))
    assert solution.info["mode"] == "rowgen" and solution.info["working_rows"] < 1200
    small = make_engine("auto").solve(_problem("sfm-soft", X[:ROWS_FROM - 1], y[:ROWS_FROM - 1]))
    assert small.engine == "highs"


def test_a_violated_sample_missed_by_the_first_master_is_added():
    # Hard Weston LP; the first master holds 2 samples, so the others are only priced.
    X, y = _data(300, 20, separable=True, seed=3)
    problem = weston_lp(X, y, np.ones(20))
    engine = GenerationEngine(rows=True, columns=False, initial_rows=2, row_batch=5)
    solution = engine.solve(problem)
    assert solution.info["rounds"] > 1 and solution.info["working_rows"] > 2
    t = y * (X @ solution.w + solution.b)
    assert t.min() >= 1.0 - 1e-7 * (1 + np.abs(solution.w).sum() * np.abs(X).max())
    assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)


@pytest.mark.parametrize("degeneracy", ["duplicated samples", "duplicated features", "ties"])
@pytest.mark.parametrize("engine", ENGINES)
def test_degenerate_data_give_the_full_lp_objective(engine, degeneracy):
    X, y = _data(200, 50, separable=False, seed=5)
    if degeneracy == "duplicated samples":
        X, y = np.vstack([X, X[:100]]), np.r_[y, y[:100]]
    elif degeneracy == "duplicated features":
        X = np.hstack([X, X[:, :30]])
    else:  # coarse values: many equal activities and equal reduced costs
        X = np.round(X)
    problem = sfm_lp(X, y, np.ones(X.shape[1]), slack_cost=np.full(y.size, 0.3))
    reference = HighsEngine().solve(problem)
    solution = make_engine(engine).solve(problem)
    assert solution.objective == pytest.approx(reference.objective, rel=1e-7)


def _session_after_a_first_lp():
    """A session that solved a soft SFM LP on 1100 x 60: (X, y, Z, session, slack, first)."""
    X, y = _data(1100, 60, separable=False, seed=7)
    Z = ScaledMatrix(X)
    session = GenerationEngine().session()
    slack = np.full(y.size, 0.5)
    first = session.solve(sfm_lp(Z, y, np.ones(60), slack_cost=slack))
    return X, y, Z, session, slack, first


def test_a_session_solves_a_sequence_warm_and_right():
    # The reweighting loop's pattern: same data, new costs, fewer columns, then the other
    # sign (a new run, started from the mirrored first solution).
    X, y, Z, session, slack, first = _session_after_a_first_lp()
    keep = np.flatnonzero(first.w)
    second = session.solve(sfm_lp(Z.subset(keep), y, 1 / np.abs(first.w[keep]), slack_cost=slack))
    other = session.solve(sfm_lp(Z, y, np.ones(60), slack_cost=slack, sign=-1.0))
    for problem, solution in [
        (sfm_lp(X[:, keep], y, 1 / np.abs(first.w[keep]), slack_cost=slack), second),
        (sfm_lp(X, y, np.ones(60), slack_cost=slack, sign=-1.0), other),
    ]:
        assert solution.objective == pytest.approx(HighsEngine().solve(problem).objective, rel=1e-7)


def test_a_warm_solve_starts_with_rows_for_the_band_nearest_its_start(monkeypatch):
    # rowgen.WARM_BAND: the first master of a reweighting step holds the samples nearest
    # its start's margin, WARM_BAND times as many as lie on it; the answer is the full LP's.
    from sfmlearn.lp import master as master_module
    from sfmlearn.lp import rowgen
    from sfmlearn.lp.pricing import activities

    X, y, Z, session, slack, first = _session_after_a_first_lp()
    keep = np.flatnonzero(first.w)
    cost = 1 / np.abs(first.w[keep])
    t, scale = activities(sfm_lp(Z.subset(keep), y, cost, slack_cost=slack),
                          np.arange(keep.size), first.w[keep], first.b)
    on_margin = np.count_nonzero(np.abs(t) <= rowgen.ON_MARGIN * scale)
    band = np.argsort(np.abs(t), kind="stable")[: int(rowgen.WARM_BAND * on_margin)]
    assert band.size > on_margin > 0
    first_rows, run = [], master_module.Master.run

    def record(master):
        if not first_rows:
            first_rows.append(master.samples.copy())
        return run(master)

    monkeypatch.setattr(master_module.Master, "run", record)
    second = session.solve(sfm_lp(Z.subset(keep), y, cost, slack_cost=slack))
    assert np.isin(band, first_rows[0]).all()
    reference = HighsEngine().solve(sfm_lp(X[:, keep], y, cost, slack_cost=slack))
    assert second.objective == pytest.approx(reference.objective, rel=1e-7)


def test_an_infeasible_hard_problem_is_proved_infeasible():
    X, y = _data(1200, 10, separable=False, seed=2)
    solution = GenerationEngine(rows=True).solve(sfm_lp(X, y, np.ones(10)))
    assert solution.status == "infeasible"
    assert solution.info["certificate"]["source"] == "priced farkas ray"


@pytest.mark.parametrize("balanced", [True, False])
def test_the_other_sign_starts_from_the_mirrored_solution(balanced):
    """With class-balanced slack costs the mirrored first solution is the other sign's
    optimum: HiGHS starts there (crossover) and needs no simplex iteration. Otherwise
    it is a feasible start, and the optimum is still the full LP's."""
    X, y = _data(1200, 50, separable=False, seed=5)
    if balanced:
        y = np.where(np.arange(y.size) % 2 == 0, 1.0, -1.0)
        X[:, :5] += 0.4 * y[:, None]
    Z = ScaledMatrix(X)
    session = GenerationEngine().session()
    slack = np.full(y.size, 0.5)
    first = session.solve(sfm_lp(Z, y, np.ones(50), slack_cost=slack))
    keep = np.flatnonzero(first.w)
    session.solve(sfm_lp(Z.subset(keep), y, 1 / np.abs(first.w[keep]), slack_cost=slack))
    problem = sfm_lp(Z, y, np.ones(50), slack_cost=slack, sign=-1.0)
    other = session.solve(problem)
    _assert_same_optimum(problem, other, HighsEngine().solve(sfm_lp(X, y, np.ones(50),
                                                                   slack_cost=slack, sign=-1.0)))
    if balanced:
        assert other.iterations == 0
        np.testing.assert_allclose(other.w, -first.w, atol=1e-12)
        assert other.objective == pytest.approx(first.objective + 0.5 * y.size / 2, rel=1e-9)


@pytest.mark.parametrize("solver", ["rowcolgen", "rowgen"])
def test_estimators_select_the_same_features_with_row_generation(solver):
    X, y = _data(1000, 60, separable=False, seed=11)
    reference = SupportFeatureMachine(C=1.0, solver="highs", refit=None).fit(X, y)
    model = SupportFeatureMachine(C=1.0, solver=solver, refit=None).fit(X, y)
    np.testing.assert_array_equal(model.support_, reference.support_)
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-6, atol=1e-9)


def test_kept_support_blocks_change_no_fit(monkeypatch):
    """Slicing the kept support block instead of gathering from X is bit-identical."""
    X, y = _data(1000, 60, separable=False, seed=12)
    kept = SupportFeatureMachine(C=1.0).fit(X, y)
    monkeypatch.setattr("sfmlearn.lp.operators.CACHE_ELEMENTS", 0)
    gathered = SupportFeatureMachine(C=1.0).fit(X, y)
    np.testing.assert_array_equal(kept.coef_, gathered.coef_)
    np.testing.assert_array_equal(kept.history_["lp_iterations"], gathered.history_["lp_iterations"])


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("fmt", ["dense", "csr", "csc"])
def test_master_entries_are_those_of_the_signed_block(axis, fmt):
    # The master builds its rows (axis 0) and columns (axis 1) from diag(y) @ block:
    # the entries must be that product's non-zeros, compressed and sorted, for every
    # storage of the block (explicit zeros dropped).
    from sfmlearn.lp.master import _signed_entries

    rng = np.random.default_rng(3)
    block = rng.standard_normal((7, 5))
    block[rng.random((7, 5)) < 0.5] = 0.0
    y = np.where(rng.random(7) < 0.5, 1.0, -1.0)
    given = {"dense": block, "csr": sp.csr_array(block), "csc": sp.csc_array(block)}[fmt]
    if fmt != "dense":
        given.data[0] = 0.0  # a stored zero
        block = given.toarray()
    indptr, indices, values = _signed_entries(given, y, axis)
    expected = (sp.csr_array if axis == 0 else sp.csc_array)(y[:, None] * block)
    expected.eliminate_zeros()
    expected.sort_indices()
    np.testing.assert_array_equal(indptr, expected.indptr)
    np.testing.assert_array_equal(indices, expected.indices)
    np.testing.assert_array_equal(values, expected.data)


@pytest.mark.parametrize("zeros", ["none", "data", "extra"])
def test_dense_master_columns_are_the_sparse_builds(zeros):
    # A dense block takes its own path to the master's columns; the arrays must be the
    # ones built from the same block stored sparse: per column the data on the sample
    # rows in order, then the non-zero coefficients of the extra rows, with every zero
    # (-0.0 too) left out.
    from sfmlearn.lp.master import _column_entries

    rng = np.random.default_rng(4)
    block = rng.standard_normal((9, 6))
    extra = [rng.standard_normal(6), rng.standard_normal(6)]
    if zeros == "data":
        block[rng.random((9, 6)) < 0.4] = 0.0
        block[0, 0] = -0.0
    if zeros == "extra":
        extra[1][[0, 3]] = 0.0
    y = np.where(rng.random(9) < 0.5, 1.0, -1.0)
    rows = np.array([1, 2, 4, 5, 6, 8, 9, 10, 12])
    dense = _column_entries(block, y, rows, [0, 11], extra)
    sparse = _column_entries(sp.csc_array(block), y, rows, [0, 11], extra)
    for got, expected in zip(dense, sparse):
        np.testing.assert_array_equal(got, expected)
    assert dense[2].size == np.count_nonzero(block) + sum(np.count_nonzero(e) for e in extra)


def test_cost_changes_are_solved_warm_with_the_strategy_choice_and_right():
    # The reweighting loop on few samples (the repetitive SFM's pattern): only costs
    # change and columns go, so the last basis stays primal feasible and HiGHS' "choose"
    # strategy continues with the primal simplex; every answer must be the full LP's.
    from sfmlearn.lp.master import SIMPLEX_STRATEGY

    X, y = _data(80, 400, separable=True, seed=5)
    Z = ScaledMatrix(X)
    session = GenerationEngine().session()
    columns, cost = np.arange(400), np.ones(400)
    for _ in range(4):
        solution = session.solve(sfm_lp(Z.subset(columns), y, cost))
        reference = HighsEngine().solve(sfm_lp(X[:, columns], y, cost))
        assert solution.objective == pytest.approx(reference.objective, rel=1e-7)
        np.testing.assert_array_equal(solution.w != 0, reference.w != 0)
        keep = np.flatnonzero(solution.w)
        columns, cost = columns[keep], 1.0 / np.abs(solution.w[keep])
    assert SIMPLEX_STRATEGY == 0
    assert session.master.h.getOptionValue("simplex_strategy")[1] == SIMPLEX_STRATEGY
