"""Tables with one row per sample (CSV, TSV, Parquet), and the text reading all readers share.

Every problem a user can fix is a :class:`~sfmlearn.io.labelled.DataFileError` with a
one-line message. Beyond parsing, the reader guards against files that would silently
leak the labels or mean something other than they seem:

* **Duplicate column names are refused**, naming them, and so is a column without a
  name after the first named one. pandas renames the second copy
  of a column ``name.1``, so a copy of the label column would become a feature with
  100 % accuracy; the check reads the raw header (CSV/TSV), the Parquet schema or the
  ``feature_names`` array of an NPZ (:mod:`.npz`), where the mangling has not happened yet.
* **A row index written with the table is dropped with a UserWarning.** (A Parquet
  file's stored pandas index, other than the default 0, 1, 2 ..., is read as the first
  column, where a CSV written with the index has it.) A first
  column without a name (``DataFrame.to_csv`` with its default ``index=True`` writes an
  empty header cell, R's ``write.csv`` writes ``""``; a re-saved file calls it
  ``Unnamed: 0``) that holds distinct non-negative whole numbers is the row index, and
  one that holds text is the row names. Neither is a measurement, and when the rows
  are sorted by class the row number predicts the label. The column is read as text, so
  ids written with leading zeros (``001``, ``002``) are row names, not numbers; row
  names that are all present and distinct become the table's row index (the sample
  ids), exactly as written. An unnamed first column of other numbers (repeated or
  fractional values) is a real feature and is kept, as ``Unnamed: 0``. A first column
  named like sample ids (``id``, ``sample``, ``sample_id``, ``barcode``, ... :
  :data:`ID_NAMES`) gives the sample ids as written: numbered samples sorted by class
  would otherwise be a perfect feature; one that repeats or misses values is refused
  (it groups samples: pass it as the groups column).
* Two or more leading columns without a name (a MultiIndex written by ``to_csv``) are
  refused: they are the levels of a row index, which may hold the labels themselves.
* A ``.csv`` whose every row is one field holding tabs (or ``;``) is refused with the
  fix (rename it ``.tsv``, or save it with ``,``).
* Rows with more values than the header has names are refused (pandas would silently
  turn the first column into the index, or shift every column by one).
* Text must be UTF-8 (a byte-order mark is fine) or, uncompressed, UTF-16 with a
  byte-order mark; anything else is refused with the position of the first undecodable
  byte. A compressed file named without its suffix (gzip data in ``data.csv``) is
  refused with the name to give it.
"""

import codecs
import lzma
import re
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from .labelled import COLUMN_COPIES, DataFileError, did_you_mean, listing, refuse_duplicates, refuse_label_copies

__all__ = ["TABLE_TYPES", "existing_file", "read_lines", "read_table", "read_text", "refuse_unknown_type",
           "split_table", "text_options"]

_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": None}
_COMPRESSED = (".gz", ".bz2", ".zip", ".xz", ".zst")
_PARQUET = (".parquet", ".pq")
_UNNAMED = re.compile(r"^(Unnamed: \d+)?$")
#: Names of a first column that holds the sample ids (case, spaces, dots and hyphens ignored).
ID_NAMES = frozenset({"id", "ids", "sample", "samples", "sample_id", "sampleid", "sample_name", "samplename",
                      "row_id", "case_id", "patient_id", "participant_id", "subject_id", "cell_id", "barcode",
                      "cell_barcode", "accession"})
#: The first bytes of files that are not plain text, and what to do ({name}: the file's name).
_MAGIC = {b"PAR1": "a Parquet file: name it .parquet", b"PK\x03\x04": "a ZIP archive (.npz, .xlsx?)",
          b"\x93NUMPY": "a NumPy .npy array: save X and y with numpy.savez as .npz",
          b"\x89HDF": "an HDF5 file (AnnData? name it .h5ad)",
          b"\x1f\x8b": "gzip-compressed data: rename it {name}.gz",
          tuple(b"BZh%d" % level for level in range(1, 10)): "bzip2-compressed data: rename it {name}.bz2",
          b"\xfd7zXZ\x00": "xz-compressed data: rename it {name}.xz",
          b"\x28\xb5\x2f\xfd": "zstd-compressed data: rename it {name}.zst"}
