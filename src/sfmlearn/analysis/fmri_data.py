"""The maps of the fMRI analysis: NIfTI images with labels and groups, a table, or a simulation.

:func:`load_fmri_data` reads 3-D/4-D NIfTI images inside a brain mask with one label and
one participant (or run) per map, given as lists or as a CSV table (columns image, label,
participant); labels and participants are names, read as text as written
(:mod:`sfmlearn.io.labels`: ``01`` and ``1`` are two participants).
:func:`simulate_fmri_data` simulates button-press or emotion data with known informative
voxels (thesis 6) on the MNI152 grid at a pyramid level. Both return a
:class:`~sfmlearn.mvpa.FMRIData`. The parameters are named after the command's options,
and so are the errors (DataValidationError naming the option and the fix).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from ..exceptions import DataValidationError
from ..imaging.simulate import mni152_mask, simulate_fmri
from ..imaging.volumes import VolumeMask, downsample_mask
from ..io import DataFileError, read_table
from ..io.tables import read_lines
from ..io.labels import as_names
from ..mvpa import FMRIData

__all__ = ["load_fmri_data", "simulate_fmri_data"]


def _values(items, what, n=None):
    """Inline values, or one text file with one value per line (decoded as the tables are;
    spaces around a value dropped, blank lines at the end ignored, others refused)."""
    if items is None:
        raise DataValidationError(f"give --{what} (one per map, inline or as a text file), or use --table")
    if len(items) == 1 and Path(items[0]).is_file():
        try:
            lines = [line.strip() for line in read_lines(items[0], "one value per line")]
        except DataFileError as exc:
            raise DataValidationError(f"--{what} {exc}") from None
        while lines and not lines[-1]:
            lines.pop()
        if "" in lines:
            raise DataValidationError(f"--{what} {items[0]}: line {lines.index('') + 1} is empty; give one value "
                                      "per map, one per line")
        values = np.array(lines, dtype=object)
    else:
        values = np.array(items, dtype=object)
    if n is not None and values.size != n:
        counted = f"{values.size} value{'s' if values.size != 1 else ''} for {n} maps"
        if len(items) == 1 and Path(items[0]).is_file():
            raise DataValidationError(f"--{what} {items[0]}: {counted}; give one value per map, one per line")
        file_hint = f" ({items[0]!r} is no file either)" if len(items) == 1 else ""
        raise DataValidationError(f"--{what}: {counted}{file_hint}; give one per map, inline or as a text file "
                                  "with one per line")
    return values


def _check_dimensions(paths, option):
    """DataValidationError for an image that is neither a 3-D map nor a 4-D series of maps
    (``x, y, z, 1, t`` as some tools write a series counts as one; read from the header
    only; a file nibabel cannot open is left to the reader's error)."""
    import nibabel

    for path in paths:
        try:
            shape = nibabel.load(path).shape
        except (OSError, ValueError, nibabel.filebasedimages.ImageFileError):
            continue
        if len(shape) not in (3, 4) and not (len(shape) == 5 and shape[3] == 1):  # x, y, z, 1, t: a series
            size = " x ".join(str(int(n)) for n in shape)
            raise DataValidationError(f"{option}: {path} is a {len(shape)}-D image ({size}); expected 3-D maps "
                                      "or one 4-D series of maps")


def _names(values, option, unit, first):
    """The labels or group ids as text names (:func:`sfmlearn.io.labels.as_names`); none may be missing."""
    names = as_names(values)
    missing = np.flatnonzero(pd.isna(names))
    if missing.size:
        raise DataValidationError(f"{option} is empty in {missing.size} {unit}(s) (first: {first} {missing[0] + 1}); "
                                  f"fill them in or drop those {unit}s")
    return names


def _read_table(table, mask, label_column, group_column):
    table_path = Path(table)
    columns = ("image", label_column, group_column)
    frame = read_table(table_path, keep=columns, text=lambda names: columns)
    if frame.empty:
        raise DataValidationError(f"--table {table} has no rows; it needs one row per map")
    cells = {}
    for column in columns:
        if column not in frame:
            raise DataValidationError(f"{table} has no column {column!r} (columns: {list(frame.columns)})")
        cells[column] = _names(frame[column], f"--table {table}: column {column!r}", "row", "data row")
    images = [str(table_path.parent / p) for p in cells["image"]]
    _check_dimensions(images, f"--table {table}")
    X = mask.transform(images)
    return X, cells[label_column], cells[group_column], str(table)


def load_fmri_data(*, images=None, mask=None, labels=None, groups=None, table=None, label_column="label",
                   group_column="participant"):
    """The maps of NIfTI ``images`` (or of a CSV ``table``) inside ``mask``, as FMRIData.

    Parameters
    ----------
    images : list of path, optional
        3-D images (one map each) or 4-D images (one map per volume), in order.
    mask : path
        Brain mask on the images' grid (non-zero = inside).
    labels, groups : list of str, optional
        One label and one participant (or run) per map, inline or as one text file
        (read as text; empty or ``NA`` values are refused).
    table : path, optional
        CSV with columns image, ``label_column``, ``group_column`` (image paths relative
        to the CSV), instead of ``images``/``labels``/``groups``.
    """
    if not (images or table):
        raise DataValidationError("give --images (with --labels and --groups), --table, or --simulate")
    if mask is None:
        raise DataValidationError("--mask is required with --images or --table")
    volume_mask = VolumeMask.load(mask)
    if table:
        X, labels, groups, name = _read_table(table, volume_mask, label_column, group_column)
    else:
        _check_dimensions(images, "--images")
        X = volume_mask.transform(images)
        labels = _names(_values(labels, "labels", X.shape[0]), "--labels", "map", "map")
        groups = _names(_values(groups, "groups", X.shape[0]), "--groups", "map", "map")
        name = f"{len(images)} image file(s)"
    if X.shape[0] != labels.size:
        raise DataValidationError(f"the images hold {X.shape[0]} maps but there are {labels.size} labels")
    return FMRIData(name=name, mask=volume_mask, X=X, labels=labels, groups=groups)


def simulate_fmri_data(design, *, participants=None, runs=None, grid_level=1, classes=None, random_state=0):
    """Simulated maps of ``design`` on the 4 mm MNI152 grid at pyramid level ``grid_level``,
    the pair ``classes`` to decode (:func:`~sfmlearn.imaging.simulate.simulate_fmri`)."""
    try:
        grid = downsample_mask(mni152_mask(), grid_level)
    except DataValidationError as exc:
        raise DataValidationError(f"--grid-level {grid_level} is too coarse for the 4 mm MNI152 mask ({exc})") from exc
    try:
        sim = simulate_fmri(design, mask=grid, n_participants=participants, n_runs=runs,
                            random_state=random_state)
    except DataValidationError as exc:  # the other arguments are checked by their option types
        raise DataValidationError(
            f"--grid-level {grid_level} is too coarse for the '{design}' simulation: some of its clusters have "
            f"no voxel on that grid ({grid.n_voxels} voxels); use a smaller --grid-level") from exc
    return FMRIData.from_simulation(sim, classes, name=f"simulated {design}", option="--classes")
