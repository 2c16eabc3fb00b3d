"""The hard-margin SVM (nearest points of the class hulls) on thin margins.

An interior point cannot certify thin hard margins: with it, the SFM's refit="svm" would
fall back to centring on 3-7 % of the fits of an rSFM. The instances in
``data/refit_thin_margins.npz`` are refits on which it raised SolverError, collected by
``benchmarks/bench_refit_fallbacks.py --collect`` (estimate_informative_fraction on
88 x 2000 synthetic data and the simulated fMRI workflow); ``thin_hard_margin.npz`` is
a 16 x 9 late-rSFM refit. Optimality is proved independently: the KKT equations on the
returned support vectors are solved in exact rational arithmetic and every multiplier
and every margin of that exact solution is checked.
"""

import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sfmlearn import SupportFeatureMachine
from sfmlearn.exceptions import NotSeparableError, SolverError
from sfmlearn.lp.problems import HyperplaneLP
from sfmlearn.optim import hard_margin_svm, linear_svm, solve_hyperplane_qp
from sfmlearn.optim.qp import KKT_TOL

DATA = Path(__file__).parent / "data"
REFITS = np.load(DATA / "refit_thin_margins.npz")
REFIT_NAMES = sorted(name[2:] for name in REFITS.files if name.startswith("X_"))


def _refit(name):
    return REFITS[f"X_{name}"], REFITS[f"y_{name}"].astype(np.float64)


def _thin_16x9():
    data = np.load(DATA / "thin_hard_margin.npz")
    return data["X"], data["y"]


def _squashed(seed, n=80, k=20, thickness=1e-6):
    """Gaussian points pressed towards a random hyperplane, labelled by its side.

    Separable with geometric margin ~ thickness x the data scale: ||w|| ~ 1e6 at
    thickness 1e-6 (the old interior point failed on these; so did the SFM refit).
    """
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, k))
    v = rng.standard_normal(k)
    v /= np.linalg.norm(v)
    t = X @ v
    return X - np.outer(t, v) * (1 - thickness), np.where(t > 0, 1.0, -1.0)


def _exact_kkt(X, y, support):
    """(w, b, alpha, margins) solving the KKT equations on ``support`` exactly.

    [Z_S Z_S^T  y_S; y_S^T 0] [alpha; b] = [1; 0] with z_s = y_s x_s, by Gauss-Jordan
    elimination on Fractions (the floats are exact rationals); w = sum_s alpha_s z_s.
    """
    Z = [[Fraction(float(v)) * int(y[s]) for v in X[s]] for s in support]
    labels = [int(y[s]) for s in support]
    p = len(support)
    rows = [[sum(a * c for a, c in zip(Z[i], Z[j])) for j in range(p)]
            + [Fraction(labels[i]), Fraction(1)] for i in range(p)]
    rows.append([Fraction(v) for v in labels] + [Fraction(0), Fraction(0)])
    for col in range(p + 1):
        pivot = next(r for r in range(col, p + 1) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(p + 1):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * c for a, c in zip(rows[r], rows[col])]
    solution = [rows[r][p + 1] / rows[r][r] for r in range(p + 1)]
    alpha, b = solution[:p], solution[p]
    w = [sum(alpha[t] * Z[t][j] for t in range(p)) for j in range(X.shape[1])]
    margins = [int(y[i]) * (sum(Fraction(float(v)) * wj for v, wj in zip(X[i], w)) + b)
               for i in range(X.shape[0])]
    return w, b, alpha, margins


def _assert_exactly_optimal(X, y, w, b, support, rtol=1e-9):
    exact_w, exact_b, alpha, margins = _exact_kkt(X, y, support)
    # The exact KKT point of the returned support set is the optimum (convex QP) ...
    assert all(a > 0 for a in alpha)
    assert all(m >= 1 for m in margins)
    # ... and the returned hyperplane is it, to rounding.
    exact_w = np.array([float(v) for v in exact_w])
    assert np.linalg.norm(w - exact_w) <= rtol * np.linalg.norm(exact_w)
    assert abs(b - float(exact_b)) <= 1e-9 * (1 + np.abs(exact_w).sum())


