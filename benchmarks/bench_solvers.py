"""Column generation vs full LPs: one SFM fit per shape, every engine, in one run.

For each shape: the time of one plain ``X.T @ v`` product in X's dtype (the floor:
every LP must read X at least once) and of our float64 pricing product, a whole hard-SFM fit with our default engine (``solver="auto"``: column
generation), and the same fit with the plain full LP in highspy at its default options
(presolve on), through ``scipy.optimize.linprog(method="highs")`` and through GLPK
(swiglpk, the thesis' open-source solver; small shapes only). Reference points for
users: scikit-learn's ``LinearSVC(penalty="l1")`` and, when installed, ``abess``
(GPL; timed only, never imported by sfmlearn). Ratios are against our time, measured
in the same run.

    python benchmarks/bench_solvers.py [--shapes ...] [--repeat 3]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import resource
import time

import numpy as np
from sklearn.svm import LinearSVC

from _shapes import load
from sfmlearn import SFMScaler, SupportFeatureMachine
from sfmlearn.datasets import make_basic
from sfmlearn.lp import HighsEngine, ScipyEngine
from sfmlearn.lp.glpk import GlpkEngine
from sfmlearn.lp.operators import ScaledMatrix


def _fmri_like(n, d, dtype=np.float64, seed=0):
    if dtype == np.float64:
        return make_basic(n, d, 200, class_distance=0.3, positive_fraction=0.5, separable=False,
                          random_state=seed)
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.standard_normal((n, d), dtype=np.float32)
    X[:, :200] += np.float32(0.3) * y[:, None].astype(np.float32)
    return X, y


SHAPES = {
    "38x7129 (leukemia)": lambda: load("leukemia 38x7129"),
    "88x6362": lambda: _fmri_like(88, 6362),
    "88x50989": lambda: _fmri_like(88, 50989),
    "100x10006 (Weston)": lambda: load("weston 100x10006"),
    "200x100000": lambda: _fmri_like(200, 100_000),
    "100x1000000 float32": lambda: _fmri_like(100, 1_000_000, np.float32),
}
FULL_LP_MAX_ENTRIES = 2e7  # n*d above which the full LPs are skipped (memory, minutes)
GLPK_MAX_ENTRIES = 1e6


def best_of(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - started)
    return min(times), out


def product_seconds(X):
    """The floor: one plain ``X.T @ v`` in X's own dtype (sgemv for float32)."""
    v = np.random.default_rng(0).standard_normal(X.shape[0]).astype(X.dtype)
    return best_of(lambda: X.T @ v, 5)[0]


def pricing_seconds(X):
    """One pricing product of ours: Z^T u in float64 accumulation on the implicitly scaled X."""
    scaler = SFMScaler().fit(X)
    Z = ScaledMatrix(X, scaler.feature_factor_, scaler.mean_)
    u = np.random.default_rng(0).standard_normal(X.shape[0])
    return best_of(lambda: Z.rmatvec(u), 3)[0]


def abess_seconds(X, y):
    try:
        from abess.linear import LogisticRegression
    except ImportError:
        return None
    Xs = SFMScaler().fit_transform(X)
    return best_of(lambda: LogisticRegression(support_size=range(0, 21)).fit(Xs, (y > 0).astype(int)), 1)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for shape in args.shapes:
        X, y = SHAPES[shape]()
        y = np.where(np.asarray(y) == np.unique(y)[1], 1, -1)
        n, d = X.shape
        repeat = args.repeat if n * d <= 2e6 else 1
        floor = product_seconds(X)
        pricing = pricing_seconds(X)
        ours_s, ours = best_of(lambda: SupportFeatureMachine().fit(X, y), repeat)
        first_lp = ours.history_["seconds"][0]
        print(f"\n== {shape}: X^T v {1e3 * floor:.2f} ms (our float64 pricing product "
              f"{1e3 * pricing:.2f} ms); ours (auto) fit {ours_s:.3f} s = "
              f"{ours_s / floor:.0f} products (first LP {first_lp:.3f} s = {first_lp / floor:.1f} "
              f"products; {ours.n_iter_} LPs, {ours.support_.sum()} features); "
              f"peak RSS so far {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GB")
        references = {
            "full LP, highspy defaults": (HighsEngine(presolve=True), FULL_LP_MAX_ENTRIES),
            "full LP, scipy linprog": (ScipyEngine(), FULL_LP_MAX_ENTRIES),
            "full LP, GLPK": (GlpkEngine(), GLPK_MAX_ENTRIES),
        }
        for name, (engine, limit) in references.items():
            if n * d > limit:
                print(f"   {name:<28s} skipped (n*d = {n * d:.1e} > {limit:.0e})")
                continue
            seconds, model = best_of(lambda: SupportFeatureMachine(solver=engine).fit(X, y), 1)
            same = np.array_equal(model.support_, ours.support_)
            print(f"   {name:<28s} {seconds:9.3f} s   x{seconds / ours_s:7.1f} slower   same support: {same}")
        if n * d <= FULL_LP_MAX_ENTRIES:
            Xs = SFMScaler().fit_transform(X)
            seconds, _ = best_of(lambda: LinearSVC(penalty="l1", dual=False, C=1.0).fit(Xs, y), 1)
            print(f"   {'LinearSVC(penalty=l1)':<28s} {seconds:9.3f} s   x{seconds / ours_s:7.1f}")
            seconds = abess_seconds(X, y)
            if seconds is not None:
                print(f"   {'abess LogisticRegression':<28s} {seconds:9.3f} s   x{seconds / ours_s:7.1f}")


if __name__ == "__main__":
    main()
