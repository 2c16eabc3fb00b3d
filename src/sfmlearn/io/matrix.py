"""Expression matrices: features in rows, samples in columns, plus a sample sheet.

The layout of GEO, ArrayExpress, Bioconductor exports and most core facilities: the
first column holds the feature (probe, gene) ids, every other column is a sample named
by its id -- except text columns that are not samples of the sheet (``Gene Symbol``,
``Description``), which become the feature annotations. The class, group and other
sample annotations come from a separate sample sheet (:mod:`.samples`), matched by id.
A samples-in-rows table can take its labels from a sheet too (its first column then
holds the sample ids).
"""

import numpy as np
import pandas as pd

from .labelled import DataFileError, labelled_data, listing, refuse_duplicates, refuse_label_copies
from .numbers import numeric_values, samples_by_features
from .samples import align_sheet, read_sample_sheet, sheet_column
from .tables import existing_file, read_table

__all__ = ["read_matrix_with_sheet"]


def _from_columns(path, sheet):
    """(X, feature ids, matched sheet rows, annotations) of an expression matrix.

    The feature ids and every column that is not a sample of the sheet are parsed into
    the row index, so the sample columns form one float block (no copy on the way to
    X). A numeric column outside the sheet is a sample the sheet lacks, and is named.
    """
    def index_columns(names):
        return names[:1] + [n for n in names[1:] if str(n).strip() not in sheet.index]
    frame = read_table(path, what="one row per feature", drop_row_index=False, index=index_columns,
                       text=lambda names: names[:1])
    if frame.shape[0] == 0:
        raise DataFileError(f"{path.name} needs a feature id column (first) and one column per sample, with "
                            "one row per feature; it has no rows")
    levels = frame.index.to_frame(index=False)
    feature_ids = levels.iloc[:, 0]
    if feature_ids.isna().any():
        raise DataFileError(f"{path.name}: {int(feature_ids.isna().sum())} row(s) have no feature id in the first "
                            f"column '{levels.columns[0]}'")
    feature_ids = feature_ids.astype(str).to_numpy()
    refuse_duplicates(path.name, feature_ids, what="feature id")
    others = levels.iloc[:, 1:]
    unmatched = [c for c in others.columns if pd.api.types.is_numeric_dtype(others[c])]
    matched = align_sheet(sheet, list(frame.columns) + unmatched, path.name)
    X = samples_by_features(path.name, frame, feature_ids)
    annotations = others.fillna("") if others.shape[1] else None
    return X, feature_ids, matched, annotations


def _from_rows(path, sheet):
    frame = read_table(path, drop_row_index=False, text=lambda names: names[:1])
    if frame.shape[1] < 2 or frame.shape[0] == 0:
        raise DataFileError(f"{path.name} needs a sample id column (first) and feature columns, with one row "
                            "per sample")
    ids = frame.iloc[:, 0].astype(str).str.strip()
    headers = {str(c).strip() for c in frame.columns[1:]}
    if not set(ids) & set(sheet.index) and headers & set(sheet.index):
        raise DataFileError(f"{path.name}: the sample ids are in the columns; add --samples-in-columns (its first "
                            "column holds the feature ids, every other column is a sample)")
    matched = align_sheet(sheet, ids, path.name)
    features = frame.iloc[:, 1:]
    return numeric_values(path, features), np.asarray(features.columns, dtype=str), matched, None


def read_matrix_with_sheet(path, pheno, target, groups=None, *, samples_in_columns=True, classes=None):
    """A data matrix with its labels (and groups) from a sample sheet, matched by sample id.

    Parameters
    ----------
    path : path-like
        With ``samples_in_columns`` (the default) an expression matrix: first column the
        feature ids, then one column per sample (named by its id) and optional text
        columns of feature annotations. Otherwise a table with one row per sample, the
        sample id in its first column.
    pheno : path-like
        The sample sheet: sample ids in the first column, ``target`` (and ``groups``)
        among the others.
    target, groups : str
        Sheet columns of the class labels and the group ids.
    classes : sequence of str, optional
        Keep only the samples of these classes.

    Returns
    -------
    LabelledData
    """
    path = existing_file(path)
    sheet = read_sample_sheet(pheno)
    y = sheet_column(sheet, target, "--target")
    if groups is not None:
        sheet_column(sheet, groups, "--groups")
    reader = _from_columns if samples_in_columns else _from_rows
    X, feature_names, matched, annotations = reader(path, sheet)
    if not samples_in_columns:
        refuse_label_copies(path.name, feature_names, (target, groups), "that the sample sheet supplies")
    y = matched[target].rename(y.name).reset_index(drop=True)
    group_ids = None if groups is None else matched[groups].reset_index(drop=True)
    if X.shape[0] < 1:
        raise DataFileError(f"{path.name} has no sample columns; sample sheet ids: {listing(sheet.index)}")
    return labelled_data(path.name, X, y, feature_names, sample_ids=matched.index, groups=group_ids,
                         group_name=groups, feature_annotations=annotations, classes=classes)
