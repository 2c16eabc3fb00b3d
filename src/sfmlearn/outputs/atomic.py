"""Atomic output files, and the checks an output path passes before any long computation.

Writing
    :func:`atomic_path` yields a temporary path in the target's folder whose name ends
    with the target's name (so nibabel, matplotlib, Pillow and pandas, which choose the
    format or compression from the suffix, see the same suffix). When the block succeeds
    the temporary file is flushed to disk and moved onto the target with ``os.replace``
    (atomic on POSIX and Windows within one folder); when it fails -- disk full, no
    permission, an exception, Ctrl-C -- the temporary file is removed and the previous
    target is untouched. A reader sees the old file or the complete new one, never a
    truncated one. A replaced file keeps its permission bits. :func:`write_text`,
    :func:`write_bytes`, :func:`write_json`, :func:`write_csv`, :func:`save_figure` and
    :func:`save_nifti` are the writers built on it.

Symbolic links
    An output path that is a symbolic link is refused: sfmlearn never writes through a
    link into its target and never replaces the link, so neither is lost. Name the file
    itself (or remove the link) to write there. Folders on the way (``--out`` given as a
    link to a folder) are followed as usual.

Checks
    :func:`check_output_file` and :func:`check_output_dir` refuse an output that is one of
    the inputs (the same resolved path, or the same file through a hard link), a link, a
    folder where a file is expected or a file where a folder is expected, and a folder
    that does not exist or cannot be written. Writability is tested by creating and
    removing a probe file -- the only test that is right for root, ACLs and read-only
    mounts. :func:`create_output_dir` creates a folder only when the inputs have been
    validated and says which folder it created, so a failed run can remove it again.
"""

import contextlib
import json
import math
import os
import secrets
import stat
from pathlib import Path

__all__ = [
    "OutputPathError",
    "atomic_path",
    "check_output_dir",
    "check_output_file",
    "create_output_dir",
    "same_file",
    "save_figure",
    "save_nifti",
    "to_jsonable",
    "write_bytes",
    "write_csv",
    "write_json",
    "write_text",
]

#: Prefix of temporary and probe files; a leftover one can always be deleted.
TEMPORARY_PREFIX = ".sfmlearn-tmp-"


class OutputPathError(ValueError):
    """An output path sfmlearn refuses to write (an input, a link, a missing or read-only folder).

    A ``ValueError``: the message names the path, the problem and the fix; the command
    line prints it as one line on stderr and exits with status 2.

    Examples
    --------
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


def _temporary(path):
    return path.with_name(f"{TEMPORARY_PREFIX}{secrets.token_hex(4)}-{path.name}")


def _remove(path):
    with contextlib.suppress(OSError):
        os.unlink(path)


def same_file(a, b):
    """Whether paths ``a`` and ``b`` name one file: same resolved path, or hard links of one inode."""
    a, b = Path(a), Path(b)
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def _refuse_input(path, inputs, what):
    for source in inputs:
        if source is not None and same_file(path, source):
            raise OutputPathError(f"{what} {path} is the input {source}; writing it would destroy the "
                                  "input: choose another name")


def _refuse_link(path, what):
    if path.is_symlink():
        raise OutputPathError(f"{what} {path} is a symbolic link (to {os.readlink(path)}); sfmlearn "
                              "neither writes through nor replaces links: name the file itself or "
                              "remove the link")


def _probe(folder, target, what):
    """Create and remove a file in ``folder``; OutputPathError if that is not possible."""
    probe = folder / f"{TEMPORARY_PREFIX}{secrets.token_hex(4)}-probe"
    try:
        with open(probe, "xb"):
            pass
    except OSError as exc:
        raise OutputPathError(f"{what} {target}: cannot write into {folder} ({exc.strerror}); "
                              "choose a writable folder") from exc
    _remove(probe)


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
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import check_output_file
    >>> folder = tempfile.TemporaryDirectory()
    >>> check_output_file(Path(folder.name) / "report.html", suffixes=(".html",)).name
    'report.html'
    >>> folder.cleanup()
    """
    path = Path(path)
    _refuse_input(path, inputs, what)
    _refuse_link(path, what)
    if path.is_dir():
        raise OutputPathError(f"{what} {path} is a directory; give a file name such as {path / example}")
    if suffixes and not path.name.lower().endswith(tuple(suffixes)):
        raise OutputPathError(f"{what} {path}: the file name must end in {' or '.join(suffixes)}")
    if not path.parent.is_dir():
        raise OutputPathError(f"{what} {path}: folder {path.parent} does not exist; create it first")
    _probe(path.parent, path, what)
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
    _refuse_input(path, inputs, what)
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
    _probe(existing, path, what)
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


def _sync(path):
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path to write; on success it replaces ``path`` atomically.

    Any exception inside the block (or in the final flush and rename) removes the
    temporary file and leaves ``path`` as it was; an ``OSError`` is re-raised naming
    ``path`` rather than the temporary file.

    Parameters
    ----------
    path : path-like
        The target file. The temporary file lies in the same folder and its name ends
        with the target's name, so writers that pick the format from the suffix work.

    Yields
    ------
    pathlib.Path
        The temporary path to write (it does not exist yet).

    Raises
    ------
    OutputPathError
        When ``path`` is a symbolic link or a folder.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import atomic_path
    >>> folder = tempfile.TemporaryDirectory()
    >>> target = Path(folder.name) / "table.csv"
    >>> with atomic_path(target) as temporary:
    ...     _ = temporary.write_text("a,b\\n")
    ...     print(temporary.name.endswith("table.csv"), target.exists())
    True False
    >>> target.read_text()
    'a,b\\n'
    >>> folder.cleanup()
    """
    path = Path(path)
    _refuse_link(path, "output")
    if path.is_dir():
        raise OutputPathError(f"output {path} is a directory; cannot replace it with a file")
    temporary = _temporary(path)
    try:
        yield temporary
        _sync(temporary)
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        os.replace(temporary, path)
    except OSError as exc:
        _remove(temporary)
        if exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        _remove(temporary)
        raise


def write_bytes(path, data):
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`).

    Parameters
    ----------
    path : path-like
        The target file; a previous version is replaced only once ``data`` is on disk.
    data : bytes
        The content.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import write_bytes
    >>> folder = tempfile.TemporaryDirectory()
    >>> write_bytes(Path(folder.name) / "blob.bin", b"\\x00\\x01").read_bytes()
    b'\\x00\\x01'
    >>> folder.cleanup()
    """
    with atomic_path(path) as temporary, open(temporary, "xb") as handle:
        handle.write(data)
    return Path(path)


