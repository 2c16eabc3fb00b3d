"""Reading a user's table (CSV, TSV, Parquet, NPZ) into features and labels."""

from pathlib import Path

import numpy as np
import pandas as pd

from ..datasets._registry import load_named
from ._common import CLIError

__all__ = ["read_labelled_table"]

_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": None}


def _read_frame(path):
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        try:
            return pd.read_parquet(path)
        except ImportError as exc:
            raise CLIError(
                f"reading {path.name} needs a Parquet engine: pip install pyarrow"
            ) from exc
    if suffix not in _SEPARATORS and suffix not in (".gz", ".bz2", ".zip", ".xz"):
        raise CLIError(
            f"{path.name}: unknown file type '{suffix}'. Use .csv, .tsv, .parquet or .npz."
        )
    sep = _SEPARATORS.get(suffix, ",")
    try:
        return pd.read_csv(path, sep=sep, engine="python" if sep is None else "c")
    except pd.errors.EmptyDataError as exc:
        raise CLIError(f"{path.name} is empty: it needs a header row and one row per sample.") from exc
    except pd.errors.ParserError as exc:
        detail = str(exc).strip().splitlines()[-1]
        raise CLIError(f"{path.name} is not a rectangular table ({detail}).") from exc
    except UnicodeDecodeError as exc:
        raise CLIError(f"{path.name} is not a text table (could not decode it as UTF-8).") from exc


def _read_npz(path, target):
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise CLIError(f"{path.name} is not a readable .npz archive ({exc}).") from exc
    with archive:
        y_key = target or "y"
        missing = [k for k in ("X", y_key) if k not in archive.files]
        if missing:
            raise CLIError(
                f"{path.name} has arrays {archive.files}; it needs 'X' (samples x features) "
                f"and '{y_key}' (labels){' (set --target to the label array)' if target is None else ''}."
            )
        X = archive["X"]
        y = archive[y_key]
        names = archive["feature_names"].astype(str) if "feature_names" in archive.files else None
    if X.ndim != 2:
        raise CLIError(f"{path.name}: X must be 2-D (samples x features); got shape {X.shape}.")
    if names is None:
        names = np.array([f"x{j}" for j in range(X.shape[1])])
    return pd.DataFrame(X, columns=names), pd.Series(y, name=y_key)


def read_labelled_table(path, target, groups=None):
    """Read ``path`` and split off the label column ``target`` (and a ``groups`` column).

    Returns ``(X, y)`` with X a numeric DataFrame (column names kept; the group ids, if
    asked for, in ``X.attrs["groups"]``) and y a Series. Every problem a user can fix
    raises :class:`CLIError` with a one-line message.
    """
    path = Path(path)
    if not path.exists():
        raise CLIError(f"no such file: {path}")
    if path.is_dir():
        raise CLIError(f"{path} is a directory; pass a table file (.csv, .tsv, .parquet, .npz).")
    if path.suffix.lower() == ".npz":
        if groups is not None:
            raise CLIError("--groups needs a table (.csv, .tsv, .parquet); .npz files have no group column")
        X, y = _read_npz(path, target)
    else:
        if target is None:
            raise CLIError("--target COLUMN is required: name the column that holds the class labels.")
        frame = _read_frame(path)
        if frame.shape[0] == 0:
            raise CLIError(f"{path.name} has a header but no data rows.")
        if target not in frame.columns:
            shown = ", ".join(map(str, frame.columns[:8])) + (" ..." if frame.shape[1] > 8 else "")
            raise CLIError(f"{path.name} has no column '{target}'. Columns: {shown}")
        y = frame.pop(target)
        group_ids = None
        if groups is not None:
            if groups not in frame.columns:
                raise CLIError(f"{path.name} has no column '{groups}' (given as --groups).")
            group_ids = frame.pop(groups).to_numpy()
        X = frame
    if y.isna().any():
        raise CLIError(
            f"{path.name}: {int(y.isna().sum())} sample(s) have no label in '{y.name}'. "
            "Drop or label them first."
        )
    non_numeric = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    if non_numeric:
        shown = ", ".join(map(str, non_numeric[:5])) + (" ..." if len(non_numeric) > 5 else "")
        raise CLIError(
            f"{path.name}: {len(non_numeric)} feature column(s) are not numeric ({shown}). "
            "Remove them or encode them as numbers."
        )
    n_missing = int(X.isna().to_numpy().sum())
    if n_missing:
        cols = X.columns[X.isna().any()].tolist()
        shown = ", ".join(map(str, cols[:5])) + (" ..." if len(cols) > 5 else "")
        raise CLIError(
            f"{path.name}: {n_missing} missing value(s) in column(s) {shown}. "
            "Impute or drop them first."
        )
    if X.shape[1] == 0:
        raise CLIError(f"{path.name} has no feature columns besides '{y.name}'.")
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
