"""Sample sheets (phenotype tables) and matching their rows to a data file's samples by id.

A sample sheet is a CSV/TSV/Parquet table with one row per sample: its **first column
holds the sample ids** (named or not, as R's ``write.csv`` leaves it), the others the
annotations (class, batch, participant, ...). Every cell is read as text, as written
(``001`` stays ``001``; :mod:`.labels`). Samples are matched by id, never by
position: an id on one side only, or an id twice in the sheet or the data, is refused
with the ids named. Ids are compared without surrounding spaces (``S1 `` is ``S1``).
"""

import numpy as np
import pandas as pd

from .labelled import DataFileError, did_you_mean, listing, refuse_duplicates
from .tables import existing_file, read_table

__all__ = ["align_sheet", "read_sample_sheet", "sheet_column"]


def read_sample_sheet(path):
    """The sheet at ``path`` as a DataFrame indexed by the sample ids (strings) of its first column."""
    path = existing_file(path, "a sample sheet (.csv, .tsv, .parquet)")
    sheet = read_table(path, what="one row per sample", drop_row_index=False, text=list)
    if sheet.shape[0] == 0 or sheet.shape[1] < 2:
        raise DataFileError(f"sample sheet {path.name} needs a sample id column (first) and at least one "
                            f"annotation column, with one row per sample; it has {sheet.shape[1]} column(s) "
                            f"and {sheet.shape[0]} row(s)")
    ids = sheet.iloc[:, 0]
    if ids.isna().any():
        rows = np.flatnonzero(ids.isna().to_numpy()) + 1
        raise DataFileError(f"sample sheet {path.name}: {rows.size} row(s) have no sample id in the first "
                            f"column '{sheet.columns[0]}' (data rows {listing(rows)})")
    ids = ids.astype(str).str.strip()
    repeated = pd.unique(ids[ids.duplicated()])
    if repeated.size:
        raise DataFileError(f"sample sheet {path.name}: duplicated sample id(s) {listing(repeated)} in column "
                            f"'{sheet.columns[0]}'; each sample needs exactly one row")
    sheet = sheet.iloc[:, 1:].set_axis(pd.Index(ids, name=str(sheet.columns[0])))
    sheet.attrs["name"] = path.name
    return sheet


def sheet_column(sheet, column, flag):
    """Column ``column`` of ``sheet`` (``flag`` names the option); the error lists the columns."""
    if column not in sheet.columns:
        raise DataFileError(f"{flag} {column}: sample sheet {sheet.attrs['name']} has no column '{column}'"
                            f"{did_you_mean(column, sheet.columns) or '.'} Columns: {listing(sheet.columns, 10)}")
    return sheet[column]


def _id_column_hint(sheet, data_ids):
    """Say which other sheet column holds the data's ids, if one does."""
    for column in sheet.columns:
        values = set(sheet[column].astype(str).str.strip())
        if set(data_ids) <= values:
            return f"; column '{column}' holds them: make it the sheet's first column"
    return ""


def align_sheet(sheet, data_ids, data_name):
    """The rows of ``sheet`` in the order of ``data_ids``; every id must be on both sides, once."""
    data_ids = [str(i).strip() for i in data_ids]
    refuse_duplicates(data_name, data_ids, what="sample id",
                      reason="each sample needs one id, compared without surrounding spaces: rename or remove "
                             "the copies")
    present = set(sheet.index)
    only_data = [i for i in data_ids if i not in present]
    only_sheet = sorted(present - set(data_ids))
    if only_data or only_sheet:
        parts = []
        if only_data:
            parts.append(f"in {data_name} only: {listing(only_data)}")
        if only_sheet:
            parts.append(f"in {sheet.attrs['name']} only: {listing(only_sheet)}")
        hint = _id_column_hint(sheet, data_ids) if len(only_data) == len(data_ids) else ""
        raise DataFileError(f"the samples of {data_name} and sample sheet {sheet.attrs['name']} do not match by "
                            f"id ({'; '.join(parts)}); samples are matched by id, never by position: give "
                            f"every sample one row in the sheet, ids in its first column{hint}")
    return sheet.loc[data_ids]
