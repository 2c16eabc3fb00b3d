"""Reading a user's table (CSV, TSV, Parquet, NPZ) into features and labels.

Every problem a user can fix is a :class:`CLIError` with a one-line message. Beyond
parsing, the reader guards against files that would silently leak the labels or
mean something other than they seem:

* **Duplicate column names are refused**, naming them. pandas renames the second copy
  of a column ``name.1``, so a copy of the label column would become a feature with
  100 % accuracy; the check reads the raw header (CSV/TSV), the Parquet schema or the
  ``feature_names`` array of an NPZ, where the mangling has not happened yet.
* **A row index written with the table is dropped with a warning on stderr.** A first
  column without a name (``DataFrame.to_csv`` with its default ``index=True`` writes an
  empty header cell, R's ``write.csv`` writes ``""``; a re-saved file calls it
  ``Unnamed: 0``) that holds distinct non-negative whole numbers is the row index, and
  one that holds text is the row names. Neither is a measurement, and when the rows
  are sorted by class the row number predicts the label. An unnamed first column of
  other numbers (repeated or fractional values) is a real feature and is kept, as
  ``Unnamed: 0``.
* Rows with more values than the header has names are refused (pandas would silently
  turn the first column into the index, or shift every column by one).
* Text must be UTF-8 (a byte-order mark is fine) or UTF-16 with a byte-order mark;
  anything else is refused with the position of the first undecodable byte.
* Labels must not be missing; features must be numeric, finite and complete (any
  magnitude: the scaling is scale-invariant); group ids (``--groups``) must not be
  missing.
"""

import lzma
import re
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from ..datasets import load_named
from ._common import CLIError

__all__ = ["read_labelled_table", "read_table", "load_training_data", "TABLE_HELP"]

#: The --help text of the data file of select and repeat.
TABLE_HELP = ("table with one row per sample: .csv, .tsv, .parquet (text tables may be compressed, "
              ".csv.gz), or .npz with arrays X, y (and optional feature_names). Duplicate column names "
              "are refused; a first column without a name that holds the row index (0, 1, 2, ... as "
              "pandas' to_csv writes by default) or row names is dropped with a warning")

_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": None}
_COMPRESSED = (".gz", ".bz2", ".zip", ".xz", ".zst")
_PARQUET = (".parquet", ".pq")
_UNNAMED = re.compile(r"^(Unnamed: \d+)?$")
_MAGIC = {b"PAR1": "a Parquet file: name it .parquet", b"PK\x03\x04": "a ZIP archive (.npz, .xlsx?)",
          b"\x93NUMPY": "a NumPy .npy array: save X and y with numpy.savez as .npz"}


def _listing(names, limit=5):
    names = [str(n) for n in names]
    return ", ".join(names[:limit]) + (" ..." if len(names) > limit else "")


def _refuse_duplicates(path, names, what="column"):
    seen, duplicates = set(), []
    for name in names:
        if name in seen and name not in duplicates:
            duplicates.append(name)
        seen.add(name)
    duplicates = [d for d in duplicates if not _UNNAMED.match(str(d))]
    if duplicates:
        raise CLIError(f"{path.name} has duplicate {what} names ({_listing(duplicates)}); a second copy "
                       "(of the labels, say) would be read as a feature: rename or remove the copies")


def _text_options(path):
    """Separator, parser engine and encoding of a text table, from its suffix and first bytes."""
    suffixes = [s.lower() for s in path.suffixes] or [""]
    compressed = suffixes[-1] in _COMPRESSED
    if compressed:
        inner = suffixes[-2] if len(suffixes) > 1 else ".csv"
    else:
        inner = suffixes[-1]
    if inner not in _SEPARATORS:
        raise CLIError(f"{path.name}: unknown file type '{inner or path.name}'. Use .csv, .tsv, .txt, "
                       ".parquet or .npz (text tables may be compressed: .csv.gz ...).")
    sep = _SEPARATORS[inner]
    encoding = "utf-8"
    if not compressed:
        with open(path, "rb") as handle:
            head = handle.read(8)
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):
            encoding = "utf-16"
        elif head.startswith(b"\xef\xbb\xbf"):
            encoding = "utf-8-sig"
        for magic, kind in _MAGIC.items():
            if head.startswith(magic):
                raise CLIError(f"{path.name} is not a text table: it looks like {kind}")
    return {"sep": sep, "engine": "python" if sep is None else "c", "encoding": encoding}