#: The file types :func:`read_table` reads, for messages.
TABLE_TYPES = ".csv, .tsv, .txt (text may be compressed: .csv.gz ...) or .parquet"


def _names_rows(name):
    """Whether a first column named ``name`` holds row names: no name, or a sample-id name."""
    return bool(_UNNAMED.match(str(name))) or re.sub(r"[\s.-]+", "_", str(name).strip().lower()) in ID_NAMES


def _refuse_duplicate_columns(path, names, what="column"):
    refuse_duplicates(path.name, [n for n in names if not _UNNAMED.match(str(n))], what, reason=COLUMN_COPIES)


def _refuse_unnamed_columns(path, names):
    """Refuse a column without a name after the first named one (pandas would call it
    ``Unnamed: k``, counting from 0); leading unnamed columns are a row index (module
    docstring)."""
    named = [i for i, name in enumerate(names) if not _UNNAMED.match(str(name))]
    later = [i for i in range(named[0], len(names)) if _UNNAMED.match(str(names[i]))] if named else []
    if later:
        raise DataFileError(f"{path.name}: column {later[0] + 1} has no name in the header; name it, or delete "
                            "the column (a separator at the end of the header line leaves an empty last name)")


def existing_file(path, what="a table file (.csv, .tsv, .parquet, .npz)"):
    """``path`` as a Path; raises if it does not exist or is a directory."""
    path = Path(path)
    if not path.exists():
        raise DataFileError(f"no such file: {path}")
    if path.is_dir():
        raise DataFileError(f"{path} is a directory; pass {what}.")
    return path


def _text_type(path):
    """``(suffix, compressed)``: the suffix that says a text table's layout (``.csv`` of
    ``data.csv.gz``; a bare ``data.gz`` is a CSV) and whether the file is compressed."""
    suffixes = [s.lower() for s in path.suffixes] or [""]
    compressed = suffixes[-1] in _COMPRESSED
    return (suffixes[-2] if len(suffixes) > 1 else ".csv") if compressed else suffixes[-1], compressed


def refuse_unknown_type(path, types=TABLE_TYPES):
    """Refuse a file not named like a table; ``types`` lists what the caller reads, for the message."""
    inner, _ = _text_type(path)
    if path.suffix.lower() not in _PARQUET and inner not in _SEPARATORS:
        raise DataFileError(f"{path.name}: unknown file type '{inner or path.name}'. Use {types}.")


def text_options(path):
    """``read_csv`` options of a text table: separator, engine, encoding (from suffix and first bytes)."""
    refuse_unknown_type(path)
    inner, compressed = _text_type(path)
    sep = _SEPARATORS[inner]
    encoding = "utf-8"
    if not compressed:
        with open(path, "rb") as handle:
            head = handle.read(8)
        encoding = _encoding(head)
        for magic, kind in _MAGIC.items():
            if head.startswith(magic):
                raise DataFileError(f"{path.name} is not a text table: it looks like {kind.format(name=path.name)}")
    return {"sep": sep, "engine": "python" if sep is None else "c", "encoding": encoding}


