"""AnnData ``.h5ad`` files (the scanpy / single-cell ecosystem), read with ``anndata``.

``X`` (or a layer, ``layer="counts"``) may be dense or sparse; sparse stays sparse
(CSR). Values stored as float32 (as most count matrices are) stay float32, so a large
matrix is not doubled in memory on reading; any other numeric type becomes float64. The labels and groups are ``obs`` columns, named ``obs:condition`` or
just ``condition``; the sample ids are ``obs_names``, the feature names ``var_names``
and the ``var`` columns (gene symbols, feature types ...) the feature annotations.
``anndata`` is an optional dependency: ``pip install "sfmlearn[omics]"``.
"""

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .labelled import DataFileError, did_you_mean, labelled_data, listing, refuse_duplicates, refuse_groups_as_target
from .tables import existing_file

__all__ = ["read_h5ad"]

INSTALL = 'pip install "sfmlearn[omics]"'


def _read(path):
    try:
        import anndata
    except ImportError as exc:
        raise DataFileError(f"reading {path.name} needs the anndata package: {INSTALL}") from exc
    try:
        return anndata.read_h5ad(path)
    except (OSError, KeyError, ValueError, TypeError) as exc:
        if getattr(exc, "errno", None) is not None:  # missing, unreadable: reported as such
            raise
        detail = " ".join(str(exc).split())[:160]
        raise DataFileError(f"{path.name} is not a readable AnnData .h5ad file ({detail})") from exc


def _obs_name(name):
    """The obs column ``name`` reads: ``obs:cond`` and ``cond`` are one column."""
    return name.removeprefix("obs:")


def _obs_column(path, obs, name, flag):
    column = _obs_name(name)
    if column not in obs.columns:
        raise DataFileError(f"{flag} {name}: {path.name} has no obs column '{column}'"
                            f"{did_you_mean(column, obs.columns) or '.'} obs columns: "
                            f"{listing(obs.columns, 12) or 'none'}")
    return obs[column].astype(object).reset_index(drop=True).rename(column)


def _matrix(path, adata, layer):
    if layer is None:
        X = adata.X
        if X is None:
            raise DataFileError(f"{path.name} has no X matrix; name a layer with --layer "
                                f"({listing(adata.layers.keys()) or 'it has none'})")
    elif layer not in adata.layers:
        hint = did_you_mean(layer, adata.layers.keys())
        raise DataFileError(f"--layer {layer}: {path.name} has no such layer{hint or ';'} layers: "
                            f"{listing(adata.layers.keys()) or 'none'}")
    else:
        X = adata.layers[layer]
    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=_float_type(X.dtype))  # no copy of CSR float data
    X = np.asarray(X)
    if X.dtype.kind not in "biuf":
        raise DataFileError(f"{path.name}: the matrix must be numeric; got dtype {X.dtype}")
    return np.ascontiguousarray(X, dtype=_float_type(X.dtype))


def _float_type(dtype):
    """float32 stays float32 (half the memory of float64); anything else is read as float64."""
    return np.float32 if dtype == np.float32 else np.float64


def read_h5ad(path, target, groups=None, *, layer=None, classes=None):
    """An AnnData file as :class:`~sfmlearn.io.labelled.LabelledData` (see the module docstring)."""
    path = existing_file(path, "an AnnData .h5ad file")
    refuse_groups_as_target(target, groups, column=_obs_name)
    adata = _read(path)
    if not adata.n_obs or not adata.n_vars:
        raise DataFileError(f"{path.name} holds {adata.n_obs} cells (obs) x {adata.n_vars} genes (var); "
                            "it needs both")
    y = _obs_column(path, adata.obs, target, "--target")
    group_ids = None if groups is None else _obs_column(path, adata.obs, groups, "--groups")
    refuse_duplicates(path.name, adata.obs_names, what="obs (sample)",
                      reason="each cell needs its own name: adata.obs_names_make_unique() makes them unique")
    refuse_duplicates(path.name, adata.var_names, what="var (feature)",
                      reason="each gene needs its own name: adata.var_names_make_unique() makes them unique")
    X = _matrix(path, adata, layer)
    var = adata.var
    annotations = None
    if var.shape[1]:
        annotations = pd.DataFrame({c: var[c].astype(object).where(var[c].notna(), "") for c in var.columns})
    return labelled_data(path.name, X, y, np.asarray(adata.var_names, dtype=str),
                         sample_ids=np.asarray(adata.obs_names, dtype=str), groups=group_ids,
                         group_name=groups, feature_annotations=annotations, classes=classes)