SMALL = [name for name in REFIT_NAMES if _refit(name)[0].shape[1] <= 20]


@pytest.mark.parametrize("name", SMALL)
def test_refits_that_fell_back_are_solved_to_the_exact_optimum(name):
    X, y = _refit(name)
    w, b = linear_svm(X, y)
    support = np.flatnonzero(hard_margin_svm(X, y).margin_duals > 0)
    _assert_exactly_optimal(X, y, w, b, support)


def test_late_rsfm_refit_16x9_is_solved_to_the_exact_optimum():
    X, y = _thin_16x9()
    w, b = linear_svm(X, y)
    assert np.abs(w).sum() > 1e4  # the thin margin: ||w||_1 ~ 2e5 at data scale 0.1
    _assert_exactly_optimal(X, y, w, b, np.flatnonzero(hard_margin_svm(X, y).margin_duals > 0))


@pytest.mark.parametrize("name", REFIT_NAMES)
def test_certificate_of_the_thin_refits(name):
    X, y = _refit(name)
    solution = hard_margin_svm(X, y)
    alpha = solution.margin_duals
    assert solution.info["duality_gap"] <= KKT_TOL
    assert alpha.min() >= 0 and abs(alpha @ y) <= 1e-9 * alpha.sum()
    # The gap is recomputed here from w, b and alpha alone.
    margins = y * (X @ solution.w + solution.b)
    assert margins.min() >= 1 - 1e-9
    primal = 0.5 * solution.w @ solution.w
    g = X.T @ (alpha * y)
    assert (primal - (alpha.sum() - 0.5 * g @ g)) / primal <= KKT_TOL
    # Stationarity w = sum_i alpha_i y_i x_i and complementary slackness.
    assert np.linalg.norm(solution.w - g) <= 1e-6 * np.linalg.norm(solution.w)
    assert alpha @ (margins - 1) <= 1e-6 * primal


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("thickness", [1e-4, 1e-6])
def test_generated_thin_margins_are_solved_to_the_exact_optimum(seed, thickness):
    X, y = _squashed(seed, n=60, k=12, thickness=thickness)
    solution = hard_margin_svm(X, y)
    assert np.linalg.norm(solution.w) > 0.1 / thickness
    # Rounding of w grows like eps / thickness (the KKT system's conditioning): measured
    # 0.7-1.4e-11 at 1e-4 and 0.95-1.23e-9 at 1e-6 (5.5 eps / thickness at most); the
    # bound allows 50 eps / thickness, never less than 1e-9.
    rtol = max(1e-9, 50 * np.finfo(float).eps / thickness)
    _assert_exactly_optimal(X, y, solution.w, solution.b,
                            np.flatnonzero(solution.margin_duals > 0), rtol=rtol)


def _shapes():
    rng = np.random.default_rng(5)
    for n, k in [(2, 1), (5, 30), (40, 1), (60, 8), (150, 25), (300, 60)]:
        X = rng.standard_normal((n, k))
        t = X @ rng.standard_normal(k)
        yield f"gaussian {n}x{k}", X, np.where(t > np.median(t), 1.0, -1.0)
    X = rng.integers(0, 3, (90, 6)).astype(float)  # ties: many points on the margin
    yield "integer 90x6", X, np.where(X @ np.array([1.0, -1, 2, 0.5, -0.5, 1]) > 1.25, 1.0, -1.0)
    X = rng.standard_normal((50, 10))
    X = np.vstack([X, X[:25]])  # duplicated samples
    yield "duplicates 75x10", X, np.where(X[:, 0] - X[:, 1] > 0, 1.0, -1.0)
    X = rng.standard_normal((60, 5)) * 1e3
    yield "scale 1e3", X, np.where(X[:, 0] > 0, 1.0, -1.0)


