"""The checks an output path passes before any long computation.

:func:`check_output_file` and :func:`check_output_dir` refuse an output that is one of
the inputs (the same resolved path, or the same file through a hard link), a link, a
folder where a file is expected or a file where a folder is expected, and a folder
that does not exist or cannot be written. Writability is tested by creating and
removing a probe file -- the only test that is right for root, ACLs and read-only
mounts. :func:`create_output_dir` creates a folder only when the inputs have been
validated and says which folder it created, so a failed run can remove it again.

An output path that is a symbolic link is refused: sfmlearn never writes through a
link into its target and never replaces the link, so neither is lost.
"""

import contextlib
import os
import secrets
import shutil
import tempfile
from pathlib import Path

from ._temporary import TEMPORARY_PREFIX, remove_quietly

__all__ = ["OutputPathError", "check_output_dir", "check_output_file", "create_output_dir", "same_file",
           "staged_output_dir"]


class OutputPathError(ValueError):
    """An output path sfmlearn refuses to write (an input, a link, a missing or read-only folder).

    A ``ValueError``: the message names the path, the problem and the fix; the command
    line prints it as one line on stderr and exits with status 2.

    Examples
    --------
    An output that would overwrite an input is refused:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import OutputPathError, check_output_file
    >>> folder = tempfile.TemporaryDirectory()
    >>> data = Path(folder.name) / "data.csv"
    >>> _ = data.write_text("a,b\\n1,2\\n")
    >>> try:
    ...     check_output_file(data, inputs=[data], what="--out")
    ... except OutputPathError as error:
    ...     print("refused:", "is the input" in str(error))
    refused: True
    >>> folder.cleanup()
    """


def same_file(a, b):
    """Whether paths ``a`` and ``b`` name one file: same resolved path, or hard links of one inode."""
    a, b = Path(a), Path(b)
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def refuse_input(path, inputs, what):
    for source in inputs:
        if source is not None and same_file(path, source):
            raise OutputPathError(f"{what} {path} is the input {source}; writing it would destroy the "
                                  "input: choose another name")


def refuse_link(path, what):
    if path.is_symlink():
        raise OutputPathError(f"{what} {path} is a symbolic link (to {os.readlink(path)}); sfmlearn "
                              "neither writes through nor replaces links: name the file itself or "
                              "remove the link")


def probe_writable(folder, target, what):
    """Create and remove a file in ``folder``; OutputPathError if that is not possible."""
    probe = folder / f"{TEMPORARY_PREFIX}{secrets.token_hex(4)}-probe"
    try:
        with open(probe, "xb"):
            pass
    except OSError as exc:
        raise OutputPathError(f"{what} {target}: cannot write into {folder} ({exc.strerror}); "
                              "choose a writable folder") from exc
    remove_quietly(probe)


def check_output_file(path, *, inputs=(), what="output", suffixes=None, example="report.html"):
    """Check before any work that ``path`` can be written as a new version of a file.

    Parameters
    ----------
    path : path-like
        The file to be written (it may exist; it is then replaced at the end of the run).
    inputs : iterable of path-like
        Files the run reads; the output must be none of them.
    what : str
        How the message names the output (e.g. the command-line flag ``--report``).
    suffixes : tuple of str, optional
        Allowed endings of the file name (lower case), e.g. ``(".html", ".htm")``.
    example : str
        File name suggested when ``path`` is a folder.

    Returns
    -------
    pathlib.Path
        ``path``; nothing is created (the probe file is removed again).

    Raises
    ------
    OutputPathError
        When ``path`` is an input, a symbolic link or a folder, has a wrong suffix, or
        its folder does not exist or cannot be written.

    Examples
    --------
    A new report file in an existing, writable folder passes:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import check_output_file
    >>> folder = tempfile.TemporaryDirectory()
    >>> check_output_file(Path(folder.name) / "report.html", suffixes=(".html",)).name
    'report.html'
    >>> folder.cleanup()
    """
    path = Path(path)
    refuse_input(path, inputs, what)
    refuse_link(path, what)
    if path.is_dir():
        raise OutputPathError(f"{what} {path} is a directory; give a file name such as {path / example}")
    if suffixes and not path.name.lower().endswith(tuple(suffixes)):
        raise OutputPathError(f"{what} {path}: the file name must end in {' or '.join(suffixes)}")
    if not path.parent.is_dir():
        raise OutputPathError(f"{what} {path}: folder {path.parent} does not exist; create it first")
    probe_writable(path.parent, path, what)
    return path


