"""What every reader returns: :class:`LabelledData`, and the checks they all share.

A reader turns a file (or a matrix plus a sample sheet) into features, labels, optional
group ids, feature names, optional feature annotations (a ``Gene Symbol`` column, AnnData
``var`` columns) and the sample ids. :func:`labelled_data` assembles it after the checks
every format needs: labels present, the asked-for classes kept (``classes=``), group ids
present, features numeric, finite and complete. Every problem a user can fix is a
:class:`DataFileError` with a one-line message that names it and the fix.
"""

import difflib
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .labels import as_names

__all__ = ["DataFileError", "LabelledData", "class_names", "did_you_mean", "labelled_data", "listing",
           "refuse_duplicates", "refuse_groups_as_target", "refuse_label_copies"]


class DataFileError(ValueError):
    """A data file (or sample sheet) cannot be used as given; the message names the fix.

    A ``ValueError``, raised by :func:`~sfmlearn.io.read_labelled` and the readers behind
    it; the command line prints the message as one line on stderr and exits with status 2.

    Examples
    --------
    A table with an empty cell is refused before any analysis:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.io import DataFileError, read_labelled
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "data.csv"
    >>> _ = path.write_text("g1,g2,class\\n0.5,,a\\n1.5,2.0,b\\n")
    >>> try:
    ...     read_labelled(path, target="class")
    ... except DataFileError as error:
    ...     print(error)
    data.csv: 1 missing value(s) in column(s) g2. Impute or drop them first.
    >>> folder.cleanup()
    """


@dataclass(frozen=True)
class LabelledData:
    """Samples x features with labels, as read from a user's file (:func:`~sfmlearn.io.read_labelled`).

    Parameters
    ----------
    X : ndarray or scipy.sparse CSR matrix of float64 (float32 as stored in an .h5ad), shape (n_samples, n_features)
        The features, numeric and finite.
    y : ndarray of object, shape (n_samples,)
        The class labels as text, as written in the file (:mod:`sfmlearn.io.labels`).
    feature_names : ndarray of str, shape (n_features,)
        Column names (gene or probe ids, voxel names ...).
    sample_ids : ndarray of str, shape (n_samples,)
        The ids the samples were matched by (GSM accessions, obs names, sheet ids), or
        ``"row 1"``, ``"row 2"`` ... for tables without ids.
    groups : ndarray of object or None
        Group ids (participants, batches) of ``--groups``, as text.
    feature_annotations : DataFrame or None
        One row per feature (index ``feature_names``), text columns such as
        ``Gene Symbol``; None when the file has none.
    source : str
        The file name, for summaries.

    Examples
    --------
    Three samples of two features, labelled by the column 'class' (rows without a name are
    numbered):

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sfmlearn.io import read_labelled
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "data.csv"
    >>> _ = path.write_text("g1,g2,class\\n0.5,1.0,a\\n1.5,2.0,b\\n2.5,0.0,a\\n")
    >>> data = read_labelled(path, target="class")
    >>> data.X.shape, data.feature_names.tolist(), data.classes.tolist()
    ((3, 2), ['g1', 'g2'], ['a', 'b'])
    >>> data.sample_ids.tolist(), data.source
    (['row 1', 'row 2', 'row 3'], 'data.csv')
    >>> folder.cleanup()
    """

    X: object
    y: np.ndarray
    feature_names: np.ndarray
    sample_ids: np.ndarray
    groups: object = None
    feature_annotations: object = None
    source: str = ""

    @property
    def classes(self):
        """The sorted distinct labels."""
        return np.unique(self.y)


#: Characters of one name that a message quotes; a longer name (a whole data row read as
#: a gene, a header that was not split) is cut.
NAME_IN_MESSAGE = 40


def short_name(name):
    """``name`` as text, cut to :data:`NAME_IN_MESSAGE` characters with "..." for messages."""
    name = str(name)
    return name if len(name) <= NAME_IN_MESSAGE else name[:NAME_IN_MESSAGE - 3] + "..."


