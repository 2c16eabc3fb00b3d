"""Count-data conventions: what a marker panel reads from X.

Single-cell RNA data arrive as raw UMI counts (cells x genes). ``normalize="log1p"``
applies the usual library-size normalisation followed by log1p (scanpy's
``normalize_total`` + ``log1p``; Luecken & Theis, *Mol. Syst. Biol.* 15:e8746, 2019):

    z_ig = log(1 + target_sum * x_ig / sum_g' x_ig')

so every cell counts as if it had ``target_sum`` molecules, and a gene's value no longer
depends on how deeply its cell was sequenced. Only non-negative integers are counts; any
other value under ``"log1p"`` is refused with a message. ``normalize="none"`` uses the
data as given (already normalised or log-transformed values, protein levels, ...).
"""

import numpy as np
import scipy.sparse as sp

from ..exceptions import DataValidationError

__all__ = ["NORMALIZATIONS", "NormalizedCounts", "check_counts", "normalize_columns", "normalize_counts"]

#: The accepted values of ``normalize``.
NORMALIZATIONS = ("log1p", "none")

#: Values checked at a time.
_VALUES = 10_000_000

#: Cells normalised at a time: the temporaries stay small next to the sparse copy.
_ROWS = 10_000


def _values(X):
    return X.data if sp.issparse(X) else np.asarray(X)


def check_counts(X):
    """Refuse NaN, infinite, negative or non-integer values in data declared to be counts.

    Missing and infinite values are named first: they are not counts of any kind, and
    their fix (drop or fill them) differs from that of normalised values.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_cells, n_genes)

    Raises
    ------
    sfmlearn.exceptions.DataValidationError
        With the number of NaN and infinite values, or of negative and non-integer
        values, and the fix.

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.panels import check_counts
    >>> check_counts(np.array([[0, 3], [1, 2]]))   # counts: no error
    >>> check_counts(np.array([[0.5, 3.0]]))
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: normalize='log1p' expects raw counts, ...
    >>> check_counts(np.array([[np.nan, 3.0]]))
    Traceback (most recent call last):
    ...
    sfmlearn.exceptions.DataValidationError: X holds 1 NaN (missing) and 0 infinite values, ...
    """
    values = _values(X).ravel()
    n_nan = n_inf = n_negative = n_fraction = 0
    for start in range(0, values.size, _VALUES):  # no temporary as large as X
        chunk = values[start:start + _VALUES]
        n_nan += int(np.isnan(chunk).sum())
        n_inf += int(np.isinf(chunk).sum())
        n_negative += int((chunk < 0).sum())
        n_fraction += int((chunk != np.round(chunk)).sum())
    if n_nan or n_inf:
        raise DataValidationError(
            f"X holds {n_nan} NaN (missing) and {n_inf} infinite values, which are not counts: drop "
            "the cells or genes that hold them, or fill them in, before choosing a panel.")
    if n_negative or n_fraction:
        raise DataValidationError(
            f"normalize='log1p' expects raw counts, but X holds {n_negative} negative and "
            f"{n_fraction} non-integer values. Pass the raw counts (e.g. adata.raw.X or "
            "adata.layers['counts']), or normalize='none' for data already normalised.")


def normalize_counts(X, normalize="log1p", *, target_sum=1e4):
    """Cells x genes values a panel is chosen on: log1p of library-size scaled counts.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_cells, n_genes)
    normalize : {"log1p", "none"}, default="log1p"
        "log1p": z_ig = log(1 + target_sum x_ig / sum_g x_ig) (cells without any count
        stay zero); "none": X unchanged.
    target_sum : float, default=1e4
        The library size every cell is scaled to.

    Returns
    -------
    Z : same kind as X (sparse stays sparse, CSR), float32 or float64 as X

    Examples
    --------
    >>> import numpy as np
    >>> from sfmlearn.panels import normalize_counts
    >>> normalize_counts(np.array([[1.0, 3.0], [0.0, 2.0]]), target_sum=4).round(3)
    array([[0.693, 1.386],
           [0.   , 1.609]])
    """
    if normalize == "none":
        return X
    if normalize not in NORMALIZATIONS:
        raise ValueError(f"normalize must be one of {NORMALIZATIONS}; got {normalize!r}.")
    scale = _library_scale(X, target_sum)
    if not sp.issparse(X):
        return log_scaled(np.asarray(X), scale)
    Z = sp.csr_matrix(X, copy=True)
    for start in range(0, Z.shape[0], _ROWS):  # in place, a block of cells at a time
        stop = min(start + _ROWS, Z.shape[0])
        _scale_and_log(Z.data[Z.indptr[start]:Z.indptr[stop]], np.diff(Z.indptr[start:stop + 1]), scale[start:stop])
    return Z


def log_scaled(values, scale):
    """z_ig = log(1 + s_i x_ig) of a cells x genes block with the cells' library scales s_i
    (:func:`normalize_counts`): a new array for dense values (their float dtype kept), in
    place on the stored values of a CSR matrix (returned)."""
    if sp.issparse(values):
        _scale_and_log(values.data, np.diff(values.indptr), scale)
        return values
    return np.log1p(values * scale[:, None].astype(values.dtype))


def _scale_and_log(data, row_lengths, scale):
    """In place on the stored values of CSR rows (``row_lengths`` values each): x -> log(1 + s_i x)."""
    data *= np.repeat(scale, row_lengths).astype(data.dtype)
    np.log1p(data, out=data)


class NormalizedCounts:
    """The log1p-normalised values of raw counts X, computed for the cells read.

    A panel's fit reads blocks of cells, subsets of cells and then a few columns, never
    all of z at once; ``Z[rows]`` normalises just those rows (float64, CSR for sparse
    X), so no normalised copy as large as X is held, and float32 counts give exactly
    the values of float64 ones (counts are integers, exact in both).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_cells, n_genes), raw counts (checked)
    target_sum : float
    """

    def __init__(self, X, target_sum):
        self.counts = sp.csr_matrix(X) if sp.issparse(X) else np.asarray(X)
        self.scale = _library_scale(X, target_sum)
        self.shape = X.shape

    def __getitem__(self, rows):
        """The normalised rows (a slice or an index array) of z."""
        block = self.counts[rows]
        block = sp.csr_matrix(block, dtype=float, copy=True) if sp.issparse(block) else np.asarray(block, dtype=float)
        return log_scaled(block, self.scale[rows])

    def columns(self, columns):
        """Dense normalised values of the genes ``columns`` for every cell (a panel's genes)."""
        return log_scaled(_dense_columns(self.counts, columns), self.scale)


def _library_scale(X, target_sum):
    """target_sum / (the cell's total count), 0 for cells without counts (checked counts)."""
    check_counts(X)
    totals = np.asarray(X.sum(axis=1), dtype=float).ravel()
    return np.divide(target_sum, totals, out=np.zeros_like(totals), where=totals > 0)


def normalize_columns(X, columns, normalize="log1p", *, target_sum=1e4):
    """Dense normalised values of some genes, with every cell's library size from all of X.

    The same values as ``normalize_counts(X)[:, columns]`` without normalising (and
    copying) the other genes: what predicting from a panel needs.
    """
    block = _dense_columns(X, columns)  # only these columns: a CSC X is not converted whole
    return block if normalize == "none" else log_scaled(block, _library_scale(X, target_sum))


def _dense_columns(X, columns):
    """``X[:, columns]`` as a dense float64 array."""
    block = X[:, columns]
    return np.asarray(block.toarray() if sp.issparse(block) else block, dtype=float)