@pytest.mark.parametrize("label, X, y", list(_shapes()), ids=lambda v: v if isinstance(v, str) else "")
def test_agrees_with_the_interior_point_where_that_one_certifies(label, X, y):
    # The interior point (an unrelated algorithm) on the soft margin with a price raised
    # until it is above the hard margin's multipliers (an exact penalty): a certified
    # soft optimum that keeps every margin (xi = 0) is the hard-margin optimum.
    for factor in (1e4, 1e7, 1e10):
        price = np.full(y.size, factor / np.abs(X).max() ** 2)
        problem = HyperplaneLP(X, y, np.zeros(X.shape[1]), 1.0, slack_cost=price)
        reference = solve_hyperplane_qp(problem, gap_tol=1e-8)
        if np.all(y * (X @ reference.w + reference.b) >= 1 - 1e-9):
            break
    else:
        pytest.fail("no price made the soft margin hard")
    w, b = linear_svm(X, y)
    assert 0.5 * w @ w == pytest.approx(0.5 * reference.w @ reference.w, rel=1e-7)
    np.testing.assert_allclose(w, reference.w, atol=1e-5 * np.abs(reference.w).max())
    assert (y * (X @ w + b)).min() >= 1 - 1e-9


@pytest.mark.parametrize("seed", [0, 2])
def test_soft_margin_with_a_huge_c_on_a_thin_margin_is_the_hard_margin(seed):
    # C = 1e9 on a margin of 1e-4 x the data scale: the interior point failed its
    # certificate (SolverError); every multiplier of the hard margin is below C, so
    # the hard-margin solution satisfies the soft problem's KKT conditions.
    X, y = _squashed(seed, n=60, k=12, thickness=1e-4)
    C = np.full(y.size, 1e9)
    w, b = linear_svm(X, y, C)
    hard = hard_margin_svm(X, y)
    assert hard.margin_duals.max() <= 1e9
    np.testing.assert_allclose(w, hard.w, rtol=1e-6)
    assert (y * (X @ w + b)).min() >= 1 - 1e-9  # xi = 0


def test_sfm_refit_on_a_thin_margin_does_not_fall_back():
    # The hard SFM needs all 20 features here (the only separating direction is the
    # thin one); its SVM refit failed and was replaced by centring, with a warning.
    X, y = _squashed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sfm = SupportFeatureMachine().fit(X, y)
    selected = sfm.support_
    assert selected.sum() == 20
    # The final hyperplane is the SVM of the selected (scaled) features.
    w, b = linear_svm(sfm.scaler_.transform(X)[:, selected], y)
    np.testing.assert_allclose(sfm.decision_function(X), sfm.scaler_.transform(X)[:, selected] @ w + b,
                               rtol=1e-6, atol=1e-6)
    assert (y * sfm.decision_function(X)).min() >= 1 - 1e-6


def test_non_separable_data_at_large_scale_are_reported_as_such():
    # Random labels, 185 x 63 at data scale 3e3: HiGHS' feasibility LP ended with
    # status 'Unknown' (SolverError) on 11 of 12 seeds; the minimum-slack LP at unit
    # scale decides them.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((185, 63)) * 3e3
    y = np.where(rng.random(185) < 0.5, 1.0, -1.0)
    with pytest.raises(NotSeparableError):
        linear_svm(X, y)


@pytest.mark.parametrize("seed", range(3))
def test_margins_beyond_double_precision_raise_or_are_certified(seed):
    # Thickness 1e-9 of the data scale: no double-precision answer is trustworthy to
    # a gap of 1e-6. Whatever happens, a returned hyperplane must be a verified one.
    X, y = _squashed(seed, thickness=1e-9)
    try:
        w, b = linear_svm(X, y)
    except (SolverError, NotSeparableError):
        return
    solution = hard_margin_svm(X, y)
    assert (y * (X @ w + b)).min() >= 1 - 1e-9
    assert solution.info["duality_gap"] <= KKT_TOL


def _exact_phase_only(X, y):
    """Wolfe's loop in the data's coordinates from the classic start (the solver before
    the Gram phase was added)."""
    from sfmlearn.optim import hard_margin as hm
    Z = X * y[:, None]
    positive = y > 0
    (S, _, (w, b)), steps = hm._wolfe(hm._ExactGeometry(Z, y), positive,
                                      hm._first_corral(Z, positive), 10 ** 4)
    return S, w, b, steps