def listing(names, limit=5):
    """``a, b, c ...``: the first ``limit`` names of a list (each cut to
    :data:`NAME_IN_MESSAGE` characters), for messages."""
    names = [short_name(n) for n in names]
    return ", ".join(names[:limit]) + (f" ... ({len(names)} in all)" if len(names) > limit else "")


def did_you_mean(wanted, choices):
    """``"; did you mean 'x'?"`` naming the choice closest to ``wanted`` ('' without one).

    A choice equal to ``wanted`` but for case wins; else the closest by
    :func:`difflib.get_close_matches` (similarity ratio >= 0.6).
    """
    choices = [str(c) for c in choices]
    same = [c for c in choices if c.casefold() == str(wanted).casefold()]
    close = same or difflib.get_close_matches(str(wanted), choices, n=1)
    return f"; did you mean '{short_name(close[0])}'?" if close else ""


#: Why a table's columns must not repeat (the default reason is for ids of other kinds).
COLUMN_COPIES = "a second copy (of the labels, say) would be read as a feature: rename or remove the copies"


def refuse_duplicates(source, names, what="column", ignore=(), reason="each needs its own name: rename or remove "
                      "the copies"):
    """Raise if ``names`` repeat, saying ``reason`` (a table's columns: :data:`COLUMN_COPIES`)."""
    names = pd.Index([str(n) for n in names])
    duplicates = [d for d in pd.unique(names[names.duplicated()]) if d not in ignore]
    if duplicates:
        raise DataFileError(f"{source} has duplicate {what} names ({listing(duplicates)}); {reason}")


def class_names(classes):
    """The classes to keep (``classes=``) as a list of text names; None keeps every class.

    A plain string is refused, not read letter by letter (``"01"`` would keep classes
    ``0`` and ``1``), and so is an empty selection, which would keep no sample at all.
    """
    if classes is None:
        return None
    if isinstance(classes, (str, bytes)) or not isinstance(classes, Iterable):
        raise DataFileError(f"classes={classes!r}: give a list of class names, e.g. classes=['a', 'b'] (one "
                            "string would be read letter by letter)")
    names = [str(c) for c in classes]
    if not names:
        raise DataFileError("classes=[] is empty: it would keep no sample; name the classes to keep, or leave "
                            "it out to keep them all")
    return names


def _keep_classes(source, y, classes):
    labels = pd.Series(y).astype(str)
    present = sorted(pd.unique(labels))
    wanted = class_names(classes)
    unknown = [c for c in wanted if c not in present]
    if unknown:
        hint = did_you_mean(unknown[0], present)
        raise DataFileError(f"--classes: {source} has no class {listing(unknown)}{hint + ' Its' if hint else '; its'} "
                            f"classes are {listing(present, 12)}")
    if len(set(wanted)) != len(wanted):
        raise DataFileError(f"--classes names a class twice ({listing(wanted)}); name each class once")
    keep = labels.isin(wanted).to_numpy()
    if not keep.all():
        others = [c for c in present if c not in wanted]
        warnings.warn(f"--classes: kept {int(keep.sum())} samples of {', '.join(wanted)}; dropped "
                      f"{int((~keep).sum())} of {listing(others)}", UserWarning, stacklevel=4)
    return keep


def _check_numeric(source, X, feature_names):
    if sp.issparse(X):
        values = X.data
        if values.dtype.kind not in "biuf":
            raise DataFileError(f"{source}: the matrix must be numeric; got dtype {values.dtype}")
        for bad, what in ((np.isnan(values), "missing"), (np.isinf(values), "infinite")):
            if bad.any():
                raise DataFileError(f"{source}: {int(bad.sum())} {what} value(s) in the matrix. "
                                    "Impute, replace or drop them first.")
        return
    for bad, what, fix in ((np.isnan(X), "missing", "Impute or drop them first."),
                           (np.isinf(X), "infinite", "Replace or drop them first.")):
        if bad.any():
            columns = np.asarray(feature_names)[bad.any(axis=0)]
            raise DataFileError(f"{source}: {int(bad.sum())} {what} value(s) in column(s) {listing(columns)}. {fix}")


