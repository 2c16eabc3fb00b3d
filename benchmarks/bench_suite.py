"""How long the README's default test suite takes: wall time, CPU time and the 5-minute target.

    python benchmarks/bench_suite.py [--pytest-args "-n auto --dist loadfile"]

Runs ``python -m pytest -n auto --dist loadfile`` (the README's default suite, from the
repository root; ``--pytest-args ""`` for the one-process run) in a child
process and prints its wall time, its CPU time (user + system of the child and all its
descendants: pytest-xdist workers and joblib's processes included) and whether the wall
time meets the target of 5 minutes on 2 cores. On a machine shared with other work the
wall time grows with the load while the CPU time does not: the CPU time divided by the
processes that run tests (one, or pytest-xdist's ``-n`` workers) is the wall time the
suite would take alone if the workers were evenly loaded (the printed ``alone``, a lower
bound: with ``--dist loadfile`` a heavy file keeps one worker busy after the others
finish). The exit code is pytest's.
"""

import argparse
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

#: The README's target for the default suite on 2 cores, in seconds.
TARGET_SECONDS = 5 * 60
ROOT = Path(__file__).resolve().parent.parent


def run_suite(pytest_args):
    """Wall seconds, CPU seconds (the child and its descendants) and pytest's exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, completed.returncode


def worker_count(pytest_args):
    """Processes that run tests: pytest-xdist's ``-n N`` (``auto``: the cores), else one."""
    for flag, value in zip(pytest_args, pytest_args[1:]):
        if flag in ("-n", "--numprocesses"):
            return _workers(value)
    for arg in pytest_args:  # -n4, --numprocesses=4
        for prefix in ("--numprocesses=", "-n"):
            if arg.startswith(prefix) and len(arg) > len(prefix):
                return _workers(arg[len(prefix):])
    return 1


def _workers(value):
    return os.cpu_count() if value in ("auto", "logical") else max(int(value), 1)


def verdict(seconds):
    """``"met"`` when ``seconds`` is within :data:`TARGET_SECONDS`, else ``"missed"``."""
    return "met" if seconds <= TARGET_SECONDS else "missed"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pytest-args", default="-n auto --dist loadfile",
                        help='arguments for pytest (default: the README\'s parallel suite; "" for one process)')
    args = parser.parse_args()
    pytest_args = shlex.split(args.pytest_args)
    wall, cpu, code = run_suite(pytest_args)
    alone = cpu / worker_count(pytest_args)
    load = os.getloadavg()[0]
    print(f"python -m pytest {args.pytest_args}".rstrip())
    print(f"  wall time  {wall:7.1f} s  ({wall / 60:.1f} min; load average at the end {load:.1f})")
    print(f"  CPU time   {cpu:7.1f} s  (alone, evenly loaded workers: at least {alone / 60:.1f} min)")
    print(f"  target 5 min: {verdict(wall)} (wall time), {verdict(alone)} (alone)")
    print(f"  pytest exit code {code}")
    return code


if __name__ == "__main__":
    sys.exit(main())
