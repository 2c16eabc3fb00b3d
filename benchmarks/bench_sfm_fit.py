"""A whole SFM fit with our engines vs the same LPs through scipy's linprog.

``solver="highs"`` (our full-LP engine: model passed in one call, presolve off) and the
reference ``scipy.optimize.linprog(method="highs")`` solve exactly the same LPs (same
builder, same reweighting loop); ``solver="auto"`` (the default, column generation)
solves them by pricing. Times are the best of ``--repeat`` fits, measured in this run;
the ratios (scipy time / ours) are the claim.

    python benchmarks/bench_sfm_fit.py [--repeat 3]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import time

import numpy as np

from _shapes import SHAPES, load
from sfmlearn import SupportFeatureMachine


def best_fit_seconds(estimator, X, y, repeat):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        estimator.fit(X, y)
        times.append(time.perf_counter() - started)
    return min(times), estimator


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'shape':<20s} {'full LP (highspy)':>17s} {'scipy linprog':>14s} {'ratio':>6s}  "
          f"{'default (auto)':>14s} {'ratio':>6s}  {'LPs':>4s} {'features':>8s}  same support")
    for shape in SHAPES:
        X, y = load(shape)
        full, a = best_fit_seconds(SupportFeatureMachine(solver="highs"), X, y, args.repeat)
        ref, b = best_fit_seconds(SupportFeatureMachine(solver="scipy"), X, y, args.repeat)
        auto, c = best_fit_seconds(SupportFeatureMachine(), X, y, args.repeat)
        same = np.array_equal(a.support_, b.support_) and np.array_equal(a.support_, c.support_)
        print(f"{shape:<20s} {full:16.3f}s {ref:13.3f}s {ref / full:5.1f}x  {auto:13.3f}s "
              f"{ref / auto:5.1f}x  {a.n_iter_:4d} {a.support_.sum():8d}  {same}")


if __name__ == "__main__":
    main()