def _read_text(path):
    options = _text_options(path)
    try:
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False, **options)
        frame = pd.read_csv(path, **options)
    except pd.errors.EmptyDataError as exc:
        raise CLIError(f"{path.name} is empty: it needs a header row and one row per sample.") from exc
    except pd.errors.ParserError as exc:
        detail = str(exc).strip().splitlines()[-1]
        raise CLIError(f"{path.name} is not a rectangular table ({detail}).") from exc
    except UnicodeError as exc:
        where = f" (byte {exc.start})" if hasattr(exc, "start") else ""
        raise CLIError(f"{path.name} is not UTF-8 text{where}: save it as UTF-8 (or UTF-16 with a "
                       "byte-order mark)") from exc
    except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError) as exc:
        if getattr(exc, "errno", None) is not None:  # missing, unreadable: reported as such
            raise
        raise CLIError(f"{path.name} cannot be decompressed ({' '.join(str(exc).split())}); is it "
                       "really the compressed file its name says?") from exc
    names = list(header.iloc[0])
    if not (isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0):
        raise CLIError(f"{path.name}: the rows have more values than the header has names "
                       f"({len(names)}): a separator at the end of every row, or a row index "
                       "without a header cell; make the header and the rows the same width")
    if len(names) == 1 and options["sep"] == "," and ";" in str(names[0]):
        raise CLIError(f"{path.name} has a single column '{_listing(names, 1)}': it looks separated by ';'. "
                       "Save it with ',' separators (and '.' as decimal point), or as a tab-separated .tsv")
    return names, frame


def _read_parquet(path):
    try:
        import pyarrow
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise CLIError(f"reading {path.name} needs a Parquet engine: pip install pyarrow") from exc
    unreadable = (pyarrow.ArrowException, ValueError, TypeError)
    try:
        names = pq.read_schema(path).names
    except unreadable as exc:
        raise CLIError(f"{path.name} is not a readable Parquet file ({' '.join(str(exc).split())[:160]})") from exc
    _refuse_duplicates(path, names)
    try:
        frame = pd.read_parquet(path)
    except unreadable as exc:
        raise CLIError(f"{path.name} is not a readable Parquet file ({' '.join(str(exc).split())[:160]})") from exc
    return [str(c) for c in frame.columns], frame.reset_index(drop=True)


def read_table(path, keep=()):
    """A CSV/TSV/TXT (optionally compressed) or Parquet table as a DataFrame.

    Duplicate column names are refused; a leading unnamed row index (or row names) is
    dropped with a warning unless its name is in ``keep`` (see the module docstring).
    Raises :class:`CLIError`.
    """
    path = _existing_file(path)
    if path.suffix.lower() in _PARQUET:
        names, frame = _read_parquet(path)
    else:
        names, frame = _read_text(path)
        _refuse_duplicates(path, names)
    return _drop_row_index(path, names, frame, keep)


def _drop_row_index(path, names, frame, keep):
    if (not names or frame.shape[0] == 0 or frame.shape[1] == 0 or frame.columns[0] in keep
            or not _UNNAMED.match(str(names[0]))):
        return frame
    first = frame.iloc[:, 0]
    if pd.api.types.is_numeric_dtype(first) and not pd.api.types.is_bool_dtype(first):
        values = first.to_numpy(dtype=float)
        whole = np.isfinite(values).all() and (values == np.round(values)).all()
        if not (whole and (values >= 0).all() and np.unique(values).size == values.size):
            return frame  # a real, if unnamed, feature
        kind = "the row index (distinct whole numbers)"
    else:
        kind = "row names (text)"
    print(f"sfmlearn: warning: {path.name}: dropped the first column: it has no name and holds {kind}, "
          "not a measurement (write tables with index=False, or name the column to keep it)",
          file=sys.stderr)
    return frame.iloc[:, 1:]


