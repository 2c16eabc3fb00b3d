"""Self-contained HTML reports (one file, figures embedded) of sfmlearn analyses.

* :class:`Report` / :class:`Section` (:mod:`.html`): build a report from text, facts,
  tables and matplotlib figures; ``Report.write(path)``.
* :func:`select_report`, :func:`repeat_report` (:mod:`.analyses`): the reports behind
  ``sfmlearn select --report`` and ``sfmlearn repeat --report``.
* :func:`report_from_result_dir` (:mod:`.result_dir`): one call turns a folder with a
  ``summary.json`` (and the PNG/CSV files it lists) into ``report.html``; also behind
  ``sfmlearn report RESULT_DIR``.
"""

from .analyses import repeat_report, select_report
from .html import Report, Section
from .result_dir import report_from_result_dir, result_dir_report

__all__ = ["Report", "Section", "select_report", "repeat_report", "report_from_result_dir",
           "result_dir_report"]
