"""Where do column and row generation start to beat the full LP? (``solver="auto"``)

``--part columns``: first SFM LP (all columns, scaled data) of fMRI-like problems with
n samples and d features, solved by the full LP in HiGHS and by column generation
forced on (``full_lp_below=0``); median of ``--repeat`` solves. ``auto`` switches to
column generation above 4 (n + 1) columns (``lp.rowgen.COLUMN_RATIO``).

``--part rows``: a whole soft SFM fit (C = 1, d = 200 and 2000, 20 informative features
with class means +-0.5 and +-0.25: ``bench_samples.py``'s two data sets) with the samples restricted
or not (``GenerationEngine(rows=True)`` / ``rows=False``; the features restricted by
the "auto" rule either way) for n = 100 ... 2000. ``auto`` restricts the samples from
``lp.rowgen.ROWS_FROM`` = 500 on.

``--part products``: Z^T u on a share of the columns (``ScaledMatrix.rmatvec``), by
gathering those columns first or by multiplying all of X and keeping them, at
88 x 6362, 88 x 50989 and 4000 x 2000; ``rmatvec`` multiplies all of X from
``lp.operators.WHOLE_PRODUCT_FROM`` = 10 % of the columns on.

    python benchmarks/bench_switch_point.py [--part columns|rows|products]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import time

import numpy as np

from sfmlearn.datasets import make_basic
from sfmlearn.lp import HighsEngine, sfm_lp
from sfmlearn.lp.colgen import ColumnGenerationEngine
from sfmlearn.selection._lpdata import LPData


def median_seconds(engine, problem, repeat):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        engine.solve(problem)
        times.append(time.perf_counter() - started)
    return float(np.median(times))


def rows():
    import warnings

    from bench_samples import HARDER_OFFSET, ISSUE_OFFSET, soft_data
    from sfmlearn import SupportFeatureMachine
    from sfmlearn.lp import GenerationEngine
    print(f"{'means':>6} {'n':>5} {'d':>5} {'all rows':>9} {'rows restricted':>15} {'ratio':>6}")
    for offset in (ISSUE_OFFSET, HARDER_OFFSET):
        for d, n in ((d, n) for d in (200, 2000) for n in (100, 150, 250, 500, 1000, 2000)):
            X, y = soft_data(n, d, offset=offset)
            seconds = []
            for solver in (GenerationEngine(rows=False), GenerationEngine(rows=True)):
                started = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    SupportFeatureMachine(C=1.0, solver=solver, refit=None).fit(X, y)
                seconds.append(time.perf_counter() - started)
            print(f"{offset:>6g} {n:5d} {d:5d} {seconds[0]:8.2f}s {seconds[1]:14.2f}s "
                  f"{seconds[0] / seconds[1]:6.2f}", flush=True)


def products(repeat):
    import timeit
    rng = np.random.default_rng(0)
    print(f"{'n':>5} {'d':>6} {'share':>6} {'gather':>9} {'all of X':>9} {'gather/all':>10}")
    for n, d in ((88, 6362), (88, 50989), (4000, 2000)):
        X, u = rng.standard_normal((n, d)), rng.standard_normal(n)
        for share in (0.9, 0.5, 0.2, 0.1, 0.05):
            cols = np.sort(rng.choice(d, int(share * d), replace=False))
            gather = min(timeit.repeat(lambda: X[:, cols].T @ u, number=20, repeat=repeat)) / 20
            whole = min(timeit.repeat(lambda: (X.T @ u)[cols], number=20, repeat=repeat)) / 20
            print(f"{n:5d} {d:6d} {share:6.2f} {1e3 * gather:7.3f}ms {1e3 * whole:7.3f}ms "
                  f"{gather / whole:10.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--part", choices=["columns", "rows", "products"], default="columns")
    args = parser.parse_args()
    if args.part == "rows":
        rows()
        return
    if args.part == "products":
        products(args.repeat)
        return
    full, generated = HighsEngine(), ColumnGenerationEngine(full_lp_below=0)
    print(f"{'n':>4s} {'d':>6s} {'d/(n+1)':>8s} {'full LP':>9s} {'colgen':>9s} {'full/colgen':>11s}")
    for n in (20, 88, 200):
        for ratio in (1, 2, 4, 8, 16, 64):
            d = ratio * (n + 1)
            X, y = make_basic(n, d, max(1, d // 30), class_distance=0.3, positive_fraction=0.5,
                              separable=False, random_state=0)
            data = LPData(X, scale=True)
            problem = sfm_lp(data.X, y.astype(float), data.base_cost)
            a = median_seconds(full, problem, args.repeat)
            b = median_seconds(generated, problem, args.repeat)
            print(f"{n:4d} {d:6d} {ratio:8d} {1e3 * a:8.2f}ms {1e3 * b:8.2f}ms {a / b:11.2f}")


if __name__ == "__main__":
    main()