def _existing_file(path):
    path = Path(path)
    if not path.exists():
        raise CLIError(f"no such file: {path}")
    if path.is_dir():
        raise CLIError(f"{path} is a directory; pass a table file (.csv, .tsv, .parquet, .npz).")
    return path


def _npz_array(archive, path, key):
    try:
        return archive[key]
    except ValueError as exc:  # object arrays need pickle, which is never allowed for user files
        raise CLIError(f"{path.name}: array '{key}' holds Python objects; save it as a numeric array "
                       "(labels may be numbers or strings)") from exc


def _read_npz(path, target):
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise CLIError(f"{path.name} is not a readable .npz archive ({' '.join(str(exc).split())}).") from exc
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise CLIError(f"{path.name} holds a single array, not an .npz archive; save X and y with "
                       "numpy.savez(path, X=X, y=y)")
    with archive:
        y_key = target or "y"
        if "X" not in archive.files:
            raise CLIError(f"{path.name} has no array 'X' (samples x features); it holds {archive.files}")
        if y_key not in archive.files:
            hint = f"--target {y_key}: " if target else ""
            fix = "" if target else " (name the label array with --target)"
            raise CLIError(f"{hint}{path.name} has no label array '{y_key}'; it holds {archive.files}{fix}")
        X = _npz_array(archive, path, "X")
        y = _npz_array(archive, path, y_key)
        names = _npz_array(archive, path, "feature_names") if "feature_names" in archive.files else None
    if X.ndim != 2:
        raise CLIError(f"{path.name}: X must be 2-D (samples x features); got shape {X.shape}.")
    if not (X.dtype.kind in "biuf"):
        raise CLIError(f"{path.name}: X must be numeric; got dtype {X.dtype}.")
    if y.ndim != 1:
        raise CLIError(f"{path.name}: '{y_key}' must be 1-D (one label per sample); got shape {y.shape}.")
    if X.shape[0] == 0:
        raise CLIError(f"{path.name} has 0 samples; X needs one row per sample.")
    if y.shape[0] != X.shape[0]:
        raise CLIError(f"{path.name}: X has {X.shape[0]} rows but '{y_key}' has {y.shape[0]} labels.")
    if names is None:
        names = np.array([f"x{j}" for j in range(X.shape[1])])
    elif names.ndim != 1 or names.size != X.shape[1]:
        raise CLIError(f"{path.name}: feature_names has {names.size} entries for {X.shape[1]} columns of X.")
    names = names.astype(str)
    _refuse_duplicates(path, list(names), what="feature")
    return pd.DataFrame(X, columns=names), pd.Series(y, name=y_key)


def _split_table(path, target, groups):
    if target is None:
        raise CLIError("--target COLUMN is required: name the column that holds the class labels.")
    if groups is not None and groups == target:
        raise CLIError(f"--groups and --target both name '{target}'; the groups must be another column")
    frame = read_table(path, keep=(target, groups))
    if frame.shape[0] == 0:
        raise CLIError(f"{path.name} has a header but no data rows.")
    if target not in frame.columns:
        raise CLIError(f"{path.name} has no column '{target}'. Columns: {_listing(frame.columns, 8)}")
    y = frame.pop(target)
    group_ids = None
    if groups is not None:
        if groups not in frame.columns:
            raise CLIError(f"{path.name} has no column '{groups}' (given as --groups).")
        column = frame.pop(groups)
        missing = np.flatnonzero(column.isna().to_numpy())
        if missing.size:
            raise CLIError(f"--groups {groups}: {missing.size} sample(s) have no group id (data rows "
                           f"{_listing(missing + 1)}); fill them in or drop those rows")
        group_ids = column.to_numpy()
    return frame, y, group_ids


