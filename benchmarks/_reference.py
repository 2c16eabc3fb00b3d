"""The source of an earlier git revision, to time it or compare its answers with today's.

``RevisionTree(revision)`` extracts the revision's ``src`` with ``git archive`` into a
temporary folder; :meth:`RevisionTree.run` executes Python code in a child process whose
``sfmlearn`` is that revision's, and returns the JSON value of the child's last line (a
child that fails raises RuntimeError with the last line of its error output).
:class:`WorkingTree` runs code the same way with this checkout's ``sfmlearn``.
"""

import json
import os
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))


class RevisionTree:
    """``src`` of a git revision in a temporary folder."""

    def __init__(self, revision):
        self.revision = revision
        self._folder = tempfile.TemporaryDirectory(prefix="sfm-reference-")  # removed with the object
        self.folder = self._folder.name
        archive = os.path.join(self.folder, "src.tar")
        root = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=HERE, check=True,
                              capture_output=True, text=True).stdout.strip()
        subprocess.run(["git", "archive", "-o", archive, revision, "src"], cwd=root, check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(self.folder, filter="data")

    def run(self, code):
        """:func:`run_child` with this revision's ``sfmlearn``."""
        return run_child(code, os.path.join(self.folder, "src"), f"revision {self.revision}")


class WorkingTree:
    """This checkout's ``src`` with its uncommitted changes: the side a
    :class:`RevisionTree` is compared with, run the same way."""

    revision = "this tree"

    def run(self, code):
        """:func:`run_child` with this checkout's ``sfmlearn``."""
        return run_child(code, os.path.join(os.path.dirname(HERE), "src"), self.revision)


def data_for_child(folder, X, y):
    """Save ``X`` (dense or sparse) and ``y`` in ``folder``; returns the Python code with
    which a child process (:func:`run_child`) loads them as ``X, y`` (and imports NumPy as
    ``np``, SciPy's sparse module as ``sp``)."""
    data, labels = os.path.join(folder, "X.npz"), os.path.join(folder, "y.npy")
    if sp.issparse(X):
        sp.save_npz(data, sp.csr_matrix(X))
    else:
        np.savez(data, X=X)
    np.save(labels, np.asarray(y))
    load = f"sp.load_npz({data!r})" if sp.issparse(X) else f"np.load({data!r})['X']"
    return f"import numpy as np, scipy.sparse as sp; X = {load}; y = np.load({labels!r}, allow_pickle=True); "


def run_child(code, src, label):
    """The JSON value printed on the last line by ``code``, run in a child process whose
    ``sfmlearn`` is the one in ``src`` (and this folder's scripts importable); a child
    that fails raises RuntimeError with ``label`` and the last line of its error output."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, HERE]))
    child = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    lines = child.stdout.strip().splitlines()
    if child.returncode or not lines:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"{label}: {last}")
    return json.loads(lines[-1])
