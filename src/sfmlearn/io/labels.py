"""Labels, group ids and sample ids are names: text, as written in the file.

Every reader hands what it found for the labels (and the group ids) to :func:`as_names`:
the cells of a CSV/TSV column read as text, a sample sheet's column, a GEO
characteristic, an AnnData ``obs`` column (strings, integers, floats, booleans or
categories of them), the label array of an NPZ, the lines of an fMRI label file. Text
stays exactly as written -- ``"01"`` and ``"1"`` are two classes, ``"0.5"`` stays
``"0.5"`` -- and a value stored as a number becomes its shortest text (``7`` -> ``"7"``,
``0.5`` -> ``"0.5"``, ``True`` -> ``"True"``). Classes are therefore sorted as text.

A label is **missing** when it is empty (or only spaces), NaN/None, or one of the
cells pandas' ``read_csv`` reads as missing by default, :data:`MISSING_TEXT`
(``NA``, ``N/A``, ``NaN``, ``nan``, ``null``, ``None``, ``#N/A``, ``<NA>`` ...): the
same cells mean missing in every kind of file, and the readers refuse samples without a
label, naming them.
"""

import math

import numpy as np
import pandas as pd

__all__ = ["MISSING_TEXT", "as_names"]

#: Cells that mean "no value" (pandas' default ``na_values`` of ``read_csv``), compared
#: after removing surrounding spaces; an empty cell is missing too.
MISSING_TEXT = frozenset({"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
                          "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"})


def _name(value):
    """The text of one label, or None when it is missing."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bytes, np.bytes_)):
        value = bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        return None
    text = str(value)
    return None if text.strip() in MISSING_TEXT else text


def as_names(values):
    """Labels (or group ids) as text names; None where a label is missing.

    Parameters
    ----------
    values : array-like or pandas.Series
        The raw labels: text as read from a file (read text columns as text, not as
        numbers), or the values of a typed store (AnnData ``obs``, an NPZ array,
        Parquet), categorical or not.

    Returns
    -------
    ndarray of object, shape (n_samples,)
        ``str(value)`` of every label (bytes decoded as UTF-8), None where it is
        missing (None, NaN, an empty cell or one of :data:`MISSING_TEXT`).

    Examples
    --------
    >>> from sfmlearn.io.labels import as_names
    >>> as_names(["01", "1", "0.5", "NA", ""]).tolist()
    ['01', '1', '0.5', None, None]
    >>> import numpy as np
    >>> as_names(np.array([0, 7])).tolist(), as_names([2.5, float("nan"), True]).tolist()
    (['0', '7'], ['2.5', None, 'True'])
    """
    if not isinstance(values, np.ndarray):  # a Series, list, categorical or nullable array: its values
        values = pd.Series(values).astype(object).to_numpy()
    cells = values.ravel()  # numpy scalars keep their own shortest text (float32 0.1 -> "0.1")
    return np.array([_name(v) for v in cells], dtype=object)