def _check_features(path, X, y):
    if y.isna().any():
        raise CLIError(
            f"{path.name}: {int(y.isna().sum())} sample(s) have no label in '{y.name}'. "
            "Drop or label them first."
        )
    classes = pd.unique(y)
    if classes.size != 2:
        shown = _listing(sorted(map(str, classes)))
        fix = ("keep the rows of two of them" if classes.size > 2
               else "feature selection needs samples of two classes")
        raise CLIError(f"{path.name}: the labels '{y.name}' hold {classes.size} class(es) ({shown}); "
                       f"select and repeat separate two classes: {fix}")
    if X.shape[1] == 0:
        raise CLIError(f"{path.name} has no feature columns besides '{y.name}'.")
    non_numeric = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    if non_numeric:
        raise CLIError(
            f"{path.name}: {len(non_numeric)} feature column(s) are not numeric ({_listing(non_numeric)}). "
            "Remove them or encode them as numbers."
        )
    values = X.to_numpy(dtype=np.float64, na_value=np.nan)
    for bad, what, fix in ((np.isnan(values), "missing", "Impute or drop them first."),
                           (np.isinf(values), "infinite", "Replace or drop them first.")):
        if bad.any():
            cols = X.columns[bad.any(axis=0)]
            raise CLIError(f"{path.name}: {int(bad.sum())} {what} value(s) in column(s) {_listing(cols)}. {fix}")


def read_labelled_table(path, target, groups=None):
    """Read ``path`` and split off the label column ``target`` (and a ``groups`` column).

    Returns ``(X, y)`` with X a numeric DataFrame (column names kept; the group ids, if
    asked for, in ``X.attrs["groups"]``) and y a Series. Every problem a user can fix
    raises :class:`CLIError` with a one-line message; see the module docstring for the
    checks against label leaks.
    """
    path = _existing_file(path)
    if path.suffix.lower() == ".npz":
        if groups is not None:
            raise CLIError("--groups needs a table (.csv, .tsv, .parquet); .npz files have no group column")
        X, y = _read_npz(path, target)
        group_ids = None
    else:
        X, y, group_ids = _split_table(path, target, groups)
    _check_features(path, X, y)
    X.columns = [str(c) for c in X.columns]
    if groups is not None:
        X.attrs["groups"] = group_ids
    return X, y


def load_training_data(args, command):
    """The training data of ``select`` / ``repeat``: a shipped ``--dataset`` or a file.

    Returns ``(source, X, y, feature_names, test, groups)``; ``test`` is the dataset's
    independent ``(X_test, y_test)`` or None, ``groups`` the group ids or None.
    """
    if args.dataset and args.path:
        raise CLIError("give either a file or --dataset, not both")
    if args.dataset:
        if args.groups:
            raise CLIError("--groups applies to files; shipped datasets bring their own groups")
        if args.target:
            raise CLIError("--target applies to files; shipped datasets bring their own labels")
        bunch = load_named(args.dataset)
        test = (bunch.X_test, bunch.y_test) if "X_test" in bunch else None
        groups = np.asarray(bunch.groups_train) if "groups_train" in bunch else None
        return (args.dataset, np.asarray(bunch.X_train, dtype=np.float64), np.asarray(bunch.y_train),
                np.asarray(bunch.feature_names, dtype=str), test, groups)
    if not args.path:
        raise CLIError(f"give a data file (sfmlearn {command} data.csv --target COLUMN) or --dataset NAME")
    X, y = read_labelled_table(args.path, args.target, groups=args.groups)
    return (args.path, X.to_numpy(dtype=np.float64), y.to_numpy(), np.asarray(X.columns, dtype=str),
            None, X.attrs.get("groups"))
