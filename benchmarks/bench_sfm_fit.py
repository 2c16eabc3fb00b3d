"""A whole SFM fit with our HiGHS engine vs the same LPs through scipy's linprog.

Both engines solve exactly the same LPs (same builder, same reweighting loop); the
reference is ``scipy.optimize.linprog(method="highs")``, the way most Python code would
call HiGHS. Times are the best of ``--repeat`` fits, measured in this run; the ratio is
the claim.

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
    print(f"{'shape':<20s} {'ours (highspy)':>15s} {'scipy linprog':>14s} {'ratio':>7s}  "
          f"{'LPs':>4s} {'features':>8s}  same support")
    for shape in SHAPES:
        X, y = load(shape)
        ours, a = best_fit_seconds(SupportFeatureMachine(solver="highs"), X, y, args.repeat)
        ref, b = best_fit_seconds(SupportFeatureMachine(solver="scipy"), X, y, args.repeat)
        same = np.array_equal(a.support_, b.support_)
        print(f"{shape:<20s} {ours:14.3f}s {ref:13.3f}s {ref / ours:6.1f}x  {a.n_iter_:4d} "
              f"{a.support_.sum():8d}  {same}")


if __name__ == "__main__":
    main()
