"""Which LP formulation and which HiGHS options solve the SFM LP fastest?

Thesis 3.5 / NC A.2 give two formulations (standard w = w+ - w- with the data twice;
sparse (w, s) with the data once); HiGHS offers presolve on/off, dual simplex or interior
point (with crossover, to keep a vertex), and scaling on/off. This script solves the first
SFM LP (all features, the expensive one) of each benchmark shape with every
configuration and prints times relative to the configuration the estimators use by
default, all measured in this run.

    python benchmarks/bench_formulations.py [--repeat 3]
"""

import argparse

import _env  # noqa: F401  (one BLAS thread; must precede numpy)
import time

import highspy
import numpy as np

from _shapes import SHAPES, load
from sfmlearn.lp.highs import new_highs
from sfmlearn.lp.problems import build_matrix_lp, sfm_lp
from sfmlearn.selection._lpdata import LPData

CONFIGS = {
    # name: (formulation, HiGHS options)
    "standard, presolve off (default)": ("standard", {"presolve": "off"}),
    "standard, presolve on": ("standard", {"presolve": "on"}),
    "standard, presolve off, no scaling": ("standard", {"presolve": "off", "simplex_scale_strategy": 0}),
    "standard, primal simplex": ("standard", {"presolve": "off", "simplex_strategy": 4}),
    "standard, IPM + crossover": ("standard", {"presolve": "off", "solver": "ipm", "run_crossover": "on"}),
    "sparse, presolve off": ("sparse", {"presolve": "off"}),
    "sparse, presolve on": ("sparse", {"presolve": "on"}),
}


def solve_seconds(problem, formulation, options):
    started = time.perf_counter()
    lp = build_matrix_lp(problem, formulation)
    h = new_highs(**options)
    n_rows, n_cols = lp.shape
    h.passModel(n_cols, n_rows, int(lp.value.size), 1, 1, 0.0, lp.cost, lp.col_lower, lp.col_upper,
                lp.row_lower, lp.row_upper, lp.start.astype(np.int32), lp.index, lp.value,
                np.zeros(n_cols, dtype=np.int32))
    h.run()
    seconds = time.perf_counter() - started
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal, h.modelStatusToString(h.getModelStatus())
    return seconds, h.getInfo().objective_function_value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-slow", action="store_true", help="skip the sparse formulation")
    args = parser.parse_args()
    print(f"HiGHS {new_highs().version()}; first SFM LP (all features); best of {args.repeat}")
    for shape in SHAPES:
        X, y = load(shape)
        y_signed = np.where(y == np.unique(y)[1], 1.0, -1.0)
        data = LPData(X, scale=True)
        problem = sfm_lp(data.X, y_signed, data.base_cost)
        results = {}
        for name, (formulation, options) in CONFIGS.items():
            if args.skip_slow and formulation == "sparse":
                continue
            repeat = 1 if formulation == "sparse" else args.repeat
            runs = [solve_seconds(problem, formulation, options) for _ in range(repeat)]
            results[name] = (min(r[0] for r in runs), runs[0][1])
        base = results["standard, presolve off (default)"][0]
        objectives = np.array([r[1] for r in results.values()])
        print(f"\n{shape}  (objective agrees across configurations: "
              f"{np.allclose(objectives, objectives[0], rtol=1e-6)})")
        for name, (seconds, _) in results.items():
            print(f"  {name:<38s} {seconds:8.3f} s   x{seconds / base:7.2f}")


if __name__ == "__main__":
    main()
