"""Files out of sfmlearn: output safety, result folders and standard-output plumbing.

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
  buffers, for code that moves file descriptor 1, and ``stdout_to_devnull`` silences a
  noisy C call (the LP engines' banners).

Importing this package loads the standard library only (pandas, matplotlib and nibabel
are imported by the writers that need them), so the LP core can use :mod:`.streams`.
"""

from .atomic import (OutputPathError, atomic_path, check_output_dir, check_output_file, create_output_dir,
                     save_figure, save_nifti, to_jsonable, write_bytes, write_csv, write_json, write_text)
from .result_folder import ResultFolder, read_summary
from .streams import flush_stdout

__all__ = ["OutputPathError", "ResultFolder", "atomic_path", "check_output_dir", "check_output_file",
           "create_output_dir", "flush_stdout", "read_summary", "save_figure", "save_nifti",
           "to_jsonable", "write_bytes", "write_csv", "write_json", "write_text"]