def write_text(path, text, encoding="utf-8"):
    """Write ``text`` to ``path`` atomically (see :func:`atomic_path`).

    Parameters
    ----------
    path : path-like
        The target file; a previous version is replaced only once ``text`` is on disk.
    text : str
        The content.
    encoding : str, default="utf-8"
        Encoding of the file.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import write_text
    >>> folder = tempfile.TemporaryDirectory()
    >>> write_text(Path(folder.name) / "notes.txt", "two genes\\n").read_text()
    'two genes\\n'
    >>> folder.cleanup()
    """
    return write_bytes(path, text.encode(encoding))


def to_jsonable(value):
    """``value`` with NumPy scalars and arrays (recursively) as JSON types, NaN and inf as None.

    Parameters
    ----------
    value : object
        A NumPy scalar or array, a dict, list or tuple of such values (nested), or any
        other value, which is returned unchanged. Dict keys become strings.

    Returns
    -------
    object
        The same structure made of dicts, lists and Python scalars, which
        ``json.dumps`` accepts (and which is valid JSON: no NaN or Infinity).

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.outputs import to_jsonable
    >>> to_jsonable({"support": np.array([3, 17]), "score": np.float64(0.5), 1: np.nan})
    {'support': [3, 17], 'score': 0.5, '1': None}
    """
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # NumPy arrays and scalars
        return to_jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def write_json(path, payload, indent=2):
    """Write ``payload`` as JSON (UTF-8) to ``path`` atomically (see :func:`atomic_path`).

    Parameters
    ----------
    path : path-like
        The target file.
    payload : object
        Anything ``json.dumps`` accepts (see :func:`to_jsonable` for NumPy values).
    indent : int, default=2
        Indentation of the JSON text; a newline ends the file.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.outputs import write_json
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = write_json(Path(folder.name) / "summary.json", {"n_features": 2})
    >>> json.loads(path.read_text())
    {'n_features': 2}
    >>> folder.cleanup()
    """
    return write_text(path, json.dumps(payload, indent=indent) + "\n")


def write_csv(frame, path, **options):
    """``frame.to_csv(path, **options)`` atomically (compression from the suffix as pandas does).

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        The table.
    path : path-like
        The target file (``.csv``, ``.csv.gz``, ``.tsv`` with ``sep="\\t"`` ...).
    **options
        Passed to :meth:`pandas.DataFrame.to_csv`.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> from sfmlearn.outputs import write_csv
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = write_csv(pd.DataFrame({"gene": ["X95735", "M27891"]}), Path(folder.name) / "genes.csv",
    ...                  index=False)
    >>> path.read_text().split()
    ['gene', 'X95735', 'M27891']
    >>> folder.cleanup()
    """
    with atomic_path(path) as temporary:
        frame.to_csv(temporary, **options)
    return Path(path)


def save_figure(figure, path, **options):
    """``figure.savefig(path, **options)`` atomically; the format follows the suffix of ``path``.

    Parameters
    ----------
    figure : matplotlib.figure.Figure or object with ``savefig``
        A matplotlib figure or anything with such a method (nilearn displays).
    path : path-like
        The target file (``.png``, ``.svg``, ``.pdf`` ...).
    **options
        Passed to ``figure.savefig`` (e.g. ``dpi``); ``format`` defaults to the suffix.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from matplotlib.figure import Figure
    >>> from sfmlearn.outputs import save_figure
    >>> folder = tempfile.TemporaryDirectory()
    >>> figure = Figure()
    >>> _ = figure.subplots().plot([0, 1], [1, 0])
    >>> path = save_figure(figure, Path(folder.name) / "plot.png", dpi=50)
    >>> path.read_bytes()[:4]
    b'\\x89PNG'
    >>> folder.cleanup()
    """
    path = Path(path)
    options.setdefault("format", path.suffix.lstrip(".").lower() or None)
    with atomic_path(path) as temporary:
        figure.savefig(str(temporary), **options)
    return path


def save_nifti(image, path):
    """``nibabel.save(image, path)`` atomically (.nii or .nii.gz, compression from the suffix).

    Parameters
    ----------
    image : nibabel.nifti1.Nifti1Image
        The image (any image ``nibabel.save`` can write).
    path : path-like
        The target file; ``.nii.gz`` is gzip-compressed.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import nibabel as nib
    >>> import numpy as np
    >>> from sfmlearn.outputs import save_nifti
    >>> folder = tempfile.TemporaryDirectory()
    >>> image = nib.Nifti1Image(np.zeros((2, 3, 4), dtype=np.float32), affine=np.eye(4))
    >>> nib.load(save_nifti(image, Path(folder.name) / "map.nii.gz")).shape
    (2, 3, 4)
    >>> folder.cleanup()
    """
    import nibabel as nib

    with atomic_path(path) as temporary:
        nib.save(image, temporary)
    return Path(path)
