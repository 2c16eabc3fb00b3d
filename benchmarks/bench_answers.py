"""Whether this tree's default fits give the same answers as another revision's.

    python bench_answers.py --reference a0b716e [--datasets colon,leukemia] [--fits cv,soft,path]

A change meant to make fits faster, not different, is checked here. Both sides fit the
same estimators (``_answers.FITS``: the default ``SupportFeatureMachineCV``, the soft and
the hard SFM, ``sfm_path``, the repetitive SFM's first 10 subsets) to all of each shipped
set of ``bench_peers.py``, each in a child process with its own ``sfmlearn`` (this
checkout's ``src`` with its uncommitted changes; the reference extracted with
``git archive``). Every numeric array the fits hold (coefficients, supports, the CV
tables, the training decisions and probabilities) is saved and compared. Per set and
fit it prints:

* ``identical``: the same bits in every array both revisions have;
* ``equal``: some arrays differ within a relative 1e-9 (rounding), named;
* ``differs``: the arrays that differ more, with the largest difference;
* ``failed``: a side raised (its error).

The exit code is 1 when any fit differs or failed, so the script can guard a change.
"""

import _env  # noqa: F401  (one BLAS thread)

import argparse
import os
import sys
import tempfile
import time

import numpy as np

from _answers import FITS, compare
from _reference import RevisionTree, WorkingTree, data_for_child
from bench_peers import datasets

SETS = ("leukemia", "colon", "ARCENE", "DEXTER", "DOROTHEA", "Haxby face/house")


def answers(tree, load, fits, out):
    """The arrays of ``fits`` with ``tree``'s sfmlearn on the data ``load`` reads
    (:func:`_reference.data_for_child`), saved through ``out``: (name -> array, the seconds
    the child took)."""
    started = time.perf_counter()
    tree.run(load + f"from _answers import record; record(X, y, {list(fits)!r}, {out!r}); print(0)")
    seconds = time.perf_counter() - started
    with np.load(out) as saved:
        return {key: saved[key] for key in saved.files}, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", required=True, help="the git revision to compare with")
    parser.add_argument("--datasets", default=",".join(SETS), help=f"of {', '.join(SETS)}")
    parser.add_argument("--fits", default=",".join(FITS), help=f"of {', '.join(FITS)}")
    args = parser.parse_args(argv)
    wanted, fits = args.datasets.split(","), args.fits.split(",")
    for name, known in [(name, SETS) for name in wanted] + [(fit, FITS) for fit in fits]:
        if name not in known:
            parser.error(f"unknown name {name!r}; choose from {', '.join(known)}")
    sides = (WorkingTree(), RevisionTree(args.reference))
    print(f"answers of this tree against {args.reference}", flush=True)
    all_same = True
    for name, (X, y, _folds, _scheme) in datasets(False).items():
        if name not in wanted:
            continue
        with tempfile.TemporaryDirectory(prefix="sfm-answers-") as folder:
            load = data_for_child(folder, X, y)  # written once, read by both sides
            found = [answers(tree, load, fits, os.path.join(folder, f"answers{side}.npz"))
                     for side, tree in enumerate(sides)]
        (this, this_seconds), (reference, reference_seconds) = found
        print(f"\n{name} ({X.shape[0]} x {X.shape[1]}; the child process took {this_seconds:.0f} s here, "
              f"{reference_seconds:.0f} s with {args.reference})")
        for fit, (verdict, details) in compare(this, reference).items():
            print(f"  {fit:11s} {verdict:9s} {details}", flush=True)
            all_same &= verdict in ("identical", "equal")
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
