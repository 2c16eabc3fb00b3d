"""One entry point for every data file: :func:`read_labelled` picks the reader by format.

==========================================  ==============================================
file                                        reader
==========================================  ==============================================
``.h5ad``                                   :func:`.h5ad.read_h5ad` (``target="obs:col"``)
GEO series matrix (``!Series_`` header)     :func:`.geo.read_series_matrix` (a
                                            characteristic key)
any table + ``pheno`` sample sheet          :func:`.matrix.read_matrix_with_sheet`
                                            (``samples_in_columns`` for expression matrices)
``.npz`` (arrays X, y, feature_names)       :func:`.npz.read_npz`
``.csv/.tsv/.txt[.gz]``, ``.parquet``       one row per sample, ``target`` a column
==========================================  ==============================================
"""

import pandas as pd

from .geo import is_series_matrix, read_series_matrix
from .h5ad import read_h5ad
from .labelled import DataFileError, class_names, labelled_data, refuse_groups_as_target
from .matrix import read_matrix_with_sheet
from .npz import read_npz
from .numbers import numeric_values
from .tables import existing_file, read_table, refuse_unknown_type, split_table

__all__ = ["read_labelled"]

#: The files :func:`read_labelled` reads, for the message about another type.
DATA_TYPES = (".csv, .tsv, .txt, .parquet, .npz, .h5ad or a GEO series matrix (text tables may be compressed: "
              ".csv.gz ...)")


def _check_options(path, target, groups, pheno, samples_in_columns, layer, h5ad):
    refuse_groups_as_target(target, groups)  # other spellings of one column: by the reader that knows them
    if layer is not None and not h5ad:
        raise DataFileError(f"--layer applies to AnnData .h5ad files; {path.name} is not one")
    if samples_in_columns and pheno is None:
        raise DataFileError("--samples-in-columns needs --pheno SHEET: the labels of an expression matrix "
                            "come from a sample sheet (sample ids in its first column)")
    npz = path.suffix.lower() == ".npz"
    if pheno is not None and (h5ad or npz):
        where = "in obs (--target obs:COLUMN)" if h5ad else "as arrays (y, or --target ARRAY)"
        raise DataFileError(f"--pheno applies to tables; {path.name} brings its sample annotations {where}")
    if target is None and not npz:
        raise DataFileError("--target COLUMN is required: name the column that holds the class labels.")


def read_labelled(path, target=None, groups=None, *, pheno=None, samples_in_columns=False, layer=None,
                  classes=None):
    """Read a data file into :class:`~sfmlearn.io.labelled.LabelledData`.

    Parameters
    ----------
    path : path-like
        The data (see the module docstring for the formats).
    target : str
        The labels: a column of the table or sample sheet, a GEO characteristic key
        (``"disease state"``), an AnnData obs column (``"obs:condition"``), or the
        label array of an .npz (default ``y``).
    groups : str, optional
        Group ids (participants, batches), named like ``target``.
    pheno : path-like, optional
        A sample sheet with the labels, matched to the data's samples by id.
    samples_in_columns : bool, default=False
        ``path`` is an expression matrix: features in rows, samples in columns (needs
        ``pheno``).
    layer : str, optional
        An AnnData layer to use instead of X.
    classes : sequence of str, optional
        Keep only the samples of these classes (e.g. two subtypes out of six): a list
        of one or more names, never one string.

    Returns
    -------
    LabelledData
        Features, labels, group ids, feature names and annotations, sample ids.

    Raises
    ------
    DataFileError
        With a one-line message naming the problem and the fix.

    Examples
    --------
    A table with one row per sample and a participant column used as groups:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.io import read_labelled
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "betas.tsv"
    >>> _ = path.write_text("subject\\tv1\\tv2\\tcond\\n"
    ...                     "s1\\t0.1\\t0.2\\tface\\ns1\\t0.3\\t0.1\\thouse\\n"
    ...                     "s2\\t0.2\\t0.4\\tface\\ns2\\t0.5\\t0.0\\thouse\\n")
    >>> data = read_labelled(path, target="cond", groups="subject")
    >>> data.X.shape, data.y.tolist(), data.groups.tolist()
    ((4, 2), ['face', 'house', 'face', 'house'], ['s1', 's1', 's2', 's2'])
    >>> folder.cleanup()
    """
    path = existing_file(path)
    h5ad = path.suffix.lower() == ".h5ad"
    _check_options(path, target, groups, pheno, samples_in_columns, layer, h5ad)
    classes = class_names(classes)
    if h5ad:
        return read_h5ad(path, target, groups, layer=layer, classes=classes)
    if pheno is not None:
        return read_matrix_with_sheet(path, pheno, target, groups, samples_in_columns=samples_in_columns,
                                      classes=classes)
    if is_series_matrix(path):
        return read_series_matrix(path, target, groups, classes=classes)
    if path.suffix.lower() == ".npz":
        if groups is not None:
            raise DataFileError("--groups needs a table (.csv, .tsv, .parquet); .npz files have no group column")
        X, y, names = read_npz(path, target)
        return labelled_data(path.name, X, y, names, classes=classes)
    refuse_unknown_type(path, DATA_TYPES)
    frame = read_table(path, keep=(target, groups), text=lambda names: (target, groups))
    features, y, group_ids = split_table(path, frame, target, groups)
    row_names = None if isinstance(frame.index, pd.RangeIndex) else frame.index  # ids of the first column
    return labelled_data(path.name, numeric_values(path, features), y, [str(c) for c in features.columns],
                         sample_ids=row_names, groups=group_ids, group_name=groups, classes=classes)
