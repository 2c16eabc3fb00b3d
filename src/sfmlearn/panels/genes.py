"""Which genes a panel may hold: names, ``include``, ``exclude`` and constant genes.

Genes are named by ``gene_names``, else by a DataFrame's column labels (as text, whatever
their type), else "0", "1", ... ``include``/``exclude`` entries are column indices or
names; when the names are not text (a DataFrame with integer column labels such as
Entrez ids, or integer ``gene_names``) every entry is read as a name, never as a
position, as pandas reads ``df[[3]]``. ``gene_names`` must be ordered (a set is refused).
A gene is constant when its range on the values the panel ranks (normalised counts under
"log1p") is within rounding of its magnitude, the SFM's own test.
"""

import numbers
import warnings
from collections.abc import MappingView, Set
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..exceptions import DataValidationError
from ..preprocessing import CONSTANT_ULPS
from .counts import NormalizedCounts

__all__ = ["GeneNames", "column_labels", "gene_names_of", "gene_sets"]

#: Stored entries scanned at a time.
_CHUNK = 10_000_000


def column_labels(X):
    """A DataFrame's column labels (of any type, tuples of a MultiIndex too) as a 1-D object
    array; None for other X."""
    columns = getattr(X, "columns", None)
    if columns is None or sp.issparse(X) or isinstance(X, np.ndarray):
        return None
    labels = np.empty(len(columns), dtype=object)
    labels[:] = list(columns)
    return labels


def _shown(values):
    """Plain Python values for a message (no ``np.str_('x')`` reprs)."""
    return [v.item() if isinstance(v, np.generic) else v for v in values]


@dataclass(frozen=True)
class GeneNames:
    """The genes' names and where they come from.

    ``text``: every gene's name as text; ``keys``: the labels ``include``/``exclude``
    are looked up in when they are not all text (else None: integers are column
    indices); ``source``: "gene_names", "X's column labels" or None (names are the
    column indices), for messages.
    """

    text: np.ndarray
    keys: np.ndarray | None = None
    source: str | None = None


def gene_names_of(gene_names, labels, n_genes):
    """The :class:`GeneNames` of the genes: ``gene_names``, else a DataFrame's column
    ``labels``, else the column indices. An unordered collection (a set, a dict view),
    a shape other than one name per column and repeated names are refused."""
    if gene_names is None and labels is None:
        return GeneNames(np.arange(n_genes).astype(str))
    source = "gene_names" if gene_names is not None else "X's column labels"
    raw = gene_names if gene_names is not None else labels
    if isinstance(raw, (Set, MappingView)):
        raise DataValidationError(
            f"gene_names is a {type(raw).__name__}, which has no order, so its names cannot be matched to "
            "the columns of X; pass an ordered list or array of one name per column (e.g. adata.var_names).")
    keys = np.asarray(list(raw), dtype=object) if not isinstance(raw, np.ndarray) else raw.astype(object)
    if keys.ndim != 1:
        raise DataValidationError(f"{source} has shape {keys.shape}; give a 1-D list of {n_genes} names, "
                                  "one per column of X (e.g. np.ravel(gene_names) for a single row).")
    if keys.size != n_genes:
        raise DataValidationError(f"{source} has {keys.size} names for {n_genes} genes; give one name per "
                                  "column of X.")
    names = np.array([str(key) for key in keys], dtype=str)
    counts = pd.Series(names).value_counts()
    repeated = counts.index[counts > 1].tolist()
    if repeated:
        raise DataValidationError(
            f"{source} holds repeated names {repeated[:5]}: every gene needs its own name; make "
            "them unique (AnnData: adata.var_names_make_unique()).")
    text = all(isinstance(key, str) for key in keys)
    return GeneNames(names, None if text else keys, source)


def _position(entry):
    """The column index of an integer entry (bool is not an index), else None."""
    if isinstance(entry, numbers.Integral) and not isinstance(entry, (bool, np.bool_)):
        return int(entry)
    return None


def _resolve(genes, names, what):
    """Column indices of ``genes`` (indices or names; only names when ``names.keys`` is given), each once."""
    if isinstance(genes, (set, frozenset)):  # no order of its own: sorted (as text if mixed)
        try:
            genes = sorted(genes)
        except TypeError:
            genes = sorted(genes, key=str)
    entries = [genes] if isinstance(genes, str) else list(np.asarray(genes, dtype=object).ravel())
    by_name = {name: j for j, name in enumerate(names.text)}
    by_key = {} if names.keys is None else {key: j for j, key in enumerate(names.keys)}
    found, unknown, outside = [], [], []
    for entry in entries:
        position = None if names.keys is not None else _position(entry)
        if position is not None:
            (found if 0 <= position < names.text.size else outside).append(position)
            continue
        try:
            j = by_key.get(entry, by_name.get(str(entry)))
        except TypeError:  # unhashable entry
            j = by_name.get(str(entry))
        (found if j is not None else unknown).append(j if j is not None else entry)
    if outside:
        raise DataValidationError(f"{what} holds column indices {outside[:5]} outside "
                                  f"0..{names.text.size - 1}.")
    if unknown:
        by = "name" if names.source == "gene_names" else "label"
        hint = (f"{names.source} are not text, so include and exclude name genes by {by}, not by "
                "position" if names.keys is not None else
                "pass column indices, a DataFrame with gene columns, or gene_names=adata.var_names")
        raise DataValidationError(f"{what} names genes {_shown(unknown[:5])} that X does not have; {hint}.")
    found = np.array(found, dtype=int)
    _, first = np.unique(found, return_index=True)
    if first.size < found.size:
        repeated = np.unique(np.delete(found, first))
        warnings.warn(f"{what} names the gene(s) {names.text[repeated][:5].tolist()} more than once; "
                      "each is used once.", UserWarning, stacklevel=5)
    return found[np.sort(first)]


