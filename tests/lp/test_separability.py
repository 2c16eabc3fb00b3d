"""The separability test: the early-stopped dual simplex agrees with the LP's optimum,
and its "not separable" carries a verified Farkas certificate."""

import numpy as np
import pytest

from sfmlearn.lp import separability
from sfmlearn.lp.certificates import farkas_check
from sfmlearn.lp.highs import solve_matrix_lp_highs
from sfmlearn.lp.problems import HyperplaneLP, build_matrix_lp
from sfmlearn.lp.separability import is_separable, minimum_slack_hyperplane


def _data(n, d, shift, seed):
    """Two Gaussian classes ``shift`` apart along every feature (large: separable)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return rng.standard_normal((n, d)) + shift / 2 * y[:, None], y


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("n, d, shift", [(60, 3, 4.0), (60, 3, 0.5), (200, 40, 0.0),
                                         (80, 40, 0.0), (900, 30, 0.6), (120, 60, 0.2)])
@pytest.mark.parametrize("seed", [0, 1])
def test_verdict_agrees_with_the_optimum(n, d, shift, seed, fit_intercept):
    X, y = _data(n, d, shift, seed)
    expected = not minimum_slack_hyperplane(X, y, fit_intercept=fit_intercept)[2].any()
    verdict = separability._certified_verdict(X, y, fit_intercept)
    assert verdict in (expected, None)
    assert is_separable(X, y, fit_intercept=fit_intercept) == expected


def test_overlap_is_proven_by_a_verified_certificate():
    """On overlapping classes the dual simplex stops short of the optimum, and its row
    duals are a Farkas proof for the hard rows (checked here independently)."""
    X, y = _data(600, 10, 0.5, 0)
    problem = HyperplaneLP(X, y, np.zeros(10), 1.0, slack_cost=np.ones(600))
    lp = build_matrix_lp(problem, "standard")
    status, _, row_dual, info = solve_matrix_lp_highs(lp, objective_bound=separability.SEPARABLE_TOL)
    optimum = solve_matrix_lp_highs(lp)[3]
    assert status == "bound"
    assert info["iterations"] < optimum["iterations"]
    lam = row_dual[:600]
    # A lower bound on the optimum: sum(lambda), with 0 <= lambda <= 1 and the free
    # columns' reduced costs 0.
    assert 0 < lam.sum() <= optimum["objective"] + 1e-6
    assert lam.min() >= -1e-9 and lam.max() <= 1 + 1e-9
    assert abs(lam @ y) < 1e-8 and np.abs(X.T @ (lam * y)).max() < 1e-8
    hard = HyperplaneLP(X, y, np.zeros(10), 1.0)
    assert farkas_check(hard, lam)[0]
    assert separability._certified_verdict(X, y, True) is False


def test_an_unverified_answer_falls_back_to_the_optimum(monkeypatch):
    """Multipliers that do not verify prove nothing: the LP's optimum decides."""
    X, y = _data(300, 5, 0.3, 2)
    real = solve_matrix_lp_highs

    def corrupted(lp, **options):
        status, x, row_dual, info = real(lp, **options)
        return status, x, None if row_dual is None else row_dual * 0.0, info

    monkeypatch.setattr(separability, "solve_matrix_lp_highs", corrupted)
    calls = []
    original = separability.minimum_slack_hyperplane
    monkeypatch.setattr(separability, "minimum_slack_hyperplane",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    assert separability._certified_verdict(X, y, True) is None
    assert is_separable(X, y) is False
    assert calls


def _hard_sfm_plane(X, y):
    """(w, b) of the hard SFM LP (margin 0) on (X, y): a vertex with samples on it."""
    from sfmlearn.lp import HighsEngine, sfm_lp
    solution = HighsEngine().solve(sfm_lp(X, y, np.ones(X.shape[1])))
    assert solution.status == "optimal"
    return solution.w, solution.b


@pytest.mark.parametrize("n, d, shift, seed", [(60, 3, 2.5, 0), (40, 20, 0.5, 1), (30, 60, 0.0, 2),
                                            (100, 10, 1.5, 0)])
def test_a_zero_margin_vertex_is_moved_off_its_samples(n, d, shift, seed):
    # Strictly separable data: the SFM's vertex has samples on its hyperplane; the
    # moved plane has every margin positive (recomputed here), and the LP agrees.
    X, y = _data(n, d, shift, seed)
    assert not minimum_slack_hyperplane(X, y)[2].any()
    w, b = _hard_sfm_plane(X, y)
    t = y * (X @ w + b)
    assert np.count_nonzero(np.abs(t) <= 1e-9 * np.abs(t).max()) >= 2
    plane = separability.strictly_separating_plane(X, y, w, b)
    assert plane is not None
    assert (y * (X @ plane[0] + plane[1])).min() > 1e-9 * np.abs(t).max()


def test_no_strict_plane_is_claimed_where_none_exists():
    # A point with both labels lies on every weakly separating hyperplane; a plane that
    # misclassifies a sample is not a start at all.
    X, y = _data(40, 5, 4.0, 3)
    X[1] = X[0]  # samples 0 (y = +1) and 1 (y = -1) coincide
    assert minimum_slack_hyperplane(X, y)[2].any()
    w, b = _hard_sfm_plane(X, y)
    assert separability.strictly_separating_plane(X, y, w, b) is None
    X, y = _data(40, 5, 4.0, 3)
    w, b = _hard_sfm_plane(X, y)
    assert separability.strictly_separating_plane(X, -y, w, b) is None


def test_a_strict_plane_is_returned_as_it_is():
    X, y = _data(60, 3, 6.0, 4)
    w = np.ones(3)
    assert (y * (X @ w)).min() > 0
    plane = separability.strictly_separating_plane(X, y, w, 0.0)
    np.testing.assert_array_equal(plane[0], w)
    assert plane[1] == 0.0


def test_a_witness_answers_while_the_columns_hold_it(monkeypatch):
    """The separability LP's separating solution (on the scaled columns) becomes the
    witness; a view of fewer columns that still holds it is answered without an LP; a
    view without one of its columns, a witness whose margins do not hold, and one with a
    sample closer to its plane than the rounding bound go to the LP again; classes that
    no hyperplane separates leave the witness alone."""
    from sfmlearn.lp.operators import ScaledMatrix

    X, y = _data(60, 100, 1.0, 0)
    factor = np.random.default_rng(5).uniform(0.5, 2.0, 100)
    Z = ScaledMatrix(X, factor)

    def margins(witness):
        return y * ((X[:, witness.columns] * factor[witness.columns]) @ witness.w + witness.b)

    witness = separability.SeparationWitness()
    assert separability.inseparable_count(Z, y, witness) == 0
    assert 0 < witness.columns.size < 100 and margins(witness).min() > 0.99
    solved = []
    lp = separability.minimum_slack_hyperplane
    monkeypatch.setattr(separability, "minimum_slack_hyperplane",
                        lambda *args, **kwargs: solved.append(1) or lp(*args, **kwargs))
    outside = np.setdiff1d(np.arange(100), witness.columns)
    assert separability.inseparable_count(Z.subset(np.setdiff1d(np.arange(100), outside[:5])), y, witness) == 0
    assert solved == []
    dropped = witness.columns[0]
    assert separability.inseparable_count(Z.subset(np.setdiff1d(np.arange(100), [dropped])), y, witness) == 0
    assert solved == [1] and dropped not in witness.columns
    witness.w = -witness.w  # margins that do not hold: not believed
    assert separability.inseparable_count(Z, y, witness) == 0
    assert solved == [1, 1] and margins(witness).min() > 0.99
    # moved towards the nearest sample until it is 1e-15 off the plane: within rounding
    nearest = np.argmin(margins(witness))
    witness.b -= y[nearest] * (margins(witness)[nearest] - 1e-15)
    assert 0 < margins(witness).min() < 1e-12
    assert separability.inseparable_count(Z, y, witness) == 0
    assert solved == [1, 1, 1] and margins(witness).min() > 0.99
    X_overlap, y_overlap = _data(40, 2, 0.0, 1)
    empty = separability.SeparationWitness()
    assert separability.inseparable_count(X_overlap, y_overlap, empty) > 0
    assert empty.columns is None
