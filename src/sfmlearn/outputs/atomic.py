"""Atomic output files, and the checks an output path passes before any long computation.

Writing
    :func:`atomic_path` yields a temporary path in the target's folder whose name ends
    with the target's name (so nibabel, matplotlib, Pillow and pandas, which choose the
    format or compression from the suffix, see the same suffix). When the block succeeds
    the temporary file is flushed to disk and moved onto the target with ``os.replace``
    (atomic on POSIX and Windows within one folder); when it fails -- disk full, no
    permission, an exception, Ctrl-C -- the temporary file is removed and the previous
    target is untouched. A reader sees the old file or the complete new one, never a
    truncated one. A replaced file keeps its permission bits. A target that is a device
    or a pipe (``/dev/null``, a named pipe) is never replaced: the complete file is
    written to the system's temporary folder first and then copied into it, so a device
    that refuses the data (``/dev/full``) reports "No space left on device". :func:`write_text`,
    :func:`write_bytes`, :func:`write_json`, :func:`write_csv`, :func:`save_figure` and
    :func:`save_nifti` are the writers built on it.

Symbolic links
    An output path that is a symbolic link is refused: sfmlearn never writes through a
    link into its target and never replaces the link, so neither is lost. Name the file
    itself (or remove the link) to write there. Folders on the way (``--out`` given as a
    link to a folder) are followed as usual.

Checks
    :func:`check_output_file`, :func:`check_output_dir`, :func:`create_output_dir` and
    :class:`OutputPathError` live in :mod:`sfmlearn.outputs.output_paths` and are
    importable from here too.
"""

import contextlib
import json
import math
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ._temporary import TEMPORARY_PREFIX, remove_quietly, temporary_name
from .output_paths import (
    OutputPathError,
    check_output_dir,
    check_output_file,
    create_output_dir,
    refuse_link,
    same_file,
)

__all__ = [
    "OutputPathError",
    "TEMPORARY_PREFIX",
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


#: Format of a figure whose file name has no suffix (matplotlib would append ".png" to the name).
DEFAULT_FIGURE_FORMAT = "png"


def _sync(path):
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _is_device(path):
    """Whether ``path`` exists but is no regular file or folder: a device, a pipe or a socket."""
    return path.exists() and not path.is_file() and not path.is_dir()


def _replace(temporary, path):
    """Flush the complete ``temporary`` to disk and rename it onto ``path`` (keeping its permission bits)."""
    _sync(temporary)
    if path.exists():
        os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
    os.replace(temporary, path)


def _copy_into(temporary, device):
    """Copy the complete ``temporary`` into ``device`` (a device or pipe must stay what it is), then delete it."""
    with open(temporary, "rb") as source, open(device, "wb") as sink:
        shutil.copyfileobj(source, sink)
    os.unlink(temporary)


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path to write; on success it replaces ``path`` atomically.

    Any exception inside the block (or in the final flush and rename or copy) removes the
    temporary file and leaves ``path`` as it was; an ``OSError`` is re-raised naming
    ``path`` rather than the temporary file.

    Parameters
    ----------
    path : path-like
        The target file. The temporary file lies in the same folder (in the system's
        temporary folder when ``path`` is a device or pipe, which is then written into,
        not replaced) and its name ends with the target's name, so writers that pick the
        format from the suffix work.

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
    The target appears only when the block ends:

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
    refuse_link(path, "output")
    if path.is_dir():
        raise OutputPathError(f"output {path} is a directory; cannot replace it with a file")
    device = _is_device(path)
    temporary = temporary_name(path)
    if device:  # its folder (/dev) is no place for files
        temporary = Path(tempfile.gettempdir()) / temporary.name
    try:
        yield temporary
        (_copy_into if device else _replace)(temporary, path)
    except OSError as exc:
        remove_quietly(temporary)
        if exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        remove_quietly(temporary)
        raise


def write_bytes(path, data):
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`).

    Parameters
    ----------
    path : path-like
        The target file; a previous version is replaced only once ``data`` is on disk.
    data : bytes
        The whole content of the file.

    Returns
    -------
    pathlib.Path
        ``path``, which now holds exactly ``data``.

    Examples
    --------
    Two bytes written and read back unchanged:

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
        The target file, written with :func:`write_bytes`.
    text : str
        The content, written as given (``"\\n"`` stays ``"\\n"`` on every platform).
    encoding : str, default="utf-8"
        How ``text`` is turned into the bytes of the file.

    Returns
    -------
    pathlib.Path
        ``path``, which now holds ``text`` in ``encoding`` (no newline translation).

    Examples
    --------
    A line of text, its newline kept as written:

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
        ``path``, so that the file just written can be named in a message or a summary.

    Examples
    --------
    The summary of a result folder, read back with :func:`json.loads`:

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
        ``path`` as a :class:`~pathlib.Path`, whatever path-like was given.

    Examples
    --------
    A table of gene names without the index column:

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
        The target file (``.png``, ``.svg``, ``.pdf`` ...). A name without a suffix
        (``out/figure``, ``/dev/null``) gets PNG, under exactly that name.
    **options
        Passed to ``figure.savefig`` (e.g. ``dpi``); ``format`` defaults to the suffix,
        or ``"png"`` when there is none.

    Returns
    -------
    pathlib.Path
        ``path``; its suffix chose the format unless ``format`` was given.

    Examples
    --------
    A small line plot saved as PNG (the file starts with the PNG signature):

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
    options.setdefault("format", path.suffix.lstrip(".").lower() or DEFAULT_FIGURE_FORMAT)
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
        ``path``, ready for ``nibabel.load``.

    Examples
    --------
    An empty 2 x 3 x 4 volume, gzip-compressed and loaded again:

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