def check_output_dir(path, *, inputs=(), what="output folder"):
    """Check before any work that ``path`` is, or can become, a writable folder; creates nothing.

    Parameters
    ----------
    path : path-like
        The output folder; it may be missing (with missing parents), then the nearest
        existing ancestor must be a writable folder.
    inputs : iterable of path-like
        Files the run reads; the folder must be none of them.
    what : str
        How the message names the folder (e.g. the command-line flag ``--out``).

    Returns
    -------
    pathlib.Path
        ``path``; nothing is created (see :func:`create_output_dir`).

    Raises
    ------
    OutputPathError
        When ``path`` is an input, a file, a broken link, or lies below a file or in a
        folder that cannot be written.

    Examples
    --------
    A folder two levels below an existing one passes and is not created:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import check_output_dir
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = check_output_dir(Path(folder.name) / "results" / "run1")
    >>> out.name, out.exists()
    ('run1', False)
    >>> folder.cleanup()
    """
    path = Path(path)
    refuse_input(path, inputs, what)
    if path.exists() and not path.is_dir():
        raise OutputPathError(f"{what} {path} is a file, not a folder; give a folder name "
                              "(it is created if missing)")
    if path.is_symlink() and not path.exists():
        raise OutputPathError(f"{what} {path} is a broken symbolic link; remove it or give another folder")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise OutputPathError(f"{what} {path}: {existing} is a file, so the folder cannot be created there")
    probe_writable(existing, path, what)
    return path


def create_output_dir(path):
    """``mkdir -p path``; returns the topmost folder this call created (None if it existed).

    A run that fails afterwards removes that folder (and only it), so a failed run
    leaves no empty or half-filled output folder behind that it did not find.

    Parameters
    ----------
    path : path-like
        The folder to create, with any missing parents.

    Returns
    -------
    pathlib.Path or None
        The topmost folder this call created (``path`` itself or a missing parent), or
        None when ``path`` already existed.

    Examples
    --------
    The first call creates the missing folders and names the topmost; the second finds nothing to
    create:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import create_output_dir
    >>> folder = tempfile.TemporaryDirectory()
    >>> create_output_dir(Path(folder.name) / "a" / "b").name   # "a" was missing too
    'a'
    >>> print(create_output_dir(Path(folder.name) / "a" / "b"))
    None
    >>> folder.cleanup()
    """
    path = Path(path)
    created, existing = None, path
    while not existing.exists():
        created, existing = existing, existing.parent
    path.mkdir(parents=True, exist_ok=True)
    return created


@contextlib.contextmanager
def staged_output_dir(path, remove=()):
    """Fill a result folder as a whole: yield an empty staging folder beside ``path``;
    when the block succeeds, every entry written there replaces the entry of the same name
    in ``path`` (a file, or a folder such as ``maps/`` with all it held), the entries of
    ``path`` named in ``remove`` that the block did not write are removed, and ``path``
    keeps whatever else it held before; when the block fails, the staging folder is
    removed and ``path`` is as it was.

    A failed run thus leaves no half-written result, and a rerun over an earlier result
    (``--overwrite``) no file of it that the new run did not write. ``remove`` names the
    entries a run owns in a folder it shares with others (one result among several): an
    entry of an earlier run that this run no longer writes goes too. ``path`` must exist
    (:func:`create_output_dir`); the staging folder is a hidden sibling in its folder
    (same file system, so every move is a rename).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs.output_paths import staged_output_dir
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = Path(folder.name)
    >>> (out / "maps").mkdir(); (out / "maps" / "old.nii.gz").write_text("x"); (out / "notes.txt").write_text("y")
    1
    1
    >>> with staged_output_dir(out) as stage:
    ...     _ = (stage / "maps").mkdir(), (stage / "maps" / "new.nii.gz").write_text("z")
    >>> sorted(p.name for p in out.rglob("*"))
    ['maps', 'new.nii.gz', 'notes.txt']

    With ``remove``, an owned entry the block did not write again goes as well:

    >>> with staged_output_dir(out, remove=["maps", "notes.txt"]) as stage:
    ...     _ = (stage / "maps").mkdir()
    >>> sorted(p.name for p in out.rglob("*"))
    ['maps']
    >>> folder.cleanup()
    """
    path = Path(path)
    stage = Path(tempfile.mkdtemp(prefix=TEMPORARY_PREFIX, dir=path.parent))
    try:
        yield stage
        old = Path(tempfile.mkdtemp(prefix=TEMPORARY_PREFIX, dir=path.parent))
        try:
            written = sorted(entry.name for entry in stage.iterdir())
            for name in [*written, *(name for name in remove if name not in written)]:
                target = path / name
                if target.exists() or target.is_symlink():
                    os.replace(target, old / name)
                if name in written:
                    os.replace(stage / name, target)
        finally:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
