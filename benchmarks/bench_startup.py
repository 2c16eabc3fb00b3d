"""How fast the command line answers: ``sfmlearn --version`` against a bare interpreter.

Two questions, each measured in this run against its reference:

* **startup** -- wall time of ``python -m sfmlearn --version`` minus that of
  ``python -c pass`` (the interpreter alone), median of ``--repeats`` runs taken in
  alternation; target: at most 0.3 s apart. ``--help`` of ``select`` is timed the same way.
* **first answer** -- ``sfmlearn select --dataset leukemia`` (72 x 7129, hard SFM with
  5-fold cross-validation) end to end in a fresh interpreter; target: at most 1.5 s.

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
SELECT = [sys.executable, "-m", "sfmlearn", "select", "--dataset", "leukemia", "--quiet"]


def wall_time(command):
    started = time.perf_counter()
    subprocess.run(command, env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each command (median reported)")
    args = parser.parse_args()
    wall_time(COMMANDS["sfmlearn --version"])  # file-system caches warm, as for a user's second call
    times = {name: [] for name in COMMANDS}
    for _ in range(args.repeats):  # alternate, so a slow moment of the machine hits every command
        for name, command in COMMANDS.items():
            times[name].append(wall_time(command))
    median = {name: statistics.median(values) for name, values in times.items()}
    base = median["python -c pass"]
    print(f"startup, median of {args.repeats} (target: at most 0.3 s above the interpreter)")
    for name, value in median.items():
        extra = "" if name == "python -c pass" else f"   +{value - base:.3f} s"
        print(f"  {name:<24} {value:.3f} s{extra}")
    select = [wall_time(SELECT) for _ in range(args.repeats)]
    print(f"first answer, median of {args.repeats} (target: at most 1.5 s)")
    print(f"  sfmlearn select --dataset leukemia   {statistics.median(select):.3f} s "
          f"(python -c pass: {base:.3f} s)")


if __name__ == "__main__":
    main()
