"""Users' data files in: one loader the CLI and the API share.

* :func:`read_labelled` reads any supported file into :class:`LabelledData` (X, y,
  groups, feature names, feature annotations, sample ids): samples-in-rows tables
  (CSV/TSV/Parquet, :mod:`.tables`), NPZ, expression matrices with a sample sheet
  matched by id (:mod:`.matrix`, :mod:`.samples`), GEO series matrices (:mod:`.geo`,
  pandas only) and AnnData ``.h5ad`` (:mod:`.h5ad`, optional ``anndata``). Bad input
  raises :class:`DataFileError` (a ``ValueError``) with a one-line message.
* Labels, group ids and sample ids are names: every reader turns them into text, as
  written in the file, through :func:`.labels.as_names` (which also says which cells
  mean a missing label, :data:`.labels.MISSING_TEXT`).

Writing results lives in :mod:`sfmlearn.outputs`.
"""

from .labelled import DataFileError, LabelledData
from .load import read_labelled
from .tables import read_table

__all__ = ["DataFileError", "LabelledData", "read_labelled", "read_table"]
