"""The numbers of a table: its feature columns (or an expression matrix's sample columns) as float64.

A column that is not numeric is refused, naming its first cell that is not a number, by
its data row (counted from 1 after the header) or by sample and feature. Two causes that
look like text are named as such:

* a row with fewer values than the header has names: pandas fills the end of the row
  with missing values, so a label lands in a numeric column;
* a number written beyond the float range (``1e309``), which pandas keeps as text.

The cell is looked for only once a column is known not to be numeric, so reading a
good table costs nothing more.
"""

import math

import numpy as np
import pandas as pd

from .labelled import DataFileError, listing
from .tables import _PARQUET, text_options

__all__ = ["numeric_values", "samples_by_features"]

#: What a number written beyond the float range is (pandas keeps it as text), and the fix.
_BEYOND_FLOAT = "a number beyond the float range (about ±1.8e308): rescale the values"


def _beyond_float(cell):
    """Whether ``cell`` is a number written beyond the float range (``1e309``)."""
    try:
        return math.isinf(float(str(cell)))
    except ValueError:
        return False


def _first_text_cell(column):
    """``(position, value)`` of the first cell of ``column`` that is not a number (None if
    there is none: a typed column). Only a column already found not numeric is searched."""
    bad = (pd.to_numeric(column.astype(object), errors="coerce").isna() & column.notna()).to_numpy()
    position = int(np.argmax(bad))
    return (position, column.iloc[position]) if bad[position] else None


def _short_row(path, position):
    """``(values, names)`` when data row ``position`` (from 0) of a text table has fewer
    values than the header has names (pandas fills the rest with missing values); else
    None. The file is parsed up to that row, as written: only when a message needs it."""
    if path.suffix.lower() in _PARQUET:
        return None
    options = {**text_options(path), "engine": "python"}  # marks a missing field, unlike an empty one
    try:
        rows = pd.read_csv(path, header=None, nrows=position + 2, dtype=str, keep_default_na=False, **options)
    except (ValueError, UnicodeError, OSError):  # read once already: a quirk of this parser must not hide the error
        return None
    values = int(rows.iloc[-1].notna().sum())
    return (values, rows.shape[1]) if values < rows.shape[1] else None


def numeric_values(path, frame, what="feature column"):
    """The float64 values of ``frame``; raises naming the columns that are not numeric and
    the first cell that is not a number, or what put it there (see :func:`_not_numeric`)."""
    non_numeric = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if non_numeric:
        raise _not_numeric(path, frame, non_numeric, what)
    return frame.to_numpy(dtype=np.float64, na_value=np.nan)


def _not_numeric(path, frame, columns, what):
    """The error about ``columns`` of ``frame`` that are not numeric. Its first text cell
    (data row counted from 1 after the header) is named, or the cause when that is no
    text: a row with fewer values than the header (the later values moved left), or a
    number beyond the float range."""
    listed = f"{path.name}: {len(columns)} {what}(s) are not numeric ({listing(columns)})"
    fix = "Remove them or encode them as numbers."
    cell = _first_text_cell(frame[columns[0]])
    if cell is None:
        return DataFileError(f"{listed}. {fix}")
    position, value = cell
    short = _short_row(path, position)
    if short:
        return DataFileError(f"{path.name}: data row {position + 1} has {short[0]} values but the header names "
                             f"{short[1]} columns, so text lands in the numeric column '{columns[0]}': give every "
                             "row one value per column (an empty cell or NA for a missing one)")
    if _beyond_float(value):
        return DataFileError(f"{path.name}: column '{columns[0]}', data row {position + 1} holds {value}, "
                             f"{_BEYOND_FLOAT}")
    return DataFileError(f"{listed}; column '{columns[0]}', data row {position + 1} holds '{value}'. {fix}")


def samples_by_features(source, frame, feature_ids, feature="feature"):
    """A features-in-rows ``frame`` whose columns are all samples, as float64 samples x features.

    A sample column that is not numeric is refused, naming its first bad cell. pandas
    keeps a frame's float64 columns in one (columns x rows) block, so the transpose of
    ``to_numpy()`` is usually that block itself: no copy of the matrix.
    """
    dtypes = frame.dtypes
    bad = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(dtypes[c])]
    if bad:
        cell = _first_text_cell(frame[bad[0]])
        if cell is None:  # no text: a typed column
            raise DataFileError(f"{source}: sample column(s) {listing(bad)} are not numeric ({dtypes[bad[0]]}); "
                                "convert them to numbers")
        where = f"sample '{bad[0]}' at {feature} '{feature_ids[cell[0]]}' holds"
        if _beyond_float(cell[1]):
            raise DataFileError(f"{source}: {where} {cell[1]}, {_BEYOND_FLOAT}")
        raise DataFileError(f"{source}: a matrix cell is not a number ({where} '{cell[1]}'; {len(bad)} sample "
                            "column(s) affected). Fix or remove it; leave missing values empty or write NA")
    return np.ascontiguousarray(frame.to_numpy(dtype=np.float64).T)
