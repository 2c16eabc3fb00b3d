"""Which genes a panel may hold: names, ``include``, ``exclude`` and unexpressed genes."""

import warnings

import numpy as np
import scipy.sparse as sp

from ..exceptions import DataValidationError

__all__ = ["gene_names_of", "gene_sets"]

#: Stored entries scanned at a time.
_CHUNK = 10_000_000


def gene_names_of(gene_names, feature_names, n_genes):
    """The genes' names: ``gene_names``, else a DataFrame's columns, else "0", "1", ..."""
    if gene_names is not None:
        names = np.asarray(gene_names).astype(str)
        if names.shape != (n_genes,):
            raise DataValidationError(f"gene_names has {names.size} entries for {n_genes} "
                                      "genes; give one name per column of X.")
        return names
    if feature_names is not None:
        return np.asarray(feature_names).astype(str)
    return np.arange(n_genes).astype(str)


def _resolve(genes, names, what):
    """Column indices of ``genes`` given as indices or as names."""
    genes = np.atleast_1d(np.asarray(genes))
    if genes.size == 0:
        return np.zeros(0, dtype=int)
    if genes.dtype.kind in "iu":
        bad = genes[(genes < 0) | (genes >= names.size)]
        if bad.size:
            raise DataValidationError(f"{what} holds column indices {bad[:5].tolist()} outside "
                                      f"0..{names.size - 1}.")
        return genes.astype(int)
    lookup = {name: j for j, name in enumerate(names)}
    unknown = [g for g in genes.astype(str) if g not in lookup]
    if unknown:
        raise DataValidationError(
            f"{what} names genes {unknown[:5]} that X does not have; pass column indices, a "
            "DataFrame with gene columns, or gene_names=adata.var_names.")
    return np.array([lookup[g] for g in genes.astype(str)], dtype=int)


def _varies(Z):
    """Mask of the genes that are not constant: for sparse Z, those with a stored
    (non-zero) value, counted without a copy of Z."""
    if sp.issparse(Z):
        Z = Z.tocsr() if Z.format not in ("csr", "csc") else Z
        if Z.format == "csc":
            return np.diff(Z.indptr) > 0
        stored = np.zeros(Z.shape[1], dtype=bool)
        for start in range(0, Z.indices.size, _CHUNK):  # bincount would copy to int64
            stored[Z.indices[start:start + _CHUNK]] = True
        return stored
    return Z.max(axis=0) > Z.min(axis=0)


def gene_sets(Z, names, include, exclude, n_markers):
    """(included columns, mask of the genes the method may choose).

    Constant genes (in sparse data: never expressed) cannot be markers: a :class:`UserWarning` says
    how many are left out. A budget the genes cannot fill, or smaller than ``include``,
    is an error.
    """
    include = _resolve(include, names, "include")
    exclude = _resolve(exclude, names, "exclude")
    clash = np.intersect1d(include, exclude)
    if clash.size:
        raise DataValidationError(f"genes {names[clash][:5].tolist()} are in both include and "
                                  "exclude; remove them from one.")
    expressed = _varies(Z)
    if not expressed.all():
        warnings.warn(
            f"{int((~expressed).sum())} genes are constant (e.g. never expressed) in the "
            "training cells and cannot be markers; they are left out.", UserWarning,
            stacklevel=3)
    allowed = expressed.copy()
    allowed[exclude] = False
    allowed[include] = False
    n_available = int(allowed.sum()) + include.size
    if n_markers > n_available:
        raise DataValidationError(
            f"n_markers={n_markers} exceeds the {n_available} genes that can be on the panel "
            f"(of n_features={Z.shape[1]}: expressed, not excluded); lower n_markers.")
    if include.size > n_markers:
        raise DataValidationError(f"include holds {include.size} genes but n_markers="
                                  f"{n_markers}; raise n_markers or include fewer.")
    return include, allowed
