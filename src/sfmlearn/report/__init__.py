"""Results of sfmlearn analyses for people: self-contained HTML reports and result folders.

* :class:`Report` / :class:`Section` (:mod:`.html`): build a report from text, facts,
  tables and matplotlib figures; ``Report.write(path)``.
* :func:`select_report`, :func:`repeat_report` (:mod:`.analyses`): the reports behind
  ``sfmlearn select --report`` and ``sfmlearn repeat --report``.
* :func:`path_report` (:mod:`.softness`): the report behind ``sfmlearn path --report``;
* :func:`panel_report` (:mod:`.panel`): the report behind ``sfmlearn panel --report``
  (panel table, held-out accuracy, dot plot);
* :func:`compare_report` (:mod:`.compare`): the report behind ``sfmlearn compare --report``;
* :func:`report_from_result_dir` (:mod:`.result_dir`): one call turns a folder with a
  ``summary.json`` (and the PNG/CSV files it lists) into ``report.html``; also behind
  ``sfmlearn report RESULT_DIR``;
* :func:`write_fmri_results` / :func:`save_fmri_results` (:mod:`.fmri_results`): render
  the result of the fMRI workflow as a result folder (maps, figures, tables,
  summary.json) behind ``sfmlearn fmri --out``; :func:`load_fmri_results` reads one back
  (:func:`sfmlearn.outputs.result_folder.load_result_folder`, where the folder's format
  is written and read).

Every function here renders a result an analysis computed (:mod:`sfmlearn.analysis`):
it draws, tabulates and writes, and computes nothing of its own.
"""

from .analyses import repeat_report, select_report
from .compare import compare_report
from ..outputs.result_folder import FolderContents as FMRIResults
from ..outputs.result_folder import load_result_folder as load_fmri_results
from .fmri_results import save_fmri_results, write_fmri_results
from .html import Report, Section
from .panel import panel_report
from .result_dir import report_from_result_dir, result_dir_report
from .softness import path_report, write_path_figure

__all__ = ["FMRIResults", "Report", "Section", "compare_report", "load_fmri_results", "panel_report", "path_report",
           "repeat_report",
           "report_from_result_dir", "result_dir_report", "save_fmri_results", "select_report", "write_fmri_results",
           "write_path_figure"]
