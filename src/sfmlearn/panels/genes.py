"""Which genes a panel may hold: names, ``include``, ``exclude`` and constant genes.

Genes are named by ``gene_names``, else by a DataFrame's column labels (as text, whatever
their type), else "0", "1", ... ``include``/``exclude`` entries are column indices or
names; when the names are not text (a DataFrame with integer column labels such as
Entrez ids, or integer ``gene_names``) every entry is read as a name, never as a
position, as pandas reads ``df[[3]]``.
"""

import numbers
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..exceptions import DataValidationError

__all__ = ["column_labels", "gene_names_of", "gene_sets"]

#: Stored entries scanned at a time.
_CHUNK = 10_000_000


def column_labels(X):
    """A DataFrame's column labels (of any type) as an object array; None for other X."""
    columns = getattr(X, "columns", None)
    if columns is None or sp.issparse(X) or isinstance(X, np.ndarray):
        return None
    return np.asarray(list(columns), dtype=object)


def _shown(values):
    """Plain Python values for a message (no ``np.str_('x')`` reprs)."""
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def gene_names_of(gene_names, labels, n_genes):
    """(names, keys): the genes' names as text, and the labels ``include`` is looked up in
    when they are not all text (else None: integers are column indices)."""
    source = "gene_names" if gene_names is not None else "X's column labels"
    raw = gene_names if gene_names is not None else labels
    if raw is None:
        return np.arange(n_genes).astype(str), None
    keys = np.asarray(list(raw), dtype=object) if not isinstance(raw, np.ndarray) else raw.astype(object)
    names = np.array([str(key) for key in keys.ravel()], dtype=str)
    if keys.shape != (n_genes,):
        raise DataValidationError(f"gene_names has {names.size} entries for {n_genes} "
                                  "genes; give one name per column of X.")
    counts = pd.Series(names).value_counts()
    repeated = counts.index[counts > 1].tolist()
    if repeated:
        raise DataValidationError(
            f"{source} holds repeated names {repeated[:5]}: every gene needs its own name; make "
            "them unique (AnnData: adata.var_names_make_unique()).")
    text = all(isinstance(key, str) for key in keys)
    return names, None if text else keys


def _position(entry):
    """The column index of an integer entry (bool is not an index), else None."""
    if isinstance(entry, numbers.Integral) and not isinstance(entry, (bool, np.bool_)):
        return int(entry)
    return None


def _resolve(genes, names, keys, what):
    """Column indices of ``genes`` (indices or names; only names when ``keys`` is given), each once."""
    if isinstance(genes, (set, frozenset)):  # no order of its own: sorted (as text if mixed)
        try:
            genes = sorted(genes)
        except TypeError:
            genes = sorted(genes, key=str)
    entries = [genes] if isinstance(genes, str) else list(np.asarray(genes, dtype=object).ravel())
    by_name = {name: j for j, name in enumerate(names)}
    by_key = {} if keys is None else {key: j for j, key in enumerate(keys)}
    found, unknown, outside = [], [], []
    for entry in entries:
        position = None if keys is not None else _position(entry)
        if position is not None:
            (found if 0 <= position < names.size else outside).append(position)
            continue
        try:
            j = by_key.get(entry, by_name.get(str(entry)))
        except TypeError:  # unhashable entry
            j = by_name.get(str(entry))
        (found if j is not None else unknown).append(j if j is not None else entry)
    if outside:
        raise DataValidationError(f"{what} holds column indices {outside[:5]} outside "
                                  f"0..{names.size - 1}.")
    if unknown:
        hint = ("X's column labels are not text, so include and exclude name columns by label, "
                "not by position" if keys is not None else
                "pass column indices, a DataFrame with gene columns, or gene_names=adata.var_names")
        raise DataValidationError(f"{what} names genes {_shown(unknown[:5])} that X does not have; {hint}.")
    found = np.array(found, dtype=int)
    _, first = np.unique(found, return_index=True)
    if first.size < found.size:
        repeated = np.unique(np.delete(found, first))
        warnings.warn(f"{what} names the gene(s) {names[repeated][:5].tolist()} more than once; "
                      "each is used once.", UserWarning, stacklevel=4)
    return found[np.sort(first)]


def _column_range(Z):
    """(min, max) of every column, implicit zeros of sparse Z counted, without a copy of Z."""
    if not sp.issparse(Z):
        return Z.min(axis=0), Z.max(axis=0)
    if Z.format == "csc":  # its transpose is CSR: one row per gene (scipy counts the implicit zeros)
        return (np.asarray(Z.T.min(axis=1).todense()).ravel(),
                np.asarray(Z.T.max(axis=1).todense()).ravel())
    Z = Z if Z.format == "csr" else Z.tocsr()
    low, high = np.full(Z.shape[1], np.inf), np.full(Z.shape[1], -np.inf)
    stored = np.zeros(Z.shape[1], dtype=np.int64)
    for start in range(0, Z.indices.size, _CHUNK):  # bincount would copy all of indices to int64
        columns, values = Z.indices[start:start + _CHUNK], Z.data[start:start + _CHUNK]
        np.minimum.at(low, columns, values)
        np.maximum.at(high, columns, values)
        stored += np.bincount(columns, minlength=Z.shape[1])
    has_zero = stored < Z.shape[0]
    return np.where(has_zero, np.minimum(low, 0), low), np.where(has_zero, np.maximum(high, 0), high)


def _varies(Z):
    """Mask of the genes that are not constant (dense and sparse Z alike)."""
    low, high = _column_range(Z)
    return np.asarray(high > low).ravel()


def gene_sets(Z, names, include, exclude, n_markers, keys=None):
    """(included columns, mask of the genes the method may choose).

    Constant genes (e.g. never expressed) cannot be markers: a :class:`UserWarning` says
    how many are left out, and another names the included ones, which stay on the
    panel. A gene given twice in ``include`` or ``exclude`` is used once (a
    :class:`UserWarning`). A budget the genes cannot fill, or smaller than
    ``include``, is an error.
    """
    include = _resolve(include, names, keys, "include")
    exclude = _resolve(exclude, names, keys, "exclude")
    clash = np.intersect1d(include, exclude)
    if clash.size:
        raise DataValidationError(f"genes {names[clash][:5].tolist()} are in both include and "
                                  "exclude; remove them from one.")
    varies = _varies(Z)
    constant = np.flatnonzero(~varies)
    kept = np.intersect1d(constant, include)
    if constant.size > kept.size:
        warnings.warn(
            f"{constant.size - kept.size} genes are constant (e.g. never expressed) in the "
            "training cells and cannot be markers; they are left out.", UserWarning,
            stacklevel=3)
    if kept.size:
        warnings.warn(
            f"the included gene(s) {names[kept][:5].tolist()} are constant in the training cells: "
            "they stay on the panel, as include asks, but tell no cell type apart.", UserWarning,
            stacklevel=3)
    allowed = varies.copy()
    allowed[exclude] = False
    allowed[include] = False
    n_available = int(allowed.sum()) + include.size
    if n_markers > n_available:
        raise DataValidationError(
            f"n_markers={n_markers} exceeds the {n_available} genes that can be on the panel "
            f"(of n_features={Z.shape[1]}: not constant, not excluded); lower n_markers.")
    if include.size > n_markers:
        raise DataValidationError(f"include holds {include.size} genes but n_markers="
                                  f"{n_markers}; raise n_markers or include fewer.")
    return include, allowed