def labelled_data(source, X, y, feature_names, *, sample_ids=None, groups=None, group_name=None,
                  feature_annotations=None, classes=None):
    """Check and assemble a :class:`LabelledData`.

    ``X`` is a float64 array (or sparse matrix; an .h5ad's float32 stays float32) with one row per sample, ``y`` a Series
    named after the label column. The labels and group ids become text names
    (:func:`~sfmlearn.io.labels.as_names`); samples without a label are refused (naming them);
    with ``classes`` only the samples of those classes are kept (a class that does not
    exist is refused, naming the ones that do); group ids must not be missing; the
    features must be finite.
    """
    sample_ids = (np.array([f"row {i + 1}" for i in range(len(y))]) if sample_ids is None
                  else np.asarray(sample_ids, dtype=str))
    label_column, y = y.name, as_names(y)
    missing = np.flatnonzero(pd.isna(y))
    if missing.size:
        raise DataFileError(f"{source}: {missing.size} sample(s) have no label in '{label_column}' "
                            f"({listing(sample_ids[missing])}). Drop or label them first; empty cells and "
                            "texts such as NA, N/A or None read as missing.")
    keep = None if classes is None else _keep_classes(source, y, classes)
    if groups is not None:
        groups = as_names(groups)
        no_group = np.flatnonzero(pd.isna(groups) if keep is None else pd.isna(groups) & keep)
        if no_group.size:
            raise DataFileError(f"--groups {group_name}: {no_group.size} sample(s) have no group id "
                                f"({listing(sample_ids[no_group])}); fill them in or drop those samples")
    if keep is not None and not keep.all():
        X, y, sample_ids = X[keep], y[keep], sample_ids[keep]
        groups = None if groups is None else groups[keep]
    feature_names = np.asarray(feature_names, dtype=str)
    if X.shape[1] == 0:
        raise DataFileError(f"{source} has no feature columns besides the labels.")
    _check_numeric(source, X, feature_names)
    if feature_annotations is not None:
        feature_annotations = feature_annotations.astype(str).set_axis(pd.Index(feature_names))
    return LabelledData(X=X, y=y, feature_names=feature_names, sample_ids=sample_ids, groups=groups,
                        feature_annotations=feature_annotations, source=source)


def refuse_groups_as_target(target, groups, column=str):
    """Refuse ``groups`` naming the label column: every group would be one class.

    ``column`` maps a name to the column it reads, so that two spellings of one column
    are caught too (an AnnData ``obs:cond`` and ``cond``, a GEO key in another case).
    """
    if groups is None or column(groups) != column(target):
        return
    named = f"both name '{target}'" if groups == target else f"('{groups}', '{target}') name the same column"
    raise DataFileError(f"--groups and --target {named}; the groups must be another column")


def refuse_label_copies(source, columns, labels, where):
    """Refuse feature ``columns`` named like a label column (``labels``: the target, groups).

    A column that differs from a label column only in case or surrounding spaces
    (``class `` or ``Class`` beside ``class``), or the target itself when the labels come
    from a sample sheet, would enter X as a feature that copies the labels: a selection
    of one feature and a perfect score that mean nothing. ``where`` says where the labels
    come from, for the message.
    """
    def key(name):
        return str(name).strip().casefold()
    wanted = {key(name): name for name in labels if name is not None}
    for column in columns:
        if key(column) in wanted:
            raise DataFileError(
                f"{source} holds a column '{column}' named like the label column '{wanted[key(column)]}' "
                f"{where}: it would become a feature that copies the labels. Drop or rename it.")

