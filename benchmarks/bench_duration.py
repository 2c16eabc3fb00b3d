"""How close the run-time guard's estimate comes to the time it estimates.

The commands refuse, before the work, a run estimated over ``--max-hours``
(:mod:`sfmlearn.analysis.duration`): one unit of the work is timed on 200 and 400
samples and extrapolated with the growth exponent measured between them. This script
measures the unit itself on larger stratified subsamples and prints, per size, the
estimate, the measured time and their ratio (estimate / measured; below 1 the guard
underestimates). Units:

``path``  one SFM path of 12 values of C, balanced classes: the unit of
          ``select --C auto``, ``path`` and ``compare``;
``fit``   one soft SFM fit at C = 1, balanced classes: the unit of ``select --C 1``
          and ``repeat --C 1``.

Data: madelon's training split (2000 x 500, shipped; the one shipped set large enough to
be timed) and ``--synthetic``: Gaussian classes in d = 500 whose means differ in 20
features by +-0.5 (the shape of ``bench_samples.py``).

    python benchmarks/bench_duration.py --sizes 800,1600
"""

import _env  # noqa: F401  (one BLAS thread)

import argparse
import time
import warnings

import numpy as np
from sklearn.model_selection import train_test_split

from sfmlearn import SupportFeatureMachine
from sfmlearn.analysis.duration import estimate_duration, work_unit
from sfmlearn.datasets import load_named
from sfmlearn.diagnostics.budget_paths import SFMPath

UNITS = {"path": SFMPath(SupportFeatureMachine(class_weight="balanced"), n_Cs=12),
         "fit": SupportFeatureMachine(C=1.0, class_weight="balanced")}


def synthetic(n, d=500, informative=20, offset=0.5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.standard_normal((n, d))
    X[:, :informative] += offset * y[:, None]
    return X, y


def subsample(X, y, size):
    rows, _ = train_test_split(np.arange(y.size), train_size=size, stratify=y, random_state=0)
    return X[rows], y[rows]


def measured(unit, X, y):
    fit = work_unit(unit, y)[1]
    started = time.perf_counter()
    fit(X, y)
    return time.perf_counter() - started


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="800,1600", help="sample sizes the estimate is checked at")
    parser.add_argument("--units", default="path,fit")
    parser.add_argument("--synthetic", action="store_true", help="also the synthetic data")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    madelon = load_named("madelon")
    data = {"madelon": (madelon.X_train, madelon.y_train)}
    if args.synthetic:
        data["synthetic"] = synthetic(max(sizes))
    print(f"{'data':10s} {'unit':5s} {'n':>5s} {'probes (200 / 400)':>20s} {'exponent':>8s} "
          f"{'estimate':>9s} {'measured':>9s} {'ratio':>6s}")
    for name, (X, y) in data.items():
        for unit_name in args.units.split(","):
            unit = UNITS[unit_name]
            for size in sizes:
                X_n, y_n = subsample(X, y, size) if size < y.size else (X, y)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    estimate = estimate_duration(unit, X_n, y_n)
                    seconds = measured(unit, X_n, y_n)
                print(f"{name:10s} {unit_name:5s} {size:5d} {estimate.seconds[0]:9.2f} / {estimate.seconds[1]:6.2f} s "
                      f"{estimate.exponent:8.2f} {estimate.total_seconds:8.1f}s {seconds:8.1f}s "
                      f"{estimate.total_seconds / seconds:6.2f}", flush=True)


if __name__ == "__main__":
    main()
