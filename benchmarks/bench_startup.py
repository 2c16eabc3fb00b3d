"""How fast the command line answers: ``sfmlearn --version`` against a bare interpreter.

Two questions, each measured in this run against its reference:

* **startup** -- wall time of ``python -m sfmlearn --version`` minus that of
  ``python -c pass`` (the interpreter alone), median of ``--repeats`` runs taken in
  alternation; target: at most 0.3 s apart. ``--help`` of ``select`` is timed the same way.
* **first answer** -- ``sfmlearn select --dataset leukemia`` (72 x 7129, hard SFM with
  5-fold cross-validation) end to end in a fresh interpreter; target: at most 1.5 s.
  Beside it, in the same alternation, the floor that scikit-learn sets: ``import
  sklearn.base`` (every estimator's base class; it loads scipy.stats and pandas), and
  the libraries the command cannot do without (NumPy, ``sklearn.base``,
  ``sklearn.feature_selection`` for ``SelectorMixin``, ``sklearn.metrics`` for the
  scores, highspy for the LPs). What the command costs above that floor is sfmlearn's.

Run from this folder: ``python bench_startup.py [--repeats 5]``.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import _env  # noqa: F401  one BLAS thread, as in every benchmark

SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "sfmlearn --version": [sys.executable, "-m", "sfmlearn", "--version"],
    "sfmlearn select --help": [sys.executable, "-m", "sfmlearn", "select", "--help"],
}
#: The first answer and, measured in the same alternation, the floor that scikit-learn sets.
FIRST_ANSWER = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import sklearn.base": [sys.executable, "-c", "import sklearn.base"],
    "libraries select needs": [sys.executable, "-c",
                               "import numpy, highspy, sklearn.base, sklearn.feature_selection, sklearn.metrics"],
    "sfmlearn select --dataset leukemia": [sys.executable, "-m", "sfmlearn", "select", "--dataset", "leukemia",
                                           "--quiet"],
}


def wall_time(command):
    started = time.perf_counter()
    subprocess.run(command, env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def alternated_medians(commands, repeats):
    """Median wall time of every command, the commands run in turn ``repeats`` times (so a slow
    moment of the machine hits every command)."""
    times = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            times[name].append(wall_time(command))
    return {name: statistics.median(values) for name, values in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each command (median reported)")
    args = parser.parse_args()
    wall_time(COMMANDS["sfmlearn --version"])  # file-system caches warm, as for a user's second call
    median = alternated_medians(COMMANDS, args.repeats)
    base = median["python -c pass"]
    print(f"startup, median of {args.repeats} (target: at most 0.3 s above the interpreter)")
    for name, value in median.items():
        extra = "" if name == "python -c pass" else f"   +{value - base:.3f} s"
        print(f"  {name:<24} {value:.3f} s{extra}")
    median = alternated_medians(FIRST_ANSWER, args.repeats)
    floor = median["libraries select needs"]
    print(f"first answer, median of {args.repeats} (target: at most 1.5 s)")
    for name, value in median.items():
        print(f"  {name:<36} {value:.3f} s")
    print(f"  select above the libraries it needs: +{median['sfmlearn select --dataset leukemia'] - floor:.3f} s")


if __name__ == "__main__":
    main()
