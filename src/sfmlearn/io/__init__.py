"""Files in and out of sfmlearn.

Reading users' data (one loader the CLI and the API share):

* :func:`read_labelled` reads any supported file into :class:`LabelledData` (X, y,
  groups, feature names, feature annotations, sample ids): samples-in-rows tables
  (CSV/TSV/Parquet, :mod:`.tables`), NPZ, expression matrices with a sample sheet
  matched by id (:mod:`.matrix`, :mod:`.samples`), GEO series matrices (:mod:`.geo`,
  pandas only) and AnnData ``.h5ad`` (:mod:`.h5ad`, optional ``anndata``). Bad input
  raises :class:`DataFileError` (a ``ValueError``) with a one-line message.

Writing results:

* :mod:`.atomic`: every output file (HTML, PNG, NIfTI, CSV, JSON) is written to a
  temporary file in the target's folder and moved into place with ``os.replace``, so a
  failed or interrupted write never destroys the previous file or leaves a truncated
  one; plus the checks an output path must pass before any long computation (not an
  input, not a symbolic link, folder exists and is writable); :func:`to_jsonable` turns
  NumPy values into JSON ones.
* :mod:`.result_folder`: :class:`ResultFolder` writes and reads a folder of maps,
  figures and tables described by its ``summary.json`` (the output of ``sfmlearn fmri``,
  the input of ``sfmlearn report``);
* :mod:`.streams`: :func:`flush_stdout` empties Python's and C's standard-output
  buffers, for code that moves file descriptor 1.
"""

from .atomic import (OutputPathError, atomic_path, check_output_dir, check_output_file, create_output_dir,
                     save_figure, save_nifti, to_jsonable, write_bytes, write_csv, write_json, write_text)
from .labelled import DataFileError, LabelledData
from .load import read_labelled
from .result_folder import ResultFolder, read_summary
from .streams import flush_stdout
from .tables import read_table

__all__ = ["DataFileError", "LabelledData", "OutputPathError", "ResultFolder", "atomic_path", "check_output_dir",
           "check_output_file", "create_output_dir", "flush_stdout", "read_labelled", "read_summary",
           "read_table", "save_figure", "save_nifti", "to_jsonable", "write_bytes", "write_csv", "write_json",
           "write_text"]