def _column_range(Z):
    """(min, max) of every column, implicit zeros of sparse Z counted, without a copy of Z."""
    if isinstance(Z, NormalizedCounts):
        return _normalized_range(Z)
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


def _normalized_range(Z):
    """(min, max) of every column of normalised counts, normalising a block of cells at a time
    (blocks of at most ``_CHUNK`` values when dense)."""
    low, high = np.full(Z.shape[1], np.inf), np.full(Z.shape[1], -np.inf)
    step = max(1, _CHUNK // max(Z.shape[1], 1))
    for start in range(0, Z.shape[0], step):
        block_low, block_high = _column_range(Z[start:start + step])
        np.minimum(low, np.asarray(block_low).ravel(), out=low)
        np.maximum(high, np.asarray(block_high).ravel(), out=high)
    return low, high


def _varies(Z):
    """Mask of the genes that are not constant up to rounding (dense, sparse and normalised Z
    alike): their range exceeds ``CONSTANT_ULPS`` units in the last place of their largest
    magnitude. It is the tolerance of :func:`sfmlearn.preprocessing.constant_features`,
    applied to the range, which is read a block of cells at a time, instead of the
    standard deviation; it does not depend on the data's scale. (The SFM's ranking applies
    :func:`~sfmlearn.preprocessing.constant_features` itself.)"""
    low, high = (np.asarray(bound, dtype=float).ravel() for bound in _column_range(Z))
    dtype = Z.dtype if getattr(Z, "dtype", None) is not None and Z.dtype.kind == "f" else np.float64
    rtol = CONSTANT_ULPS * np.finfo(dtype).eps
    return high - low > rtol * np.maximum(np.abs(low), np.abs(high))


def gene_sets(Z, names, include, exclude, n_markers):
    """(included columns, mask of the genes the method may choose).

    ``Z`` holds the values the panel ranks (:class:`~.counts.NormalizedCounts` under
    "log1p"), ``names`` the :class:`GeneNames`. Constant genes (e.g. never expressed)
    cannot be markers: a :class:`UserWarning` says how many are left out, and another
    names the included ones, which stay on the panel. A gene given twice in ``include``
    or ``exclude`` is used once (a :class:`UserWarning`). A budget the genes cannot fill,
    or smaller than ``include``, is an error.
    """
    include = _resolve(include, names, "include")
    exclude = _resolve(exclude, names, "exclude")
    clash = np.intersect1d(include, exclude)
    if clash.size:
        raise DataValidationError(f"genes {names.text[clash][:5].tolist()} are in both include and "
                                  "exclude; remove them from one.")
    varies = _varies(Z)
    normalised = " after library-size normalisation" if isinstance(Z, NormalizedCounts) else ""
    constant = np.flatnonzero(~varies)
    kept = np.intersect1d(constant, include)
    if constant.size > kept.size:
        warnings.warn(
            f"{constant.size - kept.size} genes are constant (e.g. never expressed) in the "
            f"training cells{normalised} and cannot be markers; they are left out.", UserWarning,
            stacklevel=4)
    if kept.size:
        warnings.warn(
            f"the included gene(s) {names.text[kept][:5].tolist()} are constant in the training "
            f"cells{normalised}: they stay on the panel, as include asks, but tell no cell type apart.",
            UserWarning, stacklevel=4)
    allowed = varies.copy()
    allowed[exclude] = False
    allowed[include] = False
    _check_budget(n_markers, int(allowed.sum()) + include.size, include.size, Z.shape[1], normalised)
    return include, allowed


def _check_budget(n_markers, n_available, n_included, n_genes, normalised):
    """Refuse a budget the usable genes cannot fill, or smaller than ``include``; when no
    gene is usable, the fix says why."""
    if n_markers > n_available:
        fix = "lower n_markers." if n_available else (
            "every gene is excluded or constant. With normalize='log1p' every cell's counts are scaled to "
            "the same total, so a gene that holds all of a cell's counts is constant: pass all the genes "
            "measured (or exclude fewer), or normalize='none' for values that are not counts." if normalised
            else "every gene is excluded or constant: exclude fewer genes, or pass genes whose values differ "
            "between the cells.")
        raise DataValidationError(
            f"n_markers={n_markers} exceeds the {n_available} genes that can be on the panel "
            f"(of n_features={n_genes}: not constant{normalised}, not excluded); {fix}")
    if n_included > n_markers:
        raise DataValidationError(f"include holds {n_included} genes but n_markers="
                                  f"{n_markers}; raise n_markers or include fewer.")
