"""What the user sees, thin over the library: the report of one tournament (``report.py``: build
it, write its files), the settings people give (``settings.py``) and the errors shown as bad
input (``errors.py``).

Library use::

    import importer, reports
    reports.write_report(importer.load("fixtures/sample_open.trf"), "report")

Every name below is imported on first use (PEP 562): ``fiderate --help`` loads none of
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from reports.errors import ReportError
    from reports.period.pages import render_period_files, write_period_files
    from reports.render.view import Report
    from reports.report import build_report, render_report, save_report, write_report

__all__ = [
    "Report",
    "ReportError",
    "build_report",
    "render_period_files",
    "render_report",
    "save_report",
    "write_period_files",
    "write_report",
]

_FROM = {
    "reports.errors": ("ReportError",),
    "reports.period.pages": ("render_period_files", "write_period_files"),
    "reports.report": ("build_report", "render_report", "save_report", "write_report"),
    "reports.render.view": ("Report",),
}
__getattr__, __dir__ = lazy_exports(__name__, _FROM)