@pytest.mark.parametrize("label, X, y", list(_shapes())[2:], ids=lambda v: v if isinstance(v, str) else "")
def test_the_gram_phase_leaves_one_exact_step(label, X, y):
    # The cheap phase on Z Z^T finds the corral; the exact loop then only confirms it
    # (one major step) and the hyperplane is the one the exact loop finds on its own.
    solution = hard_margin_svm(X, y)
    _, w, b, exact_alone = _exact_phase_only(X, y)
    assert solution.info["steps"]["exact"] == 1
    assert solution.info["steps"]["gram"] >= min(exact_alone, 3)
    np.testing.assert_allclose(solution.w, w, rtol=1e-9, atol=1e-12 * np.abs(w).max())
    assert solution.b == pytest.approx(b, rel=1e-9, abs=1e-12)


def test_a_corral_spoiled_by_rounding_is_finished_by_the_exact_phase():
    # At thickness 1e-8 the Gram matrix's rounding (eps |z|^2) exceeds ||x||^2: the
    # Gram phase stops early and the exact phase needs further steps, but ends at the
    # exact loop's own answer.
    X, y = _squashed(1, n=60, k=12, thickness=1e-8)
    solution = hard_margin_svm(X, y)
    _, w, _, _ = _exact_phase_only(X, y)
    assert solution.info["steps"]["exact"] > 1
    np.testing.assert_allclose(solution.w, w, rtol=1e-6)


def test_many_samples_do_not_form_the_whole_gram_matrix():
    # 20000 samples: Z Z^T would take 3.2 GB; the Gram phase forms only the rows of the
    # samples that join its corral.
    import tracemalloc
    rng = np.random.default_rng(3)
    X = rng.standard_normal((20000, 5))
    t = X @ rng.standard_normal(5)
    keep = np.abs(t) > 0.2
    X, y = X[keep], np.where(t[keep] > 0, 1.0, -1.0)
    tracemalloc.start()
    solution = hard_margin_svm(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * X.nbytes
    assert (y * (X @ solution.w + solution.b)).min() >= 1 - 1e-9
    assert solution.info["duality_gap"] <= KKT_TOL


def test_one_class_is_rejected():
    with pytest.raises(ValueError, match="both classes"):
        hard_margin_svm(np.ones((3, 2)), np.ones(3))


@pytest.mark.parametrize("label, X, y", list(_shapes())[2:], ids=lambda v: v if isinstance(v, str) else "")
def test_a_start_changes_the_steps_not_the_answer(label, X, y):
    # From its own support vectors the Gram phase needs about one step per vector it
    # lacks (none); from a random half, one class only, or a start that repeats a sample
    # (a singular corral: the classic start is used) it still ends at the same plane.
    plain = hard_margin_svm(X, y)
    support = plain.margin_duals > 0
    rng = np.random.default_rng(0)
    repeated = np.zeros(y.size, dtype=bool)
    if label.startswith("duplicates"):
        repeated[[0, 50]] = True  # sample 50 is a copy of sample 0
        repeated[np.flatnonzero(y != y[0])[0]] = True
    starts = {"support": support, "random half": rng.random(y.size) < 0.5,
              "one class": y > 0, "repeated": repeated if repeated.any() else None}
    for name, start in starts.items():
        solution = hard_margin_svm(X, y, start=start)
        np.testing.assert_allclose(solution.w, plain.w, rtol=1e-9, atol=1e-12 * np.abs(plain.w).max(),
                                   err_msg=name)
        assert solution.b == pytest.approx(plain.b, rel=1e-9, abs=1e-12), name
        if name == "one class":
            assert solution.info["steps"] == plain.info["steps"]
    from_support = hard_margin_svm(X, y, start=support).info["steps"]
    assert from_support["gram"] <= 2 and from_support["exact"] == 1