def _encoding(head):
    """The encoding of text starting with the bytes ``head``: UTF-16 or UTF-8 by its byte-order
    mark (dropped when read), else UTF-8."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return "utf-8-sig" if head.startswith(b"\xef\xbb\xbf") else "utf-8"


def read_lines(path, what="one name per line"):
    """The lines of the text file ``path``, decoded as the tables are (module docstring): UTF-8,
    with or without a byte-order mark, or UTF-16 with one; other text is a DataFileError."""
    path = Path(path)

    def decode():
        data = path.read_bytes()
        return data.decode(_encoding(data[:3])).splitlines()
    return read_text(path, decode, what)


def read_text(path, reader, what="one row per sample"):
    """Run ``reader()`` (which parses ``path``) and turn parser failures into one-line errors."""
    try:
        return reader()
    except pd.errors.EmptyDataError as exc:
        raise DataFileError(f"{path.name} is empty: it needs a header row and {what}.") from exc
    except pd.errors.ParserError as exc:
        detail = str(exc).strip().splitlines()[-1]
        raise DataFileError(f"{path.name} is not a rectangular table ({detail}).") from exc
    except UnicodeError as exc:
        raise DataFileError(_not_utf8(path)) from exc
    except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError) as exc:
        if getattr(exc, "errno", None) is not None:  # missing, unreadable: reported as such
            raise
        raise DataFileError(f"{path.name} cannot be decompressed ({' '.join(str(exc).split())}); is it "
                            "really the compressed file its name says?") from exc


def _not_utf8(path):
    """The message for a file whose text does not decode: where, and how to save it."""
    if path.suffix.lower() in _COMPRESSED:  # read as UTF-8: no byte-order mark is looked for inside
        return (f"{path.name} is not UTF-8 text: save the table as UTF-8 before compressing it (UTF-16 "
                "with a byte-order mark is read from uncompressed files only)")
    where = _first_bad_byte(path)
    where = "" if where is None else f" (byte {where})"
    return f"{path.name} is not UTF-8 text{where}: save it as UTF-8 (or UTF-16 with a byte-order mark)"


def _first_bad_byte(path, chunk=1 << 20):
    """Offset of the first byte of an uncompressed file that is not UTF-8 (the parser's own
    error counts within its buffer); None when none is found."""
    decoder, offset = codecs.getincrementaldecoder("utf-8")(), 0
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            pending = len(decoder.getstate()[0])  # the previous block's unfinished character
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                return offset - pending + exc.start
            offset += len(block)
    return None


def _read_text(path, what, index, text):
    options = text_options(path)

    def parse():
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False, **options)
        names = list(header.iloc[0])
        in_index = set() if index is None else set(index(names))
        index_col = [i for i, name in enumerate(names) if name in in_index] or None
        columns = [name or f"Unnamed: {i}" for i, name in enumerate(names)]  # pandas' names of blank cells
        as_text = {name: str for name in (() if text is None else text(columns)) if name in columns}
        return names, pd.read_csv(path, index_col=index_col, dtype=as_text or None, **options)
    names, frame = read_text(path, parse, what)
    _refuse_one_column(path, names, options["sep"])
    implicit_index = (frame.index.nlevels + frame.shape[1] != len(names) if index is not None
                      else not (isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0))
    if implicit_index:
        raise DataFileError(f"{path.name}: the rows have more values than the header has names "
                            f"({len(names)}): a separator at the end of every row, or a row index "
                            "without a header cell; make the header and the rows the same width")
    return names, frame


def _refuse_one_column(path, names, sep):
    """Refuse a .csv whose header is one field holding ';' or tabs: every row would be one value."""
    if len(names) != 1 or sep != ",":
        return
    if "\t" in str(names[0]):
        raise DataFileError(f"{path.name} has a single column: it looks tab-separated. Rename it .tsv (or .txt, "
                            "whose separator is detected), or save it with ',' separators")
    if ";" in str(names[0]):
        raise DataFileError(f"{path.name} has a single column '{listing(names, 1)}': it looks separated by ';'. "
                            "Save it with ',' separators (and '.' as decimal point), or as a tab-separated .tsv")


def _read_parquet(path):
    try:
        import pyarrow
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise DataFileError(f"reading {path.name} needs a Parquet engine: pip install pyarrow") from exc
    unreadable = (pyarrow.ArrowException, ValueError, TypeError)
    try:
        names = pq.read_schema(path).names
        _refuse_duplicate_columns(path, names)
        frame = pd.read_parquet(path)
    except DataFileError:
        raise
    except unreadable as exc:
        raise DataFileError(f"{path.name} is not a readable Parquet file "
                            f"({' '.join(str(exc).split())[:160]})") from exc
    frame = _index_as_columns(path, frame)
    return [str(c) for c in frame.columns], frame


def _index_as_columns(path, frame):
    """The pandas index stored with a Parquet table, read as a CSV's row names are: a
    single level of distinct, present text values (the sample ids of a sheet or a data
    table, the feature ids of a matrix) becomes the leading column, under its name when
    that names rows (``id``, ``sample``, ...) and else as an unnamed one, so that the
    rules of a first column apply. Any other index is no measurement and is not read:
    the default 0, 1, 2 ..., the row numbers left by a filter or a sort, dates, several
    levels, or a copy of a column (``set_index(..., drop=False)``); a named one is
    dropped with a warning."""
    index = frame.index
    plain = frame.reset_index(drop=True)
    if isinstance(index, pd.RangeIndex) or index.name in frame.columns:
        return plain
    text = index.nlevels == 1 and (index.dtype == object or pd.api.types.is_string_dtype(index.dtype))
    name = index.name if index.name is not None and _names_rows(index.name) else "Unnamed: 0"
    if text and not index.isna().any() and index.is_unique and name not in plain.columns:
        plain.insert(0, name, index.astype(str).to_numpy())
        return plain
    if any(name is not None for name in index.names):
        warnings.warn(f"{path.name}: the stored index {listing([n for n in index.names if n is not None])} "
                      "is not read (it holds no distinct text ids); write the file with index=False, or make it "
                      "a column to use it", UserWarning, stacklevel=4)
    return plain


def read_table(path, keep=(), what="one row per sample", drop_row_index=True, index=None, text=None):
    """A CSV/TSV/TXT (optionally compressed) or Parquet table as a DataFrame.

    Duplicate column names are refused; a leading unnamed row index (or row names) is
    dropped with a warning unless its name is in ``keep`` or ``drop_row_index`` is False
    (a sample sheet's or an expression matrix's first column holds ids, named or not;
    see the module docstring).

    Parameters
    ----------
    path : path-like
        ``.csv``, ``.tsv``, ``.txt`` (optionally compressed: ``.gz``, ``.bz2``, ``.zip``,
        ``.xz``, ``.zst``) or ``.parquet`` / ``.pq``.
    keep : tuple of str, default=()
        Column names that are never dropped as a row index (the label and group columns).
    what : str, default="one row per sample"
        What the rows should be, for the message about an empty file.
    drop_row_index : bool, default=True
        Drop a leading unnamed column of row names or distinct whole numbers (with a
        UserWarning; the command line prints it as one line on stderr).
    index : callable, optional
        A function of the header names returning the columns to parse into the row index
        (so the remaining numbers form one block: an expression matrix's values then
        become a samples x features array without a copy).
    text : callable, optional
        A function of the header names returning the columns to read as text, cell by
        cell as written (labels, group and sample ids: ``"01"`` stays ``"01"``); the
        cells of :data:`~sfmlearn.io.labels.MISSING_TEXT` still read as missing. Parquet
        columns keep their stored types.

    Returns
    -------
    pandas.DataFrame
        The table, columns as in the file (less a dropped row index).

    Raises
    ------
    DataFileError
        When the file is missing, empty, unreadable or has duplicate column names.

    Examples
    --------
    A comma-separated table keeps its header as the column names:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.io import read_table
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "data.csv"
    >>> _ = path.write_text("g1,g2,class\\n0.5,1.0,a\\n1.5,2.0,b\\n")
    >>> read_table(path).columns.tolist()
    ['g1', 'g2', 'class']
    >>> folder.cleanup()
    """
    path = existing_file(path)
    if path.suffix.lower() in _PARQUET:
        names, frame = _read_parquet(path)
        if index is not None:
            frame = frame.set_index(index(names))
    else:
        as_text = text
        if drop_row_index:  # the first column's cells as written: "001" is an id, not the number 1
            def as_text(columns):
                unnamed_first = columns[:1] if columns and _names_rows(columns[0]) else []
                return [*(() if text is None else text(columns)), *unnamed_first]
        names, frame = _read_text(path, what, index, as_text)
        _refuse_duplicate_columns(path, names)
        _refuse_unnamed_columns(path, names)
    # a caller that chose the index (``index``) has placed the id columns itself
    return _drop_row_index(path, names, frame, keep) if drop_row_index and index is None else frame


def _refuse_index_levels(path, names, frame, keep):
    """Refuse two or more leading unnamed columns: a row index of several levels (a MultiIndex)."""
    levels = 0
    while levels < len(names) and _UNNAMED.match(str(names[levels])):
        levels += 1
    if levels >= 2 and not set(frame.columns[:levels]) & set(keep):
        raise DataFileError(f"{path.name}: the first {levels} columns have no name: a row index of {levels} levels "
                            "(as pandas writes a MultiIndex), not measurements. Write the table with index=False, "
                            "or name those columns in the header (one can then be --target or --groups)")


#: A whole number written with leading zeros ("001", "-007"): an id, not a count.
_LEADING_ZEROS = re.compile(r"^\s*[+-]?0\d")


def _as_numbers(cells):
    """The numbers of a first column read as text (None when a cell is text or an id with
    leading zeros); a typed column (Parquet) as it is."""
    if pd.api.types.is_bool_dtype(cells):
        return None
    if pd.api.types.is_numeric_dtype(cells):
        return cells
    written = cells.dropna().astype(str)
    numbers = pd.to_numeric(cells, errors="coerce")
    if numbers.notna().sum() != written.size or written.str.match(_LEADING_ZEROS).any():
        return None
    return numbers


def _named_ids(path, name, frame):
    """A first column named like sample ids: its cells, as written, become the sample ids; a
    column that repeats or misses values is refused (it groups samples, or is no id)."""
    ids = frame.iloc[:, 0].astype(object)
    if ids.isna().any() or ids.duplicated().any():
        problem = "misses values" if ids.isna().any() else f"repeats values ({listing(ids[ids.duplicated()].unique())})"
        raise DataFileError(f"{path.name}: the first column {name!r} is named like sample ids but {problem}; "
                            "if it groups samples (a participant or batch), pass it as the groups column "
                            "(--groups); to use it as a feature, rename it")
    warnings.warn(f"{path.name}: the first column {name!r} is named like sample ids: used as the sample ids, "
                  "not as a measurement (rename it to keep it as a feature)", UserWarning, stacklevel=3)
    return frame.iloc[:, 1:].set_axis(pd.Index(ids.astype(str), dtype=object), axis=0)


def _concatenated_row_numbers(values):
    """Whether ``values`` are runs 0, 1, 2, ... one after another, as ``pd.concat`` of tables
    leaves their row indexes: kept as a feature, such a column tells the tables (often
    the batches, or the classes) apart."""
    return values.size > 1 and values[0] == 0 and bool(np.all((np.diff(values) == 1) | (values[1:] == 0)))


def _drop_row_index(path, names, frame, keep):
    if (not names or frame.shape[0] == 0 or frame.shape[1] == 0 or frame.columns[0] in keep
            or not _names_rows(names[0])):
        return frame
    if not _UNNAMED.match(str(names[0])):
        return _named_ids(path, names[0], frame)
    _refuse_index_levels(path, names, frame, keep)
    first = frame.iloc[:, 0]
    numbers = _as_numbers(first)
    ids = None
    if numbers is not None:
        values = numbers.to_numpy(dtype=float)
        whole = np.isfinite(values).all() and (values == np.round(values)).all()
        if whole and (values >= 0).all() and np.unique(values).size == values.size:
            kind = "the row index (distinct whole numbers)"
        elif whole and _concatenated_row_numbers(values):
            kind = "the row indexes of concatenated tables (runs 0, 1, 2, ...)"
        else:
            return frame.assign(**{frame.columns[0]: numbers})  # a real, if unnamed, feature
    else:
        ids = first.astype(object)
        if ids.isna().any() or ids.duplicated().any():
            ids, kind = None, "row names (text; not all present and distinct, so not used as sample ids)"
        else:
            kind = "row names (text, kept as the sample ids)"
    warnings.warn(f"{path.name}: dropped the first column: it has no name and holds {kind}, "
                  "not a measurement (write tables with index=False, or name the column to keep it)",
                  UserWarning, stacklevel=2)
    rest = frame.iloc[:, 1:]
    return rest if ids is None else rest.set_axis(pd.Index(ids.astype(str), dtype=object), axis=0)


def split_table(path, frame, target, groups):
    """Split the label column ``target`` (and the ``groups`` column) off a samples-in-rows table.

    Returns ``(features, y, group_ids)``: a DataFrame, a Series, an array or None.
    """
    if frame.shape[0] == 0:
        raise DataFileError(f"{path.name} has a header but no data rows.")
    if target not in frame.columns:
        raise DataFileError(f"{path.name} has no column '{target}'{did_you_mean(target, frame.columns) or '.'} "
                            f"Columns: {listing(frame.columns, 8)}")
    frame = frame.copy(deep=False)
    y = frame.pop(target)
    group_ids = None
    if groups is not None:
        if groups not in frame.columns:
            raise DataFileError(f"{path.name} has no column '{groups}' (given as --groups)"
                                f"{did_you_mean(groups, frame.columns) or '.'}")
        group_ids = frame.pop(groups)
    refuse_label_copies(path.name, frame.columns, (target, groups), "(the labels of this table)")
    return frame, y, group_ids
